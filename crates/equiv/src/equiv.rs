//! Equivalence of two kernels: both run symbolically, their output terms are moved into one
//! store and compared element by element (in parallel), the first difference reported with a
//! concrete counterexample.

use crate::compare::{compare_elements, Pair};
use crate::report::{exit_code, verdict_of, Counterexample, KernelRun, OutputSummary};
use crate::symexec::{run_symbolic_program, SymOutcome};
use crate::{BlockSel, EquivError, ExecConfig};
use serde::Serialize;
use std::time::Instant;
use warpsafe_algebra::ImportMemo;
use warpsafe_exec::Program;
use warpsafe_ir::Kernel;

/// Options of an equivalence check.
#[derive(Clone, Debug, Default)]
pub struct EquivConfig {
    /// How the reference runs.
    pub reference: ExecConfig,
    /// How the optimised kernel runs.
    pub optimized: ExecConfig,
    /// Output buffers to compare (default: writable buffers both kernels have).
    pub outputs: Option<Vec<String>>,
    /// Input buffers (informational: every buffer element is an input symbol anyway).
    pub inputs: Option<Vec<String>>,
    /// Random points tried per element (default 3).
    pub points: Option<u64>,
}

impl EquivConfig {
    /// The same execution options for both kernels.
    pub fn both(exec: ExecConfig) -> EquivConfig {
        EquivConfig {
            reference: exec.clone(),
            optimized: exec,
            ..EquivConfig::default()
        }
    }
}

/// The result of [`equiv`].
#[derive(Clone, Debug, Serialize)]
pub struct EquivReport {
    /// `equal`, `different`, `unknown`, or a finding's category (`race`, `divergence`, …).
    pub verdict: &'static str,
    /// Why the verdict is `unknown`, when it is.
    pub reason: Option<String>,
    /// The reference run.
    pub reference: KernelRun,
    /// The optimised run.
    pub optimized: KernelRun,
    /// Per output buffer.
    pub outputs: Vec<OutputSummary>,
    /// The first differing element, with a concrete input.
    pub counterexample: Option<Counterexample>,
    /// Seconds for the whole check.
    pub seconds: f64,
    /// Seconds per phase.
    pub phases: Phases,
}

/// Where the time of a check went.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Phases {
    /// Running both kernels symbolically (in parallel).
    pub run: f64,
    /// Moving the optimised kernel's terms into the common store.
    pub import: f64,
    /// Comparing the output elements.
    pub compare: f64,
}

impl EquivReport {
    /// The process exit code: 0 equal, 1 different or a finding, 3 unknown.
    pub fn exit_code(&self) -> i32 {
        exit_code(self.verdict)
    }
}

/// Proves that `optimized` computes the same outputs as `reference` for every input (floats
/// as reals), or finds an input on which they differ, or a bug in either kernel.
pub fn equiv(
    reference: &Kernel,
    optimized: &Kernel,
    cfg: &EquivConfig,
) -> Result<EquivReport, EquivError> {
    let compile = |k: &Kernel| {
        warpsafe_exec::compile(k).map_err(|e| EquivError::Compile(format!("`{}`: {e}", k.name)))
    };
    equiv_programs(&compile(reference)?, &compile(optimized)?, cfg)
}

