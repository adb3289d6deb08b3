//! The equivalence benchmark: every pair of `examples/equiv`, its expected verdict, and a
//! table of verdict, seconds, peak memory, barriers and thread instructions (for
//! `warpsafe bench equiv`). Pairs of the sized families (SGEMM at `-D SIZE=…`, attention at
//! `-D N=… -D D=…`) are C++ read through clang with their definitions and run on both roads
//! (the thread code of the IR, and NVRTC's PTX), through a [`Loader`] the caller gives.

use crate::{equiv_programs, BlockSel, EquivConfig, EquivError, ExecConfig};
use serde::Serialize;
use std::path::Path;
use warpsafe_exec::Program;

/// Reads one benchmark file: its path, the `-D` definitions, and whether to take the PTX road;
/// gives the program and the text its findings point into.
pub type Loader<'a> =
    dyn Fn(&Path, &[(String, String)], bool) -> Result<(Program, String), EquivError> + 'a;

/// One benchmark pair: files relative to `examples/equiv`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct BenchPair {
    /// The family (`reduce`, `sgemm`, `softmax`, `attention`).
    pub family: &'static str,
    /// The reference kernel's file.
    pub reference: &'static str,
    /// The compared kernel's file.
    pub optimized: &'static str,
    /// Run with lock-step warps (the legacy model).
    pub lockstep: bool,
    /// The verdict the pair must get.
    pub expect: &'static str,
    /// `-D NAME=VALUE` definitions for C++ files of a sized family (read through clang, both
    /// roads); empty: files of the C subset, the thread-code road only (unless `ptx` is set).
    pub defines: &'static [(&'static str, &'static str)],
    /// C++ read through clang on both roads, the PTX road reading this PTX file (nvcc's, of
    /// the optimized kernel) instead of NVRTC's PTX of our CUDA C: the tensor-core pairs.
    pub ptx: Option<&'static str>,
    /// The PTX road only: the optimized kernel is inline PTX that clang-front's inline-PTX
    /// translation does not read (`ldmatrix`, `mma.sync`).
    pub ptx_only: bool,
}

const fn pair(
    family: &'static str,
    reference: &'static str,
    optimized: &'static str,
    lockstep: bool,
    expect: &'static str,
) -> BenchPair {
    BenchPair {
        family,
        reference,
        optimized,
        lockstep,
        expect,
        defines: &[],
        ptx: None,
        ptx_only: false,
    }
}

/// A pair of the sized SGEMM family at `-D SIZE=…` (one of [`SIZE_128`], [`SIZE_256`]).
const fn sized(
    optimized: &'static str,
    size: &'static [(&'static str, &'static str)],
    expect: &'static str,
) -> BenchPair {
    BenchPair {
        family: "sgemm-sized",
        reference: S10,
        optimized,
        lockstep: false,
        expect,
        defines: size,
        ptx: None,
        ptx_only: false,
    }
}

/// A pair of the sized attention family at `-D N=… -D D=…` (one of [`N64_D32`],
/// [`N128_D64`]).
const fn attention(
    optimized: &'static str,
    sizes: &'static [(&'static str, &'static str)],
    expect: &'static str,
) -> BenchPair {
    BenchPair {
        family: "attention-sized",
        reference: "attention/attention_sized_reference.cu",
        optimized,
        lockstep: false,
        expect,
        defines: sizes,
        ptx: None,
        ptx_only: false,
    }
}

const fn tensor(optimized: &'static str, ptx: &'static str, expect: &'static str) -> BenchPair {
    BenchPair {
        family: "wmma",
        reference: "wmma/gemm_half_reference.cu",
        optimized,
        lockstep: false,
        expect,
        defines: &[],
        ptx: Some(ptx),
        ptx_only: false,
    }
}

/// A tensor-core pair whose optimized kernel is inline `ldmatrix`/`mma.sync`: the PTX road
/// only, on `ptx` (NVRTC's PTX of `optimized`, its contract from the sibling `*_nvrtc.cu`).
const fn tensor_ptx_only(
    optimized: &'static str,
    ptx: &'static str,
    expect: &'static str,
) -> BenchPair {
    BenchPair {
        ptx_only: true,
        ..tensor(optimized, ptx, expect)
    }
}

