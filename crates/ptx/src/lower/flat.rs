//! A kernel body flattened: nested `{ }` scopes removed, calls to the module's `.func` device
//! functions inlined, labels and instructions in order, every register and variable
//! declaration collected.
//!
//! Inlining is exact. Each inlined instance renames the callee's registers, labels and
//! `.local`/`.shared` variables with a suffix of its own; `ret` jumps to the end of the
//! instance. Arguments and results travel through `.param` memory in PTX: every `.param`
//! slot written (`st.param`) and read (`ld.param`) becomes a register named by (parameter,
//! byte offset, width), so a read must match a write field for field, else the lowering
//! fails naming the read. Recursion cannot be inlined and is rejected. Calls to external
//! functions stay `call` instructions for the instruction lowering (`__assertfail`,
//! `vprintf`), or are rejected here.

use super::types::{Kind, PtxType};
use super::LowerError;
use crate::ast::{
    Function, Immediate, Instruction, Item, Module, Operand, Pred, RegDecl, Space, VarDecl,
};
use std::collections::{HashMap, HashSet};

/// Most registers a function may declare: NVRTC's largest bundled kernel declares under 2000,
/// and each one costs a map entry here and a slot per thread in the interpreter, so a few
/// declarations of huge ranges must not take seconds and gigabytes.
const MAX_REGISTERS: u64 = 1 << 18;

/// Deepest chain of inlined calls.
const MAX_CALL_DEPTH: usize = 32;

/// Most instructions a kernel may have once its calls are inlined.
const MAX_INSTRUCTIONS: usize = 1 << 20;

/// External functions whose calls stay for the instruction lowering.
pub(crate) const KNOWN_EXTERNAL: &[&str] = &["__assertfail", "vprintf", GRID_BARRIER_FUNCTION];

/// The device function that `warpsafe cuda` generates for
/// `cooperative_groups::this_grid().sync()` (a spin on two module globals, never inlined): its
/// calls stay, and the instruction lowering reads each as the grid barrier it implements
/// rather than the spin, which needs every block running at once.
pub const GRID_BARRIER_FUNCTION: &str = "ws_grid_sync";

/// One step of a flattened body.
pub(crate) enum Step {
    /// A label.
    Label(String),
    /// An instruction.
    Instr(Instruction),
}

/// A flattened body with its declarations.
pub(crate) struct Flat {
    pub steps: Vec<Step>,
    /// Every declared register with its type.
    pub regs: HashMap<String, PtxType>,
    /// Declarations inside the body and inlined bodies (`.shared`, `.local`).
    pub vars: Vec<VarDecl>,
}

/// How names of one function instance map into the flattened body.
struct Scope {
    /// Appended to registers, labels and variables of this instance ("" for the kernel).
    suffix: String,
    /// Registers the function declares.
    regs: HashSet<String>,
    /// Labels of the function.
    labels: HashSet<String>,
    /// `.local`/`.shared` variables the function declares.
    vars: HashSet<String>,
    /// `.param` names bound to storage in the caller: formal parameters and results.
    params: HashMap<String, String>,
    /// The kernel's own parameters (read by `ld.param` as launch arguments); kernel only.
    kernel_params: HashSet<String>,
    /// Where `ret` goes (callees only).
    ret_label: Option<String>,
}

impl Scope {
    fn reg(&self, r: &str) -> String {
        if self.regs.contains(r) {
            format!("{r}{}", self.suffix)
        } else {
            r.to_string()
        }
    }

    fn symbol(&self, s: &str) -> String {
        if self.labels.contains(s) || self.vars.contains(s) || self.regs.contains(s) {
            format!("{s}{}", self.suffix)
        } else {
            s.to_string()
        }
    }

    /// The storage name of `.param` name `p` (a call-site parameter or a bound formal).
    fn storage(&self, p: &str) -> String {
        self.params
            .get(p)
            .cloned()
            .unwrap_or_else(|| format!("{p}{}", self.suffix))
    }

    fn operand(&self, o: &Operand) -> Operand {
        match o {
            Operand::Reg(r) => Operand::Reg(self.reg(r)),
            Operand::Not(r) => Operand::Not(self.reg(r)),
            Operand::Pair(a, b) => Operand::Pair(self.reg(a), self.reg(b)),
            Operand::Symbol(s) => Operand::Symbol(self.symbol(s)),
            Operand::Vector(v) => Operand::Vector(v.iter().map(|x| self.operand(x)).collect()),
            Operand::List(v) => Operand::List(v.iter().map(|x| self.operand(x)).collect()),
            Operand::Address { base, offset } => Operand::Address {
                base: if base.starts_with('%') {
                    self.reg(base)
                } else {
                    self.symbol(base)
                },
                offset: *offset,
            },
            Operand::Imm(_) | Operand::Sink => o.clone(),
        }
    }

