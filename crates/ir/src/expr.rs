//! Expressions: typed, side-effect free trees (memory reads included).

use crate::{ArrayId, ParamId, ScalarType, Span, Value, VarId};
use serde::{Deserialize, Serialize};

/// A typed expression with its source span. `ty` is the type of the result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Expr {
    /// What the expression computes.
    pub kind: ExprKind,
    /// The type of the value it produces.
    pub ty: ScalarType,
    /// Where it came from.
    pub span: Span,
}

/// The shapes of expressions. Operands of binary operators always have equal types
/// (frontends insert explicit casts); comparisons produce `bool`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExprKind {
    /// A constant.
    Const(Value),
    /// The current value of a local variable.
    Var(VarId),
    /// The value of a scalar kernel parameter.
    Param(ParamId),
    /// A launch builtin (`threadIdx.x`, `warpSize`, …), always `u32`.
    Builtin(Builtin),
    /// Length in elements of a buffer parameter (`len(x)` in contracts), always `u64`.
    BufferLen(ParamId),
    /// A unary operator.
    Unary(UnOp, Box<Expr>),
    /// A binary operator on two operands of the same type.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Short-circuit `&&`/`||` on two `bool` operands.
    Logical(LogicOp, Box<Expr>, Box<Expr>),
    /// Conversion of the operand to `ty` with C semantics.
    Cast(Box<Expr>),
    /// `cond ? a : b` where only the chosen arm is evaluated.
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A math intrinsic applied to arguments of type `ty`.
    Call(MathFn, Vec<Expr>),
    /// A read of one element of a buffer or array; one index per array dimension.
    Load(MemRef, Vec<Expr>),
}

/// A dimension of a 3-D launch builtin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dim {
    /// `.x`
    X,
    /// `.y`
    Y,
    /// `.z`
    Z,
}

impl Dim {
    /// The three dimensions in order.
    pub const ALL: [Dim; 3] = [Dim::X, Dim::Y, Dim::Z];

    /// 0, 1 or 2.
    pub fn index(self) -> usize {
        self as usize
    }

    /// `x`, `y` or `z`.
    pub fn name(self) -> &'static str {
        ["x", "y", "z"][self as usize]
    }
}

/// Values fixed by the launch and the executing thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Builtin {
    /// `threadIdx`
    ThreadIdx(Dim),
    /// `blockIdx`
    BlockIdx(Dim),
    /// `blockDim`
    BlockDim(Dim),
    /// `gridDim`
    GridDim(Dim),
    /// `warpSize` (32).
    WarpSize,
    /// Lane of the thread within its warp (linear thread id mod 32).
    LaneId,
}

impl Builtin {
    /// The CUDA C spelling.
    pub fn c_name(self) -> String {
        match self {
            Builtin::ThreadIdx(d) => format!("threadIdx.{}", d.name()),
            Builtin::BlockIdx(d) => format!("blockIdx.{}", d.name()),
            Builtin::BlockDim(d) => format!("blockDim.{}", d.name()),
            Builtin::GridDim(d) => format!("gridDim.{}", d.name()),
            Builtin::WarpSize => "warpSize".into(),
            Builtin::LaneId => "laneId".into(),
        }
    }
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnOp {
    /// Arithmetic negation (wrapping for integers).
    Neg,
    /// Bitwise complement of an integer.
    BitNot,
    /// Logical negation of a `bool`.
    Not,
}

/// Binary operators over operands of one type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (integer division truncates toward zero)
    Div,
    /// `%` (sign of the dividend, as C)
    Rem,
    /// `&` (integers and bools)
    BitAnd,
    /// `|` (integers and bools)
    BitOr,
    /// `^` (integers and bools)
    BitXor,
    /// `<<`
    Shl,
    /// `>>` (arithmetic for signed, logical for unsigned)
    Shr,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `min(a, b)`
    Min,
    /// `max(a, b)`
    Max,
}

impl BinOp {
    /// True for the six comparisons, whose result is `bool`.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }

    /// True for operators defined only on integers (and `bool` for the bitwise ones).
    pub fn is_integer_only(self) -> bool {
        matches!(
            self,
            BinOp::Rem | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr
        )
    }

    /// The C operator symbol, or the function name for `min`/`max`.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Min => "min",
            BinOp::Max => "max",
        }
    }
}

/// Short-circuit logical operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogicOp {
    /// `&&`
    And,
    /// `||`
    Or,
}

