//! Grid barriers (`this_grid().sync()`) in the interpreter: every block runs up to the barrier
//! before any continues, so a cross-block exchange reads the other blocks' writes (checked
//! against Rust), whatever the schedule; accesses separated by the barrier are ordered across
//! blocks; the same kernel without it races between blocks; a grid barrier not reached by
//! every thread of the grid is a divergence.

use crate::common;

use common::{at, bdim, bid, bin, buffer, cats, tid};
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options, Outcome};
use warpsafe_ir::{
    BinOp, Category, Dim, Expr, Kernel, KernelBuilder, MemRef, ScalarType, StmtKind, Value,
};

/// Where the barrier of [`exchange`] sits.
#[derive(Clone, Copy, PartialEq)]
enum Sync {
    /// Reached by every thread.
    Grid,
    /// Left out.
    None,
    /// Only in block 0.
    Block0,
    /// Only in the first half of each block.
    HalfBlock,
    /// Block 0 takes the grid barrier, the other blocks `__syncthreads()`.
    GridVsBlock,
}

/// `x[i] = i; sync; y[i] = x[(i + 1) % n]` for `i < n`, `i` the global thread index.
fn exchange(sync: Sync) -> Kernel {
    let mut b = KernelBuilder::new("exchange");
    let x = b.buffer_param("x", ScalarType::F32, true);
    let y = b.buffer_param("y", ScalarType::F32, true);
    let n = b.scalar_param("n", ScalarType::U32);
    let i = b.let_("i", b.global_index(Dim::X));
    let inside = bin(BinOp::Lt, b.var(i), b.param(n));
    b.if_(inside.clone(), |b| {
        let v = b.var(i).cast(ScalarType::F32);
        b.store(MemRef::Global(x), vec![b.var(i)], v);
    });
    let grid = |b: &mut KernelBuilder| at(b, 50, StmtKind::SyncGrid);
    match sync {
        Sync::Grid => grid(&mut b),
        Sync::None => {}
        Sync::Block0 => b.if_(bin(BinOp::Eq, bid(Dim::X), Expr::u32(0)), grid),
        Sync::HalfBlock => {
            let half = bin(BinOp::Shr, bdim(Dim::X), Expr::u32(1));
            b.if_(bin(BinOp::Lt, tid(Dim::X), half), grid)
        }
        Sync::GridVsBlock => b.if_else(bin(BinOp::Eq, bid(Dim::X), Expr::u32(0)), grid, |b| {
            at(b, 60, StmtKind::SyncThreads)
        }),
    }
    b.if_(inside, |b| {
        let next = bin(
            BinOp::Rem,
            bin(BinOp::Add, b.var(i), Expr::u32(1)),
            b.param(n),
        );
        let v = b.load(MemRef::Global(x), vec![next]);
        b.store(MemRef::Global(y), vec![b.var(i)], v);
    });
    b.finish()
}

fn run_exchange(k: &Kernel, blocks: u32, block: u32, n: usize, opts: &Options) -> Outcome {
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&vec![-1.0; n])),
        Arg::Buffer(Buffer::from_f32(&vec![-1.0; n])),
        Arg::Scalar(Value::U32(n as u32)),
    ];
    run(k, &LaunchConfig::linear(blocks, block), args, opts).expect("launch")
}

fn schedules() -> Vec<Options> {
    let mut all = vec![
        Options::default(),
        Options {
            parallel: false,
            ..Options::default()
        },
    ];
    for seed in [1, 7, 12345] {
        all.push(Options {
            schedule_seed: Some(seed),
            ..Options::default()
        });
    }
    all
}

#[test]
fn a_cross_block_exchange_through_a_grid_barrier_reads_the_other_blocks_writes() {
    let k = exchange(Sync::Grid);
    for (blocks, block, n) in [(4, 32, 128), (4, 64, 200), (3, 96, 288), (8, 32, 1)] {
        let want: Vec<f32> = (0..n).map(|i| ((i + 1) % n) as f32).collect();
        for opts in schedules() {
            let out = run_exchange(&k, blocks, block, n, &opts);
            assert!(out.findings.is_empty(), "{:?}", out.findings);
            assert_eq!(buffer(&out, 1).to_f32(), want, "{blocks}x{block}, n = {n}");
            assert_eq!(out.stats.blocks, blocks as u64);
            assert!(out.stats.barriers >= blocks as u64);
        }
    }
}

#[test]
fn without_the_grid_barrier_the_exchange_races_between_blocks() {
    let k = exchange(Sync::None);
    let out = run_exchange(&k, 4, 32, 128, &Options::default());
    let races: Vec<_> = out
        .findings
        .iter()
        .filter(|f| f.category == Category::Race)
        .collect();
    assert!(
        races.iter().any(|f| f.message.contains("between thread")
            && f.other.as_ref().is_some_and(|o| o.block != f.at.block)),
        "{:?}",
        out.findings
    );
}

#[test]
fn a_grid_barrier_in_one_block_only_is_a_divergence_naming_both_blocks() {
    let out = run_exchange(&exchange(Sync::Block0), 4, 32, 128, &Options::default());
    let div: Vec<_> = out
        .findings
        .iter()
        .filter(|f| f.category == Category::Divergence)
        .collect();
    assert_eq!(div.len(), 1, "{:?}", out.findings);
    let f = div[0];
    assert!(f.message.contains("grid barrier"), "{}", f.message);
    assert!(f.message.contains("has finished"), "{}", f.message);
    assert_eq!(f.at.block, [0, 0, 0]);
    assert_ne!(f.other.as_ref().map(|o| o.block), Some([0, 0, 0]));
}

