//! The abstract block interpreter: every thread of one block runs the structured IR in
//! lock-step, statement by statement over the active threads; input elements are
//! [`Summary`] values, integers are exact, and every shared access is checked for races
//! against the other threads' accesses since the last barrier.
//!
//! Running the threads of a barrier interval one statement at a time instead of in some
//! other interleaving changes nothing when the interval is race-free, and a race is reported
//! whatever the order, so the final state is the one every schedule produces.

use crate::failure::{Failure, FailureKind};
use crate::summary::{Combined, Mode, Summary};
use warpsafe_ir::{
    BinOp, Builtin, Dim, Expr, ExprKind, Kernel, LogicOp, MemRef, ParamKind, ScalarType, Span,
    Stmt, StmtKind, UnOp, Value,
};

/// An abstract value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    /// An exact integer (already wrapped to its type).
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A combination of inputs.
    Data(Summary),
    /// A float that is neither an input combination nor the identity.
    Opaque,
    /// Nothing written yet.
    Uninit,
}

/// A launch of one block size, for the abstract run.
#[derive(Clone, Debug)]
pub struct AbsLaunch {
    /// Threads per block (`blockDim.x`); shared extents equal to the kernel's declared block
    /// size scale with it.
    pub block: u32,
    /// Blocks in the grid (run one after the other: they only share global memory).
    pub grid: u32,
    /// Value of every integer scalar parameter (the element count `n`).
    pub n: i64,
}

/// A snapshot at a top-level barrier-loop head, when all threads are there.
#[derive(Clone, Debug)]
pub struct HeadSnapshot {
    /// Which top-level loop (0 for the first loop that holds a barrier).
    pub loop_index: usize,
    /// Variable values every thread agrees on (`None` where they differ or are unset).
    pub uniform: Vec<Option<i64>>,
    /// Every shared array's cells, flattened.
    pub shared: Vec<Vec<Val>>,
}

/// What an abstract run of all blocks leaves behind.
#[derive(Clone, Debug)]
pub struct AbsResult {
    /// Writable global buffers, element by element.
    pub globals: Vec<Option<Vec<Val>>>,
    /// True when some combination had its right segment as the left operand.
    pub swapped: bool,
    /// Loop-head snapshots of block 0 (when recording).
    pub heads: Vec<HeadSnapshot>,
}

/// Failures are boxed inside the interpreter: the hot paths return small results.
type Res<T> = Result<T, Box<Failure>>;

const NO_THREAD: u32 = u32::MAX;
const MAX_DIMS: usize = 4;

/// Evaluated array indices, without allocating.
struct Indices {
    len: usize,
    vals: [i64; MAX_DIMS],
}

#[derive(Clone, Copy, Default)]
struct Track {
    w_epoch: u32,
    writer: u32,
    r_epoch: u32,
    reader: u32,
    reader2: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Normal,
    Break,
    Continue,
    Return,
}

/// Shared-array extents for block size `block`: extents equal to the kernel's declared
/// `blockDim.x` stand for "one per thread" and follow the block size.
pub fn shared_dims(k: &Kernel, block: u32) -> Vec<Vec<u64>> {
    let declared = k.contract.block_dim.map(|d| d[0] as u64);
    k.shared
        .iter()
        .map(|a| {
            a.dims
                .iter()
                .map(|&d| if Some(d) == declared { block as u64 } else { d })
                .collect()
        })
        .collect()
}

/// Global buffer lengths for `launch`, from the contract's `len(...)` lines (`n * grid` for a
/// buffer without one).
fn buffer_lengths(k: &Kernel, launch: &AbsLaunch, params: &[Val]) -> Res<Vec<u64>> {
    let mut lens = vec![launch.n.max(0) as u64; k.params.len()];
    let m = Machine::new(k, Mode::Interval, launch, params.to_vec(), vec![], false);
    for l in &k.contract.lengths {
        let v = m.eval_pure(&l.len, 0)?;
        if let Val::Int(x) = v {
            lens[l.param.0 as usize] = x.max(0) as u64;
        }
    }
    Ok(lens)
}