/// Math intrinsics. All take and return floats of the call's type, except `Abs`,
/// which also accepts integers, and `Bits`, a bit reinterpretation between two
/// numeric types of one width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MathFn {
    /// `|x|` for integers and floats.
    Abs,
    /// `e^x`, IEEE-accurate (`expf`).
    Exp,
    /// `e^x`, fast approximate (`__expf`); executes as `Exp` on the CPU.
    FastExp,
    /// `2^x`
    Exp2,
    /// natural logarithm
    Log,
    /// base-2 logarithm
    Log2,
    /// base-10 logarithm
    Log10,
    /// square root
    Sqrt,
    /// `1/sqrt(x)`
    Rsqrt,
    /// `x^y`
    Pow,
    /// fused `a*b+c`
    Fma,
    /// sine
    Sin,
    /// cosine
    Cos,
    /// tangent
    Tan,
    /// hyperbolic tangent
    Tanh,
    /// round down
    Floor,
    /// round up
    Ceil,
    /// round half away from zero
    Round,
    /// round toward zero
    Trunc,
    /// arc tangent
    Atan,
    /// arc sine
    Asin,
    /// arc cosine
    Acos,
    /// hyperbolic sine
    Sinh,
    /// hyperbolic cosine
    Cosh,
    /// inverse hyperbolic sine
    Asinh,
    /// inverse hyperbolic cosine
    Acosh,
    /// inverse hyperbolic tangent
    Atanh,
    /// cube root
    Cbrt,
    /// `e^x - 1`
    Expm1,
    /// `ln(1 + x)`
    Log1p,
    /// `10^x`
    Exp10,
    /// round to the nearest integer, ties to even (`rint`, `nearbyint`)
    Rint,
    /// error function
    Erf,
    /// complementary error function `1 - erf(x)`
    Erfc,
    /// natural logarithm of the absolute value of the gamma function
    Lgamma,
    /// gamma function
    Tgamma,
    /// `sin(πx)`
    SinPi,
    /// `cos(πx)`
    CosPi,
    /// `atan2(y, x)`: the angle of the point `(x, y)`
    Atan2,
    /// `fmod(x, y)`: `x - trunc(x / y)·y`, the sign of the dividend
    Fmod,
    /// IEEE `remainder(x, y)`: `x - n·y` with `n` the nearest integer to `x / y`, ties to even
    Remainder,
    /// `sqrt(x² + y²)`
    Hypot,
    /// `|x|` with the sign of `y`
    Copysign,
    /// `fdim(x, y)`: `x - y` when positive, else `+0`
    Fdim,
    /// `ldexp(x, n)`: `x·2^n`, with the integer `n` carried as a float of the call's type
    Ldexp,
    /// The bits of the argument read as the call's type, which has the same width
    /// (`__float_as_int`, `__int_as_float`, `__double_as_longlong`, PTX's `mov.b32`
    /// between a float and an integer register). Not a value conversion: exact.
    Bits,
}

impl MathFn {
    /// Number of arguments.
    pub fn arity(self) -> usize {
        match self {
            MathFn::Pow
            | MathFn::Atan2
            | MathFn::Fmod
            | MathFn::Remainder
            | MathFn::Hypot
            | MathFn::Copysign
            | MathFn::Fdim
            | MathFn::Ldexp => 2,
            MathFn::Fma => 3,
            _ => 1,
        }
    }

    /// The name used in the IR printer (C's double-precision name).
    pub fn name(self) -> &'static str {
        match self {
            MathFn::Abs => "abs",
            MathFn::Exp => "exp",
            MathFn::FastExp => "__expf",
            MathFn::Exp2 => "exp2",
            MathFn::Log => "log",
            MathFn::Log2 => "log2",
            MathFn::Log10 => "log10",
            MathFn::Sqrt => "sqrt",
            MathFn::Rsqrt => "rsqrt",
            MathFn::Pow => "pow",
            MathFn::Fma => "fma",
            MathFn::Sin => "sin",
            MathFn::Cos => "cos",
            MathFn::Tan => "tan",
            MathFn::Tanh => "tanh",
            MathFn::Floor => "floor",
            MathFn::Ceil => "ceil",
            MathFn::Round => "round",
            MathFn::Trunc => "trunc",
            MathFn::Atan => "atan",
            MathFn::Asin => "asin",
            MathFn::Acos => "acos",
            MathFn::Sinh => "sinh",
            MathFn::Cosh => "cosh",
            MathFn::Asinh => "asinh",
            MathFn::Acosh => "acosh",
            MathFn::Atanh => "atanh",
            MathFn::Cbrt => "cbrt",
            MathFn::Expm1 => "expm1",
            MathFn::Log1p => "log1p",
            MathFn::Exp10 => "exp10",
            MathFn::Rint => "rint",
            MathFn::Erf => "erf",
            MathFn::Erfc => "erfc",
            MathFn::Lgamma => "lgamma",
            MathFn::Tgamma => "tgamma",
            MathFn::SinPi => "sinpi",
            MathFn::CosPi => "cospi",
            MathFn::Atan2 => "atan2",
            MathFn::Fmod => "fmod",
            MathFn::Remainder => "remainder",
            MathFn::Hypot => "hypot",
            MathFn::Copysign => "copysign",
            MathFn::Fdim => "fdim",
            MathFn::Ldexp => "ldexp",
            MathFn::Bits => "bits",
        }
    }
}

