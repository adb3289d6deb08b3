//! The symbolic launch: block and grid dimensions in as many dimensions as the kernel uses,
//! one thread's ids, and the facts CUDA guarantees about them.

use crate::term::{Sort, Term};
use warpsafe_ir::{Builtin, ExprKind, Kernel, Stmt, StmtKind};

/// Largest `blockDim.d · gridDim.d` assumed: the global index along a dimension fits in `int`.
pub const MAX_THREADS_PER_DIM: i128 = i32::MAX as i128;

const NAMES: [&str; 3] = ["x", "y", "z"];

/// Launch symbols (constants for the dimensions the kernel does not use).
#[derive(Clone, Debug)]
pub struct Launch {
    /// `threadIdx`.
    pub tid: [Term; 3],
    /// `blockIdx`.
    pub bid: [Term; 3],
    /// `blockDim`.
    pub bdim: [Term; 3],
    /// `gridDim`.
    pub gdim: [Term; 3],
    /// Dimensions that vary (1, 2 or 3).
    pub dims: usize,
}

impl Launch {
    /// Symbols for a launch with `dims` dimensions.
    pub fn new(dims: usize) -> Launch {
        let pick = |d: usize, name: &str, fixed: i128| {
            if d < dims {
                crate::term::sym(format!("{name}_{}", NAMES[d]), Sort::Int)
            } else {
                Term::int(fixed)
            }
        };
        Launch {
            tid: std::array::from_fn(|d| pick(d, "tid", 0)),
            bid: std::array::from_fn(|d| pick(d, "bid", 0)),
            bdim: std::array::from_fn(|d| pick(d, "bdim", 1)),
            gdim: std::array::from_fn(|d| pick(d, "gdim", 1)),
            dims,
        }
    }

    /// The same launch with the block dimensions the kernel's `requires` fix to a constant
    /// (`blockDim.x == 16`) as that constant, so addresses built from a tile-size macro and
    /// from `blockDim` read alike. Sound: the proof claims only launches the contract admits.
    pub fn with_fixed_blocks(mut self, kernel: &Kernel) -> Launch {
        for r in &kernel.contract.requires {
            fixed_block_dims(r, &mut |d, v| {
                if d < self.dims && (1..=1024).contains(&v) {
                    self.bdim[d] = Term::int(v);
                }
            });
        }
        // A block of 1024 threads in the fixed dimensions leaves one thread to the others.
        let fixed: Vec<i128> = self.bdim.iter().filter_map(|b| b.as_int()).collect();
        if fixed.len() < 3 && fixed.iter().product::<i128>() == 1024 {
            for b in &mut self.bdim {
                if b.as_int().is_none() {
                    *b = Term::int(1);
                }
            }
        }
        self
    }

    /// CUDA's limits on the dimensions and the assumption that each dimension's global index
    /// fits in `int`.
    pub fn dim_facts(&self) -> Vec<Term> {
        let mut out = vec![];
        let limits = [1024, 1024, 64];
        let grid_limits = [i128::from(i32::MAX), 65535, 65535];
        for d in 0..self.dims {
            let (b, g) = (&self.bdim[d], &self.gdim[d]);
            out.push(Term::int(1).le(b).and(&b.le(&Term::int(limits[d]))));
            out.push(Term::int(1).le(g).and(&g.le(&Term::int(grid_limits[d]))));
            out.push(b.mul(g).le(&Term::int(MAX_THREADS_PER_DIM)));
        }
        let total = self.bdim[0].mul(&self.bdim[1]).mul(&self.bdim[2]);
        out.push(total.le(&Term::int(1024)));
        out
    }

    /// The thread is in the launch: `0 ≤ threadIdx < blockDim`, `0 ≤ blockIdx < gridDim`.
    pub fn thread_ranges(&self) -> Vec<Term> {
        let mut out = vec![];
        for d in 0..self.dims {
            let zero = Term::int(0);
            out.push(zero.le(&self.tid[d]).and(&self.tid[d].lt(&self.bdim[d])));
            out.push(zero.le(&self.bid[d]).and(&self.bid[d].lt(&self.gdim[d])));
        }
        out
    }

    /// [`Launch::thread_ranges`] and their consequences
    /// `blockIdx·blockDim + threadIdx < blockDim·gridDim`, `blockIdx·blockDim ≤ (gridDim−1)·blockDim`.
    pub fn thread_facts(&self) -> Vec<Term> {
        let mut out = self.thread_ranges();
        for d in 0..self.dims {
            let g = self.bid[d].mul(&self.bdim[d]).add(&self.tid[d]);
            out.push(g.lt(&self.bdim[d].mul(&self.gdim[d])));
            out.push(
                self.bid[d]
                    .mul(&self.bdim[d])
                    .le(&self.bdim[d].mul(&self.gdim[d]).sub(&self.bdim[d])),
            );
        }
        out
    }

