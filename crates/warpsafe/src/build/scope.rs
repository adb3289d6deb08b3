//! The recorder behind `#[kernel]`: generated code calls these methods in source order and they
//! append typed IR statements to the kernel being built.

use super::infer::{Infer, Kind, Ty};
use warpsafe_ir::{
    ArrayDecl, ArrayId, AtomicOp, BinOp, Block, Builtin, Check, Contract, Expr, ExprKind, Kernel,
    LogicOp, MathFn, MemRef, Param, ParamId, ParamKind, ScalarType, ShuffleKind, Span, Stmt,
    StmtKind, UnOp, Value, VarDecl, VarId,
};

/// A recorded value: an IR expression and its (possibly not yet inferred) type.
#[derive(Clone, Debug)]
pub struct Val {
    pub(crate) expr: Expr,
    pub(crate) ty: Ty,
}

/// A recorded local variable.
#[derive(Clone, Debug)]
pub struct Var {
    pub(crate) id: VarId,
    pub(crate) ty: Ty,
}

/// A recorded memory: a buffer parameter, a shared array or a local array.
#[derive(Clone, Debug)]
pub struct Mem {
    pub(crate) mem: MemRef,
    pub(crate) elem: Ty,
    pub(crate) dims: usize,
    pub(crate) name: String,
}

/// A problem found while recording a kernel, at a source span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildMessage {
    /// What is wrong.
    pub message: String,
    /// Where (byte offsets into the Rust source file, or dummy).
    pub span: Span,
}

/// Unary operators as written in Rust (`!` is bitwise on integers, logical on `bool`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RustUnOp {
    /// `-x`
    Neg,
    /// `!x`
    Not,
}

/// The recording context handed to generated code (`__cx`).
pub struct Scope {
    kernel: Kernel,
    var_tys: Vec<Ty>,
    blocks: Vec<Block>,
    infer: Infer,
    errors: Vec<BuildMessage>,
    helper_depth: u32,
}

/// True when `e` reads neither variables nor memory, so its value cannot change.
fn is_stable(e: &Expr) -> bool {
    let mut stable = true;
    e.walk(&mut |x| {
        if matches!(x.kind, ExprKind::Var(_) | ExprKind::Load(..)) {
            stable = false;
        }
    });
    stable
}

impl Scope {
    pub(crate) fn new(name: &str, span: Span, infer: Infer) -> Scope {
        Scope {
            kernel: Kernel {
                name: name.to_string(),
                params: vec![],
                vars: vec![],
                shared: vec![],
                locals: vec![],
                body: vec![],
                contract: Contract::default(),
                span,
            },
            var_tys: vec![],
            blocks: vec![vec![]],
            infer,
            errors: vec![],
            helper_depth: 0,
        }
    }

    pub(crate) fn into_parts(mut self) -> (Kernel, Infer, Vec<BuildMessage>) {
        self.kernel.body = self.blocks.into_iter().next().unwrap_or_default();
        (self.kernel, self.infer, self.errors)
    }

