//! A builder API for kernels, used by tests and by the `#[kernel]` macro.

use crate::{
    ArrayDecl, ArrayId, Block, Builtin, Contract, Dim, Expr, ExprKind, Kernel, MemRef, Param,
    ParamId, ParamKind, ScalarType, Span, Stmt, StmtKind, VarDecl, VarId,
};

/// Builds a [`Kernel`] statement by statement; nested bodies are built with closures.
///
/// ```
/// use warpsafe_ir::{BinOp, Builtin, Dim, Expr, KernelBuilder, MemRef, ScalarType};
/// let mut b = KernelBuilder::new("scale");
/// let n = b.scalar_param("n", ScalarType::U32);
/// let x = b.buffer_param("x", ScalarType::F32, true);
/// let i = b.let_("i", b.global_index(Dim::X));
/// let cond = Expr::binary(BinOp::Lt, b.var(i), b.param(n));
/// b.if_(cond, |b| {
///     let v = Expr::binary(BinOp::Mul, b.load(MemRef::Global(x), vec![b.var(i)]), Expr::f32(2.0));
///     b.store(MemRef::Global(x), vec![b.var(i)], v);
/// });
/// let kernel = b.finish();
/// assert!(warpsafe_ir::check_kernel(&kernel).is_ok());
/// ```
pub struct KernelBuilder {
    kernel: Kernel,
    blocks: Vec<Block>,
}

impl KernelBuilder {
    /// Starts an empty kernel called `name`.
    pub fn new(name: impl Into<String>) -> KernelBuilder {
        KernelBuilder {
            kernel: Kernel {
                name: name.into(),
                params: vec![],
                vars: vec![],
                shared: vec![],
                locals: vec![],
                body: vec![],
                contract: Contract::default(),
                span: Span::DUMMY,
            },
            blocks: vec![vec![]],
        }
    }

    /// Adds a scalar parameter.
    pub fn scalar_param(&mut self, name: impl Into<String>, ty: ScalarType) -> ParamId {
        self.add_param(name.into(), ParamKind::Scalar(ty))
    }

    /// Adds a global buffer parameter.
    pub fn buffer_param(
        &mut self,
        name: impl Into<String>,
        elem: ScalarType,
        writable: bool,
    ) -> ParamId {
        self.add_param(name.into(), ParamKind::Buffer { elem, writable })
    }

    fn add_param(&mut self, name: String, kind: ParamKind) -> ParamId {
        self.kernel.params.push(Param {
            name,
            kind,
            span: Span::DUMMY,
        });
        ParamId(self.kernel.params.len() as u32 - 1)
    }

    /// Adds a static `__shared__` array with extents `dims`.
    pub fn shared_array(
        &mut self,
        name: impl Into<String>,
        elem: ScalarType,
        dims: Vec<u64>,
    ) -> ArrayId {
        self.kernel
            .shared
            .push(array(name.into(), elem, dims, false));
        ArrayId(self.kernel.shared.len() as u32 - 1)
    }

    /// Adds an `extern __shared__` array sized at launch.
    pub fn dynamic_shared_array(&mut self, name: impl Into<String>, elem: ScalarType) -> ArrayId {
        self.kernel
            .shared
            .push(array(name.into(), elem, vec![0], true));
        ArrayId(self.kernel.shared.len() as u32 - 1)
    }

    /// Adds a per-thread local array.
    pub fn local_array(
        &mut self,
        name: impl Into<String>,
        elem: ScalarType,
        dims: Vec<u64>,
    ) -> ArrayId {
        self.kernel
            .locals
            .push(array(name.into(), elem, dims, false));
        ArrayId(self.kernel.locals.len() as u32 - 1)
    }

    /// Creates a variable without emitting its `Let` (the caller emits it).
    pub fn declare(&mut self, name: impl Into<String>, ty: ScalarType) -> VarId {
        self.kernel.vars.push(VarDecl {
            name: name.into(),
            ty,
            span: Span::DUMMY,
        });
        VarId(self.kernel.vars.len() as u32 - 1)
    }

    /// Declares a variable initialised to `init`.
    pub fn let_(&mut self, name: impl Into<String>, init: Expr) -> VarId {
        let v = self.declare(name, init.ty);
        self.push(StmtKind::Let {
            var: v,
            init: Some(init),
        });
        v
    }

    /// Reads variable `v`.
    pub fn var(&self, v: VarId) -> Expr {
        Expr::var(v, self.kernel.var(v).ty)
    }

