//! Inline PTX on the CUDA C++ road, end to end: `run` of the `tests/real/asm_*.cu` kernels
//! gives the values Rust computes (F_p sums against u128 arithmetic, warp totals, copies,
//! reversals), the same on the source road and `--via-ptx` (warpsafe's CUDA C through NVRTC);
//! and NVRTC's own compilation of the original `asm` statements of the clang front end's
//! fixture (tests/fixtures/inline_asm_ops.cu), run as PTX, agrees with the front end's
//! translation of them, so the translation is checked against the compiler, not only against
//! our reading of the PTX ISA (but for `lop3`, `addc` and `madc`, which the PTX road does not
//! read; the F_p kernel's carry chains are checked against u128 arithmetic).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn nvrtc() -> bool {
    let ok = warpsafe_cuda::nvrtc_path().is_ok();
    if !ok {
        eprintln!("note: NVRTC not found; the PTX halves of these tests are skipped");
    }
    ok
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpsafe-inline-asm-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `warpsafe run FILE ARGS --out DIR`, returning the bytes of `DIR/OUT.bin`.
fn run(file: &Path, args: &[String], out: &str, dir: &Path) -> Vec<u8> {
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .arg("run")
        .arg(file)
        .args(args)
        .arg("--out")
        .arg(dir)
        .output()
        .expect("runs");
    assert!(
        o.status.success(),
        "{} {args:?}: exit {:?}\n{}{}",
        file.display(),
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read(dir.join(format!("{out}.bin"))).expect("output written")
}

/// Runs `file` on the source road, and on the PTX road when NVRTC is there; both outputs
/// must equal `want`.
fn both_roads(file: &Path, args: &[String], out: &str, want: &[u8]) {
    let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("k");
    let got = run(file, args, out, &tmp(&format!("{name}-src")));
    assert!(
        got == want,
        "{name}: the source road's `{out}` differs from Rust's"
    );
    if nvrtc() {
        let mut a = args.to_vec();
        a.push("--via-ptx".into());
        let got = run(file, &a, out, &tmp(&format!("{name}-ptx")));
        assert!(
            got == want,
            "{name}: the PTX road's `{out}` differs from Rust's"
        );
    }
}

fn write_u64(path: &Path, v: &[u64]) {
    std::fs::write(
        path,
        v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>(),
    )
    .expect("w");
}

fn write_u32(path: &Path, v: &[u32]) {
    std::fs::write(
        path,
        v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>(),
    )
    .expect("w");
}

fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

const P: u64 = 0xffff_ffff_0000_0001;

/// Reduced operands for the F_p kernel, edge cases first, and the expected sums.
fn fp_inputs(dir: &Path) -> (Vec<String>, Vec<u8>) {
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let mut a: Vec<u64> = (0..256).map(|_| next() % P).collect();
    let mut b: Vec<u64> = (0..256).map(|_| next() % P).collect();
    for (k, (x, y)) in [
        (P - 1, P - 1),
        (0, 0),
        (P - 1, 1),
        (1 << 63, 1 << 63),
        (0xffff_ffff, 1),
    ]
    .into_iter()
    .enumerate()
    {
        a[k] = x;
        b[k] = y;
    }
    write_u64(&dir.join("a.bin"), &a);
    write_u64(&dir.join("b.bin"), &b);
    let want: Vec<u8> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| ((u128::from(x) + u128::from(y)) % u128::from(P)) as u64)
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let args = vec![
        "--buf".into(),
        format!("a={}", dir.join("a.bin").display()),
        "--buf".into(),
        format!("b={}", dir.join("b.bin").display()),
        "--arg".into(),
        format!("p={P}"),
    ];
    (args, want)
}

#[test]
fn fp_add_carry_chains_equal_u128_arithmetic_on_both_roads() {
    let dir = tmp("fp-in");
    let (args, want) = fp_inputs(&dir);
    both_roads(
        &root().join("tests/real/asm_fp_add.cu"),
        &args,
        "out",
        &want,
    );
}

#[test]
fn warp_sums_copies_and_reversals_equal_rust_on_both_roads() {
    let dir = tmp("inputs");
    let mut next = xorshift(0x1234_5678_9abc_def1);
    let ins: Vec<u32> = (0..512).map(|_| next() as u32).collect();
    write_u32(&dir.join("in.bin"), &ins);
    let sums: Vec<u32> = ins
        .chunks(32)
        .map(|w| w.iter().fold(0u32, |s, &v| s.wrapping_add(v)))
        .collect();
    let sums: Vec<u8> = sums.iter().flat_map(|v| v.to_le_bytes()).collect();
    let buf = |name: &str, file: &str| {
        vec![
            "--buf".to_string(),
            format!("{name}={}", dir.join(file).display()),
        ]
    };
    both_roads(
        &root().join("tests/real/asm_warp_reduce.cu"),
        &buf("in", "in.bin"),
        "warp_sums",
        &sums,
    );
    let reversed: Vec<u8> = ins
        .chunks(128)
        .flat_map(|t| t.iter().rev().copied().collect::<Vec<_>>())
        .flat_map(|v| v.to_le_bytes())
        .collect();
    both_roads(
        &root().join("tests/real/asm_bar_sync.cu"),
        &buf("in", "in.bin"),
        "out",
        &reversed,
    );
    let floats: Vec<u32> = (0..1200)
        .map(|k| (k as f32 * 0.25 - 7.0).to_bits())
        .collect();
    write_u32(&dir.join("src.bin"), &floats);
    let bytes: Vec<u8> = floats.iter().flat_map(|v| v.to_le_bytes()).collect();
    both_roads(
        &root().join("tests/real/asm_ldg_v4_copy.cu"),
        &buf("src", "src.bin"),
        "dst",
        &bytes,
    );
}

