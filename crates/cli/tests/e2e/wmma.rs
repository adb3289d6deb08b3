//! Warp matrix functions (`nvcuda::wmma`, issues 17 and 18): our `<mma.h>` implements the
//! fragments in CUDA (each lane holds a slice of the tile; `mma_sync` gathers its operands
//! with shuffles), so every engine reads them. Here the interpreter's `D = A*B + C` is
//! compared with the matrix product for every shape and layout of tests/gpu/wmma_variants.cu
//! (the same kernels gave the same bits on an H200's tensor cores, scripts/gpu_wmma_check.sh),
//! also from nvcc's PTX of them (`wmma.load`/`wmma.mma`/`wmma.store` on the PTX road), and
//! `equiv` proves the tensor-core GEMM equal to the one-thread-per-element reference and
//! finds the planted layout bug with a replayed counterexample, from the source and from
//! nvcc's PTX.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn warpsafe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
        .output()
        .expect("warpsafe runs")
}

fn have_clang() -> bool {
    let found = warpsafe_clang_front::find_clang().is_some();
    if !found {
        eprintln!("clang not found: the wmma kernels are C++ (run scripts/setup.sh)");
    }
    found
}

/// IEEE binary16 bits of `v`, a normal number or zero whose mantissa fits in 10 bits.
fn f16_bits(v: f64) -> u16 {
    if v == 0.0 {
        return 0;
    }
    let sign = if v < 0.0 { 0x8000 } else { 0 };
    let a = v.abs();
    let e = a.log2().floor() as i32;
    let m = (a / 2f64.powi(e) - 1.0) * 1024.0;
    assert!(
        (-14..=15).contains(&e) && m.fract() == 0.0,
        "{v} is not an exact half"
    );
    sign | (((e + 15) as u16) << 10) | m as u16
}

fn f16_value(b: u16) -> f64 {
    let sign = if b & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((b >> 10) & 0x1f);
    let m = f64::from(b & 0x3ff);
    match e {
        0 => sign * m * 2f64.powi(-24),
        _ => sign * (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}

/// Multiples of 1/8 in [-1, 1] (exact in half; their products and sums exact in float).
fn eighths(seed: u64, n: usize) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 33) % 17) as f64 / 8.0 - 1.0
        })
        .collect()
}

fn write_half(path: &Path, v: &[f64]) {
    let bytes: Vec<u8> = v.iter().flat_map(|x| f16_bits(*x).to_le_bytes()).collect();
    std::fs::write(path, bytes).expect("writes");
}

fn write_float(path: &Path, v: &[f64]) {
    let bytes: Vec<u8> = v.iter().flat_map(|x| (*x as f32).to_le_bytes()).collect();
    std::fs::write(path, bytes).expect("writes");
}

/// Element (r, c) of an `rows x cols` matrix stored in `layout` with `pad` extra elements
/// per leading dimension.
fn at(m: &[f64], layout: &str, r: usize, c: usize, rows: usize, cols: usize, pad: usize) -> f64 {
    if layout == "row" {
        m[r * (cols + pad) + c]
    } else {
        m[c * (rows + pad) + r]
    }
}

/// A kernel of wmma_variants.cu: name, M, N, K, layouts of A, B and C, half accumulator.
type Variant = (
    &'static str,
    usize,
    usize,
    usize,
    &'static str,
    &'static str,
    &'static str,
    bool,
);

const VARIANTS: [Variant; 9] = [
    (
        "m16n16k16_row_col_row",
        16,
        16,
        16,
        "row",
        "col",
        "row",
        false,
    ),
    (
        "m16n16k16_col_row_col",
        16,
        16,
        16,
        "col",
        "row",
        "col",
        false,
    ),
    (
        "m16n16k16_row_row_col",
        16,
        16,
        16,
        "row",
        "row",
        "col",
        false,
    ),
    (
        "m16n16k16_col_col_row",
        16,
        16,
        16,
        "col",
        "col",
        "row",
        false,
    ),
    (
        "m32n8k16_row_col_row",
        32,
        8,
        16,
        "row",
        "col",
        "row",
        false,
    ),
    (
        "m32n8k16_col_row_col",
        32,
        8,
        16,
        "col",
        "row",
        "col",
        false,
    ),
    (
        "m8n32k16_row_col_row",
        8,
        32,
        16,
        "row",
        "col",
        "row",
        false,
    ),
    (
        "m8n32k16_col_row_col",
        8,
        32,
        16,
        "col",
        "row",
        "col",
        false,
    ),
    (
        "m16n16k16_half_row_col_row",
        16,
        16,
        16,
        "row",
        "col",
        "row",
        true,
    ),
];

