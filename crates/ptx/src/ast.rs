//! The typed PTX syntax tree: plain data, printed back as PTX by `print.rs`.

/// A whole PTX module: header directives, module-scope variables and functions.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Module {
    /// The `.version` as written, e.g. `9.5`.
    pub version: String,
    /// The `.target` list, e.g. `["sm_90"]`.
    pub target: Vec<String>,
    /// The `.address_size` (32 or 64).
    pub address_size: u32,
    /// Module-scope `.global`/`.shared`/`.const`/`.local` variables.
    pub globals: Vec<VarDecl>,
    /// Kernels (`.entry`) and device functions (`.func`), in order.
    pub functions: Vec<Function>,
}

/// A state space of a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// `.global`: device memory.
    Global,
    /// `.shared`: per-block memory.
    Shared,
    /// `.local`: per-thread memory.
    Local,
    /// `.const`: constant memory.
    Const,
    /// `.param`: kernel or call parameters.
    Param,
}

impl Space {
    /// The directive spelling, dot included.
    pub fn as_str(self) -> &'static str {
        match self {
            Space::Global => ".global",
            Space::Shared => ".shared",
            Space::Local => ".local",
            Space::Const => ".const",
            Space::Param => ".param",
        }
    }

    pub(crate) fn from_dir(d: &str) -> Option<Space> {
        Some(match d {
            ".global" => Space::Global,
            ".shared" => Space::Shared,
            ".local" => Space::Local,
            ".const" => Space::Const,
            ".param" => Space::Param,
            _ => return None,
        })
    }
}

/// A variable declaration such as `extern .shared .align 16 .b8 smem[];` or a parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    /// Linkage directives before the space, e.g. `[".extern"]`, `[".visible"]`.
    pub linkage: Vec<String>,
    /// The state space.
    pub space: Space,
    /// `.align N`, when given.
    pub align: Option<u32>,
    /// Other attributes as written, e.g. `.ptr`, `.global` of a pointer parameter.
    pub attrs: Vec<String>,
    /// The element type, dot included, e.g. `.b8`.
    pub ty: String,
    /// The variable's name.
    pub name: String,
    /// Array dimensions; `None` is an unsized `[]`.
    pub dims: Vec<Option<u64>>,
    /// Initializer values (`= {1, 2}` or `= 3`), empty when absent.
    pub init: Vec<Immediate>,
}

/// A register declaration `.reg .TYPE name;` or the range `.reg .TYPE name<N>;`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegDecl {
    /// The register type, dot included, e.g. `.pred`, `.b32`.
    pub ty: String,
    /// The name, or the range prefix such as `%r`.
    pub name: String,
    /// `Some(N)` declares `name0 .. name{N-1}`.
    pub count: Option<u32>,
}

/// A kernel (`.entry`) or device function (`.func`).
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Linkage such as `.visible`, `.extern`, `.weak`.
    pub linkage: Vec<String>,
    /// The (mangled) name.
    pub name: String,
    /// `.entry` rather than `.func`.
    pub is_entry: bool,
    /// Return parameters of a `.func`.
    pub returns: Vec<VarDecl>,
    /// Parameters in order.
    pub params: Vec<VarDecl>,
    /// A prototype only (`.extern .func f(...);`), without a body.
    pub is_declaration: bool,
    /// Register declarations at the top of the body.
    pub regs: Vec<RegDecl>,
    /// The body after the register declarations.
    pub body: Vec<Item>,
}

/// One statement of a function body.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A label such as `$L__BB0_2:`.
    Label(String),
    /// An instruction.
    Instr(Instruction),
    /// A register declaration inside a body or nested block.
    Reg(RegDecl),
    /// A variable declaration (`.shared`, `.local`, call `.param`) inside a body.
    Var(VarDecl),
    /// A nested `{ ... }` scope, as NVRTC emits around calls.
    Block(Vec<Item>),
}

