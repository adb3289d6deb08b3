//! The optimiser's transformations one at a time: what must change and what must not.

use warpsafe_ir::opt::{optimize, optimize_with, UnrollLimits};
use warpsafe_ir::{
    BinOp, Builtin, Dim, Expr, ExprKind, Kernel, KernelBuilder, MemRef, ScalarType, Span, StmtKind,
};

mod support;
use support::spanned::spanned;

fn count(k: &Kernel, pred: impl Fn(&StmtKind) -> bool) -> usize {
    let mut n = 0;
    for s in &k.body {
        s.walk(&mut |t| n += usize::from(pred(&t.kind)));
    }
    n
}

fn loops(k: &Kernel) -> usize {
    count(k, |s| matches!(s, StmtKind::For { .. }))
}

fn tid() -> Expr {
    Expr::builtin(Builtin::ThreadIdx(Dim::X)).cast(ScalarType::I32)
}

/// `for (i = 0; i < end; i += 1) y[i] = i * 2 + body_extra`, with `extra` run in the body.
fn counted(end: Expr, extra: impl FnOnce(&mut KernelBuilder, Expr)) -> Kernel {
    let mut b = KernelBuilder::new("counted");
    let _n = b.scalar_param("n", ScalarType::I32);
    let y = b.buffer_param("y", ScalarType::I32, true);
    b.for_range("i", Expr::i32(0), end, Expr::i32(1), |b, i| {
        let v = Expr::binary(BinOp::Mul, i.clone(), Expr::i32(2));
        b.store(MemRef::Global(y), vec![i.clone()], v);
        extra(b, i);
    });
    spanned(b.finish())
}

#[test]
fn a_counted_loop_unrolls_into_copies_with_constant_counters() {
    let k = counted(Expr::i32(4), |_, _| {});
    let o = optimize(&k);
    assert_eq!(loops(&o), 0, "{o}");
    let text = o.to_string();
    for i in 0..4 {
        assert!(text.contains(&format!("y[{i}] = {};", i * 2)), "{text}");
    }
    let spans: Vec<Span> = o
        .body
        .iter()
        .filter(|s| matches!(s.kind, StmtKind::Store { .. }))
        .map(|s| s.span)
        .collect();
    let StmtKind::For { body, .. } = &k.body[0].kind else {
        panic!("a loop")
    };
    assert_eq!(
        spans,
        vec![body[0].span; 4],
        "copies keep the original span"
    );
}

#[test]
fn a_loop_whose_counter_the_body_writes_stays() {
    let k = counted(Expr::i32(4), |b, i| {
        let ExprKind::Var(v) = i.kind else {
            panic!("a variable")
        };
        b.assign(v, Expr::binary(BinOp::Add, i, Expr::i32(1)));
    });
    assert_eq!(loops(&optimize(&k)), 1);
}

#[test]
fn a_loop_with_break_or_continue_stays() {
    for kind in [StmtKind::Break, StmtKind::Continue] {
        let k = counted(Expr::i32(4), |b, i| {
            let c = Expr::binary(BinOp::Eq, i, Expr::i32(2));
            b.if_(c, |b| b.push(kind.clone()));
        });
        assert_eq!(loops(&optimize(&k)), 1, "{kind:?}");
    }
}

#[test]
fn a_loop_with_return_or_a_barrier_stays() {
    for kind in [StmtKind::Return, StmtKind::SyncThreads] {
        let k = counted(Expr::i32(4), |b, _| b.push(kind.clone()));
        assert_eq!(loops(&optimize(&k)), 1, "{kind:?}");
    }
}

#[test]
fn a_loop_with_a_parameter_bound_stays() {
    let n = Expr::new(ExprKind::Param(warpsafe_ir::ParamId(0)), ScalarType::I32);
    assert_eq!(loops(&optimize(&counted(n, |_, _| {}))), 1);
}

#[test]
fn a_loop_over_the_limits_stays() {
    let k = counted(Expr::i32(1000), |_, _| {});
    assert_eq!(loops(&optimize(&k)), 1);
    let small = UnrollLimits {
        max_trip: 3,
        ..UnrollLimits::default()
    };
    assert_eq!(
        loops(&optimize_with(&counted(Expr::i32(4), |_, _| {}), small)),
        1
    );
}

#[test]
fn a_loop_whose_counter_overflows_stays() {
    let mut b = KernelBuilder::new("wrap");
    let y = b.buffer_param("y", ScalarType::I32, true);
    let start = Expr::i32(i32::MAX - 2);
    b.for_range("i", start, Expr::i32(i32::MAX), Expr::i32(5), |b, i| {
        b.store(MemRef::Global(y), vec![Expr::i32(0)], i);
    });
    assert_eq!(loops(&optimize(&spanned(b.finish()))), 1);
}

#[test]
fn a_loop_without_source_spans_stays() {
    let mut b = KernelBuilder::new("unspanned");
    let y = b.buffer_param("y", ScalarType::I32, true);
    b.for_range("i", Expr::i32(0), Expr::i32(4), Expr::i32(1), |b, i| {
        b.store(MemRef::Global(y), vec![i.clone()], i);
    });
    assert_eq!(loops(&optimize(&b.finish())), 1);
}