/// The device code of `src` as NVRTC takes it: no includes, C linkage for the kernels.
fn for_nvrtc(src: &str) -> String {
    let body: String = src
        .lines()
        .filter(|l| !l.trim_start().starts_with("#include"))
        .map(|l| l.replace("__global__ void", "extern \"C\" __global__ void") + "\n")
        .collect();
    let body = match body.find("\nvoid ").or_else(|| body.find("\nint main")) {
        Some(host) => body[..host].to_string(),
        None => body,
    };
    format!("typedef unsigned long long uint64_t;\n{body}")
}

/// NVRTC's PTX of `file`'s original source, written beside a copy of the `.cu` (its
/// contract) in a fresh directory; returns the `.ptx` path.
fn nvrtc_ptx(file: &Path) -> PathBuf {
    let src = std::fs::read_to_string(file).expect("source");
    let name = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("k")
        .to_string();
    // The PTX road reads neither `lop3`, the carry instructions `addc`/`madc`, `bfi` with
    // register operands, `%lanemask_*` nor predicates named without `%`, and NVRTC refuses the
    // matching constraint `"0"`: the fixture leaves them out under this macro.
    let opts = warpsafe_cuda::CompileOptions {
        arch: "sm_80".into(),
        extra: vec!["-DPTX_ROAD_SUBSET".into()],
    };
    let ptx = warpsafe_cuda::compile_ptx(&for_nvrtc(&src), &opts)
        .unwrap_or_else(|e| panic!("NVRTC on {name}: {e}"))
        .ptx;
    let dir = tmp(&format!("{name}-nvrtc"));
    std::fs::write(dir.join(format!("{name}.cu")), &src).expect("w");
    let p = dir.join(format!("{name}.ptx"));
    std::fs::write(&p, ptx).expect("w");
    p
}

#[test]
fn nvrtc_compiling_the_asm_itself_agrees_with_the_translation() {
    if !nvrtc() {
        return;
    }
    let dir = tmp("nvrtc-in");
    // Every instruction form of the clang front end's fixture: NVRTC's PTX against the
    // front end's translation, run on the same inputs.
    let ops = root().join("crates/clang-front/tests/fixtures/inline_asm_ops.cu");
    let mut next = xorshift(0x0bad_5eed_1234_5679);
    let x: Vec<u32> = (0..64).map(|_| next() as u32).collect();
    let y: Vec<u32> = (0..64)
        .map(|k| {
            if k % 7 == 0 {
                32 | (40 << 8)
            } else {
                next() as u32
            }
        })
        .collect();
    write_u32(&dir.join("x.bin"), &x);
    write_u32(&dir.join("y.bin"), &y);
    // The PTX's parameters take their names from the sibling `.cu` when clang reads it, and
    // keep NVRTC's (`asm_ops_param_0`) otherwise.
    let args = |x: &str, y: &str, out: &str| -> Vec<String> {
        vec![
            "--grid".into(),
            "1".into(),
            "--block".into(),
            "64".into(),
            "--buf".into(),
            format!("{x}={}", dir.join("x.bin").display()),
            "--buf".into(),
            format!("{y}={}", dir.join("y.bin").display()),
            "--buf".into(),
            format!("{out}=zeros:3072"),
        ]
    };
    let translated = run(&ops, &args("x", "y", "out"), "out", &tmp("ops-src"));
    let sibling = warpsafe_clang_front::find_clang().is_some();
    let p = |k: usize| match (sibling, k) {
        (true, 0) => "x".to_string(),
        (true, 1) => "y".to_string(),
        (true, _) => "out".to_string(),
        (false, _) => format!("asm_ops_param_{k}"),
    };
    let compiled = run(
        &nvrtc_ptx(&ops),
        &args(&p(0), &p(1), &p(2)),
        &p(2),
        &tmp("ops-nvrtc"),
    );
    let words = |b: &[u8]| -> Vec<u32> {
        b.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let (t, c) = (words(&translated), words(&compiled));
    // Slots of the instructions left out of NVRTC's compilation.
    let left_out = |slot: usize| matches!(slot, 2 | 4 | 5 | 35 | 36 | 38 | 39..=45 | 47);
    let bad: Vec<String> = (0..t.len())
        .filter(|&k| !left_out(k % 48) && t[k] != c[k])
        .take(20)
        .map(|k| {
            format!(
                "thread {} slot {}: translated {:#x}, NVRTC {:#x}",
                k / 48,
                k % 48,
                t[k],
                c[k]
            )
        })
        .collect();
    assert!(bad.is_empty(), "\n{}", bad.join("\n"));
}
