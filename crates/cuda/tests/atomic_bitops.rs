//! `atomicAnd/Or/Xor/Inc/Dec` from CUDA C: the interpreter against Rust, and the generated
//! CUDA C compiled by NVRTC into PTX's `atom.and/or/xor/inc/dec`.

use warpsafe_exec::{Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{AtomicOp, Expr, Kernel, KernelBuilder, MemRef, ScalarType, StmtKind};

const FLAGS: &str = r#"
__global__ void flags(unsigned* bits, int* mixed, unsigned long long* wide,
                      unsigned* ring, unsigned* slots) {
    unsigned t = threadIdx.x;
    atomicOr(&bits[t / 32], 1u << (t % 32));
    atomicAnd(&mixed[0], ~(1 << (t % 32)));
    atomicXor(&mixed[1], 1 << (t % 32));
    atomicOr(&wide[0], 1ull << (t % 64));
    atomicXor(&wide[1], 1ull << (t % 64));
    slots[2 * t] = atomicInc(&ring[0], 7u);
    slots[2 * t + 1] = atomicDec(&ring[1], 4u);
}
"#;

/// NVRTC compiles the generated CUDA C with no warnings; returns the PTX.
fn nvrtc(k: &Kernel) -> String {
    let src = warpsafe_cuda::generate(k).expect("codegen");
    let out = warpsafe_cuda::compile_ptx(&src, &Default::default())
        .unwrap_or_else(|e| panic!("{e}\n{src}"));
    assert!(
        out.log.trim().is_empty(),
        "NVRTC warnings:\n{}\n{src}",
        out.log
    );
    out.ptx
}

#[test]
fn bit_atomics_and_wrapping_counters_run_like_cuda_and_compile() {
    let k = warpsafe_cuda_front::compile(FLAGS)
        .unwrap_or_else(|e| panic!("{e:?}"))
        .kernels
        .remove(0);
    let n = 128usize;
    let args = vec![
        Arg::Buffer(Buffer::zeros(ScalarType::U32, 4)),
        Arg::Buffer(Buffer::from_i32(&[-1, 0x0f0f_0f0f])),
        Arg::Buffer(Buffer::from_u64(&[0, 5])),
        Arg::Buffer(Buffer::from_u32(&[2, 0])),
        Arg::Buffer(Buffer::zeros(ScalarType::U32, 2 * n)),
    ];
    let out = warpsafe_exec::run(
        &k,
        &LaunchConfig::linear(1, n as u32),
        args,
        &Options::default(),
    )
    .expect("runs");
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let buf = |i: usize| match &out.args[i] {
        Arg::Buffer(b) => b.clone(),
        Arg::Scalar(_) => unreachable!(),
    };
    assert_eq!(buf(0).to_u32(), [u32::MAX; 4]);
    // Each of the 32 bits is cleared (four times) and flipped four times.
    assert_eq!(buf(1).to_i32(), [0, 0x0f0f_0f0f]);
    // 128 threads: every one of the 64 bits is set, and flipped twice.
    assert_eq!(buf(2).to_u64(), [u64::MAX, 5]);
    let (mut inc, mut dec) = (2u32, 0u32);
    let (mut incs, mut decs) = (vec![], vec![]);
    for _ in 0..n {
        incs.push(inc);
        decs.push(dec);
        inc = if inc >= 7 { 0 } else { inc + 1 };
        dec = if dec == 0 || dec > 4 { 4 } else { dec - 1 };
    }
    assert_eq!(buf(3).to_u32(), [inc, dec]);
    let slots = buf(4).to_u32();
    let mut got_inc: Vec<u32> = (0..n).map(|t| slots[2 * t]).collect();
    let mut got_dec: Vec<u32> = (0..n).map(|t| slots[2 * t + 1]).collect();
    for v in [&mut got_inc, &mut got_dec, &mut incs, &mut decs] {
        v.sort_unstable();
    }
    assert_eq!(got_inc, incs);
    assert_eq!(got_dec, decs);

    let ptx = nvrtc(&k);
    for op in [
        "atom.global.or.b32",
        "atom.global.and.b32",
        "atom.global.xor.b32",
        "atom.global.or.b64",
        "atom.global.xor.b64",
        "atom.global.inc.u32",
        "atom.global.dec.u32",
    ] {
        // NVRTC may emit `red` where the old value is unused.
        let red = op.replace("atom.", "red.");
        assert!(ptx.contains(op) || ptx.contains(&red), "{op}:\n{ptx}");
    }
}

#[test]
fn signed_64_bit_bit_atomics_go_through_unsigned_long_long() {
    // CUDA has no `long long` overloads of atomicAnd/Or/Xor; the IR (from the Rust road or
    // PTX) can hold them, so the generated C casts, as it does for atomicAdd.
    for op in [AtomicOp::And, AtomicOp::Or, AtomicOp::Xor] {
        let mut b = KernelBuilder::new("wide_bits");
        let c = b.buffer_param("c", ScalarType::I64, true);
        let old = b.declare("old", ScalarType::I64);
        b.push(StmtKind::Let {
            var: old,
            init: None,
        });
        b.push(StmtKind::Atomic {
            dst: Some(old),
            op,
            mem: MemRef::Global(c),
            indices: vec![Expr::u32(0)],
            value: Expr::i32(-4).cast(ScalarType::I64),
            compare: None,
        });
        b.store(MemRef::Global(c), vec![Expr::u32(1)], b.var(old));
        let k = b.finish();
        let src = warpsafe_cuda::generate(&k).expect("codegen");
        assert!(src.contains("unsigned long long"), "{src}");
        nvrtc(&k);
    }
}