/// Global buffer lengths at `launch` (scalar parameters set as the abstract run sets them).
pub(crate) fn lengths(k: &Kernel, launch: &AbsLaunch) -> Vec<u64> {
    buffer_lengths(k, launch, &scalar_params(k, launch))
        .unwrap_or_else(|_| vec![launch.n.max(0) as u64; k.params.len()])
}

fn scalar_params(k: &Kernel, launch: &AbsLaunch) -> Vec<Val> {
    k.params
        .iter()
        .map(|p| match p.kind {
            ParamKind::Scalar(t) if t.is_int() => Val::Int(launch.n),
            ParamKind::Scalar(_) => Val::Opaque,
            ParamKind::Buffer { .. } => Val::Uninit,
        })
        .collect()
}

/// Runs every block of `launch` abstractly; input element `k` of a read-only buffer is the
/// summary `[k, k]`. Records loop heads of block 0 when `record` is set.
pub fn run_abstract(
    k: &Kernel,
    launch: &AbsLaunch,
    mode: Mode,
    record: bool,
) -> Result<AbsResult, Failure> {
    let params = scalar_params(k, launch);
    let lens = buffer_lengths(k, launch, &params).map_err(|f| *f)?;
    let mut m = Machine::new(k, mode, launch, params, lens, record);
    for b in 0..launch.grid {
        m.run_block(b).map_err(|f| *f)?;
    }
    Ok(AbsResult {
        globals: m.globals,
        swapped: m.swapped,
        heads: m.heads,
    })
}

struct Machine<'k> {
    k: &'k Kernel,
    mode: Mode,
    n: u32,
    grid: u32,
    block: u32,
    params: Vec<Val>,
    lens: Vec<u64>,
    nvars: usize,
    vars: Vec<Val>,
    flow: Vec<Flow>,
    flow_dirty: bool,
    dims: Vec<Vec<u64>>,
    shared: Vec<Vec<Val>>,
    track: Vec<Vec<Track>>,
    epoch: u32,
    globals: Vec<Option<Vec<Val>>>,
    global_writer: Vec<Vec<u32>>,
    swapped: bool,
    record: bool,
    depth: u32,
    heads: Vec<HeadSnapshot>,
    loop_counter: usize,
}

fn fail<T>(kind: FailureKind, span: Span) -> Res<T> {
    Err(Box::new(Failure { kind, span }))
}

fn unsupported<T>(what: &str, span: Span) -> Res<T> {
    fail(FailureKind::Unsupported(what.to_string()), span)
}

fn wrap(v: i128, ty: ScalarType) -> i64 {
    match ty {
        ScalarType::Bool => (v != 0) as i64,
        // Wraps to the type's width (8, 16, 32 or 64 bits); u64 keeps its bits in an i64.
        t if t.is_int() => Value::from_i128(t, v).as_i128().unwrap_or(0) as i64,
        _ => v as i64,
    }
}

fn contains_barrier(b: &[Stmt]) -> bool {
    let mut found = false;
    for s in b {
        s.walk(&mut |s| found |= matches!(s.kind, StmtKind::SyncThreads));
    }
    found
}

