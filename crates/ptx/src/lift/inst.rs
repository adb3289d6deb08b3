//! Thread-code instructions as IR statements and expressions.
//!
//! Every definition is an assignment to its register's variable. Integer registers whose
//! value is fixed once computed (one definition, from fixed operands) and registers defined
//! earlier in the same block are also substituted into their uses, so an access's byte
//! offset reads as `base + sext(i) * 4` and divides into an element index structurally.

use super::cfg::Cfg;
use super::index::{binary, divide_exact};
use super::regs::{reinterpret, unsigned_of};
use super::LiftError;
use std::collections::{HashMap, HashSet};
use warpsafe_exec::thread::code::{BinaryOp, CmpOp, Inst, MemId, Reg, ThreadCode, UnaryOp};
use warpsafe_ir::{
    BinOp, Check, Expr, ExprKind, Kernel, MemRef, ParamId, ScalarType, Span, Stmt, StmtKind, UnOp,
    Value, VarDecl, VarId,
};

/// Largest expression (in nodes) substituted into a use; bigger ones are read from their
/// variable.
const MAX_INLINE: usize = 48;

/// The state of one lifting.
pub(crate) struct Lifter<'a> {
    pub code: &'a ThreadCode,
    pub cfg: &'a Cfg,
    kernel: &'a Kernel,
    types: &'a [Option<ScalarType>],
    var_of: HashMap<Reg, VarId>,
    reg_of: HashMap<VarId, Reg>,
    mems: Vec<MemRef>,
    /// Registers with one definition, from fixed operands: their only definition's pc.
    fixed: HashMap<Reg, usize>,
    fixed_exprs: HashMap<Reg, Option<Expr>>,
    /// Values of registers defined earlier in the current block, with the registers they read.
    local: HashMap<Reg, (Expr, HashSet<Reg>)>,
    temps: Vec<(VarId, VarDecl)>,
    next_var: u32,
    /// Companion variables `q` with `register == k · q` (see [`super::quotient`]).
    quot: HashMap<(Reg, u64), VarId>,
    consts: HashMap<Reg, i128>,
    volatile: Vec<MemRef>,
    /// Statements emitted so far (a bound against duplication blow-up).
    pub emitted: usize,
}

type R<T> = Result<T, LiftError>;