    /// The launch assumptions in words.
    pub fn describe(&self) -> Vec<String> {
        let mut out = vec![];
        let unused: Vec<String> = (self.dims..3)
            .flat_map(|d| {
                [
                    format!("blockDim.{}", NAMES[d]),
                    format!("gridDim.{}", NAMES[d]),
                ]
            })
            .collect();
        if !unused.is_empty() {
            out.push(format!(
                "{}-D launch: {} = 1",
                self.dims,
                unused.join(" = ")
            ));
        }
        for n in &NAMES[..self.dims] {
            out.push(format!(
                "blockDim.{n} * gridDim.{n} <= 2^31 - 1 (the global index fits in int)"
            ));
        }
        out
    }
}

/// How many launch dimensions the kernel uses: the highest dimension its body mentions or its
/// header fixes to more than one.
pub fn dims_of(kernel: &Kernel) -> usize {
    let mut dims = 1;
    for fixed in [kernel.contract.block_dim, kernel.contract.grid_dim]
        .into_iter()
        .flatten()
    {
        for (d, &v) in fixed.iter().enumerate() {
            if v > 1 {
                dims = dims.max(d + 1);
            }
        }
    }
    let mut note = |e: &warpsafe_ir::Expr| {
        e.walk(&mut |x| {
            if let ExprKind::Builtin(
                Builtin::ThreadIdx(d)
                | Builtin::BlockIdx(d)
                | Builtin::BlockDim(d)
                | Builtin::GridDim(d),
            ) = x.kind
            {
                dims = dims.max(d.index() + 1);
            }
        })
    };
    visit_exprs(&kernel.body, &mut note);
    for r in &kernel.contract.requires {
        note(r);
    }
    dims
}

/// Calls `f(d, v)` for each conjunct `blockDim.d == v` (either side) of `e`.
fn fixed_block_dims(e: &warpsafe_ir::Expr, f: &mut dyn FnMut(usize, i128)) {
    use warpsafe_ir::{BinOp, LogicOp};
    let strip = |x: &warpsafe_ir::Expr| -> Option<ExprKind> {
        let mut x = x;
        while let ExprKind::Cast(a) = &x.kind {
            x = a;
        }
        Some(x.kind.clone())
    };
    match &e.kind {
        ExprKind::Logical(LogicOp::And, a, b) => {
            fixed_block_dims(a, f);
            fixed_block_dims(b, f);
        }
        ExprKind::Binary(BinOp::Eq, a, b) => {
            for (x, y) in [(a, b), (b, a)] {
                if let (Some(ExprKind::Builtin(Builtin::BlockDim(d))), Some(ExprKind::Const(v))) =
                    (strip(x), strip(y))
                {
                    if let Some(v) = v.as_i128() {
                        f(d.index(), v);
                    }
                }
            }
        }
        _ => {}
    }
}

/// Calls `f` on every expression of the block.
pub fn visit_exprs(b: &[Stmt], f: &mut dyn FnMut(&warpsafe_ir::Expr)) {
    for s in b {
        match &s.kind {
            StmtKind::Let { init, .. } => init.iter().for_each(&mut *f),
            StmtKind::Assign { value, .. } => f(value),
            StmtKind::Store { indices, value, .. } => {
                indices.iter().for_each(&mut *f);
                f(value);
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                f(cond);
                visit_exprs(then_body, f);
                visit_exprs(else_body, f);
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                visit_exprs(init, f);
                cond.iter().for_each(&mut *f);
                visit_exprs(update, f);
                visit_exprs(body, f);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                f(cond);
                visit_exprs(body, f);
            }
            StmtKind::SyncWarp { mask } => f(mask),
            StmtKind::Shuffle {
                mask,
                value,
                lane,
                width,
                ..
            } => {
                for e in [mask, value, lane, width] {
                    f(e);
                }
            }
            StmtKind::Atomic {
                indices,
                value,
                compare,
                ..
            } => {
                indices.iter().for_each(&mut *f);
                f(value);
                compare.iter().for_each(&mut *f);
            }
            StmtKind::Assume(e) | StmtKind::Assert(e, _) => f(e),
            StmtKind::Vote { mask, pred, .. } => {
                f(mask);
                f(pred);
            }
            StmtKind::SyncThreadsVote { pred, .. } => f(pred),
            StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::SyncThreads
            | StmtKind::SyncGrid
            | StmtKind::ActiveMask { .. }
            | StmtKind::Arbitrary { .. } => {}
        }
    }
}
