//! Each check on a correct kernel (no finding) and its buggy twin (the finding, with the
//! right category and sites).

use crate::common;

use common::*;
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options, Severity};
use warpsafe_ir::{
    BinOp, Category, Dim, Expr, Kernel, KernelBuilder, MemRef, ScalarType, StmtKind, Value,
};

fn reduce_args(n: usize) -> Vec<Arg> {
    vec![
        Arg::Scalar(Value::U32(n as u32)),
        Arg::Buffer(Buffer::from_i32(&vec![1; n])),
        Arg::Buffer(Buffer::zeros(ScalarType::I32, n.div_ceil(256))),
    ]
}

#[test]
fn missing_barrier_is_a_shared_race() {
    let ok = go(
        &block_reduce(true),
        LaunchConfig::linear(2, 256),
        reduce_args(512),
    );
    assert!(ok.findings.is_empty(), "{:?}", ok.findings);
    let bad = go(
        &block_reduce(false),
        LaunchConfig::linear(2, 256),
        reduce_args(512),
    );
    let f = bad.of(Category::Race).next().expect("a race");
    let loc = f.location.as_ref().expect("a location");
    assert_eq!(loc.memory, "sdata");
    assert_eq!(loc.space, warpsafe_exec::Space::Shared);
    assert_ne!(f.at.thread, f.other.expect("other site").thread);
    assert_eq!(f.severity, Severity::Error);
    assert!(
        f.message.contains("race on shared `sdata`"),
        "{}",
        f.message
    );
    assert!(f.count >= 1);
}

fn barrier_kernel(divergent: bool, early_return: bool) -> Kernel {
    let mut b = KernelBuilder::new("barriers");
    let n = b.scalar_param("n", ScalarType::U32);
    let out = b.buffer_param("out", ScalarType::U32, true);
    let s = b.shared_array("s", ScalarType::U32, vec![64]);
    let t = b.let_("t", tid(Dim::X));
    if early_return {
        b.if_(bin(BinOp::Ge, b.var(t), b.param(n)), |b| {
            at(b, 10, StmtKind::Return);
        });
    }
    b.store(MemRef::Shared(s), vec![b.var(t)], b.var(t));
    if divergent {
        b.if_(bin(BinOp::Lt, b.var(t), b.param(n)), |b| {
            at(b, 20, StmtKind::SyncThreads);
        });
    } else {
        at(&mut b, 30, StmtKind::SyncThreads);
    }
    let other = bin(
        BinOp::Rem,
        bin(BinOp::Add, b.var(t), Expr::u32(1)),
        Expr::u32(64),
    );
    let v = b.load(MemRef::Shared(s), vec![other]);
    b.store(MemRef::Global(out), vec![b.var(t)], v);
    b.finish()
}

fn barrier_args(n: u32) -> Vec<Arg> {
    vec![
        Arg::Scalar(Value::U32(n)),
        Arg::Buffer(Buffer::zeros(ScalarType::U32, 64)),
    ]
}

#[test]
fn barrier_in_thread_dependent_branch_diverges() {
    let ok = go(
        &barrier_kernel(true, false),
        LaunchConfig::linear(1, 64),
        barrier_args(64),
    );
    assert!(ok.findings.is_empty(), "{:?}", ok.findings);
    let bad = go(
        &barrier_kernel(true, false),
        LaunchConfig::linear(1, 64),
        barrier_args(40),
    );
    let f = bad.of(Category::Divergence).next().expect("divergence");
    assert_eq!(f.at.span, sp(20));
    assert_eq!(f.at.thread, [0, 0, 0]);
    let other = f.other.expect("other thread");
    assert_eq!(other.thread, [40, 0, 0]);
    assert!(f.message.contains("has already returned"), "{}", f.message);
}