/// A kernel with a local `a[4]` written at `write` and read at `read` (indices as given).
fn local(write: Expr, read: Expr) -> Kernel {
    let mut b = KernelBuilder::new("local");
    let y = b.buffer_param("y", ScalarType::F32, true);
    let a = b.local_array("a", ScalarType::F32, vec![4]);
    b.for_range("i", Expr::i32(0), Expr::i32(4), Expr::i32(1), |b, i| {
        b.store(MemRef::Local(a), vec![i], Expr::f32(1.5));
    });
    b.store(MemRef::Local(a), vec![write], Expr::f32(2.5));
    let v = b.load(MemRef::Local(a), vec![read]);
    b.store(MemRef::Global(y), vec![Expr::i32(0)], v);
    spanned(b.finish())
}

fn local_accesses(k: &Kernel) -> usize {
    let mut n = count(k, |s| {
        matches!(
            s,
            StmtKind::Store {
                mem: MemRef::Local(_),
                ..
            }
        )
    });
    for s in &k.body {
        s.walk(&mut |t| {
            for e in t.exprs() {
                e.walk(&mut |x| {
                    n += usize::from(matches!(x.kind, ExprKind::Load(MemRef::Local(_), _)))
                })
            }
        });
    }
    n
}

#[test]
fn a_local_array_with_constant_indices_becomes_variables() {
    let k = local(Expr::i32(1), Expr::i32(1));
    let o = optimize(&k);
    assert!(o.locals.is_empty(), "{o}");
    assert_eq!(local_accesses(&o), 0, "{o}");
    assert!(o.vars.len() >= k.vars.len() + 4);
}

#[test]
fn a_local_array_with_a_computed_index_keeps_its_memory() {
    let k = local(Expr::i32(1), tid());
    let o = optimize(&k);
    assert_eq!(o.locals.len(), 1, "{o}");
    assert!(local_accesses(&o) > 0);
}

#[test]
fn a_local_array_with_an_out_of_bounds_constant_index_keeps_its_memory() {
    let o = optimize(&local(Expr::i32(4), Expr::i32(0)));
    assert_eq!(o.locals.len(), 1, "{o}");
    assert!(o.to_string().contains("a[4] = 2.5f;"), "{o}");
}

#[test]
fn a_local_read_before_any_write_keeps_its_memory() {
    let mut b = KernelBuilder::new("uninit");
    let y = b.buffer_param("y", ScalarType::F32, true);
    let a = b.local_array("a", ScalarType::F32, vec![2]);
    b.store(MemRef::Local(a), vec![Expr::i32(0)], Expr::f32(1.0));
    let c = Expr::binary(BinOp::Lt, tid(), Expr::i32(3));
    b.if_(c, |b| {
        b.store(MemRef::Local(a), vec![Expr::i32(1)], Expr::f32(2.0))
    });
    let v = b.load(MemRef::Local(a), vec![Expr::i32(1)]);
    b.store(MemRef::Global(y), vec![Expr::i32(0)], v);
    let o = optimize(&spanned(b.finish()));
    assert_eq!(o.locals.len(), 1, "{o}");
}

#[test]
fn constants_propagate_and_fold_but_overflow_and_division_by_zero_stay() {
    let mut b = KernelBuilder::new("fold");
    let y = b.buffer_param("y", ScalarType::I32, true);
    let four = b.let_("four", Expr::binary(BinOp::Add, Expr::i32(2), Expr::i32(2)));
    let sum = Expr::binary(BinOp::Mul, b.var(four), b.var(four));
    b.store(MemRef::Global(y), vec![Expr::i32(0)], sum);
    let big = Expr::binary(BinOp::Add, Expr::i32(i32::MAX), b.var(four));
    b.store(MemRef::Global(y), vec![Expr::i32(1)], big);
    let dz = Expr::binary(BinOp::Div, b.var(four), Expr::i32(0));
    b.store(MemRef::Global(y), vec![Expr::i32(2)], dz);
    let o = optimize(&spanned(b.finish()));
    let text = o.to_string();
    assert!(text.contains("y[0] = 16;"), "{text}");
    assert!(text.contains("y[1] = 2147483647 + 4;"), "{text}");
    assert!(text.contains("y[2] = 4 / 0;"), "{text}");
}

#[test]
fn a_variable_written_in_a_loop_is_not_propagated_into_it() {
    let mut b = KernelBuilder::new("carried");
    let y = b.buffer_param("y", ScalarType::I32, true);
    let n = b.scalar_param("n", ScalarType::I32);
    let s = b.let_("s", Expr::i32(1));
    let cond = Expr::binary(BinOp::Lt, b.var(s), b.param(n));
    b.while_(cond, |b| {
        let twice = Expr::binary(BinOp::Mul, b.var(s), Expr::i32(2));
        b.assign(s, twice);
    });
    b.store(MemRef::Global(y), vec![Expr::i32(0)], b.var(s));
    let o = optimize(&spanned(b.finish()));
    assert!(o.to_string().contains("y[0] = s_0;"), "{o}");
    assert_eq!(count(&o, |k| matches!(k, StmtKind::While { .. })), 1);
}

#[test]
fn an_if_on_a_constant_keeps_the_branch_taken() {
    let mut b = KernelBuilder::new("branch");
    let y = b.buffer_param("y", ScalarType::I32, true);
    let c = Expr::binary(BinOp::Lt, Expr::i32(1), Expr::i32(2));
    b.if_else(
        c,
        |b| b.store(MemRef::Global(y), vec![Expr::i32(0)], Expr::i32(7)),
        |b| b.store(MemRef::Global(y), vec![Expr::i32(0)], Expr::i32(8)),
    );
    let o = optimize(&spanned(b.finish()));
    assert_eq!(count(&o, |k| matches!(k, StmtKind::If { .. })), 0);
    assert!(o.to_string().contains("y[0] = 7;"), "{o}");
    assert!(!o.to_string().contains("y[0] = 8;"), "{o}");
}
