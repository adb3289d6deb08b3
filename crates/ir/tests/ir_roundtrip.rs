//! Serde round trips and type-checker verdicts on kernels built with the builder.

use warpsafe_ir::*;

fn tiled_kernel() -> Kernel {
    let mut b = KernelBuilder::new("tiled");
    let n = b.scalar_param("n", ScalarType::U32);
    let a = b.buffer_param("a", ScalarType::F32, false);
    let out = b.buffer_param("out", ScalarType::F32, true);
    let tile = b.shared_array("tile", ScalarType::F32, vec![16, 17]);
    let tx = Expr::builtin(Builtin::ThreadIdx(Dim::X));
    let ty = Expr::builtin(Builtin::ThreadIdx(Dim::Y));
    let i = b.let_("i", b.global_index(Dim::X));
    let v = b.load(MemRef::Global(a), vec![b.var(i)]);
    b.store(MemRef::Shared(tile), vec![ty.clone(), tx.clone()], v);
    b.sync_threads();
    b.for_range("k", Expr::u32(0), b.param(n), Expr::u32(1), |b, k| {
        let cond = Expr::logical(
            LogicOp::And,
            Expr::binary(BinOp::Lt, k.clone(), Expr::u32(16)),
            Expr::binary(BinOp::Lt, b.var(i), b.param(n)),
        );
        b.if_(cond, |b| {
            let x = b.load(MemRef::Shared(tile), vec![tx.clone(), k.clone()]);
            let e = Expr::call(MathFn::Exp, vec![x]);
            b.store(MemRef::Global(out), vec![b.var(i)], e);
        });
    });
    b.contract_mut().block_dim = Some([16, 16, 1]);
    b.contract_mut().requires.push(Expr::binary(
        BinOp::Eq,
        Expr::new(ExprKind::Param(n), ScalarType::U32),
        Expr::u32(64),
    ));
    b.contract_mut().deny.push(Category::Overflow);
    b.finish()
}

#[test]
fn json_round_trip_preserves_kernel() {
    let k = tiled_kernel();
    check_kernel(&k).expect("well typed");
    let json = serde_json::to_string(&k).expect("serialise");
    let back: Kernel = serde_json::from_str(&json).expect("deserialise");
    assert_eq!(back, k);
    assert_eq!(back.to_string(), k.to_string());
}

#[test]
fn printer_shows_shared_arrays_and_loops() {
    let text = tiled_kernel().to_string();
    assert!(text.contains("shared tile: f32[16][17];"), "{text}");
    assert!(text.contains("__syncthreads();"), "{text}");
    assert!(
        text.contains("for (let k_1: u32 = 0u; k_1 < n; k_1 = k_1 + 1u) {"),
        "{text}"
    );
    assert!(
        text.contains("out[i_0] = exp.f32(tile[threadIdx.x][k_1]);"),
        "{text}"
    );
}

#[test]
fn type_checker_rejects_mixed_operands() {
    let mut b = KernelBuilder::new("bad");
    let x = b.buffer_param("x", ScalarType::F32, true);
    let bad = Expr::binary(BinOp::Add, Expr::f32(1.0), Expr::i32(1));
    b.store(MemRef::Global(x), vec![Expr::u32(0)], bad);
    let errs = check_kernel(&b.finish()).unwrap_err();
    assert!(
        errs[0].message.contains("operands of `+` differ"),
        "{errs:?}"
    );
}

#[test]
fn type_checker_rejects_write_to_const_buffer() {
    let mut b = KernelBuilder::new("bad");
    let x = b.buffer_param("x", ScalarType::F32, false);
    b.store(MemRef::Global(x), vec![Expr::u32(0)], Expr::f32(1.0));
    let errs = check_kernel(&b.finish()).unwrap_err();
    assert!(errs[0].message.contains("read-only buffer `x`"), "{errs:?}");
}

#[test]
fn type_checker_rejects_wrong_rank_and_stray_break() {
    let mut b = KernelBuilder::new("bad");
    let t = b.shared_array("t", ScalarType::I32, vec![4, 4]);
    b.store(MemRef::Shared(t), vec![Expr::u32(0)], Expr::i32(1));
    b.push(StmtKind::Break);
    let errs = check_kernel(&b.finish()).unwrap_err();
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(errs[0].message.contains("2 dimension(s)"));
    assert!(errs[1].message.contains("outside a loop"));
}

#[test]
fn type_checker_rejects_float_bitwise_and_bad_atomics() {
    let mut b = KernelBuilder::new("bad");
    let x = b.buffer_param("x", ScalarType::F32, true);
    let e = Expr::binary(BinOp::BitAnd, Expr::f32(1.0), Expr::f32(2.0));
    b.store(MemRef::Global(x), vec![Expr::u32(0)], e);
    b.push(StmtKind::Atomic {
        dst: None,
        op: AtomicOp::Max,
        mem: MemRef::Global(x),
        indices: vec![Expr::u32(0)],
        value: Expr::f32(1.0),
        compare: None,
    });
    let errs = check_kernel(&b.finish()).unwrap_err();
    assert!(errs
        .iter()
        .any(|e| e.message.contains("`&` is not defined on f32")));
    assert!(errs
        .iter()
        .any(|e| e.message.contains("atomicMax is not defined on f32")));
}

/// A kernel storing `the bits of a[i] (f32) read as `to`` into `out` (elements `to`).
fn bits_kernel(to: ScalarType) -> Kernel {
    let mut b = KernelBuilder::new("bits");
    let a = b.buffer_param("a", ScalarType::F32, false);
    let out = b.buffer_param("out", to, true);
    let i = b.let_("i", b.global_index(Dim::X));
    let v = b.load(MemRef::Global(a), vec![b.var(i)]);
    b.store(MemRef::Global(out), vec![b.var(i)], v.bits_as(to));
    b.finish()
}

#[test]
fn a_bit_reinterpretation_keeps_the_width_and_round_trips() {
    let k = bits_kernel(ScalarType::U32);
    check_kernel(&k).expect("f32 as u32 is well typed");
    assert!(
        k.to_string().contains("out[i_0] = bits.u32(a[i_0]);"),
        "{k}"
    );
    let json = serde_json::to_string(&k).expect("serialise");
    assert!(json.contains("\"bits\""), "{json}");
    let back: Kernel = serde_json::from_str(&json).expect("deserialise");
    assert_eq!(back, k);
    for wrong in [ScalarType::U64, ScalarType::I16, ScalarType::Bool] {
        let errs = check_kernel(&bits_kernel(wrong)).expect_err("width mismatch");
        assert!(
            errs.iter()
                .any(|e| e.message.contains(&format!("cannot be read as a {wrong}"))),
            "{wrong}: {errs:?}"
        );
    }
}