    fn instr(&self, i: &Instruction) -> Instruction {
        let mut out = i.clone();
        if let Some(p) = &mut out.pred {
            p.reg = self.reg(&p.reg);
        }
        out.operands = i.operands.iter().map(|o| self.operand(o)).collect();
        out
    }
}

/// A `.param` slot: storage name, byte offset, width in bits.
type Slot = (String, i64, u32);

struct Flattener<'m> {
    module: &'m Module,
    out: Flat,
    /// Functions being inlined, outermost first.
    stack: Vec<String>,
    instances: usize,
    written: HashSet<Slot>,
    /// Slots read, with the reading instruction's line and text.
    read: Vec<(Slot, usize, String)>,
    /// Result storage of calls to external functions, with the function's name.
    external_results: HashMap<String, String>,
    /// Registers loaded from external results (function, line): they must stay unread.
    unmodelled: Vec<(String, String, usize)>,
    /// Storage of the `.param` variables of the enclosing call blocks, innermost last: each
    /// call gets its own, so two calls' arguments never share a register.
    block_params: Vec<HashMap<String, String>>,
    blocks: usize,
}

impl Flat {
    /// Flattens kernel `f` of `module`, inlining the device functions it calls.
    pub fn new(module: &Module, f: &Function) -> Result<Flat, LowerError> {
        let mut fl = Flattener {
            module,
            out: Flat {
                steps: Vec::new(),
                regs: HashMap::new(),
                vars: Vec::new(),
            },
            stack: vec![f.name.clone()],
            instances: 0,
            written: HashSet::new(),
            read: Vec::new(),
            external_results: HashMap::new(),
            unmodelled: Vec::new(),
            block_params: Vec::new(),
            blocks: 0,
        };
        let scope = Scope {
            suffix: String::new(),
            regs: HashSet::new(),
            labels: HashSet::new(),
            vars: HashSet::new(),
            params: HashMap::new(),
            kernel_params: f.params.iter().map(|p| p.name.clone()).collect(),
            ret_label: None,
        };
        fl.function(f, &scope)?;
        for (slot, line, text) in &fl.read {
            if !fl.written.contains(slot) {
                return Err(LowerError::new(
                    format!(
                        "`{text}` reads {} bytes at offset {} of a call parameter or result that no `st.param` writes with that offset and width (aggregates must be written and read field by field)",
                        slot.2.div_ceil(8),
                        slot.1
                    ),
                    *line,
                ));
            }
        }
        for (reg, f, line) in &fl.unmodelled {
            let read = fl.out.instrs().any(|i| {
                i.pred.as_ref().is_some_and(|p| &p.reg == reg)
                    || i.operands.iter().any(|o| mentions(o, reg))
            });
            if read {
                return Err(LowerError::new(
                    format!("the result of external function `{f}` is used; it is not modelled"),
                    *line,
                ));
            }
        }
        Ok(fl.out)
    }

    /// The instructions alone.
    pub fn instrs(&self) -> impl Iterator<Item = &Instruction> + '_ {
        self.steps.iter().filter_map(|s| match s {
            Step::Instr(i) => Some(i),
            Step::Label(_) => None,
        })
    }

    fn declare(&mut self, r: &RegDecl, suffix: &str) -> Result<(), LowerError> {
        let ty = PtxType::parse(&r.ty).ok_or_else(|| {
            LowerError::new(
                format!("register `{}` has unsupported type `{}`", r.name, r.ty),
                0,
            )
        })?;
        match r.count {
            None => {
                self.regs.insert(format!("{}{suffix}", r.name), ty);
            }
            Some(n) => {
                let total = self.regs.len() as u64 + u64::from(n);
                if total > MAX_REGISTERS {
                    return Err(LowerError::new(
                        format!(
                            "register range `{}<{n}>` makes {total} registers, more than the {MAX_REGISTERS} warpsafe lowers",
                            r.name
                        ),
                        0,
                    ));
                }
                for i in 0..n {
                    self.regs.insert(format!("{}{i}{suffix}", r.name), ty);
                }
            }
        }
        Ok(())
    }
}

