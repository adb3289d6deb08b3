//! Lowering to thread code: the listing, short-circuit evaluation, loops with `continue`.

use crate::common;

use common::*;
use warpsafe_exec::{compile, thread_code_text, Arg, Buffer, LaunchConfig};
use warpsafe_ir::{BinOp, Dim, Expr, KernelBuilder, LogicOp, MemRef, ScalarType, StmtKind, Value};

#[test]
fn listing_shows_instructions_and_allocations() {
    let p = compile(&vector_add(false)).unwrap();
    let text = thread_code_text(&p);
    assert!(text.contains("thread code for `vector_add`"), "{text}");
    assert!(text.contains("m0: global f32 `x`"), "{text}");
    assert!(text.contains("ld.f32 m0["), "{text}");
    assert!(text.contains("st.f32 m1["), "{text}");
    assert!(text.trim_end().ends_with("exit"), "{text}");
    assert_eq!(p.code().insts.len(), p.code().spans.len());
}

#[test]
fn short_circuit_and_select_evaluate_only_the_taken_side() {
    // out[i] = (i < n && x[i] > 0) ? x[i] : 0, launched with more threads than elements.
    let mut b = KernelBuilder::new("guarded");
    let n = b.scalar_param("n", ScalarType::U32);
    let x = b.buffer_param("x", ScalarType::I32, false);
    let out = b.buffer_param("out", ScalarType::I32, true);
    let i = b.let_("i", tid(Dim::X));
    let inside = bin(BinOp::Lt, b.var(i), b.param(n));
    let positive = bin(
        BinOp::Gt,
        b.load(MemRef::Global(x), vec![b.var(i)]),
        Expr::i32(0),
    );
    let cond = Expr::logical(LogicOp::And, inside, positive);
    let v = Expr::select(
        cond,
        b.load(MemRef::Global(x), vec![b.var(i)]),
        Expr::i32(0),
    );
    b.let_("v", v.clone());
    b.if_(bin(BinOp::Lt, b.var(i), b.param(n)), |b| {
        b.store(MemRef::Global(out), vec![b.var(i)], v);
    });
    let args = vec![
        Arg::Scalar(Value::U32(4)),
        Arg::Buffer(Buffer::from_i32(&[3, -1, 0, 7])),
        Arg::Buffer(Buffer::zeros(ScalarType::I32, 4)),
    ];
    let out = go(&b.finish(), LaunchConfig::linear(1, 32), args);
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    assert_eq!(buffer(&out, 2).to_i32(), vec![3, 0, 0, 7]);
}

#[test]
fn continue_runs_the_for_update_and_break_leaves() {
    // for k in 0..10 { if k % 2 == 0 continue; if k == 7 break; acc += k }  => 1+3+5 = 9
    let mut b = KernelBuilder::new("loops");
    let out = b.buffer_param("out", ScalarType::I32, true);
    let acc = b.let_("acc", Expr::i32(0));
    b.for_range("k", Expr::i32(0), Expr::i32(10), Expr::i32(1), |b, k| {
        b.if_(
            bin(
                BinOp::Eq,
                bin(BinOp::Rem, k.clone(), Expr::i32(2)),
                Expr::i32(0),
            ),
            |b| b.push(StmtKind::Continue),
        );
        b.if_(bin(BinOp::Eq, k.clone(), Expr::i32(7)), |b| {
            b.push(StmtKind::Break)
        });
        b.assign(acc, bin(BinOp::Add, b.var(acc), k));
    });
    b.store(MemRef::Global(out), vec![tid(Dim::X)], b.var(acc));
    let args = vec![Arg::Buffer(Buffer::zeros(ScalarType::I32, 2))];
    let out = go(&b.finish(), LaunchConfig::linear(1, 2), args);
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    assert_eq!(buffer(&out, 0).to_i32(), vec![9, 9]);
}

#[test]
fn large_buffers_use_sparse_race_shadows() {
    let n = (1 << 22) + 5;
    let mut b = KernelBuilder::new("big");
    let out = b.buffer_param("out", ScalarType::U32, true);
    b.if_(bin(BinOp::Eq, tid(Dim::X), Expr::u32(0)), |b| {
        b.store(
            MemRef::Global(out),
            vec![Expr::u32(n as u32 - 1)],
            Expr::u32(1),
        );
    });
    let args = vec![Arg::Buffer(Buffer::zeros(ScalarType::U32, n))];
    let out = go(&b.finish(), LaunchConfig::linear(3, 32), args);
    assert_eq!(cats(&out), vec![warpsafe_ir::Category::Race]);
    assert_eq!(out.findings[0].count, 2);
}

#[test]
fn naive_matmul_inner_loop_is_compact() {
    let p = compile(&naive_matmul()).unwrap();
    let text = thread_code_text(&p);
    assert!(p.code().insts.len() < 40, "{text}");
}