const R0: &str = "reduce/reduce0_reference.cu";
const S1: &str = "sgemm/sgemm1_naive.cu";
const SM: &str = "softmax/softmax_naive.cu";
const AT: &str = "attention/attention_reference.cu";
const S10: &str = "sgemm/sgemm10_reference.cu";
const S11: &str = "sgemm/sgemm11_template_blocktiling.cu";
const S12: &str = "sgemm/sgemm12_warptiling.cu";
const SIZE_128: &[(&str, &str)] = &[("SIZE", "128")];
const SIZE_256: &[(&str, &str)] = &[("SIZE", "256")];
const AF: &str = "attention/attention_sized_flash.cu";
const N64_D32: &[(&str, &str)] = &[("N", "64"), ("D", "32")];
const N128_D64: &[(&str, &str)] = &[("N", "128"), ("D", "64")];

/// Every pair of the benchmark with its expected verdict.
pub const BENCH_PAIRS: &[BenchPair] = &[
    pair(
        "reduce",
        R0,
        "reduce/reduce1_interleaved_divergent.cu",
        false,
        "equal",
    ),
    pair(
        "reduce",
        R0,
        "reduce/reduce2_interleaved.cu",
        false,
        "equal",
    ),
    pair("reduce", R0, "reduce/reduce3_sequential.cu", false, "equal"),
    pair("reduce", R0, "reduce/reduce4_first_add.cu", false, "equal"),
    pair(
        "reduce",
        R0,
        "reduce/reduce5_warp_unrolled.cu",
        false,
        "race",
    ),
    pair(
        "reduce",
        R0,
        "reduce/reduce5_warp_unrolled.cu",
        true,
        "equal",
    ),
    pair(
        "reduce",
        R0,
        "reduce/reduce6_complete_unroll.cu",
        false,
        "race",
    ),
    pair(
        "reduce",
        R0,
        "reduce/reduce6_complete_unroll.cu",
        true,
        "equal",
    ),
    pair(
        "reduce",
        R0,
        "reduce/reduce7_multiple_elements.cu",
        false,
        "race",
    ),
    pair(
        "reduce",
        R0,
        "reduce/reduce7_multiple_elements.cu",
        true,
        "equal",
    ),
    pair("reduce", R0, "reduce/reduce3_bug_nosync.cu", false, "race"),
    // The warp tail without `volatile` races even under the lock-step model.
    pair(
        "reduce",
        R0,
        "reduce/reduce5_bug_nonvolatile.cu",
        false,
        "race",
    ),
    pair(
        "reduce",
        R0,
        "reduce/reduce5_bug_nonvolatile.cu",
        true,
        "race",
    ),
    pair(
        "reduce",
        R0,
        "reduce/reduce3_bug_last_step.cu",
        false,
        "different",
    ),
    pair("sgemm", S1, "sgemm/sgemm2_coalesce.cu", false, "equal"),
    pair("sgemm", S1, "sgemm/sgemm3_shared.cu", false, "equal"),
    pair(
        "sgemm",
        S1,
        "sgemm/sgemm4_1d_blocktiling.cu",
        false,
        "equal",
    ),
    pair(
        "sgemm",
        S1,
        "sgemm/sgemm5_2d_blocktiling.cu",
        false,
        "equal",
    ),
    pair("sgemm", S1, "sgemm/sgemm6_vectorize.cu", false, "equal"),
    pair("sgemm", S1, "sgemm/sgemm7_bank_padding.cu", false, "equal"),
    pair("sgemm", S1, "sgemm/sgemm5_bug_nosync.cu", false, "race"),
    pair(
        "sgemm",
        S1,
        "sgemm/sgemm6_bug_transpose.cu",
        false,
        "different",
    ),
    pair("softmax", SM, "softmax/softmax_online.cu", false, "equal"),
    pair(
        "softmax",
        SM,
        "softmax/softmax_online_bug_norescale.cu",
        false,
        "different",
    ),
    pair(
        "attention",
        AT,
        "attention/attention_flash.cu",
        false,
        "equal",
    ),
    pair(
        "attention",
        AT,
        "attention/attention_flash_bug_norescale.cu",
        false,
        "different",
    ),
    // Upstream style: extern __shared__, -INFINITY, __expf, the maximum grown by a branch.
    pair(
        "attention",
        AT,
        "attention/attention_flash_upstream.cu",
        false,
        "equal",
    ),
    pair(
        "attention",
        AT,
        "attention/attention_flash_upstream_bug_nosync.cu",
        false,
        "race",
    ),
    sized(S11, SIZE_128, "equal"),
    sized(S12, SIZE_128, "equal"),
    sized("sgemm/sgemm12_bug_float4_swap.cu", SIZE_128, "different"),
    sized(S11, SIZE_256, "equal"),
    sized(S12, SIZE_256, "equal"),
    // Upstream style read through clang (host launch, `extern __shared__` sized by the
    // launch, -INFINITY, __expf, the maximum grown by a branch), at two sizes.
    attention(AF, N64_D32, "equal"),
    attention(
        "attention/attention_sized_flash_bug_norescale.cu",
        N64_D32,
        "different",
    ),
    attention(AF, N128_D64, "equal"),
    tensor_ptx_only("wmma/mma_gemm.cu", "wmma/mma_gemm_nvrtc.ptx", "equal"),
    tensor_ptx_only(
        "wmma/mma_gemm_bug_btrans.cu",
        "wmma/mma_gemm_bug_btrans_nvrtc.ptx",
        "different",
    ),
    tensor("wmma/wmma_gemm.cu", "wmma/wmma_gemm.ptx", "equal"),
    tensor(
        "wmma/wmma_gemm_bug_layout.cu",
        "wmma/wmma_gemm_bug_layout.ptx",
        "different",
    ),
];