/// Names a function declares: registers, labels and memory variables, nested blocks included.
fn declared(f: &Function) -> (HashSet<String>, HashSet<String>, HashSet<String>) {
    let f = &unnest(f);
    fn walk(
        items: &[Item],
        regs: &mut HashSet<String>,
        labels: &mut HashSet<String>,
        vars: &mut HashSet<String>,
    ) {
        for it in items {
            match it {
                Item::Label(l) => {
                    labels.insert(l.clone());
                }
                Item::Reg(r) => reg_names(r, regs),
                Item::Var(v) if v.space != Space::Param => {
                    vars.insert(v.name.clone());
                }
                Item::Block(b) => walk(b, regs, labels, vars),
                Item::Var(_) | Item::Instr(_) => {}
            }
        }
    }
    fn reg_names(r: &RegDecl, out: &mut HashSet<String>) {
        match r.count {
            None => {
                out.insert(r.name.clone());
            }
            Some(n) => {
                out.extend((0..n.min(MAX_REGISTERS as u32)).map(|i| format!("{}{i}", r.name)))
            }
        }
    }
    let (mut regs, mut labels, mut vars) = (HashSet::new(), HashSet::new(), HashSet::new());
    for r in &f.regs {
        reg_names(r, &mut regs);
    }
    walk(&f.body, &mut regs, &mut labels, &mut vars);
    (regs, labels, vars)
}

fn has(i: &Instruction, m: &str) -> bool {
    i.modifiers.iter().any(|x| x == m)
}

/// The number of elements of a `.vN` access.
fn vector_len(i: &Instruction) -> usize {
    if has(i, "v2") {
        2
    } else if has(i, "v4") {
        4
    } else if has(i, "v8") {
        8
    } else {
        1
    }
}

fn instr_text(i: &Instruction) -> String {
    let mut s = i.opcode.clone();
    for m in i.modifiers.iter().chain(&i.types) {
        s.push('.');
        s.push_str(m);
    }
    s
}

/// A synthesised instruction at `line`.
fn synth(opcode: &str, types: Vec<String>, operands: Vec<Operand>, line: usize) -> Instruction {
    Instruction {
        pred: None,
        opcode: opcode.into(),
        modifiers: vec![],
        types,
        operands,
        line,
    }
}