impl<'a> Lifter<'a> {
    pub fn new(
        code: &'a ThreadCode,
        cfg: &'a Cfg,
        kernel: &'a Kernel,
        types: &'a [Option<ScalarType>],
        var_of: HashMap<Reg, VarId>,
        mems: Vec<MemRef>,
    ) -> Lifter<'a> {
        let reg_of = var_of.iter().map(|(r, v)| (*v, *r)).collect();
        let mut l = Lifter {
            reg_of,
            code,
            cfg,
            kernel,
            types,
            var_of,
            mems,
            fixed: HashMap::new(),
            fixed_exprs: HashMap::new(),
            local: HashMap::new(),
            temps: Vec::new(),
            next_var: kernel.vars.len() as u32,
            quot: HashMap::new(),
            consts: super::quotient::constants(code),
            volatile: Vec::new(),
            emitted: 0,
        };
        l.find_fixed();
        l.make_quotients();
        l
    }

    /// Declares a quotient variable for every register that always holds a multiple of an
    /// element size.
    fn make_quotients(&mut self) {
        let mut sizes: Vec<u64> = self
            .code
            .insts
            .iter()
            .filter_map(|i| match *i {
                Inst::Load { ty, .. } | Inst::Store { ty, .. } | Inst::Atomic { ty, .. } => {
                    Some(ty.size_bytes())
                }
                _ => None,
            })
            .collect();
        sizes.sort_unstable();
        sizes.dedup();
        let cfg = self.cfg;
        let reachable = |pc: usize| cfg.block_of[pc] != usize::MAX;
        let mut pairs: Vec<(Reg, u64)> =
            super::quotient::multiples(self.code, self.types, &sizes, &reachable)
                .into_iter()
                .collect();
        pairs.sort_unstable();
        for (r, k) in pairs {
            let Some(ty) = self.ty(r) else { continue };
            let q = VarId(self.next_var);
            self.next_var += 1;
            self.temps.push((
                q,
                VarDecl {
                    name: format!("r{r}_div{k}"),
                    ty,
                    span: Span::DUMMY,
                },
            ));
            self.quot.insert((r, k), q);
        }
    }

    /// The quotient by `k` of register `r` read as `ty`.
    fn quotient_operand(&mut self, r: Reg, k: u64, ty: ScalarType, pc: usize) -> R<Expr> {
        let e = if let Some(&q) = self.quot.get(&(r, k)) {
            Expr::new(ExprKind::Var(q), self.ty(r).unwrap_or(ty))
        } else {
            let c = self
                .consts
                .get(&r)
                .copied()
                .filter(|c| c % k as i128 == 0)
                .ok_or_else(|| LiftError::new("a quotient of a register that has none", pc))?;
            Expr::constant(Value::from_i128(ty, c / k as i128))
        };
        reinterpret(e, ty).map_err(|m| LiftError::new(m, pc))
    }

    fn is_multiple(&self, r: Reg, k: u64) -> bool {
        self.quot.contains_key(&(r, k)) || self.consts.get(&r).is_some_and(|c| c % k as i128 == 0)
    }

    /// The assignments of the quotient variables of the register `inst` defines, computed
    /// from the operands' values before the definition.
    fn quotient_updates(&mut self, inst: &Inst, pc: usize) -> R<Vec<Stmt>> {
        let Some(dst) = defined(inst) else {
            return Ok(vec![]);
        };
        let ks: Vec<u64> = self
            .quot
            .keys()
            .filter(|(r, _)| *r == dst)
            .map(|(_, k)| *k)
            .collect();
        let mut out = vec![];
        for k in ks {
            let e = match *inst {
                Inst::Const { bits, ty, .. } => {
                    let c = Value::from_bits(ty, bits).as_i128().unwrap_or(0);
                    Expr::constant(Value::from_i128(ty, c / k as i128))
                }
                Inst::Mov { src, .. } => {
                    let ty = self.ty(src).unwrap_or(ScalarType::U64);
                    self.quotient_operand(src, k, ty, pc)?
                }
                Inst::Cast { from, to, src, .. } => {
                    let a = self.quotient_operand(src, k, from, pc)?;
                    if from == to {
                        a
                    } else {
                        Expr::new(ExprKind::Cast(Box::new(a)), to)
                    }
                }
                Inst::Select { dst, cond, a, b } => {
                    let ty = self.ty(dst).unwrap_or(ScalarType::U64);
                    let c = self.operand(cond, ScalarType::Bool, pc)?;
                    let a = self.quotient_operand(a, k, ty, pc)?;
                    let b = self.quotient_operand(b, k, ty, pc)?;
                    Expr::new(ExprKind::Select(Box::new(c), Box::new(a), Box::new(b)), ty)
                }
                Inst::Binary {
                    op,
                    ty,
                    a,
                    b,
                    checked,
                    ..
                } => {
                    let (qa, qb) = match op {
                        BinaryOp::Add | BinaryOp::Sub => (
                            self.quotient_operand(a, k, ty, pc)?,
                            self.quotient_operand(b, k, ty, pc)?,
                        ),
                        BinaryOp::Mul if self.is_multiple(a, k) => (
                            self.quotient_operand(a, k, ty, pc)?,
                            self.operand(b, ty, pc)?,
                        ),
                        BinaryOp::Mul => (
                            self.operand(a, ty, pc)?,
                            self.quotient_operand(b, k, ty, pc)?,
                        ),
                        BinaryOp::Shl if self.is_multiple(a, k) => (
                            self.quotient_operand(a, k, ty, pc)?,
                            self.operand(b, ty, pc)?,
                        ),
                        BinaryOp::Shl => {
                            let s = self.consts.get(&b).copied().unwrap_or(0);
                            let shift = s - (k.trailing_zeros() as i128);
                            (
                                self.operand(a, ty, pc)?,
                                Expr::constant(Value::from_i128(ty, shift)),
                            )
                        }
                        _ => {
                            return Err(LiftError::new(
                                "a quotient of an unsupported operation",
                                pc,
                            ))
                        }
                    };
                    binary_value(op, ty, qa, qb, checked).map_err(|m| LiftError::new(m, pc))?
                }
                _ => return Err(LiftError::new("a quotient of an unsupported operation", pc)),
            };
            let q = self.quot[&(dst, k)];
            let e = self.at_var_type(dst, e, pc)?;
            out.push(self.stmt(StmtKind::Assign { var: q, value: e }, pc));
        }
        Ok(out)
    }

    /// Variables made for values whose register has another type.
    pub fn take_temps(&mut self) -> Vec<(VarId, VarDecl)> {
        std::mem::take(&mut self.temps)
    }

    /// Memory reached through a `volatile` access.
    pub fn volatile_memories(&self) -> Vec<MemRef> {
        self.volatile.clone()
    }

    fn find_fixed(&mut self) {
        let mut defs: HashMap<Reg, Vec<usize>> = HashMap::new();
        for (pc, inst) in self.code.insts.iter().enumerate() {
            if self.cfg.block_of[pc] == usize::MAX {
                continue;
            }
            if let Some(d) = defined(inst) {
                defs.entry(d).or_default().push(pc);
            }
        }
        let mut cand: HashMap<Reg, usize> = defs
            .iter()
            .filter(|(r, pcs)| {
                pcs.len() == 1
                    && self
                        .ty(**r)
                        .is_some_and(|t| t.is_int() || t == ScalarType::Bool)
                    && pure_operands(&self.code.insts[pcs[0]]).is_some()
            })
            .map(|(r, pcs)| (*r, pcs[0]))
            .collect();
        loop {
            let before = cand.len();
            let keep: Vec<Reg> = cand
                .iter()
                .filter(|(_, pc)| {
                    pure_operands(&self.code.insts[**pc])
                        .unwrap_or_default()
                        .iter()
                        .all(|o| cand.get(o).is_some_and(|d| self.def_dominates(*d, **pc)))
                })
                .map(|(r, _)| *r)
                .collect();
            cand.retain(|r, _| keep.contains(r));
            if cand.len() == before {
                break;
            }
        }
        self.fixed = cand;
    }

    /// True when the instruction at `d` runs before every execution of the one at `at`.
    fn def_dominates(&self, d: usize, at: usize) -> bool {
        let (bd, bu) = (self.cfg.block_of[d], self.cfg.block_of[at]);
        if bd == bu {
            d < at
        } else {
            self.cfg.dominates(bd, bu)
        }
    }

    fn ty(&self, r: Reg) -> Option<ScalarType> {
        self.types.get(r as usize).copied().flatten()
    }

    fn var_expr(&self, r: Reg, pc: usize) -> R<Expr> {
        let v = *self
            .var_of
            .get(&r)
            .ok_or_else(|| LiftError::new(format!("register {r} is read but never written"), pc))?;
        let ty = self.kernel_var_ty(v);
        Ok(Expr::new(ExprKind::Var(v), ty))
    }

    fn kernel_var_ty(&self, v: VarId) -> ScalarType {
        self.kernel
            .vars
            .get(v.0 as usize)
            .map(|d| d.ty)
            .unwrap_or(ScalarType::U32)
    }

    /// The value of register `r` where pc `at` reads it, at its variable's type.
    fn reg_value(&mut self, r: Reg, at: usize) -> R<Expr> {
        if let Some((e, _)) = self.local.get(&r) {
            return Ok(e.clone());
        }
        if let Some(&d) = self.fixed.get(&r) {
            if self.def_dominates(d, at) {
                if let Some(e) = self.fixed_expr(r)? {
                    return Ok(e);
                }
            }
        }
        self.var_expr(r, at)
    }

    /// Register `r` read as type `ty` at pc `at`.
    fn operand(&mut self, r: Reg, ty: ScalarType, at: usize) -> R<Expr> {
        let e = self.reg_value(r, at)?;
        reinterpret(e, ty).map_err(|m| LiftError::new(m, at))
    }

    fn fixed_expr(&mut self, r: Reg) -> R<Option<Expr>> {
        if let Some(e) = self.fixed_exprs.get(&r) {
            return Ok(e.clone());
        }
        let Some(&pc) = self.fixed.get(&r) else {
            return Ok(None);
        };
        // Operands of a fixed register are fixed: substitute them all.
        let inst = self.code.insts[pc];
        let e = self.value(&inst, pc, &mut |l, reg, ty, at| {
            let e = match l.fixed_expr(reg)? {
                Some(e) => e,
                None => l.var_expr(reg, at)?,
            };
            reinterpret(e, ty).map_err(|m| LiftError::new(m, at))
        })?;
        let e = e
            .map(|e| self.at_var_type(r, e, pc))
            .transpose()?
            .filter(|e| size(e) <= MAX_INLINE);
        self.fixed_exprs.insert(r, e.clone());
        Ok(e)
    }

    fn at_var_type(&self, r: Reg, e: Expr, pc: usize) -> R<Expr> {
        match self.ty(r) {
            Some(t) => reinterpret(e, t).map_err(|m| LiftError::new(m, pc)),
            None => Ok(e),
        }
    }

    /// Starts a basic block: values of the previous block are no longer known.
    pub fn begin_block(&mut self) {
        self.local.clear();
    }

    /// The value a pure instruction computes, with operands read through `op`; `None` for
    /// instructions that are not pure definitions.
    #[allow(clippy::type_complexity)]
    fn value(
        &mut self,
        inst: &Inst,
        pc: usize,
        op: &mut dyn FnMut(&mut Self, Reg, ScalarType, usize) -> R<Expr>,
    ) -> R<Option<Expr>> {
        let e = match *inst {
            Inst::Const { bits, ty, .. } => Expr::constant(Value::from_bits(ty, bits)),
            Inst::Param { index, ty, .. } => {
                let declared = match self.kernel.params.get(index as usize).map(|p| p.kind) {
                    Some(warpsafe_ir::ParamKind::Scalar(t)) => t,
                    _ => return Err(LiftError::new("a buffer parameter read as a scalar", pc)),
                };
                let e = Expr::new(ExprKind::Param(ParamId(index)), declared);
                reinterpret(e, ty).map_err(|m| LiftError::new(m, pc))?
            }
            Inst::AllocLen { mem, .. } => match self.mem(mem, pc)? {
                MemRef::Global(p) => Expr::new(ExprKind::BufferLen(p), ScalarType::U64),
                _ => return Err(LiftError::new("length of a non-buffer allocation", pc)),
            },
            Inst::Mov { src, .. } => {
                let ty = self.ty(src).unwrap_or(ScalarType::U32);
                op(self, src, ty, pc)?
            }
            Inst::Unary { op: u, ty, a, .. } => {
                let a = op(self, a, ty, pc)?;
                let u = match u {
                    UnaryOp::Neg => UnOp::Neg,
                    UnaryOp::BitNot => UnOp::BitNot,
                    UnaryOp::Not => UnOp::Not,
                };
                Expr::new(ExprKind::Unary(u, Box::new(a)), ty)
            }
            Inst::Binary {
                op: bop,
                ty,
                a,
                b,
                checked,
                ..
            } => {
                let (a, b) = (op(self, a, ty, pc)?, op(self, b, ty, pc)?);
                binary_value(bop, ty, a, b, checked).map_err(|m| LiftError::new(m, pc))?
            }
            Inst::Cmp {
                op: c, ty, a, b, ..
            } => {
                let (a, b) = (op(self, a, ty, pc)?, op(self, b, ty, pc)?);
                let c = match c {
                    CmpOp::Eq => BinOp::Eq,
                    CmpOp::Ne => BinOp::Ne,
                    CmpOp::Lt => BinOp::Lt,
                    CmpOp::Le => BinOp::Le,
                    CmpOp::Gt => BinOp::Gt,
                    CmpOp::Ge => BinOp::Ge,
                };
                Expr::new(
                    ExprKind::Binary(c, Box::new(a), Box::new(b)),
                    ScalarType::Bool,
                )
            }
            Inst::Cast { from, to, src, .. } => {
                let a = op(self, src, from, pc)?;
                if from == to {
                    a
                } else {
                    Expr::new(ExprKind::Cast(Box::new(a)), to)
                }
            }
            Inst::Select { dst, cond, a, b } => {
                let ty = self.ty(dst).unwrap_or(ScalarType::U32);
                let c = op(self, cond, ScalarType::Bool, pc)?;
                let (a, b) = (op(self, a, ty, pc)?, op(self, b, ty, pc)?);
                Expr::new(ExprKind::Select(Box::new(c), Box::new(a), Box::new(b)), ty)
            }
            Inst::Math { f, ty, args, .. } => {
                let mut xs = Vec::new();
                for &a in args.iter().take(f.arity()) {
                    xs.push(op(self, a, ty, pc)?);
                }
                Expr::new(ExprKind::Call(f, xs), ty)
            }
            Inst::Special { which, .. } => Expr::new(ExprKind::Builtin(which), ScalarType::U32),
            _ => return Ok(None),
        };
        Ok(Some(e))
    }

    fn mem(&self, m: MemId, pc: usize) -> R<MemRef> {
        self.mems
            .get(m as usize)
            .copied()
            .ok_or_else(|| LiftError::new(format!("allocation {m} out of range"), pc))
    }

    /// The element index of an access of `ty` at the byte offset in `offset`, and the
    /// alignment assertion it needs when the offset does not divide structurally.
    fn index(
        &mut self,
        mem: MemRef,
        ty: ScalarType,
        offset: Reg,
        pc: usize,
    ) -> R<(Expr, Option<Stmt>)> {
        let elem = self.kernel_elem(mem);
        if elem.size_bytes() != ty.size_bytes() {
            return Err(LiftError::new(
                format!(
                    "a {} access to memory of {} (mixed-width access)",
                    ty.name(),
                    elem.name()
                ),
                pc,
            ));
        }
        let off = self.operand(offset, ScalarType::I64, pc)?;
        let k = ty.size_bytes() as i128;
        let (quot, reg_of) = (&self.quot, &self.reg_of);
        let leaf = |e: &Expr| {
            let ExprKind::Var(v) = e.kind else {
                return None;
            };
            let q = quot.get(&(*reg_of.get(&v)?, k as u64))?;
            Some(Expr::new(ExprKind::Var(*q), e.ty))
        };
        if let Some(i) = divide_exact(&off, k, &leaf) {
            return Ok((i, None));
        }
        let kk = Expr::constant(Value::I64(k as i64));
        let idx = binary(BinOp::Div, off.clone(), kk.clone());
        let rem = binary(BinOp::Rem, off, kk);
        let aligned = Expr::new(
            ExprKind::Binary(
                BinOp::Eq,
                Box::new(rem),
                Box::new(Expr::constant(Value::I64(0))),
            ),
            ScalarType::Bool,
        );
        Ok((
            idx,
            Some(self.stmt(StmtKind::Assert(aligned, Check::Aligned), pc)),
        ))
    }

    fn kernel_elem(&self, m: MemRef) -> ScalarType {
        match m {
            MemRef::Global(p) => match self.kernel.params.get(p.0 as usize).map(|p| p.kind) {
                Some(warpsafe_ir::ParamKind::Buffer { elem, .. }) => elem,
                _ => ScalarType::U8,
            },
            MemRef::Shared(a) => self.code_elem(a.0, warpsafe_exec::thread::code::Space::Shared),
            MemRef::Local(a) => self.code_elem(a.0, warpsafe_exec::thread::code::Space::Local),
        }
    }

    fn code_elem(&self, nth: u32, space: warpsafe_exec::thread::code::Space) -> ScalarType {
        self.code
            .allocs
            .iter()
            .filter(|a| a.space == space)
            .nth(nth as usize)
            .map(|a| a.elem)
            .unwrap_or(ScalarType::U8)
    }

    fn stmt(&mut self, mut kind: StmtKind, pc: usize) -> Stmt {
        self.emitted += 1;
        let span = self.span(pc);
        for e in exprs_mut(&mut kind) {
            fill_spans(e, span);
        }
        Stmt::new(kind).with_span(span)
    }

    fn span(&self, pc: usize) -> Span {
        self.code.spans.get(pc).copied().unwrap_or(Span::DUMMY)
    }

    /// The variable a collective writes: the register's own when its type is `ty`, else a
    /// fresh one copied into it afterwards by `out`.
    fn dst_var(&mut self, r: Reg, ty: ScalarType, pc: usize, out: &mut Vec<Stmt>) -> R<VarId> {
        let v = *self
            .var_of
            .get(&r)
            .ok_or_else(|| LiftError::new("a result register without a variable", pc))?;
        if self.kernel_var_ty(v) == ty {
            return Ok(v);
        }
        let t = VarId(self.next_var);
        self.next_var += 1;
        self.temps.push((
            t,
            VarDecl {
                name: format!("t{}", t.0),
                ty,
                span: Span::DUMMY,
            },
        ));
        let value = reinterpret(Expr::new(ExprKind::Var(t), ty), self.kernel_var_ty(v))
            .map_err(|m| LiftError::new(m, pc))?;
        out.push(self.stmt(StmtKind::Assign { var: v, value }, pc));
        Ok(t)
    }

    /// Records that register `r` now holds `e` (at its variable type) for later reads in
    /// this block, and forgets values that read the old `r`.
    fn define(&mut self, r: Reg, e: Option<Expr>) {
        self.local.retain(|_, (_, reads)| !reads.contains(&r));
        self.local.remove(&r);
        if let Some(e) =
            e.filter(|e| (e.ty.is_int() || e.ty == ScalarType::Bool) && size(e) <= MAX_INLINE)
        {
            let mut reads = HashSet::new();
            vars_read(&e, &self.reg_of, &mut reads);
            if !reads.contains(&r) {
                self.local.insert(r, (e, reads));
            }
        }
    }

    /// The statements of the instruction at `pc` (not a jump, branch or exit).
    pub fn lift(&mut self, pc: usize) -> R<Vec<Stmt>> {
        let inst = self.code.insts[pc];
        let mut out = Vec::new();
        if let Some(dst) = defined(&inst) {
            let quotients = self.quotient_updates(&inst, pc)?;
            out.extend(quotients);
            if let Some(e) = self.value(&inst, pc, &mut |l, r, ty, at| l.operand(r, ty, at))? {
                let v = *self
                    .var_of
                    .get(&dst)
                    .ok_or_else(|| LiftError::new("a result register without a variable", pc))?;
                let e = self.at_var_type(dst, e, pc)?;
                out.push(self.stmt(
                    StmtKind::Assign {
                        var: v,
                        value: e.clone(),
                    },
                    pc,
                ));
                let keep = !self.fixed.contains_key(&dst);
                self.define(dst, keep.then_some(e));
                return Ok(out);
            }
        }
        match inst {
            Inst::Load {
                ty,
                dst,
                mem,
                offset,
                volatile,
            } => {
                let m = self.mem(mem, pc)?;
                self.note_volatile(m, volatile);
                let (i, check) = self.index(m, ty, offset, pc)?;
                out.extend(check);
                let elem = self.kernel_elem(m);
                let e = Expr::new(ExprKind::Load(m, vec![i]), elem);
                let v = *self
                    .var_of
                    .get(&dst)
                    .ok_or_else(|| LiftError::new("a result register without a variable", pc))?;
                let e = self.at_var_type(dst, e, pc)?;
                out.push(self.stmt(StmtKind::Assign { var: v, value: e }, pc));
                self.define(dst, None);
            }
            Inst::Store {
                ty,
                mem,
                offset,
                src,
                volatile,
            } => {
                let m = self.mem(mem, pc)?;
                self.note_volatile(m, volatile);
                let (i, check) = self.index(m, ty, offset, pc)?;
                out.extend(check);
                let elem = self.kernel_elem(m);
                let value = self.operand(src, elem, pc)?;
                out.push(self.stmt(
                    StmtKind::Store {
                        mem: m,
                        indices: vec![i],
                        value,
                    },
                    pc,
                ));
            }
            Inst::Atomic {
                op,
                ty,
                dst,
                mem,
                offset,
                value,
                compare,
            } => {
                let m = self.mem(mem, pc)?;
                let (i, check) = self.index(m, ty, offset, pc)?;
                out.extend(check);
                let elem = self.kernel_elem(m);
                let value = self.operand(value, elem, pc)?;
                let compare = compare.map(|c| self.operand(c, elem, pc)).transpose()?;
                let mut after = Vec::new();
                let d = dst
                    .map(|d| self.dst_var(d, elem, pc, &mut after))
                    .transpose()?;
                out.push(self.stmt(
                    StmtKind::Atomic {
                        dst: d,
                        op,
                        mem: m,
                        indices: vec![i],
                        value,
                        compare,
                    },
                    pc,
                ));
                out.extend(after);
                if let Some(d) = dst {
                    self.define(d, None);
                }
            }
            Inst::Barrier { .. } => out.push(self.stmt(StmtKind::SyncThreads, pc)),
            Inst::GridBarrier { .. } => out.push(self.stmt(StmtKind::SyncGrid, pc)),
            Inst::SyncWarp { mask } => {
                let mask = self.operand(mask, ScalarType::U32, pc)?;
                out.push(self.stmt(StmtKind::SyncWarp { mask }, pc));
            }
            Inst::Shuffle {
                kind,
                ty,
                dst,
                mask,
                value,
                lane,
                width,
            } => {
                let mask = self.operand(mask, ScalarType::U32, pc)?;
                let value = self.operand(value, ty, pc)?;
                let lane = self.operand(lane, ScalarType::U32, pc)?;
                let width = self.operand(width, ScalarType::U32, pc)?;
                let mut after = Vec::new();
                let d = self.dst_var(dst, ty, pc, &mut after)?;
                out.push(self.stmt(
                    StmtKind::Shuffle {
                        dst: d,
                        kind,
                        mask,
                        value,
                        lane,
                        width,
                    },
                    pc,
                ));
                out.extend(after);
                self.define(dst, None);
            }
            Inst::Vote {
                kind,
                dst,
                mask,
                pred,
            } => {
                let mask = self.operand(mask, ScalarType::U32, pc)?;
                let pred = self.operand(pred, ScalarType::Bool, pc)?;
                let mut after = Vec::new();
                let d = self.dst_var(dst, kind.result_ty(), pc, &mut after)?;
                out.push(self.stmt(
                    StmtKind::Vote {
                        dst: d,
                        kind,
                        mask,
                        pred,
                    },
                    pc,
                ));
                out.extend(after);
                self.define(dst, None);
            }
            Inst::ActiveMask { dst } => {
                let mut after = Vec::new();
                let d = self.dst_var(dst, ScalarType::U32, pc, &mut after)?;
                out.push(self.stmt(StmtKind::ActiveMask { dst: d }, pc));
                out.extend(after);
                self.define(dst, None);
            }
            Inst::Arbitrary { .. } => {
                // PTX has no such instruction (only thread code lowered from IR does); the
                // lifter's dataflow passes do not model it, so refuse rather than guess.
                return Err(LiftError::new(
                    "an arbitrary value (clock(), a function without a body): lifting is not defined",
                    pc,
                ));
            }
            Inst::BarrierVote {
                kind, dst, pred, ..
            } => {
                let pred = self.operand(pred, ScalarType::Bool, pc)?;
                let mut after = Vec::new();
                let d = self.dst_var(dst, ScalarType::I32, pc, &mut after)?;
                out.push(self.stmt(StmtKind::SyncThreadsVote { dst: d, kind, pred }, pc));
                out.extend(after);
                self.define(dst, None);
            }
            Inst::Assume { cond } => {
                let c = self.operand(cond, ScalarType::Bool, pc)?;
                out.push(self.stmt(StmtKind::Assume(c), pc));
            }
            Inst::Assert { cond, check } => {
                let c = self.operand(cond, ScalarType::Bool, pc)?;
                out.push(self.stmt(StmtKind::Assert(c, check), pc));
            }
            Inst::Math { .. }
            | Inst::Jump { .. }
            | Inst::Branch { .. }
            | Inst::Exit
            | Inst::Const { .. }
            | Inst::Param { .. }
            | Inst::AllocLen { .. }
            | Inst::Mov { .. }
            | Inst::Unary { .. }
            | Inst::Binary { .. }
            | Inst::Cmp { .. }
            | Inst::Cast { .. }
            | Inst::Select { .. }
            | Inst::Special { .. } => {}
        }
        Ok(out)
    }

    fn note_volatile(&mut self, m: MemRef, volatile: bool) {
        if volatile && !self.volatile.contains(&m) {
            self.volatile.push(m);
        }
    }

    /// The condition under which the branch at `pc` is taken.
    pub fn branch_cond(&mut self, pc: usize) -> R<Expr> {
        let Inst::Branch { cond, when, .. } = self.code.insts[pc] else {
            return Err(LiftError::new("not a branch", pc));
        };
        let c = self.operand(cond, ScalarType::Bool, pc)?;
        Ok(if when { c } else { not(c) })
    }
}

