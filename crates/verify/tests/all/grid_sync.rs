//! Grid barriers in the parametric check: a grid barrier orders the accesses of different
//! blocks (a block barrier does not), it is a block barrier too, its condition must be the
//! same in every block (a `blockIdx`-dependent one is a divergence, though it would be fine for
//! `__syncthreads()`), and in loops the grid epoch is counted per iteration or the race
//! verdict is `unknown`, never `verified` by ignoring it.

use warpsafe_ir::{BinOp, Builtin, Dim, Expr, Kernel, KernelBuilder, MemRef, ScalarType, StmtKind};
use warpsafe_verify::{verify, Config, DimSpec, Property, Verdict};

/// Which barrier separates the phases of [`shift`].
#[derive(Clone, Copy, PartialEq)]
enum Sync {
    Grid,
    Block,
    /// Only one grid barrier per iteration, before the write-back.
    GridOnce,
    /// The grid barriers under a block-dependent condition.
    GridInBlock0,
    /// The grid barriers under a launch-uniform condition (the count per iteration is then
    /// not a constant of the loop's shape).
    GridUnderUniformIf,
}

/// `for (it = 0; it < iters; it++) { y[i] = x[(i + 1) % n]; sync; x[i] = y[i]; sync; }`
/// for `i < n`, `i` the global index.
fn shift(sync: Sync) -> Kernel {
    let mut b = KernelBuilder::new("shift");
    let x = b.buffer_param("x", ScalarType::F32, true);
    let y = b.buffer_param("y", ScalarType::F32, true);
    let n = b.scalar_param("n", ScalarType::U32);
    let iters = b.scalar_param("iters", ScalarType::U32);
    let i = b.let_("i", b.global_index(Dim::X));
    let bar = move |b: &mut KernelBuilder, first: bool| match sync {
        Sync::Grid => b.sync_grid(),
        Sync::Block => b.sync_threads(),
        Sync::GridOnce if first => b.sync_grid(),
        Sync::GridOnce => {}
        Sync::GridInBlock0 => b.if_(
            Expr::binary(
                BinOp::Eq,
                Expr::builtin(Builtin::BlockIdx(Dim::X)),
                Expr::u32(0),
            ),
            |b| b.sync_grid(),
        ),
        Sync::GridUnderUniformIf => b
            .if_(Expr::binary(BinOp::Gt, b.param(iters), Expr::u32(3)), |b| {
                b.sync_grid()
            }),
    };
    b.for_range("it", Expr::u32(0), b.param(iters), Expr::u32(1), |b, _| {
        let inside = Expr::binary(BinOp::Lt, b.var(i), b.param(n));
        b.if_(inside.clone(), |b| {
            let next = Expr::binary(
                BinOp::Rem,
                Expr::binary(BinOp::Add, b.var(i), Expr::u32(1)),
                b.param(n),
            );
            let v = b.load(MemRef::Global(x), vec![next]);
            b.store(MemRef::Global(y), vec![b.var(i)], v);
        });
        bar(b, true);
        b.if_(inside, |b| {
            let v = b.load(MemRef::Global(y), vec![b.var(i)]);
            b.store(MemRef::Global(x), vec![b.var(i)], v);
        });
        bar(b, false);
    });
    b.finish()
}

fn check(k: &Kernel) -> (Verdict, Verdict) {
    let cfg = Config {
        block: DimSpec::Fixed([32, 1, 1]),
        grid: DimSpec::Fixed([4, 1, 1]),
        properties: vec![Property::Race, Property::Divergence],
        ..Config::default()
    };
    let r = verify(k, &cfg);
    (r.results[0].verdict.clone(), r.results[1].verdict.clone())
}

#[test]
fn grid_barriers_in_a_loop_order_every_block() {
    let (race, div) = check(&shift(Sync::Grid));
    assert!(matches!(race, Verdict::Verified), "{race:?}");
    assert!(matches!(div, Verdict::Verified), "{div:?}");
}

#[test]
fn block_barriers_in_their_place_leave_a_race_between_blocks() {
    let (race, div) = check(&shift(Sync::Block));
    assert!(matches!(race, Verdict::Violated(_)), "{race:?}");
    assert!(matches!(div, Verdict::Verified), "{div:?}");
}

#[test]
fn one_grid_barrier_per_iteration_races_with_the_next_iteration() {
    let (race, _) = check(&shift(Sync::GridOnce));
    assert!(matches!(race, Verdict::Violated(_)), "{race:?}");
}

#[test]
fn a_grid_barrier_taken_by_block_zero_only_diverges() {
    let (_, div) = check(&shift(Sync::GridInBlock0));
    assert!(matches!(div, Verdict::Violated(_)), "{div:?}");
}

#[test]
fn grid_barriers_under_a_condition_in_a_loop_are_unknown_for_races() {
    let (race, div) = check(&shift(Sync::GridUnderUniformIf));
    let Verdict::Unknown { reason, .. } = &race else {
        panic!("{race:?}");
    };
    assert!(reason.contains("barriers"), "{reason}");
    assert!(matches!(div, Verdict::Verified), "{div:?}");
}

#[test]
fn a_block_dependent_condition_is_fine_for_block_barriers_only() {
    // `if (blockIdx.x == 0) __syncthreads();` is uniform in each block.
    let mut b = KernelBuilder::new("block_cond");
    let c = Expr::binary(
        BinOp::Eq,
        Expr::builtin(Builtin::BlockIdx(Dim::X)),
        Expr::u32(0),
    );
    b.if_(c.clone(), |b| b.push(StmtKind::SyncThreads));
    let (_, div) = check(&b.finish());
    assert!(matches!(div, Verdict::Verified), "{div:?}");
    let mut b = KernelBuilder::new("grid_cond");
    b.if_(c, |b| b.push(StmtKind::SyncGrid));
    let (_, div) = check(&b.finish());
    assert!(matches!(div, Verdict::Violated(_)), "{div:?}");
}