impl Flattener<'_> {
    fn push(&mut self, s: Step) -> Result<(), LowerError> {
        if self.out.steps.len() >= MAX_INSTRUCTIONS {
            return Err(LowerError::new(
                format!("the kernel has more than {MAX_INSTRUCTIONS} instructions once its calls are inlined"),
                0,
            ));
        }
        self.out.steps.push(s);
        Ok(())
    }

    fn function(&mut self, f: &Function, scope: &Scope) -> Result<(), LowerError> {
        let f = &unnest(f);
        for r in &f.regs {
            self.out.declare(r, &scope.suffix)?;
        }
        self.items(&f.body, scope)
    }

    fn items(&mut self, items: &[Item], scope: &Scope) -> Result<(), LowerError> {
        for it in items {
            match it {
                Item::Label(l) => self.push(Step::Label(scope.symbol(l)))?,
                Item::Instr(i) => self.instr(i, scope)?,
                Item::Reg(r) => self.out.declare(r, &scope.suffix)?,
                Item::Var(v) if v.space == Space::Param => {}
                Item::Var(v) => {
                    let mut v = v.clone();
                    v.name = scope.symbol(&v.name);
                    self.out.vars.push(v);
                }
                Item::Block(b) => {
                    self.blocks += 1;
                    let own: HashMap<String, String> = b
                        .iter()
                        .filter_map(|it| match it {
                            Item::Var(v) if v.space == Space::Param => Some((
                                v.name.clone(),
                                format!("{}{}$b{}", v.name, scope.suffix, self.blocks),
                            )),
                            _ => None,
                        })
                        .collect();
                    self.block_params.push(own);
                    let r = self.items(b, scope);
                    self.block_params.pop();
                    r?
                }
            }
        }
        Ok(())
    }

    fn instr(&mut self, i: &Instruction, scope: &Scope) -> Result<(), LowerError> {
        let param_base = |n: usize| match i.operands.get(n) {
            Some(Operand::Address { base, offset }) if !base.starts_with('%') => {
                Some((base.clone(), *offset))
            }
            _ => None,
        };
        match i.opcode.as_str() {
            "st" if has(i, "param") => {
                let Some((base, off)) = param_base(0) else {
                    return Err(LowerError::at(i, "`st.param` writes `[param+offset]`"));
                };
                self.store_param(i, scope, &base, off)
            }
            "ld" if has(i, "param") => match param_base(1) {
                Some((base, off)) if !scope.kernel_params.contains(&base) => {
                    self.load_param(i, scope, &base, off)
                }
                _ => self.push(Step::Instr(scope.instr(i))),
            },
            "call" if matches!(i.operands.get(call_target(i)), Some(Operand::Reg(_))) => {
                self.indirect_call(i, scope)
            }
            "call" => self.call(i, scope),
            "mov" if matches!(i.operands.get(1), Some(Operand::Symbol(f)) if self.function_address(f).is_some()) =>
            {
                // The address of a device function: a constant that indirect calls dispatch on.
                let mut j = scope.instr(i);
                if let Some(Operand::Symbol(f)) = i.operands.get(1) {
                    let addr = self.function_address(f).unwrap_or(0);
                    j.operands[1] = Operand::Imm(Immediate::Int(addr as i128));
                }
                self.push(Step::Instr(j))
            }
            "ret" => match &scope.ret_label {
                Some(l) => {
                    let mut j = synth("bra", vec![], vec![Operand::Symbol(l.clone())], i.line);
                    j.pred = i.pred.clone().map(|p| Pred {
                        reg: scope.reg(&p.reg),
                        ..p
                    });
                    self.push(Step::Instr(j))
                }
                None => self.push(Step::Instr(scope.instr(i))),
            },
            _ => self.push(Step::Instr(scope.instr(i))),
        }
    }

    /// The storage name of `.param` name `p` in `scope`: a variable of an enclosing call
    /// block, else a bound formal parameter or result, else a function-wide name.
    fn storage(&self, scope: &Scope, p: &str) -> String {
        self.block_params
            .iter()
            .rev()
            .find_map(|m| m.get(p).cloned())
            .unwrap_or_else(|| scope.storage(p))
    }

    /// The virtual register of `slot`, declared as `bits`-wide untyped.
    fn slot_reg(&mut self, slot: &Slot) -> String {
        let name = format!("%{}@{}@{}", slot.0, slot.1, slot.2);
        self.out.regs.entry(name.clone()).or_insert(PtxType {
            kind: Kind::Bits,
            bits: slot.2,
        });
        name
    }

    fn elem_type(i: &Instruction) -> Result<PtxType, LowerError> {
        let name = i
            .types
            .last()
            .ok_or_else(|| LowerError::at(i, "missing type suffix"))?;
        PtxType::parse(name)
            .filter(|t| t.kind != Kind::Pred)
            .ok_or_else(|| LowerError::at(i, format!("unsupported `.param` type `.{name}`")))
    }

    fn reg_type(&self, i: &Instruction, r: &str) -> Result<PtxType, LowerError> {
        self.out
            .regs
            .get(r)
            .copied()
            .ok_or_else(|| LowerError::at(i, format!("register `{r}` is not declared")))
    }

    /// `st.param[.vN].T [base+off], src`: each element moves (truncated to `T`) into its slot.
    fn store_param(
        &mut self,
        i: &Instruction,
        scope: &Scope,
        base: &str,
        off: i64,
    ) -> Result<(), LowerError> {
        if i.pred.is_some() {
            return Err(LowerError::at(i, "a guarded `st.param` is not supported"));
        }
        let t = Self::elem_type(i)?;
        let storage = self.storage(scope, base);
        self.external_results.remove(&storage);
        let srcs = match i.operands.get(1) {
            Some(Operand::Vector(v)) => v.clone(),
            Some(o) => vec![o.clone()],
            None => return Err(LowerError::at(i, "`st.param` needs a value")),
        };
        if srcs.len() != vector_len(i) {
            return Err(LowerError::at(
                i,
                "vector operand length does not match .vN",
            ));
        }
        for (k, src) in srcs.iter().enumerate() {
            let slot: Slot = (storage.clone(), off + k as i64 * t.bytes() as i64, t.bits);
            let v = self.slot_reg(&slot);
            self.written.insert(slot);
            let src = scope.operand(src);
            let j = match &src {
                Operand::Reg(r) if !r.contains('.') => {
                    let rt = self.reg_type(i, r)?;
                    if rt.bits > t.bits && rt.kind != Kind::Pred {
                        synth(
                            "cvt",
                            vec![format!("u{}", t.bits), format!("u{}", rt.bits)],
                            vec![Operand::Reg(v), src.clone()],
                            i.line,
                        )
                    } else {
                        synth(
                            "mov",
                            vec![format!("b{}", t.bits)],
                            vec![Operand::Reg(v), src.clone()],
                            i.line,
                        )
                    }
                }
                _ => synth(
                    "mov",
                    vec![type_name(t)],
                    vec![Operand::Reg(v), src.clone()],
                    i.line,
                ),
            };
            self.push(Step::Instr(j))?;
        }
        Ok(())
    }

    /// `ld.param[.vN].T dst, [base+off]` of a call parameter or result: each element moves
    /// (extended by `T`'s signedness) out of its slot.
    fn load_param(
        &mut self,
        i: &Instruction,
        scope: &Scope,
        base: &str,
        off: i64,
    ) -> Result<(), LowerError> {
        if i.pred.is_some() {
            return Err(LowerError::at(i, "a guarded `ld.param` is not supported"));
        }
        let t = Self::elem_type(i)?;
        let storage = self.storage(scope, base);
        if let Some(f) = self.external_results.get(&storage) {
            // `printf`'s result is loaded whether or not the source uses it; a load whose
            // register nothing reads is dropped, any other is an error (checked at the end).
            let f = f.clone();
            let mut regs = Vec::new();
            collect_regs(i.operands.first(), &mut regs);
            for r in regs {
                self.unmodelled.push((scope.reg(&r), f.clone(), i.line));
            }
            return Ok(());
        }
        let dsts = match i.operands.first() {
            Some(Operand::Vector(v)) => v.clone(),
            Some(o) => vec![o.clone()],
            None => return Err(LowerError::at(i, "`ld.param` needs a destination")),
        };
        if dsts.len() != vector_len(i) {
            return Err(LowerError::at(
                i,
                "vector operand length does not match .vN",
            ));
        }
        for (k, d) in dsts.iter().enumerate() {
            let slot: Slot = (storage.clone(), off + k as i64 * t.bytes() as i64, t.bits);
            let v = self.slot_reg(&slot);
            self.read.push((slot, i.line, instr_text(i)));
            let d = scope.operand(d);
            let Operand::Reg(dr) = &d else {
                if matches!(d, Operand::Sink) {
                    continue;
                }
                return Err(LowerError::at(i, "`ld.param` writes registers"));
            };
            let dt = self.reg_type(i, dr)?;
            let j = if dt.bits > t.bits {
                let kind = if t.kind == Kind::Signed { "s" } else { "u" };
                synth(
                    "cvt",
                    vec![format!("{kind}{}", dt.bits), format!("{kind}{}", t.bits)],
                    vec![d.clone(), Operand::Reg(v)],
                    i.line,
                )
            } else if dt.bits < t.bits {
                return Err(LowerError::at(
                    i,
                    format!(
                        "`{}` loads into the narrower register `{dr}`",
                        instr_text(i)
                    ),
                ));
            } else {
                synth(
                    "mov",
                    vec![format!("b{}", t.bits)],
                    vec![d.clone(), Operand::Reg(v)],
                    i.line,
                )
            };
            self.push(Step::Instr(j))?;
        }
        Ok(())
    }

    /// `call[.uni] [(results),] name[, (arguments)];`: inlines a `.func` with a body; leaves
    /// calls of known external functions in place.
    fn call(&mut self, i: &Instruction, scope: &Scope) -> Result<(), LowerError> {
        let mut ops = i.operands.iter();
        let mut first = ops.next();
        let results: Vec<String> = match first {
            Some(Operand::List(r)) => {
                first = ops.next();
                list_names(i, r)?
            }
            _ => vec![],
        };
        let name = match first {
            Some(Operand::Symbol(s)) => s.clone(),
            Some(Operand::Reg(r)) => {
                return Err(LowerError::at(
                    i,
                    format!("indirect `call` through `{r}` (a function pointer) is not supported by the PTX road"),
                ))
            }
            _ => return Err(LowerError::at(i, "`call` needs a function name")),
        };
        let args: Vec<String> = match ops.next() {
            Some(Operand::List(a)) => list_names(i, a)?,
            None => vec![],
            Some(_) => {
                return Err(LowerError::at(
                    i,
                    format!(
                        "`call` of `{name}` with a prototype (an indirect call) is not supported"
                    ),
                ))
            }
        };
        if ops.next().is_some() {
            return Err(LowerError::at(
                i,
                format!("`call` of `{name}` with a prototype (an indirect call) is not supported"),
            ));
        }
        let callee = self
            .module
            .functions
            .iter()
            .filter(|_| name != GRID_BARRIER_FUNCTION)
            .find(|f| f.name == name && !f.is_declaration && !f.is_entry);
        let Some(callee) = callee else {
            if KNOWN_EXTERNAL.contains(&name.as_str()) {
                for r in &results {
                    self.external_results
                        .insert(self.storage(scope, r), name.clone());
                }
                return self.push(Step::Instr(scope.instr(i)));
            }
            let what = if self.module.functions.iter().any(|f| f.name == name) {
                "an external function (declared, not defined, in this module)"
            } else {
                "not a function of this module"
            };
            return Err(LowerError::at(
                i,
                format!("`call` of `{name}`: it is {what}; the PTX road inlines only device functions defined in the module"),
            ));
        };
        if self.stack.contains(&name) {
            return Err(LowerError::at(
                i,
                format!(
                    "recursive `call` of `{name}` (call chain {} -> {name}): the PTX road inlines device functions and cannot inline recursion",
                    self.stack.join(" -> ")
                ),
            ));
        }
        if self.stack.len() > MAX_CALL_DEPTH {
            return Err(LowerError::at(
                i,
                format!("calls nest more than {MAX_CALL_DEPTH} deep"),
            ));
        }
        if args.len() != callee.params.len() || results.len() != callee.returns.len() {
            return Err(LowerError::at(
                i,
                format!(
                    "`call` of `{name}` passes {} arguments and {} results; it declares {} and {}",
                    args.len(),
                    results.len(),
                    callee.params.len(),
                    callee.returns.len()
                ),
            ));
        }
        self.instances += 1;
        let suffix = format!("$i{}", self.instances);
        let (regs, labels, vars) = declared(callee);
        let mut params = HashMap::new();
        for (formal, actual) in callee.params.iter().zip(&args) {
            params.insert(formal.name.clone(), self.storage(scope, actual));
        }
        for (formal, actual) in callee.returns.iter().zip(&results) {
            let storage = self.storage(scope, actual);
            self.external_results.remove(&storage);
            params.insert(formal.name.clone(), storage);
        }
        let ret_label = format!("$Lret{suffix}");
        let inner = Scope {
            suffix,
            regs,
            labels,
            vars,
            params,
            kernel_params: HashSet::new(),
            ret_label: Some(ret_label.clone()),
        };
        // A guarded call: branch around the inlined body.
        let skip = i.pred.as_ref().map(|p| {
            let l = format!("$Lskip{}", inner.suffix);
            let mut j = synth("bra", vec![], vec![Operand::Symbol(l.clone())], i.line);
            j.pred = Some(Pred {
                negated: !p.negated,
                reg: scope.reg(&p.reg),
            });
            (l, j)
        });
        if let Some((_, j)) = &skip {
            self.push(Step::Instr(j.clone()))?;
        }
        self.stack.push(name);
        let outer = std::mem::take(&mut self.block_params);
        let r = self.function(callee, &inner);
        self.block_params = outer;
        r?;
        self.stack.pop();
        self.push(Step::Label(ret_label))?;
        if let Some((l, _)) = skip {
            self.push(Step::Label(l))?;
        }
        Ok(())
    }
}

