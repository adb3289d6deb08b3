//! Inline PTX `asm` statements on the CUDA C++ road: each instruction family the front end
//! translates (tests/fixtures/inline_asm_ops.cu) gives, in the interpreter, the value the PTX
//! ISA defines, computed here in Rust; the operand substitution, scoped registers, predicated
//! instructions and carry chains are exercised on the way. Constructs that are not modelled
//! are rejected naming the PTX instruction and the `asm` statement's span.

use crate::common;

use std::path::Path;
use warpsafe_clang_front::{compile_file, Compiled, Options};
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options as RunOptions};

const K: usize = 48;
const T: usize = 64;

fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("asm", name, source)
}

fn inputs() -> (Vec<u32>, Vec<u32>) {
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s as u32
    };
    let mut x: Vec<u32> = (0..T).map(|_| next()).collect();
    let mut y: Vec<u32> = (0..T).map(|_| next()).collect();
    // Edge values: zero, extremes, shift amounts at and past the width.
    x[0] = 0;
    y[0] = 0;
    x[1] = 0x8000_0000;
    y[1] = 0xffff_ffff;
    x[2] = 0x7fff_ffff;
    y[2] = 0x7fff_ffff;
    x[3] = 0xffff_ffff;
    y[3] = 32 | (40 << 8);
    x[4] = 0x8000_0000;
    y[4] = 0x8000_0000;
    y[5] = 31 | (1 << 8);
    (x, y)
}

fn bfe_u(a: u32, pos: u32, len: u32) -> u32 {
    let t = if pos >= 32 { 0 } else { a >> pos };
    let m = if len >= 32 { !0 } else { (1u32 << len) - 1 };
    t & m
}

fn bfe_s(a: u32, pos: u32, len: u32) -> u32 {
    if len == 0 {
        return 0;
    }
    if pos >= 32 {
        return ((a as i32) >> 31) as u32;
    }
    let end = (pos + len).min(32);
    let up = (a << (32 - end)) as i32;
    (up >> (32 - end + pos)) as u32
}

fn bfi(f: u32, b: u32, pos: u32, len: u32) -> u32 {
    if len == 0 || pos >= 32 {
        return b;
    }
    let ones = if len >= 32 { !0u32 } else { (1u32 << len) - 1 };
    let m = ones << pos;
    (b & !m) | ((f << pos) & m)
}

fn prmt(a: u32, b: u32, c: u32) -> u32 {
    let x = (u64::from(b) << 32) | u64::from(a);
    (0..4).fold(0, |r, k| {
        let nib = (c >> (4 * k)) & 0xf;
        let mut byte = ((x >> (8 * (nib & 7))) & 0xff) as u32;
        if nib & 8 != 0 {
            byte = if byte & 0x80 != 0 { 0xff } else { 0 };
        }
        r | (byte << (8 * k))
    })
}

fn lop3(a: u32, b: u32, c: u32, lut: u32) -> u32 {
    (0..32).fold(0, |r, bit| {
        let idx = (((a >> bit) & 1) << 2) | (((b >> bit) & 1) << 1) | ((c >> bit) & 1);
        r | (((lut >> idx) & 1) << bit)
    })
}

fn bfind(a: u32) -> u32 {
    if a == 0 {
        0xffff_ffff
    } else {
        31 - a.leading_zeros()
    }
}