impl<'k> Machine<'k> {
    fn new(
        k: &'k Kernel,
        mode: Mode,
        launch: &AbsLaunch,
        params: Vec<Val>,
        lens: Vec<u64>,
        record: bool,
    ) -> Machine<'k> {
        let n = launch.block;
        let dims = shared_dims(k, n);
        let globals = k
            .params
            .iter()
            .zip(lens.iter().chain(std::iter::repeat(&0)))
            .map(|(p, &len)| match p.kind {
                ParamKind::Buffer { writable: true, .. } => Some(vec![Val::Uninit; len as usize]),
                _ => None,
            })
            .collect::<Vec<_>>();
        let global_writer = globals
            .iter()
            .map(|g| vec![NO_THREAD; g.as_ref().map_or(0, |g| g.len())])
            .collect();
        Machine {
            k,
            mode,
            n,
            grid: launch.grid,
            block: 0,
            params,
            lens,
            nvars: k.vars.len(),
            vars: vec![],
            flow: vec![],
            flow_dirty: false,
            shared: vec![],
            track: vec![],
            dims,
            epoch: 1,
            globals,
            global_writer,
            swapped: false,
            record,
            depth: 0,
            heads: vec![],
            loop_counter: 0,
        }
    }

    fn run_block(&mut self, b: u32) -> Res<()> {
        self.block = b;
        self.vars = vec![Val::Uninit; self.nvars * self.n as usize];
        self.flow = vec![Flow::Normal; self.n as usize];
        self.shared = self
            .dims
            .iter()
            .map(|d| vec![Val::Uninit; d.iter().product::<u64>() as usize])
            .collect();
        self.track = self
            .shared
            .iter()
            .map(|a| vec![Track::default(); a.len()])
            .collect();
        self.epoch = 1;
        self.loop_counter = 0;
        let all: Vec<u32> = (0..self.n).collect();
        let body = &self.k.body;
        self.exec_block(body, &all)
    }

    fn exec_block(&mut self, b: &'k [Stmt], active: &[u32]) -> Res<()> {
        let mut cur: Vec<u32> = active.to_vec();
        for s in b {
            if self.flow_dirty {
                cur.retain(|&t| self.flow[t as usize] == Flow::Normal);
            }
            if cur.is_empty() {
                break;
            }
            self.exec_stmt(s, &cur)?;
        }
        Ok(())
    }

    fn set_var(&mut self, t: u32, v: warpsafe_ir::VarId, val: Val) {
        self.vars[t as usize * self.nvars + v.0 as usize] = val;
    }

    fn exec_stmt(&mut self, s: &'k Stmt, active: &[u32]) -> Res<()> {
        match &s.kind {
            StmtKind::Let { var, init } => {
                for &t in active {
                    let v = match init {
                        Some(e) => self.eval(e, t)?,
                        None => Val::Uninit,
                    };
                    self.set_var(t, *var, v);
                }
            }
            StmtKind::Assign { var, value } => {
                for &t in active {
                    let v = self.eval(value, t)?;
                    self.set_var(t, *var, v);
                }
            }
            StmtKind::Store {
                mem,
                indices,
                value,
            } => {
                for &t in active {
                    let v = self.eval(value, t)?;
                    let idx = self.eval_indices(indices, t)?;
                    self.store(*mem, &idx, v, t, s.span)?;
                }
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                let (yes, no) = self.split(cond, active)?;
                if !yes.is_empty() {
                    self.exec_block(then_body, &yes)?;
                }
                if !no.is_empty() {
                    self.exec_block(else_body, &no)?;
                }
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                self.exec_block(init, active)?;
                self.exec_loop(cond.as_ref(), body, update, active, false)?;
            }
            StmtKind::While { cond, body } => {
                self.exec_loop(Some(cond), body, &[], active, false)?;
            }
            StmtKind::DoWhile { body, cond } => {
                self.exec_loop(Some(cond), body, &[], active, true)?;
            }
            StmtKind::Break => self.set_flow(active, Flow::Break),
            StmtKind::Continue => self.set_flow(active, Flow::Continue),
            StmtKind::Return => self.set_flow(active, Flow::Return),
            StmtKind::SyncThreads => {
                let arrived = active.len() as u32;
                if arrived != self.n {
                    return fail(
                        FailureKind::Divergence {
                            arrived,
                            block: self.n,
                        },
                        s.span,
                    );
                }
                self.epoch += 1;
            }
            StmtKind::Assert(e, _) | StmtKind::Assume(e) => {
                for &t in active {
                    if self.eval(e, t)? != Val::Bool(true) {
                        return unsupported("an assertion or assumption that fails", s.span);
                    }
                }
            }
            StmtKind::SyncGrid => {
                return unsupported("grid barriers (`this_grid().sync()`)", s.span)
            }
            StmtKind::SyncWarp { .. } => return unsupported("__syncwarp", s.span),
            StmtKind::Shuffle { .. } => return unsupported("warp shuffles", s.span),
            StmtKind::Vote { .. } | StmtKind::ActiveMask { .. } => {
                return unsupported("warp votes", s.span)
            }
            StmtKind::SyncThreadsVote { .. } => {
                return unsupported("__syncthreads_count/_and/_or", s.span)
            }
            StmtKind::Arbitrary { .. } => return unsupported(
                "an arbitrary value (clock(), a function without a body): induction is not defined",
                s.span,
            ),
            StmtKind::Atomic { .. } => return unsupported("atomics", s.span),
        }
        Ok(())
    }

    fn set_flow(&mut self, active: &[u32], f: Flow) {
        for &t in active {
            self.flow[t as usize] = f;
        }
        self.flow_dirty = true;
    }

    fn exec_loop(
        &mut self,
        cond: Option<&'k Expr>,
        body: &'k [Stmt],
        update: &'k [Stmt],
        active: &[u32],
        body_first: bool,
    ) -> Res<()> {
        let top = self.depth == 0 && contains_barrier(body);
        let loop_index = self.loop_counter;
        if top {
            self.loop_counter += 1;
        }
        self.depth += 1;
        let mut cur = active.to_vec();
        let mut first = true;
        loop {
            if top && self.record && self.block == 0 && cur.len() == self.n as usize {
                self.snapshot(loop_index, &cur);
            }
            if !(first && body_first) {
                if let Some(c) = cond {
                    cur = self.split(c, &cur)?.0;
                }
            }
            first = false;
            if cur.is_empty() {
                break;
            }
            self.exec_block(body, &cur)?;
            let mut next = Vec::with_capacity(cur.len());
            for &t in &cur {
                match self.flow[t as usize] {
                    Flow::Normal => next.push(t),
                    Flow::Continue => {
                        self.flow[t as usize] = Flow::Normal;
                        next.push(t);
                    }
                    Flow::Break => self.flow[t as usize] = Flow::Normal,
                    Flow::Return => {}
                }
            }
            cur = next;
            if !cur.is_empty() {
                self.exec_block(update, &cur)?;
            }
        }
        self.depth -= 1;
        Ok(())
    }

    fn snapshot(&mut self, loop_index: usize, threads: &[u32]) {
        let uniform = (0..self.nvars)
            .map(|v| {
                let first = self.vars[threads[0] as usize * self.nvars + v];
                let same = threads
                    .iter()
                    .all(|&t| self.vars[t as usize * self.nvars + v] == first);
                match (same, first) {
                    (true, Val::Int(x)) => Some(x),
                    _ => None,
                }
            })
            .collect();
        self.heads.push(HeadSnapshot {
            loop_index,
            uniform,
            shared: self.shared.clone(),
        });
    }

    fn split(&mut self, cond: &'k Expr, active: &[u32]) -> Res<(Vec<u32>, Vec<u32>)> {
        let mut yes = Vec::with_capacity(active.len());
        let mut no = Vec::new();
        for &t in active {
            if self.truth(cond, t)? {
                yes.push(t);
            } else {
                no.push(t);
            }
        }
        Ok((yes, no))
    }

    fn truth(&mut self, e: &'k Expr, t: u32) -> Res<bool> {
        match self.eval(e, t)? {
            Val::Bool(b) => Ok(b),
            Val::Int(x) => Ok(x != 0),
            Val::Data(_) | Val::Opaque => fail(
                FailureKind::OperatorMisuse("decides a branch".into()),
                e.span,
            ),
            Val::Uninit => unsupported("a branch on an unset variable", e.span),
        }
    }

    fn eval_indices(&mut self, idx: &'k [Expr], t: u32) -> Res<Indices> {
        if idx.len() > MAX_DIMS {
            return unsupported("arrays of more than four dimensions", Span::DUMMY);
        }
        let mut out = Indices {
            len: idx.len(),
            vals: [0; MAX_DIMS],
        };
        for (slot, e) in out.vals.iter_mut().zip(idx) {
            *slot = match self.eval(e, t)? {
                Val::Int(x) => x,
                Val::Bool(b) => b as i64,
                _ => {
                    return fail(
                        FailureKind::OperatorMisuse("is used as an index".into()),
                        e.span,
                    )
                }
            };
        }
        Ok(out)
    }

    fn flatten(&self, mem: MemRef, idx: &Indices, span: Span) -> Res<u64> {
        let global_len;
        let dims: &[u64] = match mem {
            MemRef::Shared(a) => &self.dims[a.0 as usize],
            MemRef::Global(p) => {
                global_len = [self.lens[p.0 as usize]];
                &global_len
            }
            MemRef::Local(_) => return unsupported("local arrays", span),
        };
        let idx = &idx.vals[..idx.len];
        if dims.len() != idx.len() {
            return unsupported("an access with the wrong number of indices", span);
        }
        let mut flat = 0u64;
        for (&i, &d) in idx.iter().zip(dims) {
            if i < 0 || i as u64 >= d {
                return fail(
                    FailureKind::OutOfBounds {
                        array: self.k.mem_name(mem).to_string(),
                        index: i,
                    },
                    span,
                );
            }
            flat = flat * d + i as u64;
        }
        Ok(flat)
    }

    fn race<T>(&self, mem: MemRef, index: u64, a: u32, b: u32, span: Span) -> Res<T> {
        fail(
            FailureKind::Race {
                array: self.k.mem_name(mem).to_string(),
                index,
                threads: [b.min(a), b.max(a)],
            },
            span,
        )
    }

    fn load(&mut self, mem: MemRef, idx: &Indices, t: u32, span: Span) -> Res<Val> {
        let flat = self.flatten(mem, idx, span)?;
        match mem {
            MemRef::Shared(a) => {
                let a = a.0 as usize;
                let tr = &mut self.track[a][flat as usize];
                if tr.w_epoch == self.epoch && tr.writer != t {
                    let w = tr.writer;
                    return self.race(mem, flat, w, t, span);
                }
                if tr.r_epoch != self.epoch {
                    tr.r_epoch = self.epoch;
                    tr.reader = t;
                    tr.reader2 = NO_THREAD;
                } else if tr.reader != t && tr.reader2 == NO_THREAD {
                    tr.reader2 = t;
                }
                match self.shared[a][flat as usize] {
                    Val::Uninit => fail(
                        FailureKind::Uninitialised {
                            array: self.k.mem_name(mem).to_string(),
                            index: flat,
                        },
                        span,
                    ),
                    v => Ok(v),
                }
            }
            MemRef::Global(p) => {
                if self.globals[p.0 as usize].is_some() {
                    return unsupported("reading a writable global buffer", span);
                }
                let ty = self.k.elem_type(mem);
                if ty.is_float() || ty.is_int() {
                    Ok(Val::Data(Summary::single(flat as u32)))
                } else {
                    unsupported("boolean input buffers", span)
                }
            }
            MemRef::Local(_) => unsupported("local arrays", span),
        }
    }

    fn store(&mut self, mem: MemRef, idx: &Indices, v: Val, t: u32, span: Span) -> Res<()> {
        let flat = self.flatten(mem, idx, span)?;
        match mem {
            MemRef::Shared(a) => {
                let a = a.0 as usize;
                let tr = &mut self.track[a][flat as usize];
                if tr.w_epoch == self.epoch && tr.writer != t {
                    let w = tr.writer;
                    return self.race(mem, flat, w, t, span);
                }
                if tr.r_epoch == self.epoch && (tr.reader != t || tr.reader2 != NO_THREAD) {
                    let r = if tr.reader != t {
                        tr.reader
                    } else {
                        tr.reader2
                    };
                    return self.race(mem, flat, r, t, span);
                }
                tr.w_epoch = self.epoch;
                tr.writer = t;
                self.shared[a][flat as usize] = v;
                Ok(())
            }
            MemRef::Global(p) => {
                let gt = self.block * self.n + t;
                let Some(g) = self.globals[p.0 as usize].as_mut() else {
                    return unsupported("a store to a read-only buffer", span);
                };
                let w = &mut self.global_writer[p.0 as usize][flat as usize];
                if *w != NO_THREAD && *w != gt {
                    let other = *w;
                    return self.race(mem, flat, other, gt, span);
                }
                *w = gt;
                g[flat as usize] = v;
                Ok(())
            }
            MemRef::Local(_) => unsupported("local arrays", span),
        }
    }

    fn builtin(&self, b: Builtin, t: u32) -> i64 {
        match b {
            Builtin::ThreadIdx(Dim::X) => t as i64,
            Builtin::BlockIdx(Dim::X) => self.block as i64,
            Builtin::BlockDim(Dim::X) => self.n as i64,
            Builtin::GridDim(Dim::X) => self.grid as i64,
            Builtin::ThreadIdx(_) | Builtin::BlockIdx(_) => 0,
            Builtin::BlockDim(_) | Builtin::GridDim(_) => 1,
            Builtin::WarpSize => 32,
            Builtin::LaneId => (t % 32) as i64,
        }
    }

    /// Evaluates an expression that touches no memory or variables (contract lengths).
    fn eval_pure(&self, e: &Expr, t: u32) -> Res<Val> {
        match &e.kind {
            ExprKind::Const(v) => Ok(constant(*v)),
            ExprKind::Param(p) => Ok(self.params[p.0 as usize]),
            ExprKind::Builtin(b) => Ok(Val::Int(self.builtin(*b, t))),
            ExprKind::Cast(a) => cast(self.eval_pure(a, t)?, e.ty),
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.eval_pure(a, t)?, self.eval_pure(b, t)?);
                int_binary(*op, x, y, e.ty, e.span)
            }
            _ => unsupported("this contract expression", e.span),
        }
    }

    fn eval(&mut self, e: &'k Expr, t: u32) -> Res<Val> {
        match &e.kind {
            ExprKind::Const(v) => Ok(constant(*v)),
            ExprKind::Var(v) => Ok(self.vars[t as usize * self.nvars + v.0 as usize]),
            ExprKind::Param(p) => Ok(self.params[p.0 as usize]),
            ExprKind::Builtin(b) => Ok(Val::Int(self.builtin(*b, t))),
            ExprKind::BufferLen(p) => Ok(Val::Int(self.lens[p.0 as usize] as i64)),
            ExprKind::Unary(op, a) => {
                let x = self.eval(a, t)?;
                match (op, x) {
                    (UnOp::Neg, Val::Int(v)) => Ok(Val::Int(wrap(-(v as i128), e.ty))),
                    (UnOp::BitNot, Val::Int(v)) => Ok(Val::Int(wrap(!(v as i128), e.ty))),
                    (UnOp::Not, Val::Bool(b)) => Ok(Val::Bool(!b)),
                    (UnOp::Not, Val::Int(v)) => Ok(Val::Bool(v == 0)),
                    (_, Val::Data(_)) => fail(
                        FailureKind::OperatorMisuse(format!("is negated ({})", op_name(*op))),
                        e.span,
                    ),
                    _ => Ok(Val::Opaque),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(a, t)?;
                let y = self.eval(b, t)?;
                self.binary(*op, x, y, e)
            }
            ExprKind::Logical(op, a, b) => {
                let x = self.truth(a, t)?;
                match (op, x) {
                    (LogicOp::And, false) => Ok(Val::Bool(false)),
                    (LogicOp::Or, true) => Ok(Val::Bool(true)),
                    _ => Ok(Val::Bool(self.truth(b, t)?)),
                }
            }
            ExprKind::Cast(a) => {
                let x = self.eval(a, t)?;
                if matches!(x, Val::Data(_)) && a.ty.is_float() != e.ty.is_float() {
                    return fail(
                        FailureKind::OperatorMisuse(
                            "is converted between integer and float".into(),
                        ),
                        e.span,
                    );
                }
                cast(x, e.ty).or_else(|f| fail(f.kind, e.span))
            }
            ExprKind::Select(c, a, b) => {
                if self.truth(c, t)? {
                    self.eval(a, t)
                } else {
                    self.eval(b, t)
                }
            }
            ExprKind::Call(..) => Ok(Val::Opaque),
            ExprKind::Load(mem, idx) => {
                let i = self.eval_indices(idx, t)?;
                self.load(*mem, &i, t, e.span)
            }
        }
    }

    fn binary(&mut self, op: BinOp, x: Val, y: Val, e: &Expr) -> Res<Val> {
        let data = |v: Val| match v {
            Val::Data(s) => Some(s),
            Val::Int(0) => Some(Summary::EMPTY),
            _ => None,
        };
        let involves_data = matches!(x, Val::Data(_)) || matches!(y, Val::Data(_));
        if !involves_data {
            if x == Val::Opaque || y == Val::Opaque {
                return Ok(Val::Opaque);
            }
            return int_binary(op, x, y, e.ty, e.span);
        }
        if op != BinOp::Add {
            return fail(
                FailureKind::OperatorMisuse(format!("is an operand of `{}`", op.symbol())),
                e.span,
            );
        }
        let (Some(a), Some(b)) = (data(x), data(y)) else {
            return fail(
                FailureKind::OperatorMisuse(
                    "is combined with a value that is not a summary".into(),
                ),
                e.span,
            );
        };
        match a.combine(b, self.mode) {
            Combined::InOrder(s) => Ok(Val::Data(s)),
            Combined::Swapped(s) => {
                self.swapped = true;
                Ok(Val::Data(s))
            }
            Combined::Invalid => fail(FailureKind::BadCombination { left: a, right: b }, e.span),
        }
    }
}