/// Where a `call`'s target sits among its operands (after the result list, if any).
fn call_target(i: &Instruction) -> usize {
    usize::from(matches!(i.operands.first(), Some(Operand::List(_))))
}

/// The lowest address given to a device function whose address is taken: far from null, so
/// `if (f)` tests hold, and 16 apart.
const FUNCTION_ADDRESS_BASE: u64 = 0x7f00_0000_0000;

impl Flattener<'_> {
    /// The constant address of device function `name` (defined in the module, not an entry).
    fn function_address(&self, name: &str) -> Option<u64> {
        self.module
            .functions
            .iter()
            .filter(|f| !f.is_declaration && !f.is_entry)
            .position(|f| f.name == name)
            .map(|k| FUNCTION_ADDRESS_BASE + 16 * k as u64)
    }

    /// The device functions whose address the module takes (`mov.u64 %rd, f`): the only ones
    /// a call through a pointer can reach.
    fn address_taken(&self) -> Vec<String> {
        fn scan(items: &[Item], out: &mut Vec<String>) {
            for it in items {
                match it {
                    Item::Instr(i) if i.opcode == "mov" => {
                        if let Some(Operand::Symbol(s)) = i.operands.get(1) {
                            out.push(s.clone());
                        }
                    }
                    Item::Block(b) => scan(b, out),
                    _ => {}
                }
            }
        }
        let mut named = vec![];
        for f in &self.module.functions {
            scan(&f.body, &mut named);
        }
        let mut out: Vec<String> = self
            .module
            .functions
            .iter()
            .filter(|f| !f.is_declaration && !f.is_entry && named.contains(&f.name))
            .map(|f| f.name.clone())
            .collect();
        out.dedup();
        out
    }

    /// `call (r), %rd, (a), prototype;`: a dispatch on the pointer's value over the functions
    /// whose address the module takes and whose signature fits the call, each inlined; a
    /// pointer to none of them fails an assertion (`trap`).
    fn indirect_call(&mut self, i: &Instruction, scope: &Scope) -> Result<(), LowerError> {
        let at = call_target(i);
        let Some(Operand::Reg(target)) = i.operands.get(at) else {
            return Err(LowerError::at(i, "`call` needs a function name"));
        };
        let target = scope.reg(target);
        let results = match i.operands.first() {
            Some(Operand::List(r)) if at == 1 => r.len(),
            _ => 0,
        };
        let args = match i.operands.get(at + 1) {
            Some(Operand::List(a)) => a.len(),
            _ => 0,
        };
        let candidates: Vec<String> = self
            .address_taken()
            .into_iter()
            .filter(|name| {
                self.module.functions.iter().any(|f| {
                    &f.name == name && f.params.len() == args && f.returns.len() == results
                })
            })
            .collect();
        if candidates.is_empty() {
            return Err(LowerError::at(
                i,
                format!("indirect `call` through `{target}`: the module takes the address of no device function with {args} parameter(s) and {results} result(s)"),
            ));
        }
        self.instances += 1;
        let tag = format!("$ind{}", self.instances);
        let done = format!("$Ldone{tag}");
        let hit = format!("%p{tag}");
        self.out.regs.insert(
            hit.clone(),
            PtxType {
                kind: Kind::Pred,
                bits: 1,
            },
        );
        if let Some(p) = &i.pred {
            let mut j = synth("bra", vec![], vec![Operand::Symbol(done.clone())], i.line);
            j.pred = Some(Pred {
                negated: !p.negated,
                reg: scope.reg(&p.reg),
            });
            self.push(Step::Instr(j))?;
        }
        for (k, name) in candidates.iter().enumerate() {
            let next = format!("$Lnext{tag}_{k}");
            let addr = self.function_address(name).unwrap_or(0);
            let mut test = synth(
                "setp",
                vec!["u64".into()],
                vec![
                    Operand::Reg(hit.clone()),
                    Operand::Reg(target.clone()),
                    Operand::Imm(Immediate::Int(addr as i128)),
                ],
                i.line,
            );
            test.modifiers = vec!["ne".into()];
            self.push(Step::Instr(test))?;
            let mut skip = synth("bra", vec![], vec![Operand::Symbol(next.clone())], i.line);
            skip.pred = Some(Pred {
                negated: false,
                reg: hit.clone(),
            });
            self.push(Step::Instr(skip))?;
            // The same call, direct: inlined in the caller's scope.
            let mut direct = i.clone();
            direct.pred = None;
            let keep = if matches!(i.operands.get(at + 1), Some(Operand::List(_))) {
                at + 2
            } else {
                at + 1
            };
            direct.operands.truncate(keep);
            direct.operands[at] = Operand::Symbol(name.clone());
            self.call(&direct, scope)?;
            self.push(Step::Instr(synth(
                "bra",
                vec![],
                vec![Operand::Symbol(done.clone())],
                i.line,
            )))?;
            self.push(Step::Label(next))?;
        }
        self.push(Step::Instr(synth("trap", vec![], vec![], i.line)))?;
        self.push(Step::Label(done))
    }
}

