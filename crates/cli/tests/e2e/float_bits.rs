//! Bit reinterpretation (`__float_as_uint`, `__int_as_float`, `__double_as_longlong`,
//! `__longlong_as_double`, issue 17): a kernel takes floats apart into their exponent bits
//! and rebuilds them with a forced exponent; the interpreter's outputs, through both front
//! ends, are compared with Rust's `f32::to_bits`/`from_bits` (and `f64`'s) on edge cases
//! (zeros, subnormals, infinities, NaN) and random words. On the PTX road the float shuffle of
//! `reduce_warp_shuffle.cu` (`mov.b32` between float and integer registers) is lifted and
//! `run --via-ptx` gives the source road's outputs, bit for bit.

use std::path::{Path, PathBuf};
use std::process::Command;

const KERNEL: &str = r#"//--blockDim=64 --gridDim=1
//@ len(x) = 64
//@ len(d) = 64
__global__ void exponent_bits(const float* x, const double* d, unsigned int* e, float* y,
                              long long* dbits, double* dback)
{
    unsigned t = threadIdx.x;
    unsigned int b = __float_as_uint(x[t]);
    e[t] = (b >> 23) & 0xffu;
    // The exponent forced to 127: a value in [1, 2) (or a NaN) with x's sign and mantissa.
    int r = (int)((b & 0x807fffffu) | (127u << 23));
    y[t] = __int_as_float(r) + __uint_as_float(0u) * (float)__float_as_int(0.0f);
    long long q = __double_as_longlong(d[t]);
    dbits[t] = q;
    dback[t] = -__longlong_as_double(q);
}
"#;

fn inputs() -> (Vec<f32>, Vec<f64>) {
    let mut x = vec![
        0.0,
        -0.0,
        1.0,
        -1.5,
        f32::MIN_POSITIVE,
        1e-40,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        0.1,
        f32::from_bits(0x7fc0_0001),
    ];
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    while x.len() < 64 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        x.push(f32::from_bits((s >> 16) as u32));
    }
    let d = x
        .iter()
        .enumerate()
        .map(|(i, v)| f64::from(*v) * (i as f64 - 20.5))
        .collect();
    (x, d)
}

fn read<T: Copy>(dir: &Path, name: &str, from: fn(&[u8]) -> T, size: usize) -> Vec<T> {
    let bytes = std::fs::read(dir.join(format!("{name}.bin"))).expect("output written");
    bytes.chunks(size).map(from).collect()
}

fn temp(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpsafe-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn reinterpretations_give_rusts_bits_in_both_front_ends() {
    let dir = temp("float-bits");
    let kernel = dir.join("bits.cu");
    std::fs::write(&kernel, KERNEL).expect("kernel written");
    let (x, d) = inputs();
    let xb: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
    let db: Vec<u8> = d.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(dir.join("x.bin"), xb).expect("x");
    std::fs::write(dir.join("d.bin"), db).expect("d");
    for frontend in ["clang", "subset"] {
        let out = dir.join(format!("out-{frontend}"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpsafe"));
        cmd.args(["run", "--frontend", frontend]).arg(&kernel);
        cmd.arg("--buf")
            .arg(format!("x={}", dir.join("x.bin").display()));
        cmd.arg("--buf")
            .arg(format!("d={}", dir.join("d.bin").display()));
        for b in ["e", "y", "dbits", "dback"] {
            cmd.args(["--buf", &format!("{b}=zeros:64")]);
        }
        let run = cmd.arg("--out").arg(&out).output().expect("runs");
        assert!(
            run.status.success(),
            "{frontend}: {}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        let e = read(&out, "e", |b| u32::from_le_bytes(b.try_into().unwrap()), 4);
        let y = read(&out, "y", |b| u32::from_le_bytes(b.try_into().unwrap()), 4);
        let q = read(
            &out,
            "dbits",
            |b| i64::from_le_bytes(b.try_into().unwrap()),
            8,
        );
        let back = read(
            &out,
            "dback",
            |b| u64::from_le_bytes(b.try_into().unwrap()),
            8,
        );
        for t in 0..64 {
            let bits = x[t].to_bits();
            assert_eq!(
                e[t],
                (bits >> 23) & 0xff,
                "{frontend}: exponent of {:e}",
                x[t]
            );
            let rebuilt = f32::from_bits((bits & 0x807f_ffff) | (127 << 23));
            // Exponent 127 is a normal number in [1, 2): adding `0.0f * 0.0f` keeps its bits.
            assert_eq!(
                y[t],
                (rebuilt + 0.0f32 * 0.0f32).to_bits(),
                "{frontend}: rebuilt {:e}",
                x[t]
            );
            assert_eq!(
                q[t],
                d[t].to_bits() as i64,
                "{frontend}: bits of {:e}",
                d[t]
            );
            assert_eq!(
                back[t],
                d[t].to_bits() ^ (1 << 63),
                "{frontend}: -{:e}",
                d[t]
            );
        }
    }
}

#[test]
fn the_float_shuffle_runs_through_ptx_with_the_source_outputs() {
    if warpsafe_cuda::nvrtc_path().is_err() {
        eprintln!("note: NVRTC not found; PTX road skipped");
        return;
    }
    let dir = temp("shuffle-bits");
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/kernels/reduce_warp_shuffle.cu");
    let mut s: u32 = 12345;
    let data: Vec<u8> = (0..4000)
        .flat_map(|_| {
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (((s >> 8) as f32 / (1u32 << 24) as f32) - 0.5).to_le_bytes()
        })
        .collect();
    std::fs::write(dir.join("in.bin"), data).expect("input");
    let mut outs = vec![];
    for via in [false, true] {
        let out = dir.join(format!("out-{via}"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpsafe"));
        cmd.arg("run").arg(&file);
        if via {
            cmd.arg("--via-ptx");
        }
        cmd.arg("--buf")
            .arg(format!("g_idata={}", dir.join("in.bin").display()));
        let run = cmd.arg("--out").arg(&out).output().expect("runs");
        assert!(
            run.status.success(),
            "via-ptx {via}: {}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        outs.push(std::fs::read(out.join("g_odata.bin")).expect("output"));
    }
    assert_eq!(outs[0].len(), 8 * 4);
    assert!(outs[0].iter().any(|b| *b != 0), "the sums are not all zero");
    assert_eq!(outs[0], outs[1], "PTX road and source road differ");
}
