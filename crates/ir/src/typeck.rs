//! The type checker: every expression's type agrees with its operands, memory is used
//! as declared, and control flow is well formed.

use crate::{
    AtomicOp, BinOp, Expr, ExprKind, Kernel, MathFn, MemRef, ParamKind, ScalarType, Span, Stmt,
    StmtKind, UnOp,
};
use thiserror::Error;

/// A type error at a source span.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct TypeError {
    /// What is wrong.
    pub message: String,
    /// Where.
    pub span: Span,
}

/// Checks a kernel; returns every error found, in source order.
pub fn check_kernel(kernel: &Kernel) -> Result<(), Vec<TypeError>> {
    let mut cx = Checker {
        kernel,
        errors: vec![],
        declared: vec![false; kernel.vars.len()],
        loop_depth: 0,
    };
    cx.block(&kernel.body);
    cx.contract();
    if cx.errors.is_empty() {
        Ok(())
    } else {
        Err(cx.errors)
    }
}

struct Checker<'k> {
    kernel: &'k Kernel,
    errors: Vec<TypeError>,
    declared: Vec<bool>,
    loop_depth: u32,
}

impl Checker<'_> {
    fn err(&mut self, span: Span, message: impl Into<String>) {
        self.errors.push(TypeError {
            message: message.into(),
            span,
        });
    }

    fn expect(&mut self, e: &Expr, ty: ScalarType, what: &str) {
        self.expr(e);
        if e.ty != ty {
            self.err(e.span, format!("{what} must be {ty}, found {}", e.ty));
        }
    }

    fn expect_int(&mut self, e: &Expr, what: &str) {
        self.expr(e);
        if !e.ty.is_int() {
            self.err(e.span, format!("{what} must be an integer, found {}", e.ty));
        }
    }

    fn contract(&mut self) {
        let c = &self.kernel.contract;
        for l in &c.lengths {
            if !matches!(self.param_kind(l.param), Some(ParamKind::Buffer { .. })) {
                self.err(l.len.span, "len() names a parameter that is not a buffer");
            }
            self.expect_int(&l.len, "a buffer length");
        }
        for r in &c.requires {
            self.expect(r, ScalarType::Bool, "a precondition");
        }
        for (p, v) in &c.defaults {
            match self.param_kind(*p) {
                Some(ParamKind::Scalar(t)) if t == v.ty() => {}
                _ => self.err(
                    self.kernel.span,
                    format!("default value {v} does not fit parameter #{}", p.0),
                ),
            }
        }
        if let Some(e) = &c.dynamic_shared_bytes {
            self.expect_int(e, "the dynamic shared memory size");
        }
    }

    fn param_kind(&self, p: crate::ParamId) -> Option<ParamKind> {
        self.kernel.params.get(p.0 as usize).map(|p| p.kind)
    }

    fn block(&mut self, b: &[Stmt]) {
        for s in b {
            self.stmt(s);
        }
    }

    fn var_ty(&mut self, v: crate::VarId, span: Span) -> Option<ScalarType> {
        match self.kernel.vars.get(v.0 as usize) {
            Some(d) => Some(d.ty),
            None => {
                self.err(span, format!("unknown variable #{}", v.0));
                None
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { var, init } => {
                let Some(ty) = self.var_ty(*var, s.span) else {
                    return;
                };
                if let Some(e) = init {
                    self.expect(e, ty, "the initial value");
                }
                let slot = &mut self.declared[var.0 as usize];
                if *slot {
                    let name = self.kernel.var(*var).name.clone();
                    self.err(s.span, format!("variable `{name}` is declared twice"));
                }
                self.declared[var.0 as usize] = true;
            }
            StmtKind::Assign { var, value } => {
                if let Some(ty) = self.var_ty(*var, s.span) {
                    self.expect(value, ty, "the assigned value");
                    self.check_declared(*var, s.span);
                }
            }
            StmtKind::Store {
                mem,
                indices,
                value,
            } => {
                self.mem_access(*mem, indices, s.span, true);
                let elem = self.kernel.elem_type(*mem);
                self.expect(value, elem, "the stored value");
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                self.expect(cond, ScalarType::Bool, "a condition");
                self.block(then_body);
                self.block(else_body);
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                self.block(init);
                if let Some(c) = cond {
                    self.expect(c, ScalarType::Bool, "a loop condition");
                }
                self.loop_body(body);
                self.block(update);
            }
            StmtKind::While { cond, body } => {
                self.expect(cond, ScalarType::Bool, "a loop condition");
                self.loop_body(body);
            }
            StmtKind::DoWhile { body, cond } => {
                self.loop_body(body);
                self.expect(cond, ScalarType::Bool, "a loop condition");
            }
            StmtKind::Break | StmtKind::Continue => {
                if self.loop_depth == 0 {
                    self.err(s.span, "`break`/`continue` outside a loop");
                }
            }
            StmtKind::Return | StmtKind::SyncThreads | StmtKind::SyncGrid => {}
            StmtKind::SyncWarp { mask } => self.expect(mask, ScalarType::U32, "a warp mask"),
            StmtKind::Shuffle {
                dst,
                mask,
                value,
                lane,
                width,
                ..
            } => {
                self.expect(mask, ScalarType::U32, "a warp mask");
                self.expect(lane, ScalarType::U32, "a shuffle lane or delta");
                self.expect(width, ScalarType::U32, "a shuffle width");
                self.expr(value);
                if !value.ty.is_numeric() {
                    self.err(value.span, "a shuffled value must be a number");
                }
                if let Some(ty) = self.var_ty(*dst, s.span) {
                    if ty != value.ty {
                        self.err(s.span, format!("shuffle of {} into a {ty}", value.ty));
                    }
                    self.check_declared(*dst, s.span);
                }
            }
            StmtKind::Vote {
                dst,
                kind,
                mask,
                pred,
            } => {
                self.expect(mask, ScalarType::U32, "a warp mask");
                self.expect(pred, ScalarType::Bool, "a vote predicate");
                self.expect_dst(*dst, kind.result_ty(), kind.c_name(), s.span);
            }
            StmtKind::ActiveMask { dst } => {
                self.expect_dst(*dst, ScalarType::U32, "__activemask", s.span);
            }
            StmtKind::Arbitrary { dst } => {
                if self.var_ty(*dst, s.span).is_some() {
                    self.check_declared(*dst, s.span);
                }
            }
            StmtKind::SyncThreadsVote { dst, kind, pred } => {
                self.expect(pred, ScalarType::Bool, "a barrier predicate");
                self.expect_dst(*dst, ScalarType::I32, kind.c_name(), s.span);
            }
            StmtKind::Atomic {
                dst,
                op,
                mem,
                indices,
                value,
                compare,
            } => self.atomic(s.span, *dst, *op, *mem, indices, value, compare.as_ref()),
            StmtKind::Assume(e) => self.expect(e, ScalarType::Bool, "an assumption"),
            StmtKind::Assert(e, _) => self.expect(e, ScalarType::Bool, "an assertion"),
        }
    }

    fn expect_dst(&mut self, dst: crate::VarId, want: ScalarType, what: &str, span: Span) {
        if let Some(ty) = self.var_ty(dst, span) {
            if ty != want {
                self.err(span, format!("{what} returns a {want}, not a {ty}"));
            }
            self.check_declared(dst, span);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn atomic(
        &mut self,
        span: Span,
        dst: Option<crate::VarId>,
        op: AtomicOp,
        mem: MemRef,
        indices: &[Expr],
        value: &Expr,
        compare: Option<&Expr>,
    ) {
        if matches!(mem, MemRef::Local(_)) {
            self.err(span, "atomics on thread-local arrays are not supported");
        }
        self.mem_access(mem, indices, span, true);
        let elem = self.kernel.elem_type(mem);
        self.expect(value, elem, "the atomic operand");
        let ok = match op {
            AtomicOp::Add | AtomicOp::Exch => elem.is_numeric(),
            // On float memory the compare is on the bits (CUDA's float CAS loop through an
            // `int *` view of the same memory).
            AtomicOp::Cas => elem.is_int() || matches!(elem, ScalarType::F32 | ScalarType::F64),
            AtomicOp::Sub
            | AtomicOp::Max
            | AtomicOp::Min
            | AtomicOp::And
            | AtomicOp::Or
            | AtomicOp::Xor => elem.is_int(),
            // On `int` memory the bits are read as `unsigned int` (an `unsigned int *` view).
            AtomicOp::Inc | AtomicOp::Dec => matches!(elem, ScalarType::U32 | ScalarType::I32),
        };
        if !ok {
            self.err(span, format!("{} is not defined on {elem}", op.c_name()));
        }
        match (op, compare) {
            (AtomicOp::Cas, Some(c)) => self.expect(c, elem, "the compare value"),
            (AtomicOp::Cas, None) => self.err(span, "atomicCAS needs a compare value"),
            (_, Some(c)) => self.err(c.span, "only atomicCAS takes a compare value"),
            (_, None) => {}
        }
        if let Some(d) = dst {
            if let Some(ty) = self.var_ty(d, span) {
                if ty != elem {
                    self.err(
                        span,
                        format!("old value of {elem} atomic stored into a {ty}"),
                    );
                }
                self.check_declared(d, span);
            }
        }
    }

    fn check_declared(&mut self, v: crate::VarId, span: Span) {
        if !self.declared[v.0 as usize] {
            let name = self.kernel.var(v).name.clone();
            self.err(
                span,
                format!("variable `{name}` used before its declaration"),
            );
        }
    }

    fn loop_body(&mut self, body: &[Stmt]) {
        self.loop_depth += 1;
        self.block(body);
        self.loop_depth -= 1;
    }

    fn mem_access(&mut self, mem: MemRef, indices: &[Expr], span: Span, write: bool) {
        let dims = match mem {
            MemRef::Global(p) => match self.param_kind(p) {
                Some(ParamKind::Buffer { writable, .. }) => {
                    if write && !writable {
                        let name = self.kernel.param(p).name.clone();
                        self.err(span, format!("write to read-only buffer `{name}`"));
                    }
                    1
                }
                _ => {
                    self.err(
                        span,
                        "memory access through a parameter that is not a buffer",
                    );
                    return;
                }
            },
            MemRef::Shared(a) => match self.kernel.shared.get(a.0 as usize) {
                Some(d) => d.dims.len(),
                None => return self.err(span, "unknown shared array"),
            },
            MemRef::Local(a) => match self.kernel.locals.get(a.0 as usize) {
                Some(d) => d.dims.len(),
                None => return self.err(span, "unknown local array"),
            },
        };
        if indices.len() != dims {
            self.err(
                span,
                format!(
                    "`{}` has {dims} dimension(s) but is indexed with {}",
                    self.kernel.mem_name(mem),
                    indices.len()
                ),
            );
        }
        for i in indices {
            self.expect_int(i, "an index");
        }
    }

    fn expr(&mut self, e: &Expr) {
        let ty = e.ty;
        match &e.kind {
            ExprKind::Const(v) => {
                if v.ty() != ty {
                    self.err(e.span, format!("constant {v} labelled {ty}"));
                }
            }
            ExprKind::Var(v) => {
                if let Some(vt) = self.var_ty(*v, e.span) {
                    if vt != ty {
                        self.err(e.span, format!("variable of type {vt} read as {ty}"));
                    }
                    self.check_declared(*v, e.span);
                }
            }
            ExprKind::Param(p) => match self.param_kind(*p) {
                Some(ParamKind::Scalar(t)) if t == ty => {}
                Some(ParamKind::Scalar(t)) => {
                    self.err(e.span, format!("parameter of type {t} read as {ty}"))
                }
                _ => self.err(e.span, "a buffer parameter used as a scalar"),
            },
            ExprKind::Builtin(_) => {
                if ty != ScalarType::U32 {
                    self.err(e.span, "launch builtins are u32");
                }
            }
            ExprKind::BufferLen(p) => {
                if !matches!(self.param_kind(*p), Some(ParamKind::Buffer { .. })) {
                    self.err(e.span, "len() of a parameter that is not a buffer");
                }
                if ty != ScalarType::U64 {
                    self.err(e.span, "len() is u64");
                }
            }
            ExprKind::Unary(op, a) => {
                self.expr(a);
                let ok = a.ty == ty
                    && match op {
                        UnOp::Neg => ty.is_numeric(),
                        UnOp::BitNot => ty.is_int(),
                        UnOp::Not => ty == ScalarType::Bool,
                    };
                if !ok {
                    self.err(e.span, format!("{op:?} does not apply to {}", a.ty));
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b),
            ExprKind::Logical(_, a, b) => {
                self.expect(a, ScalarType::Bool, "an operand of && or ||");
                self.expect(b, ScalarType::Bool, "an operand of && or ||");
                if ty != ScalarType::Bool {
                    self.err(e.span, "&& and || produce bool");
                }
            }
            ExprKind::Cast(a) => self.expr(a),
            ExprKind::Select(c, a, b) => {
                self.expect(c, ScalarType::Bool, "a condition");
                self.expect(a, ty, "a branch of ?:");
                self.expect(b, ty, "a branch of ?:");
            }
            ExprKind::Call(f, args) => {
                if args.len() != f.arity() {
                    self.err(
                        e.span,
                        format!("{} takes {} argument(s)", f.name(), f.arity()),
                    );
                }
                if *f == MathFn::Bits {
                    // A reinterpretation: any numeric argument of the result's width.
                    for a in args {
                        self.expr(a);
                        let from = a.ty;
                        let ok = from.is_numeric() && ty.is_numeric() && from.bits() == ty.bits();
                        if !ok {
                            self.err(
                                e.span,
                                format!("the bits of a {from} cannot be read as a {ty}"),
                            );
                        }
                    }
                    return;
                }
                for a in args {
                    self.expect(a, ty, "a math argument");
                }
                let ok = if *f == MathFn::Abs {
                    ty.is_numeric()
                } else {
                    ty.is_float()
                };
                if !ok {
                    self.err(e.span, format!("{} is not defined on {ty}", f.name()));
                }
            }
            ExprKind::Load(mem, indices) => {
                self.mem_access(*mem, indices, e.span, false);
                let elem = self.kernel.elem_type(*mem);
                if elem != ty {
                    self.err(e.span, format!("load of {elem} labelled {ty}"));
                }
            }
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) {
        self.expr(a);
        self.expr(b);
        if a.ty != b.ty {
            self.err(
                e.span,
                format!(
                    "operands of `{}` differ: {} and {}",
                    op.symbol(),
                    a.ty,
                    b.ty
                ),
            );
            return;
        }
        let t = a.ty;
        let want = if op.is_comparison() {
            ScalarType::Bool
        } else {
            t
        };
        if e.ty != want {
            self.err(
                e.span,
                format!("`{}` produces {want}, labelled {}", op.symbol(), e.ty),
            );
        }
        let ok = match op {
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => t.is_int() || t == ScalarType::Bool,
            BinOp::Rem | BinOp::Shl | BinOp::Shr => t.is_int(),
            BinOp::Eq | BinOp::Ne => true,
            _ => t.is_numeric(),
        };
        if !ok {
            self.err(e.span, format!("`{}` is not defined on {t}", op.symbol()));
        }
    }
}