#[test]
fn a_grid_barrier_in_half_of_each_block_is_a_divergence() {
    let out = run_exchange(&exchange(Sync::HalfBlock), 2, 64, 128, &Options::default());
    let f = out
        .findings
        .iter()
        .find(|f| f.category == Category::Divergence)
        .unwrap_or_else(|| panic!("{:?}", out.findings));
    assert!(f.message.contains("waits at grid barrier"), "{}", f.message);
    assert!(f.message.contains("already returned"), "{}", f.message);
}

#[test]
fn a_grid_barrier_against_a_block_barrier_is_a_divergence() {
    let out = run_exchange(&exchange(Sync::GridVsBlock), 2, 32, 64, &Options::default());
    assert!(
        cats(&out).contains(&Category::Divergence),
        "{:?}",
        out.findings
    );
}

/// Per-block tree sums into `partial`, a grid barrier, then thread 0 of block 0 adds the
/// partials into `out[0]` (a single-kernel two-phase reduction). With `sync` false the grid
/// barrier is left out.
fn two_phase_sum(sync: bool) -> Kernel {
    let mut b = KernelBuilder::new("two_phase_sum");
    let x = b.buffer_param("x", ScalarType::I32, false);
    let partial = b.buffer_param("partial", ScalarType::I32, true);
    let out = b.buffer_param("out", ScalarType::I32, true);
    let n = b.scalar_param("n", ScalarType::U32);
    let s = b.shared_array("s", ScalarType::I32, vec![64]);
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
            b.store(MemRef::Shared(s), vec![b.var(t)], sum);
        });
        b.sync_threads();
        b.assign(h, bin(BinOp::Shr, b.var(h), Expr::u32(1)));
    });
    b.if_(bin(BinOp::Eq, b.var(t), Expr::u32(0)), |b| {
        let v = b.load(MemRef::Shared(s), vec![Expr::u32(0)]);
        b.store(MemRef::Global(partial), vec![bid(Dim::X)], v);
    });
    if sync {
        b.sync_grid();
    }
    b.if_(bin(BinOp::Eq, b.var(i), Expr::u32(0)), |b| {
        let acc = b.let_("acc", Expr::i32(0));
        let blocks = Expr::builtin(warpsafe_ir::Builtin::GridDim(Dim::X));
        b.for_range("k", Expr::u32(0), blocks, Expr::u32(1), |b, k| {
            let p = b.load(MemRef::Global(partial), vec![k]);
            b.assign(acc, bin(BinOp::Add, b.var(acc), p));
        });
        b.store(MemRef::Global(out), vec![Expr::u32(0)], b.var(acc));
    });
    b.finish()
}

fn run_sum(k: &Kernel, data: &[i32], blocks: u32, opts: &Options) -> Outcome {
    let args = vec![
        Arg::Buffer(Buffer::from_i32(data)),
        Arg::Buffer(Buffer::from_i32(&vec![0; blocks as usize])),
        Arg::Buffer(Buffer::from_i32(&[0])),
        Arg::Scalar(Value::U32(data.len() as u32)),
    ];
    run(k, &LaunchConfig::linear(blocks, 64), args, opts).expect("launch")
}

#[test]
fn a_two_phase_reduction_with_a_grid_barrier_sums_every_block() {
    let mut rng = common::Rng(0x5eed);
    let k = two_phase_sum(true);
    for (blocks, len) in [(4u32, 256usize), (5, 300), (1, 17)] {
        let data = rng.i32s(len, 1000);
        let want: i32 = data.iter().sum();
        let partials: Vec<i32> = (0..blocks as usize)
            .map(|b| data.iter().skip(b * 64).take(64).sum())
            .collect();
        for opts in schedules() {
            let out = run_sum(&k, &data, blocks, &opts);
            assert!(out.findings.is_empty(), "{:?}", out.findings);
            assert_eq!(buffer(&out, 1).to_i32(), partials);
            assert_eq!(buffer(&out, 2).to_i32(), vec![want]);
        }
    }
}

#[test]
fn the_two_phase_reduction_without_the_grid_barrier_races_on_the_partials() {
    let mut rng = common::Rng(3);
    let data = rng.i32s(256, 1000);
    let out = run_sum(&two_phase_sum(false), &data, 4, &Options::default());
    let f = out
        .findings
        .iter()
        .find(|f| f.category == Category::Race)
        .unwrap_or_else(|| panic!("{:?}", out.findings));
    assert!(f.message.contains("`partial`"), "{}", f.message);
}

#[test]
fn thread_code_names_the_grid_barrier() {
    let p = warpsafe_exec::compile(&exchange(Sync::Grid)).expect("compile");
    let text = warpsafe_exec::thread_code_text(&p);
    assert!(text.contains("grid barrier #0"), "{text}");
}

#[test]
fn a_cooperative_launch_must_hold_every_block_at_once() {
    let opts = Options {
        max_memory: Some(64 << 20),
        ..Options::default()
    };
    let n = 4096 * 32;
    let args = || {
        vec![
            Arg::Buffer(Buffer::from_f32(&vec![0.0; n])),
            Arg::Buffer(Buffer::from_f32(&vec![0.0; n])),
            Arg::Scalar(Value::U32(n as u32)),
        ]
    };
    let cfg = LaunchConfig::linear(4096, 32);
    let err = run(&exchange(Sync::Grid), &cfg, args(), &opts).expect_err("too big");
    let warpsafe_exec::ExecError::MemoryLimit {
        needed,
        launch_bytes,
        block_bytes,
        limit,
    } = err
    else {
        panic!("{err}");
    };
    assert_eq!(limit, 64 << 20);
    assert_eq!(needed, launch_bytes + 4096 * block_bytes);
    // Without the grid barrier, blocks run a few at a time within the same limit.
    let out = run(&exchange(Sync::None), &cfg, args(), &opts).expect("fits");
    assert_eq!(out.stats.blocks, 4096);
}