    /// Reads scalar parameter `p`.
    pub fn param(&self, p: ParamId) -> Expr {
        let ty = match self.kernel.param(p).kind {
            ParamKind::Scalar(t) => t,
            ParamKind::Buffer { elem, .. } => elem,
        };
        Expr::new(ExprKind::Param(p), ty)
    }

    /// Reads an element of `mem`.
    pub fn load(&self, mem: MemRef, indices: Vec<Expr>) -> Expr {
        Expr::load(mem, indices, self.kernel.elem_type(mem))
    }

    /// `blockIdx.d * blockDim.d + threadIdx.d`, as `u32`.
    pub fn global_index(&self, d: Dim) -> Expr {
        let prod = Expr::binary(
            crate::BinOp::Mul,
            Expr::builtin(Builtin::BlockIdx(d)),
            Expr::builtin(Builtin::BlockDim(d)),
        );
        Expr::binary(
            crate::BinOp::Add,
            prod,
            Expr::builtin(Builtin::ThreadIdx(d)),
        )
    }

    /// Appends a statement to the current body.
    pub fn push(&mut self, kind: StmtKind) {
        self.push_stmt(Stmt::new(kind));
    }

    /// Appends a statement (with its span) to the current body.
    pub fn push_stmt(&mut self, stmt: Stmt) {
        if let Some(b) = self.blocks.last_mut() {
            b.push(stmt);
        }
    }

    /// `v = value`.
    pub fn assign(&mut self, v: VarId, value: Expr) {
        self.push(StmtKind::Assign { var: v, value });
    }

    /// `mem[indices] = value`.
    pub fn store(&mut self, mem: MemRef, indices: Vec<Expr>, value: Expr) {
        self.push(StmtKind::Store {
            mem,
            indices,
            value,
        });
    }

    /// `__syncthreads()`.
    pub fn sync_threads(&mut self) {
        self.push(StmtKind::SyncThreads);
    }

    /// `cooperative_groups::this_grid().sync()`.
    pub fn sync_grid(&mut self) {
        self.push(StmtKind::SyncGrid);
    }

    /// Builds a nested body with `f` and returns it.
    pub fn body(&mut self, f: impl FnOnce(&mut Self)) -> Block {
        self.blocks.push(vec![]);
        f(self);
        self.blocks.pop().unwrap_or_default()
    }

    /// `if (cond) { then }`.
    pub fn if_(&mut self, cond: Expr, then: impl FnOnce(&mut Self)) {
        self.if_else(cond, then, |_| {});
    }

    /// `if (cond) { then } else { els }`.
    pub fn if_else(
        &mut self,
        cond: Expr,
        then: impl FnOnce(&mut Self),
        els: impl FnOnce(&mut Self),
    ) {
        let then_body = self.body(then);
        let else_body = self.body(els);
        self.push(StmtKind::If {
            cond,
            then_body,
            else_body,
        });
    }

    /// `while (cond) { body }`.
    pub fn while_(&mut self, cond: Expr, body: impl FnOnce(&mut Self)) {
        let body = self.body(body);
        self.push(StmtKind::While { cond, body });
    }

    /// `for (v = start; v < end; v += step) { body(v) }` over a fresh variable of `start`'s type.
    pub fn for_range(
        &mut self,
        name: impl Into<String>,
        start: Expr,
        end: Expr,
        step: Expr,
        body: impl FnOnce(&mut Self, Expr),
    ) {
        let v = self.declare(name, start.ty);
        let iv = self.var(v);
        let init = vec![Stmt::new(StmtKind::Let {
            var: v,
            init: Some(start),
        })];
        let cond = Expr::binary(crate::BinOp::Lt, iv.clone(), end);
        let update = vec![Stmt::new(StmtKind::Assign {
            var: v,
            value: Expr::binary(crate::BinOp::Add, iv.clone(), step),
        })];
        let body = self.body(|b| body(b, iv));
        self.push(StmtKind::For {
            init,
            cond: Some(cond),
            update,
            body,
        });
    }

    /// The contract, to set launch dims, lengths and preconditions.
    pub fn contract_mut(&mut self) -> &mut Contract {
        &mut self.kernel.contract
    }

    /// The kernel built so far (body excluded until [`finish`](Self::finish)).
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    /// Finishes the kernel.
    pub fn finish(mut self) -> Kernel {
        self.kernel.body = self.blocks.into_iter().next().unwrap_or_default();
        self.kernel
    }
}

fn array(name: String, elem: ScalarType, dims: Vec<u64>, dynamic: bool) -> ArrayDecl {
    ArrayDecl {
        name,
        elem,
        dims,
        dynamic,
        span: Span::DUMMY,
    }
}