fn type_name(t: PtxType) -> String {
    let k = match t.kind {
        Kind::Signed => "s",
        Kind::Unsigned => "u",
        Kind::Float => "f",
        Kind::Bits | Kind::Pred => "b",
    };
    format!("{k}{}", t.bits)
}

fn list_names(i: &Instruction, ops: &[Operand]) -> Result<Vec<String>, LowerError> {
    ops.iter()
        .map(|o| match o {
            Operand::Symbol(s) => Ok(s.clone()),
            _ => Err(LowerError::at(
                i,
                "`call` arguments and results must be `.param` names",
            )),
        })
        .collect()
}

/// Whether operand `o` mentions register `reg`.
fn mentions(o: &Operand, reg: &str) -> bool {
    match o {
        Operand::Reg(r) | Operand::Not(r) => r == reg,
        Operand::Pair(a, b) => a == reg || b == reg,
        Operand::Address { base, .. } => base == reg,
        Operand::Vector(v) | Operand::List(v) => v.iter().any(|x| mentions(x, reg)),
        Operand::Imm(_) | Operand::Symbol(_) | Operand::Sink => false,
    }
}

/// The registers of a destination operand.
fn collect_regs(o: Option<&Operand>, out: &mut Vec<String>) {
    match o {
        Some(Operand::Reg(r)) => out.push(r.clone()),
        Some(Operand::Vector(v)) => v.iter().for_each(|x| collect_regs(Some(x), out)),
        _ => {}
    }
}

