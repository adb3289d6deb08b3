//! Helpers shared by the integration tests: a tiny RNG, kernels built with `KernelBuilder`.
#![allow(dead_code)]

use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options, Outcome};
use warpsafe_ir::{
    AtomicOp, BinOp, Builtin, Dim, Expr, Kernel, KernelBuilder, MemRef, ScalarType, ShuffleKind,
    Span, Stmt, StmtKind,
};

/// xorshift64*: deterministic test inputs without a dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn f32s(&mut self, n: usize) -> Vec<f32> {
        (0..n)
            .map(|_| (self.below(2001) as f32 - 1000.0) / 100.0)
            .collect()
    }
    pub fn i32s(&mut self, n: usize, range: i64) -> Vec<i32> {
        (0..n)
            .map(|_| (self.below(2 * range as u64 + 1) as i64 - range) as i32)
            .collect()
    }
}

pub fn tid(d: Dim) -> Expr {
    Expr::builtin(Builtin::ThreadIdx(d))
}
pub fn bid(d: Dim) -> Expr {
    Expr::builtin(Builtin::BlockIdx(d))
}
pub fn bdim(d: Dim) -> Expr {
    Expr::builtin(Builtin::BlockDim(d))
}
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::binary(op, a, b)
}
pub fn sp(lo: usize) -> Span {
    Span::new(lo, lo + 1)
}

/// Pushes a statement with a span so findings can be matched to it.
pub fn at(b: &mut KernelBuilder, lo: usize, kind: StmtKind) {
    b.push_stmt(Stmt::new(kind).with_span(sp(lo)));
}

pub fn buffer(out: &Outcome, i: usize) -> &Buffer {
    match &out.args[i] {
        Arg::Buffer(b) => b,
        Arg::Scalar(_) => panic!("argument {i} is a scalar"),
    }
}

pub fn go(k: &Kernel, cfg: LaunchConfig, args: Vec<Arg>) -> Outcome {
    run(k, &cfg, args, &Options::default()).expect("launch")
}

pub fn cats(out: &Outcome) -> Vec<warpsafe_ir::Category> {
    out.findings.iter().map(|f| f.category).collect()
}

/// `y[i] = x[i] + y[i]` for `i < n` (or `i <= n` when `off_by_one`).
pub fn vector_add(off_by_one: bool) -> Kernel {
    let mut b = KernelBuilder::new("vector_add");
    let n = b.scalar_param("n", ScalarType::U32);
    let x = b.buffer_param("x", ScalarType::F32, false);
    let y = b.buffer_param("y", ScalarType::F32, true);
    let i = b.let_("i", b.global_index(Dim::X));
    let cmp = if off_by_one { BinOp::Le } else { BinOp::Lt };
    b.if_(bin(cmp, b.var(i), b.param(n)), |b| {
        let sum = bin(
            BinOp::Add,
            b.load(MemRef::Global(x), vec![b.var(i)]),
            b.load(MemRef::Global(y), vec![b.var(i)]),
        );
        at(
            b,
            40,
            StmtKind::Store {
                mem: MemRef::Global(y),
                indices: vec![b.var(i)],
                value: sum,
            },
        );
    });
    b.finish()
}

/// Block sum of `x` in shared memory with a tree of barriers; `out[blockIdx.x]` gets the sum.
/// `barrier_in_loop = false` drops the barrier inside the loop (a race).
pub fn block_reduce(barrier_in_loop: bool) -> Kernel {
    let mut b = KernelBuilder::new("block_reduce");
    let n = b.scalar_param("n", ScalarType::U32);
    let x = b.buffer_param("x", ScalarType::I32, false);
    let out = b.buffer_param("out", ScalarType::I32, true);
    let s = b.shared_array("sdata", ScalarType::I32, vec![256]);
    let t = b.let_("t", tid(Dim::X));
    let i = b.let_("i", b.global_index(Dim::X));
    let v = Expr::select(
        bin(BinOp::Lt, b.var(i), b.param(n)),
        b.load(MemRef::Global(x), vec![b.var(i)]),
        Expr::i32(0),
    );
    b.store(MemRef::Shared(s), vec![b.var(t)], v);
    b.sync_threads();
    let h = b.let_("h", bin(BinOp::Shr, bdim(Dim::X), Expr::u32(1)));
    b.while_(bin(BinOp::Gt, b.var(h), Expr::u32(0)), |b| {
        b.if_(bin(BinOp::Lt, b.var(t), b.var(h)), |b| {
            let sum = bin(
                BinOp::Add,
                b.load(MemRef::Shared(s), vec![b.var(t)]),
                b.load(MemRef::Shared(s), vec![bin(BinOp::Add, b.var(t), b.var(h))]),
            );
            at(
                b,
                60,
                StmtKind::Store {
                    mem: MemRef::Shared(s),
                    indices: vec![b.var(t)],
                    value: sum,
                },
            );
        });
        if barrier_in_loop {
            b.sync_threads();
        }
        b.assign(h, bin(BinOp::Shr, b.var(h), Expr::u32(1)));
    });
    b.if_(bin(BinOp::Eq, b.var(t), Expr::u32(0)), |b| {
        let v = b.load(MemRef::Shared(s), vec![Expr::u32(0)]);
        b.store(MemRef::Global(out), vec![bid(Dim::X)], v);
    });
    b.finish()
}