#[test]
fn early_return_before_barrier_diverges() {
    let ok = go(
        &barrier_kernel(false, true),
        LaunchConfig::linear(1, 64),
        barrier_args(64),
    );
    assert!(ok.findings.is_empty(), "{:?}", ok.findings);
    assert_eq!(buffer(&ok, 1).to_u32()[5], 6);
    let bad = go(
        &barrier_kernel(false, true),
        LaunchConfig::linear(1, 64),
        barrier_args(50),
    );
    assert_eq!(cats(&bad), vec![Category::Divergence]);
    let f = &bad.findings[0];
    assert_eq!(f.at.span, sp(30));
    let other = f.other.expect("the thread that returned");
    assert_eq!(other.thread, [50, 0, 0]);
    assert_eq!(other.span, sp(10));
}

#[test]
fn threads_at_different_barriers_deadlock() {
    let mut b = KernelBuilder::new("two_barriers");
    let t = b.let_("t", tid(Dim::X));
    b.if_else(
        bin(BinOp::Lt, b.var(t), Expr::u32(32)),
        |b| at(b, 1, StmtKind::SyncThreads),
        |b| at(b, 2, StmtKind::SyncThreads),
    );
    let k = b.finish();
    let out = go(&k, LaunchConfig::linear(1, 64), vec![]);
    assert_eq!(cats(&out), vec![Category::Divergence]);
    let f = &out.findings[0];
    assert_eq!((f.at.span, f.other.map(|o| o.span)), (sp(1), Some(sp(2))));
    assert!(
        f.message.contains("different __syncthreads()"),
        "{}",
        f.message
    );
}

#[test]
fn off_by_one_is_out_of_bounds() {
    let args = |n: usize| {
        vec![
            Arg::Scalar(Value::U32(n as u32)),
            Arg::Buffer(Buffer::from_f32(&vec![1.0; n])),
            Arg::Buffer(Buffer::from_f32(&vec![2.0; n])),
        ]
    };
    let ok = go(&vector_add(false), LaunchConfig::linear(2, 64), args(100));
    assert!(ok.findings.is_empty());
    let bad = go(&vector_add(true), LaunchConfig::linear(2, 64), args(100));
    let oob: Vec<_> = bad.of(Category::Oob).collect();
    assert!(!oob.is_empty());
    let write = oob.iter().find(|f| f.at.span == sp(40)).expect("the store");
    assert_eq!(write.at.thread, [36, 0, 0]);
    assert_eq!(write.at.block, [1, 0, 0]);
    assert_eq!(write.location.as_ref().map(|l| l.index), Some(100));
    assert!(write
        .message
        .contains("out-of-bounds write of global `y` at index 100"));
    // The dropped write leaves the buffer as it was.
    assert_eq!(buffer(&bad, 2).to_f32(), vec![3.0; 100]);
}

fn uninit_kernel(init_all: bool) -> Kernel {
    let mut b = KernelBuilder::new("uninit");
    let out = b.buffer_param("out", ScalarType::F32, true);
    let s = b.shared_array("s", ScalarType::F32, vec![33]);
    let t = b.let_("t", tid(Dim::X));
    b.store(MemRef::Shared(s), vec![b.var(t)], Expr::f32(1.0));
    if init_all {
        b.if_(bin(BinOp::Eq, b.var(t), Expr::u32(0)), |b| {
            b.store(MemRef::Shared(s), vec![Expr::u32(32)], Expr::f32(1.0));
        });
    }
    b.sync_threads();
    let v = b
        .load(
            MemRef::Shared(s),
            vec![bin(BinOp::Add, b.var(t), Expr::u32(1))],
        )
        .with_span(sp(5));
    b.store(MemRef::Global(out), vec![b.var(t)], v);
    b.finish()
}

#[test]
fn uninitialised_shared_read() {
    let args = || vec![Arg::Buffer(Buffer::zeros(ScalarType::F32, 32))];
    let ok = go(&uninit_kernel(true), LaunchConfig::linear(1, 32), args());
    assert!(ok.findings.is_empty(), "{:?}", ok.findings);
    let bad = go(&uninit_kernel(false), LaunchConfig::linear(1, 32), args());
    assert_eq!(cats(&bad), vec![Category::Uninit]);
    let f = &bad.findings[0];
    assert_eq!(f.at.thread, [31, 0, 0]);
    assert_eq!(f.at.span, sp(5));
    assert_eq!(f.location.as_ref().map(|l| l.index), Some(32));
}