/// The expressions a statement evaluates directly.
pub(crate) fn exprs_mut(kind: &mut StmtKind) -> Vec<&mut Expr> {
    match kind {
        StmtKind::Assign { value, .. } => vec![value],
        StmtKind::Store { indices, value, .. } => indices.iter_mut().chain([value]).collect(),
        StmtKind::Atomic {
            indices,
            value,
            compare,
            ..
        } => indices
            .iter_mut()
            .chain([value])
            .chain(compare.iter_mut())
            .collect(),
        StmtKind::SyncWarp { mask } => vec![mask],
        StmtKind::Shuffle {
            mask,
            value,
            lane,
            width,
            ..
        } => vec![mask, value, lane, width],
        StmtKind::Vote { mask, pred, .. } => vec![mask, pred],
        StmtKind::SyncThreadsVote { pred, .. } => vec![pred],
        StmtKind::Assume(e) | StmtKind::Assert(e, _) => vec![e],
        _ => vec![],
    }
}

/// Gives every node of `e` without a position the position `span` (the PTX line), so
/// findings about loads and arithmetic point at their instruction.
pub(crate) fn fill_spans(e: &mut Expr, span: Span) {
    if e.span.is_dummy() {
        e.span = span;
    }
    match &mut e.kind {
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => fill_spans(a, span),
        ExprKind::Binary(_, a, b) | ExprKind::Logical(_, a, b) => {
            fill_spans(a, span);
            fill_spans(b, span);
        }
        ExprKind::Select(c, a, b) => {
            fill_spans(c, span);
            fill_spans(a, span);
            fill_spans(b, span);
        }
        ExprKind::Call(_, xs) | ExprKind::Load(_, xs) => {
            xs.iter_mut().for_each(|x| fill_spans(x, span));
        }
        _ => {}
    }
}