/// Tiled `C = A * B` for `n × n` matrices, 16×16 tiles in shared memory.
pub fn tiled_matmul() -> Kernel {
    let mut b = KernelBuilder::new("tiled_matmul");
    let n = b.scalar_param("n", ScalarType::U32);
    let a = b.buffer_param("A", ScalarType::F32, false);
    let bm = b.buffer_param("B", ScalarType::F32, false);
    let c = b.buffer_param("C", ScalarType::F32, true);
    let sa = b.shared_array("As", ScalarType::F32, vec![16, 16]);
    let sb = b.shared_array("Bs", ScalarType::F32, vec![16, 16]);
    let tx = b.let_("tx", tid(Dim::X));
    let ty = b.let_("ty", tid(Dim::Y));
    let row = b.let_("row", b.global_index(Dim::Y));
    let col = b.let_("col", b.global_index(Dim::X));
    let sum = b.let_("sum", Expr::f32(0.0));
    let tiles = bin(BinOp::Div, b.param(n), Expr::u32(16));
    b.for_range("t", Expr::u32(0), tiles, Expr::u32(1), |b, t| {
        let a_idx = bin(
            BinOp::Add,
            bin(BinOp::Mul, b.var(row), b.param(n)),
            bin(
                BinOp::Add,
                bin(BinOp::Mul, t.clone(), Expr::u32(16)),
                b.var(tx),
            ),
        );
        let av = b.load(MemRef::Global(a), vec![a_idx]);
        b.store(MemRef::Shared(sa), vec![b.var(ty), b.var(tx)], av);
        let b_idx = bin(
            BinOp::Add,
            bin(
                BinOp::Mul,
                bin(BinOp::Add, bin(BinOp::Mul, t, Expr::u32(16)), b.var(ty)),
                b.param(n),
            ),
            b.var(col),
        );
        let bv = b.load(MemRef::Global(bm), vec![b_idx]);
        b.store(MemRef::Shared(sb), vec![b.var(ty), b.var(tx)], bv);
        b.sync_threads();
        b.for_range("k", Expr::u32(0), Expr::u32(16), Expr::u32(1), |b, k| {
            let p = bin(
                BinOp::Mul,
                b.load(MemRef::Shared(sa), vec![b.var(ty), k.clone()]),
                b.load(MemRef::Shared(sb), vec![k, b.var(tx)]),
            );
            b.assign(sum, bin(BinOp::Add, b.var(sum), p));
        });
        b.sync_threads();
    });
    let c_idx = bin(
        BinOp::Add,
        bin(BinOp::Mul, b.var(row), b.param(n)),
        b.var(col),
    );
    b.store(MemRef::Global(c), vec![c_idx], b.var(sum));
    b.finish()
}

/// Naive `C = A * B`: one thread per output, a loop over `k` reading global memory.
pub fn naive_matmul() -> Kernel {
    let mut b = KernelBuilder::new("naive_matmul");
    let n = b.scalar_param("n", ScalarType::U32);
    let a = b.buffer_param("A", ScalarType::F32, false);
    let bm = b.buffer_param("B", ScalarType::F32, false);
    let c = b.buffer_param("C", ScalarType::F32, true);
    let row = b.let_("row", b.global_index(Dim::Y));
    let col = b.let_("col", b.global_index(Dim::X));
    let sum = b.let_("sum", Expr::f32(0.0));
    b.for_range("k", Expr::u32(0), b.param(n), Expr::u32(1), |b, k| {
        let ai = bin(
            BinOp::Add,
            bin(BinOp::Mul, b.var(row), b.param(n)),
            k.clone(),
        );
        let bi = bin(BinOp::Add, bin(BinOp::Mul, k, b.param(n)), b.var(col));
        let p = bin(
            BinOp::Mul,
            b.load(MemRef::Global(a), vec![ai]),
            b.load(MemRef::Global(bm), vec![bi]),
        );
        b.assign(sum, bin(BinOp::Add, b.var(sum), p));
    });
    let ci = bin(
        BinOp::Add,
        bin(BinOp::Mul, b.var(row), b.param(n)),
        b.var(col),
    );
    b.store(MemRef::Global(c), vec![ci], b.var(sum));
    b.finish()
}