fn divide_kernel() -> Kernel {
    let mut b = KernelBuilder::new("divide");
    let d = b.scalar_param("d", ScalarType::I32);
    let x = b.buffer_param("x", ScalarType::I32, true);
    let i = b.let_("i", tid(Dim::X));
    let q = bin(
        BinOp::Div,
        b.load(MemRef::Global(x), vec![b.var(i)]),
        b.param(d),
    );
    b.store(MemRef::Global(x), vec![b.var(i)], q);
    b.finish()
}

#[test]
fn division_by_zero() {
    let args = |d| {
        vec![
            Arg::Scalar(Value::I32(d)),
            Arg::Buffer(Buffer::from_i32(&[10, -7, 3, 0])),
        ]
    };
    let ok = go(&divide_kernel(), LaunchConfig::linear(1, 4), args(2));
    assert!(ok.findings.is_empty());
    assert_eq!(buffer(&ok, 1).to_i32(), vec![5, -3, 1, 0]);
    let bad = go(&divide_kernel(), LaunchConfig::linear(1, 4), args(0));
    assert_eq!(cats(&bad), vec![Category::DivByZero]);
    assert_eq!(bad.findings[0].count, 4);
    assert_eq!(bad.findings[0].at.thread, [0, 0, 0]);
    assert_eq!(buffer(&bad, 1).to_i32(), vec![0; 4]);
}

fn scale_kernel(deny: bool) -> Kernel {
    let mut b = KernelBuilder::new("scale");
    let x = b.buffer_param("x", ScalarType::I32, true);
    let i = b.let_("i", tid(Dim::X));
    let v = bin(
        BinOp::Mul,
        b.load(MemRef::Global(x), vec![b.var(i)]),
        Expr::i32(65520),
    );
    b.store(MemRef::Global(x), vec![b.var(i)], v);
    if deny {
        b.contract_mut().deny.push(Category::Overflow);
    }
    b.finish()
}

#[test]
fn signed_overflow_warns_and_errors_when_denied() {
    let small = || vec![Arg::Buffer(Buffer::from_i32(&[1, 2, 3]))];
    let ok = go(&scale_kernel(false), LaunchConfig::linear(1, 3), small());
    assert!(ok.findings.is_empty());
    let big = || vec![Arg::Buffer(Buffer::from_i32(&[1, 65520, 3]))];
    let warn = go(&scale_kernel(false), LaunchConfig::linear(1, 3), big());
    assert_eq!(cats(&warn), vec![Category::Overflow]);
    assert_eq!(warn.findings[0].severity, Severity::Warning);
    assert_eq!(warn.findings[0].at.thread, [1, 0, 0]);
    assert!(warn.findings[0].message.contains("65520 * 65520"));
    assert_eq!(
        buffer(&warn, 0).to_i32()[1],
        65520i32.wrapping_mul(65520),
        "wraps like CUDA"
    );
    let err = go(&scale_kernel(true), LaunchConfig::linear(1, 3), big());
    assert_eq!(err.findings[0].severity, Severity::Error);
    let opts = Options {
        deny: vec![Category::Overflow],
        ..Options::default()
    };
    let by_opt = run(
        &scale_kernel(false),
        &LaunchConfig::linear(1, 3),
        big(),
        &opts,
    )
    .unwrap();
    assert_eq!(by_opt.findings[0].severity, Severity::Error);
}

fn block_writes(shared_slot: bool) -> Kernel {
    let mut b = KernelBuilder::new("block_writes");
    let out = b.buffer_param("out", ScalarType::U32, true);
    b.if_(bin(BinOp::Eq, tid(Dim::X), Expr::u32(0)), |b| {
        let idx = if shared_slot {
            Expr::u32(0)
        } else {
            bid(Dim::X)
        };
        at(
            b,
            90,
            StmtKind::Store {
                mem: MemRef::Global(out),
                indices: vec![idx],
                value: bid(Dim::X),
            },
        );
    });
    b.finish()
}