/// `!c`, removing a double negation.
pub(crate) fn not(c: Expr) -> Expr {
    match c.kind {
        ExprKind::Unary(UnOp::Not, inner) => *inner,
        _ => Expr::new(ExprKind::Unary(UnOp::Not, Box::new(c)), ScalarType::Bool),
    }
}

/// `a op b` on type `ty`, wrapping signed arithmetic done on the unsigned type.
fn binary_value(
    op: BinaryOp,
    ty: ScalarType,
    a: Expr,
    b: Expr,
    checked: bool,
) -> Result<Expr, String> {
    if ty == ScalarType::Bool {
        let o = match op {
            BinaryOp::And => BinOp::BitAnd,
            BinaryOp::Or => BinOp::BitOr,
            BinaryOp::Xor => BinOp::Ne,
            _ => return Err(format!("{op:?} on predicates")),
        };
        return Ok(Expr::new(
            ExprKind::Binary(o, Box::new(a), Box::new(b)),
            ScalarType::Bool,
        ));
    }
    let o = match op {
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::Div => BinOp::Div,
        BinaryOp::Rem => BinOp::Rem,
        BinaryOp::And => BinOp::BitAnd,
        BinaryOp::Or => BinOp::BitOr,
        BinaryOp::Xor => BinOp::BitXor,
        BinaryOp::Shl => BinOp::Shl,
        BinaryOp::Shr => BinOp::Shr,
        BinaryOp::Min => BinOp::Min,
        BinaryOp::Max => BinOp::Max,
    };
    // Signed additions, subtractions and multiplications stay signed: they mirror the
    // source's, whose overflow the `overflow` property reports. Shifts of signed values are
    // done on the bits.
    if o == BinOp::Shl && !checked && ty.is_signed() {
        let u = unsigned_of(ty.bits());
        let cast = |e: Expr, t: ScalarType| Expr::new(ExprKind::Cast(Box::new(e)), t);
        let r = binary(o, cast(a, u), cast(b, u));
        return Ok(cast(r, ty));
    }
    Ok(binary(o, a, b))
}