/// One row of the benchmark table.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRow {
    /// `reference vs optimized` (with `[lockstep]`).
    pub pair: String,
    /// The family.
    pub family: String,
    /// `cuda-c` (thread code of the IR) or `ptx` (NVRTC's PTX of our generated CUDA C).
    pub road: String,
    /// `-D SIZE=…` of a sized SGEMM pair.
    pub size: Option<u32>,
    /// The `-D` definitions of a sized pair (`N=128`, `D=64`).
    pub defines: Vec<String>,
    /// The verdict.
    pub verdict: String,
    /// The expected verdict.
    pub expect: String,
    /// Wall-clock seconds of the check.
    pub seconds: f64,
    /// Where they went (symbolic run, field test, import, comparison).
    pub phases: crate::Phases,
    /// Barriers released, both kernels.
    pub barriers: u64,
    /// Thread instructions executed, both kernels.
    pub thread_instructions: u64,
    /// Peak resident memory of the process during the check, in MiB (where the system can
    /// reset and read it: Linux); memory the allocator kept from earlier pairs counts too,
    /// so it is an upper bound.
    pub peak_mib: Option<f64>,
}

/// Runs the pairs of [`BENCH_PAIRS`] of the C subset whose files contain `filter` (all when
/// `None`), with the files under `root` (the `examples/equiv` folder); the sized pairs need
/// clang and are left to [`bench_equiv_with`].
pub fn bench_equiv(root: &Path, filter: Option<&str>) -> Result<Vec<BenchRow>, EquivError> {
    let subset = |path: &Path, _: &[(String, String)], _: bool| {
        let text = std::fs::read_to_string(path)
            .map_err(|e| EquivError::Source(format!("{}: {e}", path.display())))?;
        let k = crate::kernel_from_source(&text, None)?;
        let p = warpsafe_exec::compile(&k).map_err(|e| EquivError::Compile(e.to_string()))?;
        Ok((p, text))
    };
    bench_equiv_with(root, filter, &subset, false)
}

/// Runs the pairs of [`BENCH_PAIRS`] whose files or family contain `filter`, reading each file
/// with `load` (a `.ptx` file on the PTX road of a tensor-core pair); pairs read through
/// clang (sized and tensor-core) run on both roads when `sized` is true (and are left out
/// otherwise).
pub fn bench_equiv_with(
    root: &Path,
    filter: Option<&str>,
    load: &Loader,
    sized: bool,
) -> Result<Vec<BenchRow>, EquivError> {
    let mut rows = Vec::new();
    for p in BENCH_PAIRS {
        if filter.is_some_and(|f| {
            !p.optimized.contains(f) && !p.family.contains(f) && !size_label(p).contains(f)
        }) {
            continue;
        }
        let clang = !p.defines.is_empty() || p.ptx.is_some();
        let roads: &[bool] = match (clang, sized) {
            (false, _) => &[false],
            (true, true) if p.ptx_only => &[true],
            (true, true) => &[false, true],
            (true, false) => &[],
        };
        let defines: Vec<(String, String)> = p
            .defines
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        for &via_ptx in roads {
            rows.push(bench_pair(root, p, &defines, via_ptx, load)?);
        }
    }
    Ok(rows)
}

