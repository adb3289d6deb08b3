//! The kernel and arguments the GPU launch tests share.

use warpsafe_exec::{Arg, Buffer};
use warpsafe_ir::{BinOp, Dim, Expr, Kernel, KernelBuilder, MemRef, ScalarType, Value};

/// `x[i + off] = x[i + off] * 2 + s` for the launch's threads.
pub fn scale() -> Kernel {
    let mut b = KernelBuilder::new("scale");
    let x = b.buffer_param("x", ScalarType::F32, true);
    let off = b.scalar_param("off", ScalarType::U32);
    let s = b.scalar_param("s", ScalarType::F32);
    let i = b.let_(
        "i",
        Expr::binary(BinOp::Add, b.global_index(Dim::X), b.param(off)),
    );
    let old = b.load(MemRef::Global(x), vec![b.var(i)]);
    let v = Expr::binary(
        BinOp::Add,
        Expr::binary(BinOp::Mul, old, Expr::f32(2.0)),
        b.param(s),
    );
    b.store(MemRef::Global(x), vec![b.var(i)], v);
    b.finish()
}

pub fn args(x: &[f32], off: u32, s: f32) -> Vec<Arg> {
    vec![
        Arg::Buffer(Buffer::from_f32(x)),
        Arg::Scalar(Value::U32(off)),
        Arg::Scalar(Value::F32(s)),
    ]
}

pub fn first_buffer(out: &[Arg]) -> Vec<f32> {
    match &out[0] {
        Arg::Buffer(b) => b.to_f32(),
        other => panic!("x is a buffer, got {other:?}"),
    }
}