fn op_name(op: UnOp) -> &'static str {
    match op {
        UnOp::Neg => "-",
        UnOp::BitNot => "~",
        UnOp::Not => "!",
    }
}

fn constant(v: Value) -> Val {
    match v {
        Value::Bool(b) => Val::Bool(b),
        Value::F16(_) | Value::F32(_) | Value::F64(_) if v.as_f64() == 0.0 => {
            Val::Data(Summary::EMPTY)
        }
        Value::F16(_) | Value::F32(_) | Value::F64(_) => Val::Opaque,
        _ => v.as_i128().map_or(Val::Opaque, |x| Val::Int(x as i64)),
    }
}

fn cast(x: Val, ty: ScalarType) -> Res<Val> {
    Ok(match (x, ty) {
        (Val::Int(v), ScalarType::Bool) => Val::Bool(v != 0),
        (Val::Int(v), t) if t.is_int() => Val::Int(wrap(v as i128, t)),
        (Val::Int(0), _) => Val::Data(Summary::EMPTY),
        (Val::Int(_), _) => Val::Opaque,
        (Val::Bool(b), t) if t.is_int() => Val::Int(b as i64),
        (Val::Bool(b), ScalarType::Bool) => Val::Bool(b),
        (Val::Data(s), t) if t.is_float() => Val::Data(s),
        (Val::Data(s), t) if t.is_int() => Val::Data(s),
        (Val::Data(_), _) => {
            return fail(
                FailureKind::OperatorMisuse("is converted to bool".into()),
                Span::DUMMY,
            )
        }
        (v, _) => v,
    })
}