/// The `-D SIZE=…` of a sized SGEMM pair.
fn sgemm_size(p: &BenchPair) -> Option<u32> {
    p.defines
        .iter()
        .find(|(k, _)| *k == "SIZE")
        .and_then(|(_, v)| v.parse().ok())
}

/// How a row names its size: ` 128^3` (SGEMM), ` N=128 D=64` (other definitions), or nothing.
fn size_label(p: &BenchPair) -> String {
    match sgemm_size(p) {
        Some(n) => format!(" {n}^3"),
        None => p.defines.iter().map(|(k, v)| format!(" {k}={v}")).collect(),
    }
}

fn bench_pair(
    root: &Path,
    p: &BenchPair,
    defines: &[(String, String)],
    via_ptx: bool,
    load: &Loader,
) -> Result<BenchRow, EquivError> {
    let exec = ExecConfig {
        blocks: BlockSel::All, // every output element
        lockstep_warps: p.lockstep,
        ..ExecConfig::default()
    };
    let (rp, rt) = load(&root.join(p.reference), defines, via_ptx)?;
    let optimized = match p.ptx {
        Some(ptx) if via_ptx => ptx,
        _ => p.optimized,
    };
    let (op, ot) = load(&root.join(optimized), defines, via_ptx)?;
    let measured = crate::budget::reset_peak_resident();
    let mut r = equiv_programs(&rp, &op, &EquivConfig::both(exec))?;
    for f in &mut r.reference.findings {
        f.set_lines(&rt);
    }
    for f in &mut r.optimized.findings {
        f.set_lines(&ot);
    }
    let name = |f: &str| {
        Path::new(f)
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default()
    };
    Ok(BenchRow {
        pair: format!(
            "{} vs {}{}{}{}",
            name(p.reference),
            name(p.optimized),
            size_label(p),
            if via_ptx { " [ptx]" } else { "" },
            if p.lockstep { " [lockstep]" } else { "" }
        ),
        family: p.family.to_string(),
        road: if via_ptx { "ptx" } else { "cuda-c" }.to_string(),
        size: sgemm_size(p),
        defines: p.defines.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        verdict: r.verdict.to_string(),
        expect: p.expect.to_string(),
        seconds: r.seconds,
        phases: r.phases,
        barriers: r.reference.stats.barriers + r.optimized.stats.barriers,
        thread_instructions: r.reference.stats.thread_instructions
            + r.optimized.stats.thread_instructions,
        peak_mib: crate::budget::peak_resident_bytes()
            .filter(|_| measured)
            .map(|b| b as f64 / (1 << 20) as f64),
    })
}

/// The rows as a text table.
pub fn bench_table(rows: &[BenchRow]) -> String {
    let mut out = format!(
        "{:<62} {:<10} {:<4} {:>8} {:>9} {:>9} {:>13}\n",
        "pair", "verdict", "ok", "seconds", "peak-MiB", "barriers", "thread-insts"
    );
    for r in rows {
        out.push_str(&format!(
            "{:<62} {:<10} {:<4} {:>8.3} {:>9} {:>9} {:>13}\n",
            r.pair,
            r.verdict,
            if r.verdict == r.expect { "yes" } else { "NO" },
            r.seconds,
            r.peak_mib.map_or("-".into(), |m| format!("{m:.0}")),
            r.barriers,
            r.thread_instructions
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sized_pairs_carry_their_definitions_and_are_named_by_them() {
        let sized: Vec<&BenchPair> = BENCH_PAIRS
            .iter()
            .filter(|p| p.family == "attention-sized")
            .collect();
        let labels: Vec<String> = sized.iter().map(|p| size_label(p)).collect();
        assert_eq!(
            labels,
            [" N=64 D=32", " N=64 D=32", " N=128 D=64"],
            "{sized:?}"
        );
        assert!(sized.iter().any(|p| p.expect == "different"));
        let s = BENCH_PAIRS
            .iter()
            .find(|p| p.family == "sgemm-sized")
            .expect("an SGEMM row");
        assert_eq!((sgemm_size(s), size_label(s)), (Some(128), " 128^3".into()));
    }
}