/// Which memory an access goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemRef {
    /// A global buffer passed as a kernel parameter.
    Global(ParamId),
    /// A `__shared__` array of the block.
    Shared(ArrayId),
    /// A per-thread local array.
    Local(ArrayId),
}

impl Expr {
    /// Builds an expression of type `ty` with no source position.
    pub fn new(kind: ExprKind, ty: ScalarType) -> Expr {
        Expr {
            kind,
            ty,
            span: Span::DUMMY,
        }
    }

    /// Attaches a source span.
    pub fn with_span(mut self, span: Span) -> Expr {
        self.span = span;
        self
    }

    /// A constant.
    pub fn constant(v: Value) -> Expr {
        Expr::new(ExprKind::Const(v), v.ty())
    }

    /// An `i32` constant.
    pub fn i32(v: i32) -> Expr {
        Expr::constant(Value::I32(v))
    }

    /// A `u32` constant.
    pub fn u32(v: u32) -> Expr {
        Expr::constant(Value::U32(v))
    }

    /// A `u64` constant.
    pub fn u64(v: u64) -> Expr {
        Expr::constant(Value::U64(v))
    }

    /// An `f32` constant.
    pub fn f32(v: f32) -> Expr {
        Expr::constant(Value::F32(v))
    }

    /// A `bool` constant.
    pub fn bool(v: bool) -> Expr {
        Expr::constant(Value::Bool(v))
    }

    /// A launch builtin (`u32`).
    pub fn builtin(b: Builtin) -> Expr {
        Expr::new(ExprKind::Builtin(b), ScalarType::U32)
    }

    /// A read of local variable `v` of type `ty`.
    pub fn var(v: VarId, ty: ScalarType) -> Expr {
        Expr::new(ExprKind::Var(v), ty)
    }

    /// A binary operation; the result type is `bool` for comparisons, else the operand type.
    pub fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
        let ty = if op.is_comparison() {
            ScalarType::Bool
        } else {
            a.ty
        };
        let span = a.span.to(b.span);
        Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty).with_span(span)
    }

    /// A unary operation.
    pub fn unary(op: UnOp, a: Expr) -> Expr {
        let (ty, span) = (a.ty, a.span);
        Expr::new(ExprKind::Unary(op, Box::new(a)), ty).with_span(span)
    }

    /// A short-circuit logical operation.
    pub fn logical(op: LogicOp, a: Expr, b: Expr) -> Expr {
        let span = a.span.to(b.span);
        Expr::new(
            ExprKind::Logical(op, Box::new(a), Box::new(b)),
            ScalarType::Bool,
        )
        .with_span(span)
    }

    /// Converts to `ty`; returns the expression unchanged if it already has that type.
    pub fn cast(self, ty: ScalarType) -> Expr {
        if self.ty == ty {
            return self;
        }
        let span = self.span;
        Expr::new(ExprKind::Cast(Box::new(self)), ty).with_span(span)
    }

    /// `c ? a : b`.
    pub fn select(c: Expr, a: Expr, b: Expr) -> Expr {
        let (ty, span) = (a.ty, c.span.to(b.span));
        Expr::new(ExprKind::Select(Box::new(c), Box::new(a), Box::new(b)), ty).with_span(span)
    }

    /// A math intrinsic; the result type is the first argument's.
    pub fn call(f: MathFn, args: Vec<Expr>) -> Expr {
        let ty = args.first().map(|a| a.ty).unwrap_or(ScalarType::F32);
        Expr::new(ExprKind::Call(f, args), ty)
    }

    /// The bits of `self` read as `ty` (same width; see [`MathFn::Bits`]).
    pub fn bits_as(self, ty: ScalarType) -> Expr {
        let span = self.span;
        Expr::new(ExprKind::Call(MathFn::Bits, vec![self]), ty).with_span(span)
    }

    /// A load of type `elem` from `mem` at `indices`.
    pub fn load(mem: MemRef, indices: Vec<Expr>, elem: ScalarType) -> Expr {
        Expr::new(ExprKind::Load(mem, indices), elem)
    }

    /// The constant value, if this is a constant.
    pub fn as_const(&self) -> Option<Value> {
        match self.kind {
            ExprKind::Const(v) => Some(v),
            _ => None,
        }
    }

    /// Calls `f` on this expression and every subexpression, parents first.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Const(_)
            | ExprKind::Var(_)
            | ExprKind::Param(_)
            | ExprKind::Builtin(_)
            | ExprKind::BufferLen(_) => {}
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => a.walk(f),
            ExprKind::Binary(_, a, b) | ExprKind::Logical(_, a, b) => {
                a.walk(f);
                b.walk(f);
            }
            ExprKind::Select(c, a, b) => {
                c.walk(f);
                a.walk(f);
                b.walk(f);
            }
            ExprKind::Call(_, args) | ExprKind::Load(_, args) => {
                for a in args {
                    a.walk(f);
                }
            }
        }
    }
}
