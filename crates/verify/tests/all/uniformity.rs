//! The uniformity pass must not trust memory: GPU-CSL's counterexample, a kernel whose barrier
//! condition is thread-id independent but read from a racy shared location, is not
//! divergence-free.

use warpsafe_ir::{BinOp, Expr, KernelBuilder, MemRef, ScalarType, StmtKind};
use warpsafe_verify::{verify, Config, DimSpec, Property, Verdict};

#[test]
fn racy_read_feeding_a_barrier_is_not_uniform() {
    let mut b = KernelBuilder::new("gpucsl");
    let x = b.buffer_param("x", ScalarType::I32, false);
    let s = b.shared_array("s", ScalarType::I32, vec![1]);
    // s[0] = x[0]; if (s[0] > 0) __syncthreads();
    let v = b.load(MemRef::Global(x), vec![Expr::i32(0)]);
    b.store(MemRef::Shared(s), vec![Expr::i32(0)], v);
    let c = Expr::binary(
        BinOp::Gt,
        b.load(MemRef::Shared(s), vec![Expr::i32(0)]),
        Expr::i32(0),
    );
    b.if_(c, |b| b.push(StmtKind::SyncThreads));
    let k = b.finish();
    let cfg = Config {
        block: DimSpec::Fixed([64, 1, 1]),
        grid: DimSpec::Fixed([1, 1, 1]),
        properties: vec![Property::Divergence, Property::Race],
        replay: false,
        ..Config::default()
    };
    let r = verify(&k, &cfg);
    // The divergence depends on what the racy read returns: never verified, and unconfirmed
    // without a replay; the race itself is exact.
    assert!(
        matches!(r.results[0].verdict, Verdict::Possible { .. }),
        "{:?}",
        r.results[0].verdict
    );
    assert!(matches!(r.results[1].verdict, Verdict::Violated(_)));
}

#[test]
fn uniform_barrier_needs_no_query() {
    let mut b = KernelBuilder::new("uniform");
    let n = b.scalar_param("n", ScalarType::I32);
    let c = Expr::binary(BinOp::Gt, b.param(n), Expr::i32(0));
    b.if_(c, |b| b.push(StmtKind::SyncThreads));
    let k = b.finish();
    let cfg = Config {
        properties: vec![Property::Divergence],
        ..Config::default()
    };
    let r = verify(&k, &cfg);
    assert!(matches!(r.results[0].verdict, Verdict::Verified));
    assert_eq!(r.queries, 0);
}

/// `if (x[idx] > 0) __syncthreads();` with `x` never written.
fn flag_kernel(per_thread: bool) -> warpsafe_ir::Kernel {
    let mut b = KernelBuilder::new("flag");
    let x = b.buffer_param("x", ScalarType::I32, false);
    let idx = if per_thread {
        Expr::builtin(warpsafe_ir::Builtin::ThreadIdx(warpsafe_ir::Dim::X))
    } else {
        Expr::i32(0)
    };
    let c = Expr::binary(
        BinOp::Gt,
        b.load(MemRef::Global(x), vec![idx]),
        Expr::i32(0),
    );
    b.if_(c, |b| b.push(StmtKind::SyncThreads));
    b.finish()
}

#[test]
fn a_race_free_read_of_one_address_is_uniform() {
    let cfg = |properties| Config {
        block: DimSpec::Fixed([64, 1, 1]),
        grid: DimSpec::Fixed([1, 1, 1]),
        properties,
        replay: false,
        ..Config::default()
    };
    // Every thread reads x[0], which no thread writes: once race freedom is verified, the
    // two threads read the same value and the barrier is uniform.
    let r = verify(
        &flag_kernel(false),
        &cfg(vec![Property::Race, Property::Divergence]),
    );
    assert!(matches!(r.results[0].verdict, Verdict::Verified));
    assert!(
        matches!(r.results[1].verdict, Verdict::Verified),
        "{:?}",
        r.results[1].verdict
    );
    // Without the race property there is nothing to rest the equal reads on (and with replay
    // off, a model that depends on memory contents stays unconfirmed).
    let r = verify(&flag_kernel(false), &cfg(vec![Property::Divergence]));
    assert!(matches!(r.results[0].verdict, Verdict::Possible { .. }));
    // Reads of different addresses stay arbitrary per thread: x[tid] may differ.
    let r = verify(
        &flag_kernel(true),
        &cfg(vec![Property::Race, Property::Divergence]),
    );
    assert!(matches!(r.results[1].verdict, Verdict::Possible { .. }));
}