/// A guard predicate: `@%p1` or `@!%p1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pred {
    /// `@!p` rather than `@p`.
    pub negated: bool,
    /// The predicate register.
    pub reg: String,
}

/// An instruction: `[@pred] opcode.modifiers.types operands;`.
///
/// Equality ignores `line`, which records provenance rather than meaning.
#[derive(Debug, Clone)]
pub struct Instruction {
    /// Optional guard.
    pub pred: Option<Pred>,
    /// The opcode, e.g. `ld`, `setp`, `shfl`.
    pub opcode: String,
    /// Non-type dotted suffixes in order, without dots: `["global", "nc", "v4"]`.
    pub modifiers: Vec<String>,
    /// Type suffixes in order, without dots: `["f32"]`, `["f32", "s32"]` for `cvt`.
    pub types: Vec<String>,
    /// Operands in order.
    pub operands: Vec<Operand>,
    /// 1-based source line of the opcode.
    pub line: usize,
}

impl PartialEq for Instruction {
    fn eq(&self, o: &Self) -> bool {
        self.pred == o.pred
            && self.opcode == o.opcode
            && self.modifiers == o.modifiers
            && self.types == o.types
            && self.operands == o.operands
    }
}

/// A literal operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Immediate {
    /// An integer (decimal, hex, octal or binary in the source).
    Int(i128),
    /// A single-precision float given as bits (`0f3F800000`).
    F32(u32),
    /// A double-precision float given as bits (`0d...` or a decimal literal).
    F64(u64),
}

/// An instruction operand.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A register, including special ones such as `%tid.x`.
    Reg(String),
    /// A literal.
    Imm(Immediate),
    /// A symbol: a label, variable, parameter or function name.
    Symbol(String),
    /// A negated predicate, `!%p1`.
    Not(String),
    /// A destination pair `a|p` (`setp`, `shfl.sync`).
    Pair(String, String),
    /// The sink `_`.
    Sink,
    /// A vector `{%f1, %f2}`.
    Vector(Vec<Operand>),
    /// A memory address `[base+offset]`; `base` is a register or symbol, or empty for `[imm]`.
    Address {
        /// Register or symbol; empty for an absolute address.
        base: String,
        /// Byte offset.
        offset: i64,
    },
    /// A parenthesised list, as in `call (ret), f, (a, b);`.
    List(Vec<Operand>),
}

/// The PTX fundamental type names, without the dot.
pub(crate) const TYPES: &[&str] = &[
    "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "b8", "b16", "b32", "b64", "b128", "f16",
    "f16x2", "bf16", "bf16x2", "f32", "f64", "pred",
];

/// The opcodes warpsafe understands; any other is a parse error.
pub(crate) const OPCODES: &[&str] = &[
    "ld",
    "st",
    "cvta",
    "mov",
    "add",
    "sub",
    "mul",
    "mad",
    "div",
    "rem",
    "neg",
    "abs",
    "min",
    "max",
    "fma",
    "rcp",
    "sqrt",
    "rsqrt",
    "ex2",
    "lg2",
    "sin",
    "cos",
    "and",
    "or",
    "xor",
    "not",
    "cnot",
    "shl",
    "shr",
    "bfe",
    "bfi",
    "popc",
    "clz",
    "brev",
    "setp",
    "selp",
    "slct",
    "cvt",
    "bra",
    "bar",
    "barrier",
    "shfl",
    "vote",
    "activemask",
    "atom",
    "red",
    "membar",
    "fence",
    "ret",
    "exit",
    "call",
    "trap",
    "copysign",
    "tanh",
    "prmt",
    "shf",
    "bfind",
    "sad",
    "mul24",
    "mad24",
    "testp",
    "nanosleep",
    // Parsed so that the lowering can name them when it rejects them.
    "cp",
    "mbarrier",
    "ldmatrix",
    "stmatrix",
    "mma",
    "wmma",
    "wgmma",
    "redux",
    "match",
    "elect",
    "prefetch",
    "griddepcontrol",
    "setmaxnreg",
];