#[test]
fn inter_block_global_race() {
    let args = || vec![Arg::Buffer(Buffer::zeros(ScalarType::U32, 8))];
    let ok = go(&block_writes(false), LaunchConfig::linear(8, 32), args());
    assert!(ok.findings.is_empty());
    assert_eq!(buffer(&ok, 0).to_u32(), (0..8).collect::<Vec<u32>>());
    let bad = go(&block_writes(true), LaunchConfig::linear(8, 32), args());
    assert_eq!(cats(&bad), vec![Category::Race]);
    let f = &bad.findings[0];
    assert_eq!(f.at.block, [1, 0, 0]);
    assert_eq!(f.other.map(|o| o.block), Some([0, 0, 0]));
    assert_eq!(f.count, 7);
    assert!(f
        .message
        .contains("write-write race on global `out` [index 0]"));
}

fn tail_args() -> Vec<Arg> {
    let x: Vec<i32> = (1..=64).collect();
    vec![
        Arg::Buffer(Buffer::from_i32(&x)),
        Arg::Buffer(Buffer::zeros(ScalarType::I32, 1)),
    ]
}

#[test]
fn warp_synchronous_tail_races_unless_lockstep() {
    let bad = go(&warp_tail(false), LaunchConfig::linear(1, 32), tail_args());
    let f = bad
        .of(Category::Race)
        .next()
        .expect("race without __syncwarp");
    assert_eq!(f.location.as_ref().map(|l| l.memory.as_str()), Some("s"));
    let spans = (f.at.span, f.other.map(|o| o.span));
    assert!(
        spans == (sp(201), Some(sp(300))) || spans == (sp(300), Some(sp(201))),
        "{spans:?}"
    );
    let legacy = Options {
        lockstep_warps: true,
        ..Options::default()
    };
    // Lock-step warps order the tail only when its shared memory is `volatile`: a plain tail
    // races there too (tests/lockstep_volatile.rs).
    let mut volatile_tail = warp_tail(false);
    volatile_tail
        .contract
        .volatile
        .push(MemRef::Shared(warpsafe_ir::ArrayId(0)));
    let ok = run(
        &volatile_tail,
        &LaunchConfig::linear(1, 32),
        tail_args(),
        &legacy,
    )
    .unwrap();
    assert!(ok.findings.is_empty(), "{:?}", ok.findings);
    assert_eq!(buffer(&ok, 1).to_i32(), vec![64 * 65 / 2]);
}

#[test]
fn syncwarp_orders_the_warp_tail() {
    let ok = go(&warp_tail(true), LaunchConfig::linear(1, 32), tail_args());
    assert!(ok.findings.is_empty(), "{:?}", ok.findings);
    assert_eq!(buffer(&ok, 1).to_i32(), vec![64 * 65 / 2]);
}

#[test]
fn syncwarp_with_exited_lane_diverges() {
    let mut b = KernelBuilder::new("syncwarp_exit");
    b.if_(bin(BinOp::Eq, tid(Dim::X), Expr::u32(3)), |b| {
        at(b, 7, StmtKind::Return)
    });
    at(
        &mut b,
        8,
        StmtKind::SyncWarp {
            mask: Expr::u32(u32::MAX),
        },
    );
    let out = go(&b.finish(), LaunchConfig::linear(1, 32), vec![]);
    assert_eq!(cats(&out), vec![Category::Divergence]);
    let f = &out.findings[0];
    assert_eq!(f.at.span, sp(8));
    assert_eq!(
        f.other.map(|o| (o.thread, o.span)),
        Some(([3, 0, 0], sp(7)))
    );
}

#[test]
fn atomics_race_only_with_plain_accesses() {
    let args = || {
        vec![
            Arg::Scalar(Value::U32(256)),
            Arg::Scalar(Value::U32(4)),
            Arg::Buffer(Buffer::from_u32(&(0..256).collect::<Vec<u32>>())),
            Arg::Buffer(Buffer::zeros(ScalarType::U32, 4)),
            Arg::Buffer(Buffer::zeros(ScalarType::U32, 2)),
        ]
    };
    let ok = go(&histogram(false), LaunchConfig::linear(2, 128), args());
    assert!(ok.findings.is_empty(), "{:?}", ok.findings);
    assert_eq!(buffer(&ok, 3).to_u32(), vec![64; 4]);
    let bad = go(&histogram(true), LaunchConfig::linear(2, 128), args());
    assert!(!bad.findings.is_empty());
    for f in &bad.findings {
        assert_eq!(f.category, Category::Race);
        let spans = [Some(f.at.span), f.other.map(|o| o.span)];
        assert!(spans.contains(&Some(sp(80))), "{f:?}");
        assert!(spans.contains(&Some(sp(70))), "{f:?}");
    }
}