/// Runs every variant of `file` (kernel names through `kernel_name`) and compares D with
/// A*B + C computed here.
fn check_variants(tag: &str, file: &Path, kernel_name: &dyn Fn(&str) -> String) {
    let dir = std::env::temp_dir().join(format!("warpsafe-wmma-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (a, b, c) = (eighths(1, 1024), eighths(2, 1024), eighths(3, 1024));
    write_half(&dir.join("a.bin"), &a);
    write_half(&dir.join("b.bin"), &b);
    write_float(&dir.join("cf.bin"), &c);
    write_half(&dir.join("ch.bin"), &c);
    for (name, m, n, k, la, lb, lc, half) in VARIANTS {
        let out = dir.join(name);
        let cin = dir.join(if half { "ch.bin" } else { "cf.bin" });
        let bufs = [
            format!("a={}", dir.join("a.bin").display()),
            format!("b={}", dir.join("b.bin").display()),
            format!("c={}", cin.display()),
            "d=zeros".to_string(),
        ];
        let kernel = kernel_name(name);
        let mut args = vec![
            "run",
            file.to_str().expect("utf-8 path"),
            "--kernel",
            &kernel,
        ];
        for b in &bufs {
            args.extend(["--buf", b.as_str()]);
        }
        args.extend(["--out", out.to_str().expect("utf-8 path")]);
        let o = warpsafe(&args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{name}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        let bytes = std::fs::read(out.join("d.bin")).expect("d.bin written");
        let d: Vec<f64> = if half {
            bytes
                .chunks_exact(2)
                .map(|w| f16_value(u16::from_le_bytes([w[0], w[1]])))
                .collect()
        } else {
            bytes
                .chunks_exact(4)
                .map(|w| f64::from(f32::from_le_bytes([w[0], w[1], w[2], w[3]])))
                .collect()
        };
        for i in 0..m {
            for j in 0..n {
                let want: f64 = (0..k)
                    .map(|kk| at(&a, la, i, kk, m, k, 8) * at(&b, lb, kk, j, k, n, 0))
                    .sum::<f64>()
                    + at(&c, lc, i, j, m, n, 0);
                let got = at(&d, lc, i, j, m, n, 0);
                assert_eq!(got, want, "{tag} {name}: D[{i}][{j}]");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_wmma_shape_and_layout_computes_a_times_b_plus_c() {
    if !have_clang() {
        return;
    }
    check_variants("cu", &root().join("tests/gpu/wmma_variants.cu"), &|n| {
        n.to_string()
    });
}

#[test]
fn nvccs_wmma_instructions_compute_a_times_b_plus_c_on_the_ptx_road() {
    // The sibling .cu gives parameter names and lengths (read through clang).
    if !have_clang() {
        return;
    }
    let file = root().join("tests/gpu/wmma_variants.ptx");
    let text = std::fs::read_to_string(&file).expect("PTX fixture");
    let entries: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix(".visible .entry "))
        .map(|l| l.trim_end_matches('(').to_string())
        .collect();
    check_variants("ptx", &file, &|n| {
        let prefix = format!("_Z{}{n}P", n.len());
        entries
            .iter()
            .find(|e| e.starts_with(&prefix))
            .cloned()
            .unwrap_or_else(|| panic!("no entry for {n}"))
    });
}

#[test]
fn a_fragment_register_written_outside_wmma_is_refused_by_name() {
    let text =
        std::fs::read_to_string(root().join("tests/gpu/wmma_variants.ptx")).expect("PTX fixture");
    let load = text
        .lines()
        .find(|l| l.contains("wmma.load.a.sync"))
        .expect("a wmma.load.a");
    let patched = text.replacen(load, &format!("{load}\n\tmov.b32 \t%r3, 0;"), 1);
    let dir = std::env::temp_dir().join(format!("warpsafe-wmma-mov-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("patched.ptx");
    std::fs::write(&path, patched).expect("writes");
    let kernel = text
        .lines()
        .find_map(|l| l.strip_prefix(".visible .entry "))
        .map(|l| l.trim_end_matches('('))
        .expect("an entry");
    let o = warpsafe(&[
        "run",
        path.to_str().expect("utf-8 path"),
        "--kernel",
        kernel,
        "--grid",
        "1",
        "--block",
        "32",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`%r3` is an A or B fragment") && err.contains("`mov`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn example(rel: &str) -> String {
    root()
        .join("examples/equiv/wmma")
        .join(rel)
        .display()
        .to_string()
}

#[test]
fn the_tensor_core_gemm_is_equal_to_the_reference_and_its_layout_bug_is_found() {
    if !have_clang() {
        return;
    }
    let reference = example("gemm_half_reference.cu");
    let good = warpsafe(&["equiv", &reference, &example("wmma_gemm.cu")]);
    let text = String::from_utf8_lossy(&good.stdout);
    assert_eq!(good.status.code(), Some(0), "{text}");
    assert!(
        text.contains(": equal (") && text.contains("4096 equal"),
        "{text}"
    );
    let exact = warpsafe(&["equiv", "--exact", &reference, &example("wmma_gemm.cu")]);
    assert_eq!(
        exact.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&exact.stdout)
    );
    let bad = warpsafe(&["equiv", &reference, &example("wmma_gemm_bug_layout.cu")]);
    let text = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{text}");
    assert!(text.contains("different"), "{text}");
    assert!(text.contains("both run in the interpreter"), "{text}");
}

#[test]
fn nvccs_ptx_of_the_tensor_core_gemm_is_equal_to_the_reference() {
    if !have_clang() {
        return;
    }
    let reference = example("gemm_half_reference.cu");
    let good = warpsafe(&["equiv", &reference, &example("wmma_gemm.ptx")]);
    let text = String::from_utf8_lossy(&good.stdout);
    assert_eq!(good.status.code(), Some(0), "{text}");
    assert!(text.contains("4096 equal"), "{text}");
    let bad = warpsafe(&["equiv", &reference, &example("wmma_gemm_bug_layout.ptx")]);
    let text = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{text}");
    assert!(text.contains("both run in the interpreter"), "{text}");
}