/// `hist[x[i] % bins] += 1` with `atomicAdd`; with `plain_read`, thread 0 of each block also
/// reads `hist[0]` without synchronisation.
pub fn histogram(plain_read: bool) -> Kernel {
    let mut b = KernelBuilder::new("histogram");
    let n = b.scalar_param("n", ScalarType::U32);
    let bins = b.scalar_param("bins", ScalarType::U32);
    let x = b.buffer_param("x", ScalarType::U32, false);
    let hist = b.buffer_param("hist", ScalarType::U32, true);
    let peek = b.buffer_param("peek", ScalarType::U32, true);
    let i = b.let_("i", b.global_index(Dim::X));
    b.if_(bin(BinOp::Lt, b.var(i), b.param(n)), |b| {
        let bin_idx = bin(
            BinOp::Rem,
            b.load(MemRef::Global(x), vec![b.var(i)]),
            b.param(bins),
        );
        at(
            b,
            70,
            StmtKind::Atomic {
                dst: None,
                op: AtomicOp::Add,
                mem: MemRef::Global(hist),
                indices: vec![bin_idx],
                value: Expr::u32(1),
                compare: None,
            },
        );
    });
    if plain_read {
        b.if_(bin(BinOp::Eq, tid(Dim::X), Expr::u32(0)), |b| {
            let v = b
                .load(MemRef::Global(hist), vec![Expr::u32(0)])
                .with_span(sp(80));
            b.store(MemRef::Global(peek), vec![bid(Dim::X)], v);
        });
    }
    b.finish()
}

/// Warp sum with `__shfl_down_sync`; lane 0 writes `out[global warp]`.
pub fn shuffle_reduce() -> Kernel {
    let mut b = KernelBuilder::new("shuffle_reduce");
    let x = b.buffer_param("x", ScalarType::I32, false);
    let out = b.buffer_param("out", ScalarType::I32, true);
    let i = b.let_("i", b.global_index(Dim::X));
    let v = b.let_("v", b.load(MemRef::Global(x), vec![b.var(i)]));
    let o = b.let_("o", Expr::u32(16));
    b.while_(bin(BinOp::Gt, b.var(o), Expr::u32(0)), |b| {
        let got = b.declare("got", ScalarType::I32);
        b.push(StmtKind::Let {
            var: got,
            init: None,
        });
        b.push(StmtKind::Shuffle {
            dst: got,
            kind: ShuffleKind::Down,
            mask: Expr::u32(u32::MAX),
            value: b.var(v),
            lane: b.var(o),
            width: Expr::u32(32),
        });
        b.assign(v, bin(BinOp::Add, b.var(v), b.var(got)));
        b.assign(o, bin(BinOp::Shr, b.var(o), Expr::u32(1)));
    });
    let lane = bin(BinOp::Rem, tid(Dim::X), Expr::u32(32));
    b.if_(bin(BinOp::Eq, lane, Expr::u32(0)), |b| {
        let w = bin(BinOp::Div, b.var(i), Expr::u32(32));
        b.store(MemRef::Global(out), vec![w], b.var(v));
    });
    b.finish()
}

/// One warp reduces 64 values in shared memory, the last five steps warp-synchronously.
/// `sync`: insert `__syncwarp()` between the steps (correct on Volta+).
pub fn warp_tail(sync: bool) -> Kernel {
    let mut b = KernelBuilder::new("warp_tail");
    let x = b.buffer_param("x", ScalarType::I32, false);
    let out = b.buffer_param("out", ScalarType::I32, true);
    let s = b.shared_array("s", ScalarType::I32, vec![64]);
    let t = b.let_("t", tid(Dim::X));
    let first = bin(
        BinOp::Add,
        b.load(MemRef::Global(x), vec![b.var(t)]),
        b.load(
            MemRef::Global(x),
            vec![bin(BinOp::Add, b.var(t), Expr::u32(32))],
        ),
    );
    b.store(MemRef::Shared(s), vec![b.var(t)], first);
    b.sync_threads();
    for (k, h) in [16u32, 8, 4, 2, 1].into_iter().enumerate() {
        b.if_(bin(BinOp::Lt, b.var(t), Expr::u32(h)), |b| {
            let sum = bin(
                BinOp::Add,
                b.load(MemRef::Shared(s), vec![b.var(t)]),
                b.load(
                    MemRef::Shared(s),
                    vec![bin(BinOp::Add, b.var(t), Expr::u32(h))],
                )
                .with_span(sp(200 + k)),
            );
            at(
                b,
                300 + k,
                StmtKind::Store {
                    mem: MemRef::Shared(s),
                    indices: vec![b.var(t)],
                    value: sum,
                },
            );
        });
        if sync {
            b.push(StmtKind::SyncWarp {
                mask: Expr::u32(u32::MAX),
            });
        }
    }
    b.if_(bin(BinOp::Eq, b.var(t), Expr::u32(0)), |b| {
        let v = b.load(MemRef::Shared(s), vec![Expr::u32(0)]);
        b.store(MemRef::Global(out), vec![Expr::u32(0)], v);
    });
    b.finish()
}