/// The register an instruction defines, if any.
pub(crate) fn defined(inst: &Inst) -> Option<Reg> {
    match *inst {
        Inst::Const { dst, .. }
        | Inst::Param { dst, .. }
        | Inst::AllocLen { dst, .. }
        | Inst::Mov { dst, .. }
        | Inst::Unary { dst, .. }
        | Inst::Binary { dst, .. }
        | Inst::Cmp { dst, .. }
        | Inst::Cast { dst, .. }
        | Inst::Select { dst, .. }
        | Inst::Math { dst, .. }
        | Inst::Special { dst, .. }
        | Inst::Load { dst, .. }
        | Inst::Shuffle { dst, .. }
        | Inst::Vote { dst, .. }
        | Inst::ActiveMask { dst }
        | Inst::Arbitrary { dst, .. }
        | Inst::BarrierVote { dst, .. } => Some(dst),
        Inst::Atomic { dst, .. } => dst,
        _ => None,
    }
}

/// The registers a pure integer definition reads; `None` for other instructions.
fn pure_operands(inst: &Inst) -> Option<Vec<Reg>> {
    Some(match *inst {
        Inst::Const { .. } | Inst::Param { .. } | Inst::AllocLen { .. } | Inst::Special { .. } => {
            vec![]
        }
        Inst::Mov { src, .. } | Inst::Cast { src, .. } => vec![src],
        Inst::Unary { a, .. } => vec![a],
        Inst::Binary { a, b, .. } | Inst::Cmp { a, b, .. } => vec![a, b],
        Inst::Select { cond, a, b, .. } => vec![cond, a, b],
        _ => return None,
    })
}

fn size(e: &Expr) -> usize {
    let mut n = 0;
    e.walk(&mut |_| n += 1);
    n
}

/// The registers whose variables `e` reads.
fn vars_read(e: &Expr, reg_of: &HashMap<VarId, Reg>, out: &mut HashSet<Reg>) {
    e.walk(&mut |x| {
        if let ExprKind::Var(v) = &x.kind {
            out.extend(reg_of.get(v));
        }
    });
}
