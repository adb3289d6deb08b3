//! The equivalence benchmark: every pair of `examples/equiv`, its expected verdict, and a
//! table of verdict, seconds, barriers and thread instructions (for `warpsafe bench equiv`).

use crate::{equiv_sources, BlockSel, EquivConfig, EquivError, ExecConfig};
use serde::Serialize;
use std::path::Path;

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
    }
}

const R0: &str = "reduce/reduce0_reference.cu";
const S1: &str = "sgemm/sgemm1_naive.cu";
const SM: &str = "softmax/softmax_naive.cu";
const AT: &str = "attention/attention_reference.cu";

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
];

/// One row of the benchmark table.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRow {
    /// `reference vs optimized` (with `[lockstep]`).
    pub pair: String,
    /// The family.
    pub family: String,
    /// The verdict.
    pub verdict: String,
    /// The expected verdict.
    pub expect: String,
    /// Wall-clock seconds of the check.
    pub seconds: f64,
    /// Barriers released, both kernels.
    pub barriers: u64,
    /// Thread instructions executed, both kernels.
    pub thread_instructions: u64,
    /// Peak resident memory of the process during the check, in MiB (where the system can
    /// reset and read it: Linux); memory the allocator kept from earlier pairs counts too,
    /// so it is an upper bound.
    pub peak_mib: Option<f64>,
}

/// Runs the pairs of [`BENCH_PAIRS`] whose files contain `filter` (all when `None`), with the
/// files under `root` (the `examples/equiv` folder).
pub fn bench_equiv(root: &Path, filter: Option<&str>) -> Result<Vec<BenchRow>, EquivError> {
    let mut rows = Vec::new();
    for p in BENCH_PAIRS {
        if filter.is_some_and(|f| !p.optimized.contains(f) && !p.family.contains(f)) {
            continue;
        }
        let read = |f: &str| {
            std::fs::read_to_string(root.join(f))
                .map_err(|e| EquivError::Source(format!("{}: {e}", root.join(f).display())))
        };
        let exec = ExecConfig {
            blocks: BlockSel::All, // every output element
            lockstep_warps: p.lockstep,
            ..ExecConfig::default()
        };
        let measured = crate::budget::reset_peak_resident();
        let r = equiv_sources(
            &read(p.reference)?,
            &read(p.optimized)?,
            &EquivConfig::both(exec),
        )?;
        let name = |f: &str| {
            Path::new(f)
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default()
        };
        rows.push(BenchRow {
            pair: format!(
                "{} vs {}{}",
                name(p.reference),
                name(p.optimized),
                if p.lockstep { " [lockstep]" } else { "" }
            ),
            family: p.family.to_string(),
            verdict: r.verdict.to_string(),
            expect: p.expect.to_string(),
            seconds: r.seconds,
            barriers: r.reference.stats.barriers + r.optimized.stats.barriers,
            thread_instructions: r.reference.stats.thread_instructions
                + r.optimized.stats.thread_instructions,
            peak_mib: crate::budget::peak_resident_bytes()
                .filter(|_| measured)
                .map(|b| b as f64 / (1 << 20) as f64),
        });
    }
    Ok(rows)
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