fn int_binary(op: BinOp, x: Val, y: Val, ty: ScalarType, span: Span) -> Res<Val> {
    let num = |v: Val| match v {
        Val::Int(i) => Some(i as i128),
        Val::Bool(b) => Some(b as i128),
        _ => None,
    };
    let (Some(a), Some(b)) = (num(x), num(y)) else {
        return unsupported("arithmetic on unset values", span);
    };
    let int = |v: i128| Ok(Val::Int(wrap(v, ty)));
    match op {
        BinOp::Add => int(a + b),
        BinOp::Sub => int(a - b),
        BinOp::Mul => int(a * b),
        BinOp::Div | BinOp::Rem if b == 0 => unsupported("division by zero", span),
        BinOp::Div => int(a / b),
        BinOp::Rem => int(a % b),
        BinOp::BitAnd => int(a & b),
        BinOp::BitOr => int(a | b),
        BinOp::BitXor => int(a ^ b),
        BinOp::Shl if (0..64).contains(&b) => int(a << b),
        BinOp::Shr if (0..64).contains(&b) => int(a >> b),
        BinOp::Shl | BinOp::Shr => unsupported("a shift by more than the width", span),
        BinOp::Eq => Ok(Val::Bool(a == b)),
        BinOp::Ne => Ok(Val::Bool(a != b)),
        BinOp::Lt => Ok(Val::Bool(a < b)),
        BinOp::Le => Ok(Val::Bool(a <= b)),
        BinOp::Gt => Ok(Val::Bool(a > b)),
        BinOp::Ge => Ok(Val::Bool(a >= b)),
        BinOp::Min => int(a.min(b)),
        BinOp::Max => int(a.max(b)),
    }
}