    /// Records an error at `span` (recording goes on so that every error is reported).
    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.errors.push(BuildMessage {
            message: message.into(),
            span,
        });
    }

    fn unify(&mut self, a: Ty, b: Ty, span: Span) {
        if let Err(m) = self.infer.unify(a, b) {
            self.error(span, m);
        }
    }

    fn mk(&mut self, kind: ExprKind, ty: Ty, span: Span) -> Val {
        let st = self.infer.concrete(ty);
        Val {
            expr: Expr::new(kind, st).with_span(span),
            ty,
        }
    }

    fn push(&mut self, kind: StmtKind, span: Span) {
        if let Some(b) = self.blocks.last_mut() {
            b.push(Stmt::new(kind).with_span(span));
        }
    }

    fn declare(&mut self, name: &str, ty: Ty, span: Span) -> Var {
        let st = self.infer.concrete(ty);
        self.kernel.vars.push(VarDecl {
            name: name.to_string(),
            ty: st,
            span,
        });
        self.var_tys.push(ty);
        Var {
            id: VarId(self.kernel.vars.len() as u32 - 1),
            ty,
        }
    }

    // ---- parameters -------------------------------------------------------------------

    /// Declares a scalar parameter and returns its value.
    pub fn scalar_param(&mut self, name: &str, ty: ScalarType, span: Span) -> Val {
        let p = self.add_param(name, ParamKind::Scalar(ty), span);
        self.mk(ExprKind::Param(p), Ty::Known(ty), span)
    }

    /// Declares a global buffer parameter.
    pub fn buffer_param(
        &mut self,
        name: &str,
        elem: ScalarType,
        writable: bool,
        span: Span,
    ) -> Mem {
        let p = self.add_param(name, ParamKind::Buffer { elem, writable }, span);
        Mem {
            mem: MemRef::Global(p),
            elem: Ty::Known(elem),
            dims: 1,
            name: name.to_string(),
        }
    }

    fn add_param(&mut self, name: &str, kind: ParamKind, span: Span) -> ParamId {
        self.kernel.params.push(Param {
            name: name.to_string(),
            kind,
            span,
        });
        ParamId(self.kernel.params.len() as u32 - 1)
    }

    // ---- values -----------------------------------------------------------------------

    /// A typed constant (a suffixed literal, `true`, or a Rust constant from outside the kernel).
    pub fn constant(&mut self, v: Value, span: Span) -> Val {
        self.mk(ExprKind::Const(v), Ty::Known(v.ty()), span)
    }

    /// An unsuffixed integer literal; its type is inferred from its uses (`i32` by default).
    pub fn lit_int(&mut self, v: i128, span: Span) -> Val {
        let ty = self.infer.fresh(Kind::Int);
        let st = self.infer.concrete(ty);
        let value = if st.is_float() {
            Value::from_f64(st, v as f64)
        } else {
            Value::from_i128(st, v)
        };
        self.mk(ExprKind::Const(value), ty, span)
    }

    /// An unsuffixed float literal; its type is inferred from its uses (`f64` by default).
    pub fn lit_float(&mut self, v: f64, span: Span) -> Val {
        let ty = self.infer.fresh(Kind::Float);
        let st = self.infer.concrete(ty);
        self.mk(ExprKind::Const(Value::from_f64(st, v)), ty, span)
    }

    /// A launch builtin (`thread_idx().x`, `warp_size()`, …), always `u32`.
    pub fn builtin(&mut self, b: Builtin, span: Span) -> Val {
        self.mk(ExprKind::Builtin(b), Ty::Known(ScalarType::U32), span)
    }

    /// The value of unit-returning calls; using it as a number is rejected by rustc.
    pub fn unit(&mut self) -> Val {
        self.constant(Value::Bool(false), Span::DUMMY)
    }

    /// Reads variable `v`.
    pub fn read(&mut self, v: &Var, span: Span) -> Val {
        self.mk(ExprKind::Var(v.id), v.ty, span)
    }

    /// Binds `v` to a fresh temporary unless its value cannot change (constants, parameters,
    /// builtins), so that later side effects do not change what it denotes.
    pub fn stable(&mut self, v: Val, span: Span) -> Val {
        if is_stable(&v.expr) {
            return v;
        }
        let t = self.let_("_t", Some(v), None, span);
        self.read(&t, span)
    }

    /// `a op b` (Rust operators; shifts take any integer on the right).
    pub fn binary(&mut self, op: BinOp, a: Val, b: Val, span: Span) -> Val {
        let b = if matches!(op, BinOp::Shl | BinOp::Shr) {
            let lt = self.infer.concrete(a.ty);
            self.expect_kind(&b, Kind::Int, "a shift amount", span);
            Val {
                expr: b.expr.cast(lt),
                ty: a.ty,
            }
        } else {
            self.unify(a.ty, b.ty, span);
            b
        };
        if op.is_integer_only() && !matches!(op, BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor) {
            self.expect_kind(&a, Kind::Int, "an operand", span);
        }
        let ty = if op.is_comparison() {
            Ty::Known(ScalarType::Bool)
        } else {
            a.ty
        };
        self.mk(
            ExprKind::Binary(op, Box::new(a.expr), Box::new(b.expr)),
            ty,
            span,
        )
    }

    fn expect_kind(&mut self, v: &Val, kind: Kind, what: &str, span: Span) {
        let k = self.infer.kind_of(v.ty);
        let ok = match kind {
            Kind::Any => true,
            _ => k == kind || (k == Kind::Any && self.infer.known(v.ty).is_none()),
        };
        if !ok {
            let want = if kind == Kind::Int {
                "an integer"
            } else {
                "a float"
            };
            let found = self.infer.concrete(v.ty);
            self.error(span, format!("{what} must be {want}, found {found}"));
        }
    }

    /// `-a` or `!a`.
    pub fn unary(&mut self, op: RustUnOp, a: Val, span: Span) -> Val {
        let st = self.infer.concrete(a.ty);
        if let (RustUnOp::Neg, Some(c)) = (op, a.expr.as_const()) {
            let v = match c.as_i128() {
                Some(i) if st.is_int() => Value::from_i128(st, -i),
                _ => Value::from_f64(st, -c.as_f64()),
            };
            return self.mk(ExprKind::Const(v), a.ty, span);
        }
        let ir_op = match op {
            RustUnOp::Neg => UnOp::Neg,
            RustUnOp::Not if st == ScalarType::Bool => UnOp::Not,
            RustUnOp::Not => UnOp::BitNot,
        };
        self.mk(ExprKind::Unary(ir_op, Box::new(a.expr)), a.ty, span)
    }

    /// Short-circuit `a && b` / `a || b` (both operands side-effect free).
    pub fn logical(&mut self, op: LogicOp, a: Val, b: Val, span: Span) -> Val {
        let bool_ty = Ty::Known(ScalarType::Bool);
        self.unify(a.ty, bool_ty, span);
        self.unify(b.ty, bool_ty, span);
        self.mk(
            ExprKind::Logical(op, Box::new(a.expr), Box::new(b.expr)),
            bool_ty,
            span,
        )
    }

    /// `a as ty`.
    pub fn cast(&mut self, a: Val, ty: ScalarType, span: Span) -> Val {
        let expr = a.expr.cast(ty).with_span(span);
        Val {
            expr,
            ty: Ty::Known(ty),
        }
    }

    /// `if c { a } else { b }` with side-effect-free arms: only the chosen arm is evaluated.
    pub fn select(&mut self, c: Val, a: Val, b: Val, span: Span) -> Val {
        self.unify(c.ty, Ty::Known(ScalarType::Bool), span);
        self.unify(a.ty, b.ty, span);
        let ty = a.ty;
        self.mk(
            ExprKind::Select(Box::new(c.expr), Box::new(a.expr), Box::new(b.expr)),
            ty,
            span,
        )
    }

    /// A math function (`x.sqrt()`, `x.mul_add(a, b)`, `exp(x)`); arguments share one type.
    pub fn math(&mut self, f: MathFn, args: Vec<Val>, span: Span) -> Val {
        let Some(first) = args.first().cloned() else {
            self.error(span, format!("{} needs an argument", f.name()));
            return self.unit();
        };
        for a in &args[1..] {
            self.unify(first.ty, a.ty, span);
        }
        if f != MathFn::Abs {
            self.expect_kind(&first, Kind::Float, "a math argument", span);
        }
        let exprs = args.into_iter().map(|a| a.expr).collect();
        self.mk(ExprKind::Call(f, exprs), first.ty, span)
    }

    /// `a.min(b)` / `a.max(b)`.
    pub fn min_max(&mut self, max: bool, a: Val, b: Val, span: Span) -> Val {
        let op = if max { BinOp::Max } else { BinOp::Min };
        self.binary(op, a, b, span)
    }

    /// `x.len()` of a buffer or array, as `u64`.
    pub fn len(&mut self, m: &Mem, span: Span) -> Val {
        let u64_ty = Ty::Known(ScalarType::U64);
        match m.mem {
            MemRef::Global(p) => self.mk(ExprKind::BufferLen(p), u64_ty, span),
            MemRef::Shared(a) if self.kernel.shared[a.0 as usize].dynamic => {
                self.error(span, "the length of dynamic shared memory is not known");
                self.constant(Value::U64(0), span)
            }
            MemRef::Shared(a) => {
                let d = &self.kernel.shared[a.0 as usize].dims;
                let n = d.first().copied().unwrap_or(0);
                self.constant(Value::U64(n), span)
            }
            MemRef::Local(a) => {
                let d = &self.kernel.locals[a.0 as usize].dims;
                let n = d.first().copied().unwrap_or(0);
                self.constant(Value::U64(n), span)
            }
        }
    }

    // ---- memory -------------------------------------------------------------------------

    fn check_indices(&mut self, m: &Mem, indices: &[Val], span: Span) {
        if indices.len() != m.dims {
            self.error(
                span,
                format!(
                    "`{}` has {} dimension(s) but is indexed with {}",
                    m.name,
                    m.dims,
                    indices.len()
                ),
            );
        }
        for i in indices {
            self.expect_kind(i, Kind::Int, "an index", span);
        }
    }

    /// `m[indices]`.
    pub fn load(&mut self, m: &Mem, indices: Vec<Val>, span: Span) -> Val {
        self.check_indices(m, &indices, span);
        let idx = indices.into_iter().map(|v| v.expr).collect();
        self.mk(ExprKind::Load(m.mem, idx), m.elem, span)
    }

    /// `m[indices] = value`.
    pub fn store(&mut self, m: &Mem, indices: Vec<Val>, value: Val, span: Span) {
        self.check_indices(m, &indices, span);
        self.unify(m.elem, value.ty, span);
        let indices = indices.into_iter().map(|v| v.expr).collect();
        self.push(
            StmtKind::Store {
                mem: m.mem,
                indices,
                value: value.expr,
            },
            span,
        );
    }

    /// `m[indices] op= value` (`value` already evaluated, as Rust does for primitives).
    pub fn compound_store(
        &mut self,
        op: BinOp,
        m: &Mem,
        indices: Vec<Val>,
        value: Val,
        span: Span,
    ) {
        let old = self.load(m, indices.clone(), span);
        let new = self.binary(op, old, value, span);
        self.store(m, indices, new, span);
    }

    /// A static `__shared__` array of `elem`s with extents `dims`.
    pub fn shared(&mut self, name: &str, elem: ScalarType, dims: Vec<u64>, span: Span) -> Mem {
        let n = dims.len();
        self.kernel.shared.push(ArrayDecl {
            name: name.to_string(),
            elem,
            dims,
            dynamic: false,
            span,
        });
        self.array_mem(
            MemRef::Shared(ArrayId(self.kernel.shared.len() as u32 - 1)),
            elem,
            n,
            name,
        )
    }

    /// The dynamic (`extern __shared__`) array, sized by the launch.
    pub fn dyn_shared(&mut self, name: &str, elem: ScalarType, span: Span) -> Mem {
        self.kernel.shared.push(ArrayDecl {
            name: name.to_string(),
            elem,
            dims: vec![0],
            dynamic: true,
            span,
        });
        self.array_mem(
            MemRef::Shared(ArrayId(self.kernel.shared.len() as u32 - 1)),
            elem,
            1,
            name,
        )
    }

    fn array_mem(&mut self, mem: MemRef, elem: ScalarType, dims: usize, name: &str) -> Mem {
        Mem {
            mem,
            elem: Ty::Known(elem),
            dims,
            name: name.to_string(),
        }
    }

    fn local(&mut self, name: &str, elem: Ty, dims: Vec<u64>, span: Span) -> Mem {
        let n = dims.len();
        let st = self.infer.concrete(elem);
        self.kernel.locals.push(ArrayDecl {
            name: name.to_string(),
            elem: st,
            dims,
            dynamic: false,
            span,
        });
        Mem {
            mem: MemRef::Local(ArrayId(self.kernel.locals.len() as u32 - 1)),
            elem,
            dims: n,
            name: name.to_string(),
        }
    }

    /// `let a = [fill; d0]` (or nested `[[fill; d1]; d0]`): a local array with every element set.
    pub fn local_fill(&mut self, name: &str, fill: Val, dims: Vec<u64>, span: Span) -> Mem {
        let fill = self.stable(fill, span);
        let m = self.local(name, fill.ty, dims.clone(), span);
        let mut counters = vec![];
        self.fill_level(&m, &dims, &mut counters, &fill, span);
        m
    }

    fn fill_level(&mut self, m: &Mem, dims: &[u64], idx: &mut Vec<Val>, fill: &Val, span: Span) {
        let Some((&d, rest)) = dims.split_first() else {
            self.store(m, idx.clone(), fill.clone(), span);
            return;
        };
        let u32_ty = Ty::Known(ScalarType::U32);
        let start = self.mk(ExprKind::Const(Value::U32(0)), u32_ty, span);
        let end = self.mk(ExprKind::Const(Value::U32(d as u32)), u32_ty, span);
        let k = self.range_var("_k", &start, &end, span);
        self.begin();
        idx.push(self.read(&k, span));
        self.fill_level(m, rest, idx, fill, span);
        idx.pop();
        let body = self.end();
        self.for_range(&k, start, end, None, body, span);
    }

    /// `let a = [x, y, z]`: a 1-D local array initialised element by element.
    pub fn local_list(&mut self, name: &str, items: Vec<Val>, span: Span) -> Mem {
        let Some(first) = items.first() else {
            self.error(span, "empty local arrays are not supported");
            return self.local(name, Ty::Known(ScalarType::I32), vec![1], span);
        };
        let elem = first.ty;
        let m = self.local(name, elem, vec![items.len() as u64], span);
        for (i, v) in items.into_iter().enumerate() {
            let idx = self.constant(Value::U32(i as u32), span);
            self.store(&m, vec![idx], v, span);
        }
        m
    }

    // ---- statements ---------------------------------------------------------------------

    /// `let name[: annot] [= init];`
    pub fn let_(
        &mut self,
        name: &str,
        init: Option<Val>,
        annot: Option<ScalarType>,
        span: Span,
    ) -> Var {
        let ty = match (annot, &init) {
            (Some(t), Some(v)) => {
                self.unify(v.ty, Ty::Known(t), span);
                Ty::Known(t)
            }
            (Some(t), None) => Ty::Known(t),
            (None, Some(v)) => v.ty,
            (None, None) => self.infer.fresh(Kind::Any),
        };
        let v = self.declare(name, ty, span);
        self.push(
            StmtKind::Let {
                var: v.id,
                init: init.map(|i| i.expr),
            },
            span,
        );
        v
    }

    /// `v = value`.
    pub fn assign(&mut self, v: &Var, value: Val, span: Span) {
        self.unify(v.ty, value.ty, span);
        self.push(
            StmtKind::Assign {
                var: v.id,
                value: value.expr,
            },
            span,
        );
    }

    /// `v op= value`.
    pub fn compound_assign(&mut self, op: BinOp, v: &Var, value: Val, span: Span) {
        let old = self.read(v, span);
        let new = self.binary(op, old, value, span);
        self.assign(v, new, span);
    }

    /// Opens a nested body; statements go there until [`end`](Self::end).
    pub fn begin(&mut self) {
        self.blocks.push(vec![]);
    }

    /// Closes the body opened by the matching [`begin`](Self::begin).
    pub fn end(&mut self) -> Block {
        if self.blocks.len() > 1 {
            self.blocks.pop().unwrap_or_default()
        } else {
            self.error(Span::DUMMY, "internal: unbalanced body");
            vec![]
        }
    }

    /// `if cond { then } else { els }`.
    pub fn if_(&mut self, cond: Val, then_body: Block, else_body: Block, span: Span) {
        self.unify(cond.ty, Ty::Known(ScalarType::Bool), span);
        self.push(
            StmtKind::If {
                cond: cond.expr,
                then_body,
                else_body,
            },
            span,
        );
    }

    /// `while cond { body }` with a side-effect-free condition.
    pub fn while_(&mut self, cond: Val, body: Block, span: Span) {
        self.unify(cond.ty, Ty::Known(ScalarType::Bool), span);
        self.push(
            StmtKind::While {
                cond: cond.expr,
                body,
            },
            span,
        );
    }

    /// `loop { body }`.
    pub fn loop_(&mut self, body: Block, span: Span) {
        self.push(
            StmtKind::For {
                init: vec![],
                cond: None,
                update: vec![],
                body,
            },
            span,
        );
    }

    /// Declares the counter of a range loop (its type is that of `start` and `end`).
    pub fn range_var(&mut self, name: &str, start: &Val, end: &Val, span: Span) -> Var {
        self.unify(start.ty, end.ty, span);
        self.expect_kind(start, Kind::Int, "a range bound", span);
        self.declare(name, start.ty, span)
    }

    /// `for v in (start..end).step_by(step) { body }`; `end` and `step` must be stable.
    pub fn for_range(
        &mut self,
        v: &Var,
        start: Val,
        end: Val,
        step: Option<Val>,
        body: Block,
        span: Span,
    ) {
        let vt = self.infer.concrete(v.ty);
        let step = match step {
            Some(s) => {
                self.expect_kind(&s, Kind::Int, "a step", span);
                s.expr.cast(vt)
            }
            None => Expr::constant(Value::from_i128(vt, 1)).with_span(span),
        };
        let cur = Expr::var(v.id, vt).with_span(span);
        let init = vec![Stmt::new(StmtKind::Let {
            var: v.id,
            init: Some(start.expr),
        })
        .with_span(span)];
        let cond = Expr::binary(BinOp::Lt, cur.clone(), end.expr).with_span(span);
        let update = vec![Stmt::new(StmtKind::Assign {
            var: v.id,
            value: Expr::binary(BinOp::Add, cur, step).with_span(span),
        })
        .with_span(span)];
        self.push(
            StmtKind::For {
                init,
                cond: Some(cond),
                update,
                body,
            },
            span,
        );
    }

    /// `break`.
    pub fn break_(&mut self, span: Span) {
        self.push(StmtKind::Break, span);
    }

    /// `continue`.
    pub fn continue_(&mut self, span: Span) {
        self.push(StmtKind::Continue, span);
    }

    /// `return` (ends the thread).
    pub fn return_(&mut self, span: Span) {
        self.push(StmtKind::Return, span);
    }

    /// `sync_threads()`.
    pub fn sync_threads(&mut self, span: Span) {
        self.push(StmtKind::SyncThreads, span);
    }

    /// `sync_warp(mask)`.
    pub fn sync_warp(&mut self, mask: Val, span: Span) {
        self.unify(mask.ty, Ty::Known(ScalarType::U32), span);
        self.push(StmtKind::SyncWarp { mask: mask.expr }, span);
    }

    /// `shfl_*_sync(mask, value, lane)`: the value offered by another lane (full warp width).
    pub fn shuffle(
        &mut self,
        kind: ShuffleKind,
        mask: Val,
        value: Val,
        lane: Val,
        span: Span,
    ) -> Val {
        self.unify(mask.ty, Ty::Known(ScalarType::U32), span);
        self.expect_kind(&lane, Kind::Int, "a shuffle lane", span);
        let dst = self.let_("_shfl", None, None, span);
        self.unify(dst.ty, value.ty, span);
        self.push(
            StmtKind::Shuffle {
                dst: dst.id,
                kind,
                mask: mask.expr,
                value: value.expr,
                lane: lane.expr.cast(ScalarType::U32),
                width: Expr::u32(32).with_span(span),
            },
            span,
        );
        self.read(&dst, span)
    }

    /// `atomic_*(&mut m[indices], value)`: returns the old value when `want_old`.
    #[allow(clippy::too_many_arguments)]
    pub fn atomic(
        &mut self,
        op: AtomicOp,
        m: &Mem,
        indices: Vec<Val>,
        value: Val,
        compare: Option<Val>,
        want_old: bool,
        span: Span,
    ) -> Val {
        self.check_indices(m, &indices, span);
        self.unify(m.elem, value.ty, span);
        if let Some(c) = &compare {
            self.unify(m.elem, c.ty, span);
        }
        let dst = if want_old {
            let d = self.let_("_old", None, None, span);
            self.unify(d.ty, m.elem, span);
            Some(d)
        } else {
            None
        };
        self.push(
            StmtKind::Atomic {
                dst: dst.as_ref().map(|d| d.id),
                op,
                mem: m.mem,
                indices: indices.into_iter().map(|v| v.expr).collect(),
                value: value.expr,
                compare: compare.map(|c| c.expr),
            },
            span,
        );
        match dst {
            Some(d) => self.read(&d, span),
            None => self.unit(),
        }
    }

    /// `requires(cond)`: an assumption the analyses may rely on.
    pub fn assume(&mut self, cond: Val, span: Span) {
        self.unify(cond.ty, Ty::Known(ScalarType::Bool), span);
        self.push(StmtKind::Assume(cond.expr), span);
    }

    /// `assert_kernel(cond)`: a property checked by every engine.
    pub fn assert(&mut self, cond: Val, span: Span) {
        self.unify(cond.ty, Ty::Known(ScalarType::Bool), span);
        self.push(StmtKind::Assert(cond.expr, Check::User), span);
    }

    /// Enters an inlined `#[kernel_fn]`; false (and an error) when helpers recurse too deeply.
    pub fn enter_helper(&mut self, name: &str) -> bool {
        if self.helper_depth >= 64 {
            self.error(
                Span::DUMMY,
                format!("`{name}`: helpers nested more than 64 deep (recursion?)"),
            );
            return false;
        }
        self.helper_depth += 1;
        true
    }

    /// Leaves an inlined `#[kernel_fn]`.
    pub fn exit_helper(&mut self) {
        self.helper_depth = self.helper_depth.saturating_sub(1);
    }

    // ---- helper (#[kernel_fn]) arguments ------------------------------------------------

    /// Binds a scalar argument of a `#[kernel_fn]` to its parameter `name: ty`.
    pub fn arg_val(&mut self, name: &str, arg: Val, ty: ScalarType, span: Span) -> Val {
        self.unify(arg.ty, Ty::Known(ty), span);
        if is_stable(&arg.expr) {
            arg
        } else {
            let v = self.let_(name, Some(arg), None, span);
            self.read(&v, span)
        }
    }

    /// Binds a scalar argument of a `#[kernel_fn]` to its `mut` parameter `name: ty`.
    pub fn arg_var(&mut self, name: &str, arg: Val, ty: ScalarType, span: Span) -> Var {
        self.let_(name, Some(arg), Some(ty), span)
    }

    /// Binds a buffer or array argument of a `#[kernel_fn]` to its parameter `&[elem]`.
    pub fn arg_mem(&mut self, m: &Mem, elem: ScalarType, writable: bool, span: Span) -> Mem {
        self.unify(m.elem, Ty::Known(elem), span);
        if let MemRef::Global(p) = m.mem {
            if let ParamKind::Buffer {
                writable: false, ..
            } = self.kernel.params[p.0 as usize].kind
            {
                if writable {
                    self.error(span, format!("`{}` is read-only", m.name));
                }
            }
        }
        m.clone()
    }

    /// A launch builtin by dimension, for generated code.
    #[doc(hidden)]
    pub fn builtin_dim(kind: u8, d: warpsafe_ir::Dim) -> Builtin {
        match kind {
            0 => Builtin::ThreadIdx(d),
            1 => Builtin::BlockIdx(d),
            2 => Builtin::BlockDim(d),
            _ => Builtin::GridDim(d),
        }
    }
}