/// [`equiv`] for already-compiled programs: thread code from the IR
/// ([`warpsafe_exec::compile`]) or lowered from PTX, so a kernel can be compared with the PTX
/// a compiler made of it (translation validation).
pub fn equiv_programs(
    reference: &Program,
    optimized: &Program,
    cfg: &EquivConfig,
) -> Result<EquivReport, EquivError> {
    let start = Instant::now();
    let (r, o) = rayon::join(
        || run_symbolic_program(reference, &cfg.reference),
        || run_symbolic_program(optimized, &cfg.optimized),
    );
    let (mut r, o) = (r?, o?);
    let run_seconds = start.elapsed().as_secs_f64();
    let names = output_names(&r, &o, cfg)?;
    let all_blocks = cfg.reference.blocks == BlockSel::All && cfg.optimized.blocks == BlockSel::All;

    // The reference's store is the common store; the optimised kernel's terms move into it.
    let mut store = std::mem::take(&mut r.store);
    let mut mo = ImportMemo::default();
    let mut pairs = Vec::new();
    let mut outputs = Vec::new();
    for name in &names {
        let (Some(br), Some(bo)) = (r.buffer(name), o.buffer(name)) else {
            continue;
        };
        if br.values.len() != bo.values.len() {
            return Err(EquivError::Mismatch(format!(
                "output `{name}` has {} elements in `{}` but {} in `{}`",
                br.values.len(),
                r.kernel,
                bo.values.len(),
                o.kernel
            )));
        }
        let mut summary = OutputSummary {
            name: name.clone(),
            elements: br.values.len() as u64,
            ..OutputSummary::default()
        };
        for i in 0..br.values.len() {
            let compare = all_blocks || (br.written[i] && bo.written[i]);
            if !compare {
                if br.written[i] || bo.written[i] {
                    summary.skipped += 1;
                }
                continue;
            }
            let a = br.values[i];
            let b = store.import(&o.store, bo.values[i], &mut mo);
            pairs.push(Pair {
                output: outputs.len(),
                index: i as u64,
                expected: a,
                actual: b,
            });
        }
        outputs.push(summary);
    }
    let import_seconds = start.elapsed().as_secs_f64() - run_seconds;
    let result = compare_elements(&store, &pairs, cfg.points.unwrap_or(3));
    let compare_seconds = start.elapsed().as_secs_f64() - run_seconds - import_seconds;
    for (p, v) in pairs.iter().zip(&result.verdicts) {
        let s = &mut outputs[p.output];
        s.compared += 1;
        match v {
            0 => s.equal += 1,
            1 => s.different += 1,
            _ => s.unknown += 1,
        }
    }
    let counterexample = result.first_different.map(|(k, w)| {
        let p = &pairs[k];
        crate::compare::counterexample(&store, &outputs[p.output].name, p, w)
    });
    let findings: Vec<_> = r.findings.iter().chain(o.findings.iter()).collect();
    let verdict = verdict_of(
        &findings,
        counterexample.is_some(),
        result.first_unknown.is_some(),
    );
    let reason = (verdict == "unknown")
        .then(|| unknown_reason(&r, &o, &result.first_unknown, &pairs, &outputs));
    Ok(EquivReport {
        verdict,
        reason,
        reference: KernelRun::of(&r),
        optimized: KernelRun::of(&o),
        outputs,
        counterexample,
        seconds: start.elapsed().as_secs_f64(),
        phases: Phases {
            run: run_seconds,
            import: import_seconds,
            compare: compare_seconds,
        },
    })
}

fn unknown_reason(
    r: &SymOutcome,
    o: &SymOutcome,
    first: &Option<(usize, String)>,
    pairs: &[Pair],
    outputs: &[OutputSummary],
) -> String {
    if let Some(f) = r
        .findings
        .iter()
        .chain(o.findings.iter())
        .find(|f| !f.issue.is_error() && f.issue.category().is_none())
    {
        return f.message.clone();
    }
    match first {
        Some((k, why)) => {
            let p = &pairs[*k];
            format!("{}[{}]: {why}", outputs[p.output].name, p.index)
        }
        None => "not decided".into(),
    }
}

fn output_names(
    r: &SymOutcome,
    o: &SymOutcome,
    cfg: &EquivConfig,
) -> Result<Vec<String>, EquivError> {
    match &cfg.outputs {
        Some(names) => {
            for n in names {
                for side in [r, o] {
                    match side.buffer(n) {
                        Some(b) if b.writable => {}
                        Some(_) => {
                            return Err(EquivError::Mismatch(format!(
                                "output `{n}` is a read-only buffer of `{}`",
                                side.kernel
                            )))
                        }
                        None => {
                            return Err(EquivError::Mismatch(format!(
                                "kernel `{}` has no buffer `{n}`",
                                side.kernel
                            )))
                        }
                    }
                }
            }
            Ok(names.clone())
        }
        None => {
            let names: Vec<String> = r
                .buffers
                .iter()
                .filter(|b| b.writable && o.buffer(&b.name).is_some_and(|x| x.writable))
                .map(|b| b.name.clone())
                .collect();
            if names.is_empty() {
                return Err(EquivError::Mismatch(format!(
                    "`{}` and `{}` share no writable buffer to compare (name the outputs)",
                    r.kernel, o.kernel
                )));
            }
            Ok(names)
        }
    }
}