#[test]
fn launch_and_argument_errors_are_values() {
    let k = vector_add(false);
    let cfg = LaunchConfig::linear(1, 32);
    let e = run(&k, &cfg, vec![], &Options::default()).unwrap_err();
    assert!(e.to_string().contains("takes 3 argument"), "{e}");
    let wrong = vec![
        Arg::Scalar(Value::I32(3)),
        Arg::Buffer(Buffer::zeros(ScalarType::F32, 3)),
        Arg::Buffer(Buffer::zeros(ScalarType::F32, 3)),
    ];
    let e = run(&k, &cfg, wrong, &Options::default()).unwrap_err();
    assert!(e.to_string().contains("`n`"), "{e}");
    let ok_args = || {
        vec![
            Arg::Scalar(Value::U32(3)),
            Arg::Buffer(Buffer::zeros(ScalarType::F32, 3)),
            Arg::Buffer(Buffer::zeros(ScalarType::F32, 3)),
        ]
    };
    for bad in [[0, 1, 1], [2048, 1, 1], [1, 1, 65], [64, 32, 1]] {
        let cfg = LaunchConfig {
            grid: [1, 1, 1],
            block: bad,
            dynamic_shared_bytes: 0,
        };
        assert!(
            run(&k, &cfg, ok_args(), &Options::default()).is_err(),
            "{bad:?}"
        );
    }
    let mut b = KernelBuilder::new("dyn");
    let s = b.dynamic_shared_array("buf", ScalarType::F32);
    b.store(MemRef::Shared(s), vec![tid(Dim::X)], Expr::f32(1.0));
    let e = run(&b.finish(), &cfg, vec![], &Options::default()).unwrap_err();
    assert!(e.to_string().contains("`buf`"), "{e}");
}

#[test]
fn dynamic_shared_memory_is_sized_by_the_launch() {
    let mut b = KernelBuilder::new("dyn");
    let s = b.dynamic_shared_array("buf", ScalarType::F32);
    b.store(MemRef::Shared(s), vec![tid(Dim::X)], Expr::f32(1.0));
    let k = b.finish();
    let cfg = LaunchConfig {
        dynamic_shared_bytes: 16 * 4,
        ..LaunchConfig::linear(1, 32)
    };
    let out = run(&k, &cfg, vec![], &Options::default()).unwrap();
    let f = out
        .of(Category::Oob)
        .next()
        .expect("threads 16.. are out of bounds");
    assert_eq!(f.at.thread, [16, 0, 0]);
    assert_eq!(f.count, 16);
}

#[test]
fn an_endless_loop_stops_at_the_instruction_budget() {
    let mut b = warpsafe_ir::KernelBuilder::new("spin");
    let x = b.buffer_param("x", warpsafe_ir::ScalarType::I32, true);
    b.while_(warpsafe_ir::Expr::bool(true), |b| {
        b.store(
            warpsafe_ir::MemRef::Global(x),
            vec![warpsafe_ir::Expr::u32(0)],
            warpsafe_ir::Expr::i32(1),
        );
    });
    let kernel = b.finish();
    let opts = Options {
        max_block_instructions: 10_000,
        ..Options::default()
    };
    let args = vec![Arg::Buffer(Buffer::from_i32(&[0]))];
    let err = run(&kernel, &LaunchConfig::linear(1, 1), args, &opts).unwrap_err();
    assert!(
        matches!(
            err,
            warpsafe_exec::ExecError::StepLimit { limit: 10_000, .. }
        ),
        "{err}"
    );
}