fn split(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

/// The slots thread `lane` writes, from the PTX ISA's definitions.
fn expected(a: u32, b: u32, lane: u32) -> Vec<u32> {
    let (pos, len) = (b & 0x3f, (b >> 8) & 0x3f);
    let (ai, bi) = (a as i32, b as i32);
    let big_x = (u64::from(b) << 32) | u64::from(a);
    let big_y = (u64::from(a) << 32) | u64::from(b);
    let mut o = vec![
        bfe_u(a, pos, len),
        bfe_s(a, pos, len + 1),
        bfi(a, b, pos, len),
        prmt(a, b, (a ^ b) & 0xffff),
        lop3(a, b, a.wrapping_add(b), 0x96),
        lop3(a, b, a.wrapping_mul(3), 0xE8),
        (((big_x << (b & 31)) >> 32) as u32),
        ((big_x >> pos.min(32)) as u32),
        ((u64::from(a) * u64::from(b)) >> 32) as u32,
        ((i64::from(ai) * i64::from(bi)) >> 32) as u32,
    ];
    o.extend(split(u64::from(a) * u64::from(b)));
    o.extend(split(
        ((u128::from(big_x) * u128::from(big_y)) >> 64) as u64,
    ));
    o.extend(split(
        ((i128::from(big_x as i64) * i128::from(big_y as i64)) >> 64) as u64,
    ));
    let sh = a >> (b & 31);
    let sat = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32;
    o.extend([
        bfind(sh),
        bfind(if ai < 0 { !a } else { a }),
        a.count_ones(),
        sh.leading_zeros(),
        a.reverse_bits(),
        if pos >= 32 { 0 } else { a << pos },
        if pos >= 32 {
            (ai >> 31) as u32
        } else {
            (ai >> pos) as u32
        },
        if pos >= 32 { 0 } else { a >> pos },
        sat(i64::from(ai) + i64::from(bi)),
        sat(i64::from(ai) - i64::from(bi)),
        ai.min(bi) as u32,
        a.max(b),
        ai.wrapping_abs() as u32,
        ai.wrapping_neg() as u32,
        (a as u8 as i8) as i32 as u32,
        u32::from(a as u16),
        a.wrapping_mul(b).wrapping_add(a ^ b),
    ]);
    o.extend(split(
        (i64::from(ai) * i64::from(bi)).wrapping_add(big_x as i64) as u64,
    ));
    let lt = (1u32 << lane) - 1;
    o.extend([
        lt,
        !lt,
        if ai >= 0 { a } else { b },
        if ai > bi { 9 } else { 7 },
    ]);
    o.extend([!a, u32::from(!a == 0)]);
    let (lo, c1) = big_x.overflowing_add(big_y);
    o.extend(split(lo));
    o.push((u64::from(a) + u64::from(b) + u64::from(c1)) as u32);
    let p = u64::from(a) * u64::from(b);
    let (r0, c) = (p as u32).overflowing_add(b);
    o.extend([
        r0,
        ((p >> 32) as u32)
            .wrapping_add(a)
            .wrapping_add(u32::from(c)),
    ]);
    o.push(((a & 0xffff) as f32 * 2.0 + 1.0) as u32);
    let t = a.wrapping_add(b);
    o.push(if a & 1 != 0 { t.wrapping_sub(1) } else { t });
    assert_eq!(o.len(), K);
    o
}

#[test]
fn each_instruction_computes_what_the_ptx_isa_defines() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/inline_asm_ops.cu");
    let src = std::fs::read_to_string(&path).expect("fixture");
    let c = compile_file(&path, &src, &Options::default()).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let k = &c.module.kernels[0];
    let (x, y) = inputs();
    let args = vec![
        Arg::Buffer(Buffer::from_u32(&x)),
        Arg::Buffer(Buffer::from_u32(&y)),
        Arg::Buffer(Buffer::from_u32(&vec![0; T * K])),
    ];
    let out = run(
        k,
        &LaunchConfig::linear(1, T as u32),
        args,
        &RunOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let Arg::Buffer(o) = &out.args[2] else {
        panic!("out is a buffer")
    };
    let got = o.to_u32();
    let mut bad = vec![];
    for t in 0..T {
        let want = expected(x[t], y[t], t as u32 % 32);
        for s in 0..K {
            if got[t * K + s] != want[s] {
                bad.push(format!(
                    "thread {t} slot {s} (x = {:#x}, y = {:#x}): got {:#x}, want {:#x}",
                    x[t],
                    y[t],
                    got[t * K + s],
                    want[s]
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad[..bad.len().min(30)].join("\n")
    );
}

/// The one rejection of a kernel whose body is `body`, with the span's text.
fn rejection(body: &str) -> (String, String) {
    let src = format!(
        "#include <cuda_runtime.h>\n__global__ void k(unsigned* out, const float* f) {{\n  \
         unsigned r = 0; float g = 0.0f;\n  {body}\n  out[threadIdx.x] = r + (unsigned)g;\n}}\n"
    );
    let c = clang("reject.cu", &src);
    let [rej] = &c.rejected[..] else {
        panic!("expected one rejection for {body}: {:?}", c.rejected)
    };
    let e = &rej.errors[0];
    let text = src[e.span.lo as usize..e.span.hi as usize].to_string();
    (e.message.clone(), text)
}

#[test]
fn rejections_name_the_instruction_and_the_statement() {
    let cases: &[(&str, &str)] = &[
        (
            r#"asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(r), "l"(f));"#,
            "unsupported: inline PTX `cp.async.ca.shared.global` (use `--via-ptx`)",
        ),
        (
            r#"asm("mov.u32 %0, %%warpid;" : "=r"(r));"#,
            "the special register `%warpid`",
        ),
        (
            r#"asm("ld.shared.f32 %0, [%1];" : "=f"(g) : "l"(f));"#,
            "unsupported: inline PTX `ld.shared.f32`: the `.shared` form (use `--via-ptx`)",
        ),
        (
            r#"unsigned long long q; asm("mov.b64 %0, %1;" : "=l"(q) : "f"(g));"#,
            "reinterpreting the bits of a floating value",
        ),
        (
            r#"asm("addc.u32 %0, %0, 1;" : "+r"(r));"#,
            "inline PTX `addc.u32`: a carry read before an instruction of this `asm` statement sets it",
        ),
        (
            r#"asm("bar.sync 1;");"#,
            "inline PTX `bar.sync`: a named barrier other than the constant 0",
        ),
        (
            r#"asm("shfl.sync.down.b32 %0, %0, 1, %1, -1;" : "+r"(r) : "r"(r));"#,
            "clamp operand `c` is not a constant",
        ),
        (
            r#"asm("{ bra.uni L1; L1: }");"#,
            "inline PTX `bra.uni`",
        ),
        (
            r#"asm("mov.u32 %0, 1;" : "=r"(out[r++]));"#,
            "output 0 is an lvalue with side effects",
        ),
        (
            r#"asm("ld.global.f32 %0, [%1+2];" : "=f"(g) : "l"(f));"#,
            "an access 2 bytes past the pointer, not a whole number of f32 elements",
        ),
    ];
    for (body, want) in cases {
        let (msg, text) = rejection(body);
        assert!(msg.contains(want), "{body}:\n  got  {msg}\n  want {want}");
        assert!(text.starts_with("asm"), "{body}: span covers `{text}`");
    }
}

#[test]
fn a_compiler_barrier_is_nothing_and_basic_asm_is_not_substituted() {
    let src = "#include <cuda_runtime.h>\n__global__ void k(unsigned* out) {\n  \
               asm volatile(\"\" ::: \"memory\");\n  asm volatile(\"bar.sync 0;\");\n  \
               asm(\"membar.gl;\");\n  out[threadIdx.x] = threadIdx.x;\n}\n";
    let c = clang("barrier.cu", src);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let k = &c.module.kernels[0];
    let printed = format!("{k:?}");
    assert!(printed.contains("SyncThreads"), "{printed}");
}

#[test]
fn atomics_count_like_atomic_add() {
    let src = "#include <cuda_runtime.h>\n__global__ void k(unsigned* hist, unsigned* old) {\n  \
               unsigned i = threadIdx.x, o;\n  \
               asm volatile(\"atom.global.add.u32 %0, [%1], 1;\" : \"=r\"(o) : \"l\"(hist + i % 8));\n  \
               asm volatile(\"red.global.add.u32 [%0+4], %1;\" :: \"l\"(hist + 7), \"r\"(i));\n  \
               old[i] = o;\n}\n";
    let c = clang("atomics.cu", src);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let args = vec![
        Arg::Buffer(Buffer::from_u32(&[0; 9])),
        Arg::Buffer(Buffer::from_u32(&[0; 64])),
    ];
    let out = run(
        &c.module.kernels[0],
        &LaunchConfig::linear(1, 64),
        args,
        &RunOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let Arg::Buffer(h) = &out.args[0] else {
        panic!("hist is a buffer")
    };
    let mut want = vec![8u32; 8];
    want.push((0..64).sum());
    assert_eq!(h.to_u32(), want);
    let Arg::Buffer(old) = &out.args[1] else {
        panic!("old is a buffer")
    };
    // Each bin's eight old values are 0..8 in some order.
    let mut per_bin = vec![vec![]; 8];
    for (i, v) in old.to_u32().into_iter().enumerate() {
        per_bin[i % 8].push(v);
    }
    for mut b in per_bin {
        b.sort();
        assert_eq!(b, (0..8).collect::<Vec<u32>>());
    }
    let (msg, _) =
        rejection(r#"asm("atom.cta.global.add.u32 %0, [%1], 1;" : "=r"(r) : "l"(out));"#);
    assert!(msg.contains("a block-scoped atomic"), "{msg}");
}

#[test]
fn a_clamp_operand_folded_from_a_template_width_is_a_shuffle_of_that_width() {
    let src =
        "#include <cuda_runtime.h>\ntemplate <int W> __device__ unsigned down(unsigned v) {\n  \
               unsigned r;\n  asm volatile(\"shfl.sync.down.b32 %0, %1, 1, %2, 0xffffffff;\" \
               : \"=r\"(r) : \"r\"(v), \"r\"(((32 - W) << 8) | 0x1f));\n  return r;\n}\n\
               __global__ void k(unsigned* out) {\n  out[threadIdx.x] = down<8>(threadIdx.x);\n}\n";
    let c = clang("width.cu", src);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let out = run(
        &c.module.kernels[0],
        &LaunchConfig::linear(1, 32),
        vec![Arg::Buffer(Buffer::from_u32(&[0; 32]))],
        &RunOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let Arg::Buffer(o) = &out.args[0] else {
        panic!("out is a buffer")
    };
    // Within each group of 8 lanes, a lane reads the next one; the last keeps its own.
    let want: Vec<u32> = (0..32)
        .map(|l| if l % 8 == 7 { l } else { l + 1 })
        .collect();
    assert_eq!(o.to_u32(), want);
}

#[test]
fn a_global_access_through_a_shared_pointer_is_rejected_and_a_generic_one_read() {
    let src = |space: &str| {
        format!(
            "#include <cuda_runtime.h>\n__global__ void k(float* out) {{\n  \
             __shared__ float tile[64];\n  float* p = tile + threadIdx.x;\n  *p = 1.0f;\n  \
             __syncthreads();\n  float v;\n  \
             asm volatile(\"ld{space}.f32 %0, [%1];\" : \"=f\"(v) : \"l\"(p));\n  \
             out[threadIdx.x] = v;\n}}\n"
        )
    };
    let c = clang("shared_global.cu", &src(".global"));
    let [rej] = &c.rejected[..] else {
        panic!("{:?}", c.rejected)
    };
    assert!(
        rej.errors[0]
            .message
            .contains("may point into shared memory"),
        "{:?}",
        rej.errors[0]
    );
    let c = clang("shared_generic.cu", &src(""));
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
}

#[test]
fn a_float_moved_into_an_integer_register_is_its_bits() {
    // `mov.b32 %r, %f` and back: CUDA's `__float_as_uint`/`__uint_as_float` (issue 17).
    let src = "#include <cuda_runtime.h>\n__global__ void k(const float* x, unsigned* e, \
               float* y) {\n  unsigned i = threadIdx.x, b;\n  float r;\n  \
               asm(\"mov.b32 %0, %1;\" : \"=r\"(b) : \"f\"(x[i]));\n  \
               e[i] = b >> 23;\n  \
               asm(\"mov.b32 %0, %1;\" : \"=f\"(r) : \"r\"(b ^ 0x80000000u));\n  \
               y[i] = r;\n}\n";
    let c = clang("float_bits.cu", src);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let (words, _) = inputs();
    let x: Vec<f32> = words.iter().map(|w| f32::from_bits(*w)).collect();
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&x)),
        Arg::Buffer(Buffer::from_u32(&[0; T])),
        Arg::Buffer(Buffer::from_f32(&[0.0; T])),
    ];
    let out = run(
        &c.module.kernels[0],
        &LaunchConfig::linear(1, T as u32),
        args,
        &RunOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let (Arg::Buffer(e), Arg::Buffer(y)) = (&out.args[1], &out.args[2]) else {
        panic!("e and y are buffers")
    };
    let (e, y) = (e.to_u32(), y.to_u32());
    for t in 0..T {
        assert_eq!(
            e[t],
            x[t].to_bits() >> 23,
            "exponent and sign of {:e}",
            x[t]
        );
        assert_eq!(y[t], (-x[t]).to_bits(), "-{:e}", x[t]);
    }
}
