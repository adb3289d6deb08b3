//! The bit intrinsics the clang frontend writes as C (`__popc`, `__clz`, `__ffs`, `__brev`,
//! `__mul24`, `__umul24`, `__mulhi`, `__umulhi` and the 64-bit kinds) compute what CUDA
//! documents: the kernel runs in the interpreter on edge-case and random words and every
//! result is compared with Rust's own bit operations; `verify` finds no overflow in them.

use std::path::Path;
use std::process::Command;

const KERNEL: &str = r#"//--blockDim=64 --gridDim=1
//@ len(x) = 64
__global__ void bits(const unsigned* x, const unsigned long long* y, int* popc, int* clz,
                     int* ffs, unsigned* brev, unsigned* umul24, int* mul24, unsigned* umulhi,
                     int* mulhi, int* popcll, int* clzll, unsigned long long* brevll)
{
    unsigned t = threadIdx.x;
    unsigned v = x[t];
    unsigned w = x[63 - t];
    unsigned long long q = y[t];
    popc[t] = __popc(v);
    clz[t] = __clz(v);
    ffs[t] = __ffs(v);
    brev[t] = __brev(v);
    umul24[t] = __umul24(v, w);
    mul24[t] = __mul24(v, w);
    umulhi[t] = __umulhi(v, w);
    mulhi[t] = __mulhi(v, w);
    popcll[t] = __popcll(q);
    clzll[t] = __clzll(q);
    brevll[t] = __brevll(q);
}
"#;

fn words() -> (Vec<u32>, Vec<u64>) {
    let mut x = vec![
        0,
        1,
        2,
        3,
        0x8000_0000,
        0xFFFF_FFFF,
        0x7FFF_FFFF,
        0x00FF_FFFF,
        0x0080_0000,
    ];
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    while x.len() < 64 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        x.push((s >> 16) as u32);
    }
    let y: Vec<u64> = x
        .iter()
        .enumerate()
        .map(|(i, v)| (u64::from(*v) << (i % 33)) | u64::from(i == 5) << 63)
        .collect();
    (x, y)
}

fn read<T: Copy>(dir: &Path, name: &str, from: fn(&[u8]) -> T, size: usize) -> Vec<T> {
    let bytes = std::fs::read(dir.join(format!("{name}.bin"))).expect("output written");
    bytes.chunks(size).map(from).collect()
}

#[test]
fn bit_intrinsics_compute_what_cuda_documents() {
    let dir = std::env::temp_dir().join(format!("warpsafe-bits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let kernel = dir.join("bits.cu");
    std::fs::write(&kernel, KERNEL).expect("kernel written");
    let (x, y) = words();
    let xb: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
    let yb: Vec<u8> = y.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(dir.join("x.bin"), xb).expect("x");
    std::fs::write(dir.join("y.bin"), yb).expect("y");
    let out = dir.join("out");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpsafe"));
    cmd.args(["run", "--frontend", "clang"]).arg(&kernel);
    cmd.arg("--buf")
        .arg(format!("x={}", dir.join("x.bin").display()));
    cmd.arg("--buf")
        .arg(format!("y={}", dir.join("y.bin").display()));
    for b in [
        "popc", "clz", "ffs", "brev", "umul24", "mul24", "umulhi", "mulhi", "popcll", "clzll",
        "brevll",
    ] {
        cmd.args(["--buf", &format!("{b}=zeros:64")]);
    }
    let run = cmd.arg("--out").arg(&out).output().expect("runs");
    assert!(
        run.status.success(),
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let i32s = |n: &str| read(&out, n, |b| i32::from_le_bytes(b.try_into().unwrap()), 4);
    let u32s = |n: &str| read(&out, n, |b| u32::from_le_bytes(b.try_into().unwrap()), 4);
    let u64s = |n: &str| read(&out, n, |b| u64::from_le_bytes(b.try_into().unwrap()), 8);
    let (popc, clz, ffs, brev) = (i32s("popc"), i32s("clz"), i32s("ffs"), u32s("brev"));
    let (umul24, mul24, umulhi, mulhi) =
        (u32s("umul24"), i32s("mul24"), u32s("umulhi"), i32s("mulhi"));
    let (popcll, clzll, brevll) = (i32s("popcll"), i32s("clzll"), u64s("brevll"));
    for t in 0..64 {
        let (v, w, q) = (x[t], x[63 - t], y[t]);
        let sext = |a: u32| ((a << 8) as i32) >> 8;
        assert_eq!(popc[t], v.count_ones() as i32, "__popc({v:#x})");
        assert_eq!(clz[t], v.leading_zeros() as i32, "__clz({v:#x})");
        let want_ffs = if v == 0 {
            0
        } else {
            v.trailing_zeros() as i32 + 1
        };
        assert_eq!(ffs[t], want_ffs, "__ffs({v:#x})");
        assert_eq!(brev[t], v.reverse_bits(), "__brev({v:#x})");
        assert_eq!(
            umul24[t],
            (v & 0xFF_FFFF).wrapping_mul(w & 0xFF_FFFF),
            "__umul24"
        );
        assert_eq!(
            mul24[t],
            sext(v).wrapping_mul(sext(w)),
            "__mul24({v:#x}, {w:#x})"
        );
        assert_eq!(
            umulhi[t],
            ((u64::from(v) * u64::from(w)) >> 32) as u32,
            "__umulhi"
        );
        let hi = (i64::from(v as i32) * i64::from(w as i32)) >> 32;
        assert_eq!(mulhi[t], hi as i32, "__mulhi({v:#x}, {w:#x})");
        assert_eq!(popcll[t], q.count_ones() as i32, "__popcll({q:#x})");
        assert_eq!(clzll[t], q.leading_zeros() as i32, "__clzll({q:#x})");
        assert_eq!(brevll[t], q.reverse_bits(), "__brevll({q:#x})");
    }
    let verify = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args([
            "verify",
            "--frontend",
            "clang",
            "--property",
            "race,bounds,overflow",
        ])
        .arg(&kernel)
        .output()
        .expect("verifies");
    let text = String::from_utf8_lossy(&verify.stdout);
    assert!(
        verify.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&verify.stderr)
    );
}