/// `f` with the registers that nested `{ }` blocks declare renamed apart: nvcc wraps each
/// inline `asm` in a block declaring its own registers (`{ .reg .pred p; setp.eq.u32 p, …;
/// selp.u32 %r, 1, 0, p; }`), and two blocks may declare the same name, which shadows any
/// outer one. The `k`-th block (in order) names its register `p` as `p$n{k}` (a range
/// `%q<4>` as `%q$n{k}$0 …`), so every block's registers are its own; a use of a block
/// register written without `%` (a symbol to the parser) becomes a register operand.
fn unnest(f: &Function) -> Function {
    fn own(b: &[Item], k: usize, outer: &HashMap<String, String>) -> HashMap<String, String> {
        let mut ren = outer.clone();
        for it in b {
            if let Item::Reg(r) = it {
                match r.count {
                    None => {
                        ren.insert(r.name.clone(), format!("{}$n{k}", r.name));
                    }
                    Some(n) => {
                        for i in 0..n.min(MAX_REGISTERS as u32) {
                            ren.insert(format!("{}{i}", r.name), format!("{}$n{k}${i}", r.name));
                        }
                    }
                }
            }
        }
        ren
    }
    fn name(n: &str, ren: &HashMap<String, String>) -> String {
        ren.get(n).cloned().unwrap_or_else(|| n.to_string())
    }
    fn operand(o: &Operand, ren: &HashMap<String, String>) -> Operand {
        match o {
            Operand::Reg(r) => Operand::Reg(name(r, ren)),
            Operand::Not(r) => Operand::Not(name(r, ren)),
            Operand::Pair(a, b) => Operand::Pair(name(a, ren), name(b, ren)),
            Operand::Symbol(s) => match ren.get(s) {
                Some(r) => Operand::Reg(r.clone()),
                None => o.clone(),
            },
            Operand::Vector(v) => Operand::Vector(v.iter().map(|x| operand(x, ren)).collect()),
            Operand::List(v) => Operand::List(v.iter().map(|x| operand(x, ren)).collect()),
            Operand::Address { base, offset } => Operand::Address {
                base: name(base, ren),
                offset: *offset,
            },
            Operand::Imm(_) | Operand::Sink => o.clone(),
        }
    }
    fn items(b: &[Item], ren: &HashMap<String, String>, k: &mut usize) -> Vec<Item> {
        b.iter()
            .map(|it| match it {
                Item::Block(inner) => {
                    *k += 1;
                    let here = *k;
                    let ren = own(inner, here, ren);
                    let mut out = items(inner, &ren, k);
                    for it in &mut out {
                        if let Item::Reg(r) = it {
                            r.name = match r.count {
                                None => format!("{}$n{here}", r.name),
                                Some(_) => format!("{}$n{here}$", r.name),
                            };
                        }
                    }
                    Item::Block(out)
                }
                Item::Instr(i) if !ren.is_empty() => {
                    let mut i = i.clone();
                    if let Some(p) = &mut i.pred {
                        p.reg = name(&p.reg, ren);
                    }
                    i.operands = i.operands.iter().map(|o| operand(o, ren)).collect();
                    Item::Instr(i)
                }
                _ => it.clone(),
            })
            .collect()
    }
    let mut out = f.clone();
    out.body = items(&f.body, &HashMap::new(), &mut 0);
    out
}
