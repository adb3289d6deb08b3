//! Equivalence of two kernels: both run symbolically, their output terms are moved into one
//! store and compared element by element (in parallel), the first difference reported with a
//! concrete counterexample.

use crate::budget::Budget;
use crate::compare::{compare_elements, CompareOptions, Compared, Confirm, Pair};
use crate::replay::{self, Outputs, Replay};
use crate::report::{
    exit_code, verdict_of, Counterexample, IdentityTest, KernelRun, OutputSummary,
};
use crate::sequence::{self, Stage};
use crate::symexec::{run_budgeted, SymOutcome};
use crate::{BlockSel, EquivError, ExecConfig};
use serde::Serialize;
use std::collections::HashMap;
use std::time::Instant;
use warpsafe_algebra::{log2_add, sizes, Store, TermId, Tester, Witness};
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
    /// Random real points tried per element to find a difference (default 3).
    pub points: Option<u64>,
    /// Decide every element by canonical forms (no random evaluation over a prime field).
    pub exact: bool,
    /// Points of the prime field per polynomial element (default 2).
    pub field_points: Option<u32>,
    /// Seed of the prime and the points (default: drawn from the operating system).
    pub seed: Option<u64>,
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
    /// Which outputs were compared: `every block`, or block 0 only.
    pub scope: String,
    /// The reference run.
    pub reference: KernelRun,
    /// The optimised run.
    pub optimized: KernelRun,
    /// Per output buffer.
    pub outputs: Vec<OutputSummary>,
    /// The first differing element, with a concrete input.
    pub counterexample: Option<Counterexample>,
    /// The elements proved equal by random evaluation (Schwartz–Zippel), with the bound on
    /// the probability that one of them is not; `None` when none was (`--exact`).
    pub identity: Option<IdentityTest>,
    /// Seconds for the whole check.
    pub seconds: f64,
    /// Seconds per phase.
    pub phases: Phases,
}

/// Where the time of a check went.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Phases {
    /// Running both kernels symbolically.
    pub run: f64,
    /// Evaluating the polynomial outputs at random points of a prime field.
    pub identity: f64,
    /// Moving the optimised kernel's terms that need it into the common store.
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
///
/// `different` is said only when the interpreter, run concretely on the symbolic
/// counterexample's input, computes different values too (both are in
/// [`Counterexample::replay`]); a symbolic difference it does not reproduce makes the element
/// `unknown`. The reference's [`ExecConfig::limits`] budget the whole check: running out
/// gives `unknown` with what was compared so far.
pub fn equiv_programs(
    reference: &Program,
    optimized: &Program,
    cfg: &EquivConfig,
) -> Result<EquivReport, EquivError> {
    equiv_stages(
        &[Stage {
            program: reference,
            exec: &cfg.reference,
        }],
        &[Stage {
            program: optimized,
            exec: &cfg.optimized,
        }],
        cfg,
    )
}

/// [`equiv_programs`] where a side may be several kernels launched one after another on the
/// same buffers (a split-K GEMM, then the kernel that sums its slices): each runs with its own
/// [`Stage::exec`]; a later kernel reads what the earlier ones left in the buffers of the same
/// name (symbolically and in the interpreter's replay). `cfg`'s own `reference` and
/// `optimized` give which blocks are compared and the budget.
pub fn equiv_stages(
    reference: &[Stage],
    optimized: &[Stage],
    cfg: &EquivConfig,
) -> Result<EquivReport, EquivError> {
    let start = Instant::now();
    let (Some(r0), Some(o0)) = (reference.first(), optimized.first()) else {
        return Err(EquivError::Mismatch("a side has no kernel to run".into()));
    };
    crate::launch::agree_on_starts(r0.program.kernel(), r0.exec, o0.program.kernel(), o0.exec)?;
    let budget = Budget::new(cfg.reference.limits);
    if let Some(report) = crate::field_check::equal_in_field(reference, optimized, cfg, &budget)? {
        return Ok(report);
    }
    let (r, o) = run_both(reference, optimized, &budget)?;
    let (mut r, o) = (r?, o?);
    let run_seconds = start.elapsed().as_secs_f64();
    let names = output_names(&r, &o, cfg)?;
    let all_blocks = cfg.reference.blocks == BlockSel::All && cfg.optimized.blocks == BlockSel::All;
    let incomplete = [&r, &o].into_iter().find_map(|side| {
        side.findings
            .iter()
            .find(|f| f.issue.is_incomplete())
            .map(|f| {
                format!(
                    "the symbolic run of `{}` stopped early: {}",
                    side.kernel, f.message
                )
            })
    });

    // The elements to compare, each a term of its own side's store.
    let mut elements: Vec<Pair> = Vec::new();
    let mut outputs = Vec::new();
    let spent_early = budget.spent();
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
            if !compare || spent_early.is_some() {
                if !compare && (br.written[i] || bo.written[i]) {
                    summary.skipped += 1;
                }
                continue;
            }
            elements.push(Pair {
                output: outputs.len(),
                index: i as u64,
                expected: br.values[i],
                actual: bo.values[i],
            });
        }
        outputs.push(summary);
    }

    // Polynomial elements are decided by their values at random points of a prime field,
    // each side in its own store; the rest (and any difference, for its counterexample)
    // move into the reference's store for the float points, the replay and normal forms.
    let sz_start = Instant::now();
    let tested = match (&incomplete, cfg.exact, budget.spent()) {
        (None, false, None) => Some(identity_test(&r.store, &o.store, &elements, cfg)),
        _ => None,
    };
    let sz_seconds = sz_start.elapsed().as_secs_f64();
    let import_start = Instant::now();
    let mut store = std::mem::take(&mut r.store);
    let mut pairs = Vec::new();
    let mut differing = 0;
    for (k, e) in elements.iter().enumerate() {
        if tested.as_ref().is_some_and(|t| t.equal[k]) {
            let s = &mut outputs[e.output];
            s.compared += 1;
            s.equal += 1;
            continue;
        }
        if tested.as_ref().is_some_and(|t| t.differ[k]) {
            // Certainly different; one replayed counterexample settles the verdict, so the
            // rest stay where they are (a wrong tile makes every element differ).
            differing += 1;
            if differing > MAX_DIFFERING {
                let s = &mut outputs[e.output];
                s.compared += 1;
                s.unknown += 1;
                continue;
            }
        }
        pairs.push(*e);
    }
    drop(elements);
    // The kernel's terms move into the reference's store all at once (in node order).
    let actual: Vec<TermId> = pairs.iter().map(|p| p.actual).collect();
    for (p, a) in pairs.iter_mut().zip(store.import_many(&o.store, &actual)) {
        p.actual = a;
    }
    let identity = tested.and_then(|t| t.summary);
    let import_seconds = import_start.elapsed().as_secs_f64();
    let names_of: Vec<String> = outputs.iter().map(|s| s.name.clone()).collect();
    let mut runs: HashMap<u64, Result<(Outputs, Outputs), String>> = HashMap::new();
    let mut confirm = |p: &Pair, w: &Witness| -> Confirm {
        let replayed = runs.entry(w.seed).or_insert_with(|| {
            let (a, b) = rayon::join(
                || sequence::run_at(reference, w.seed),
                || sequence::run_at(optimized, w.seed),
            );
            Ok((a?, b?))
        });
        let name = &names_of[p.output];
        match replayed {
            Err(why) => Confirm::No(format!(
                "a symbolic difference at {name}[{}] (seed {}) could not be replayed: {why}",
                p.index, w.seed
            )),
            Ok((ra, ro)) => match (
                replay::element(ra, name, p.index),
                replay::element(ro, name, p.index),
            ) {
                (Some(a), Some(b)) if replay::differ(a, b) => Confirm::Yes(Replay {
                    expected: a,
                    actual: b,
                    seed: w.seed,
                }),
                (Some(a), Some(b)) => Confirm::No(format!(
                    "the symbolic values of {name}[{}] differ at the input of seed {} ({} vs {}), \
                     but run concretely in the interpreter both kernels give {a} and {b}: \
                     the symbolic difference is not real",
                    p.index, w.seed, w.left, w.right
                )),
                _ => Confirm::No(format!(
                    "the interpreter's run has no element {name}[{}]",
                    p.index
                )),
            },
        }
    };
    let mut result = compare_elements(
        &store,
        &pairs,
        &CompareOptions {
            points: cfg.points.unwrap_or(3),
            budget: &budget,
            incomplete: incomplete.clone(),
        },
        &mut confirm,
    );
    let compare_seconds = start.elapsed().as_secs_f64() - run_seconds - import_seconds - sz_seconds;
    for (p, v) in pairs.iter().zip(&result.verdicts) {
        let s = &mut outputs[p.output];
        s.compared += 1;
        match v {
            0 => s.equal += 1,
            1 => s.different += 1,
            _ => s.unknown += 1,
        }
    }
    let spent = budget.spent();
    let counterexample = result.first_different.take().map(|(k, w, replay)| {
        let p = &pairs[k];
        crate::compare::counterexample(&store, &outputs[p.output].name, p, w, replay)
    });
    let findings: Vec<_> = r.findings.iter().chain(o.findings.iter()).collect();
    let verdict = verdict_of(
        &findings,
        counterexample.is_some(),
        result.first_unknown.is_some() || spent.is_some(),
    );
    let reason = (verdict == "unknown").then(|| {
        let compared: u64 = outputs.iter().map(|s| s.compared - s.unknown).sum();
        let total: u64 = outputs.iter().map(|s| s.elements).sum();
        match &spent {
            Some(s) => format!(
                "{}: {compared} of {total} output elements decided before it ran out",
                s.text()
            ),
            None => unknown_reason(&incomplete, &result, &pairs, &outputs),
        }
    });
    Ok(EquivReport {
        verdict,
        reason,
        scope: scope(cfg),
        reference: KernelRun::of(&r),
        optimized: KernelRun::of(&o),
        outputs,
        counterexample,
        seconds: start.elapsed().as_secs_f64(),
        identity,
        phases: Phases {
            run: run_seconds,
            identity: sz_seconds,
            import: import_seconds,
            compare: compare_seconds,
        },
    })
}

/// Runs both sides: one after the other when each runs several blocks (their blocks use the
/// cores, and only one run's per-block stores are alive at a time), else side by side. A side
/// of several kernels runs them in order and composes their outcomes.
#[allow(clippy::type_complexity)]
fn run_both(
    reference: &[Stage],
    optimized: &[Stage],
    budget: &std::sync::Arc<Budget>,
) -> Result<
    (
        Result<SymOutcome, EquivError>,
        Result<SymOutcome, EquivError>,
    ),
    EquivError,
> {
    let blocks = |side: &[Stage]| -> Result<u64, EquivError> {
        let mut n = 0;
        for s in side {
            n += match s.exec.blocks {
                BlockSel::One(_) => 1,
                BlockSel::All => crate::launch::resolve(s.program.kernel(), s.exec)?
                    .launch
                    .num_blocks(),
            };
        }
        Ok(n)
    };
    // Outputs are only read from here on (until the kernel's that need it move into the
    // reference's store, whose interning table, where it has one, is kept for them).
    let run = |side: &[Stage], keep_table: bool| -> Result<SymOutcome, EquivError> {
        let mut acc: Option<SymOutcome> = None;
        for s in side {
            let out = run_budgeted(s.program, s.exec, budget)?;
            acc = Some(match acc {
                None => out,
                Some(earlier) => sequence::compose(earlier, out)?,
            });
        }
        let mut out =
            acc.ok_or_else(|| EquivError::Mismatch("a side has no kernel to run".into()))?;
        if !keep_table {
            out.store.freeze();
        }
        Ok(out)
    };
    let run_r = || run(reference, true);
    let run_o = || run(optimized, false);
    if blocks(reference)? > 1 && blocks(optimized)? > 1 {
        let r = run_r();
        Ok((r, run_o()))
    } else {
        Ok(rayon::join(run_r, run_o))
    }
}

/// Elements that differ mod p moved into the common store for a counterexample: as many as
/// the comparison replays before it gives up (`compare::MAX_REPLAYED`).
const MAX_DIFFERING: usize = 16;

/// What random evaluation decided.
struct Tested {
    /// Per element: proved equal (with high probability).
    equal: Vec<bool>,
    /// Per element: two polynomials with different values mod p, so certainly different.
    differ: Vec<bool>,
    summary: Option<IdentityTest>,
}

/// Evaluates both sides' elements at random points of a random prime field: an element
/// whose two terms are polynomials with the same values at every point is equal with the
/// error bound of [`Tester::error_log2`]; everything else is left to the exact road.
fn identity_test(r: &Store, o: &Store, elements: &[Pair], cfg: &EquivConfig) -> Tested {
    let seed = seed(cfg);
    let tester = Tester::new(seed, cfg.field_points.unwrap_or(2));
    let a: Vec<_> = elements.iter().map(|e| e.expected).collect();
    let b: Vec<_> = elements.iter().map(|e| e.actual).collect();
    let (va, vb) = rayon::join(|| tester.values(r, &a), || tester.values(o, &b));
    let equal: Vec<bool> = va
        .iter()
        .zip(&vb)
        .map(|(x, y)| x.is_some() && x == y)
        .collect();
    let differ: Vec<bool> = va
        .iter()
        .zip(&vb)
        .map(|(x, y)| x.is_some() && y.is_some() && x != y)
        .collect();
    let count = equal.iter().filter(|&&e| e).count() as u64;
    if count == 0 {
        return Tested {
            equal,
            differ,
            summary: None,
        };
    }
    let pick = |v: &[warpsafe_algebra::TermId]| -> Vec<_> {
        v.iter()
            .zip(&equal)
            .filter(|(_, &e)| e)
            .map(|(t, _)| *t)
            .collect()
    };
    let (sa, sb) = rayon::join(|| sizes(r, &pick(&a)), || sizes(o, &pick(&b)));
    let error_log2 = sa.iter().zip(&sb).fold(f64::NEG_INFINITY, |acc, (x, y)| {
        log2_add(acc, tester.error_log2(*x, *y))
    });
    Tested {
        equal,
        differ,
        summary: Some(IdentityTest {
            elements: count,
            points: tester.points(),
            prime: tester.prime(),
            seed,
            error_log2,
        }),
    }
}

/// The seed of the prime and the points: `cfg`'s, else drawn from the operating system.
pub(crate) fn seed(cfg: &EquivConfig) -> u64 {
    cfg.seed.unwrap_or_else(|| {
        use std::hash::BuildHasher;
        std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64)
    })
}

/// Which outputs a check compares, in words.
pub(crate) fn scope(cfg: &EquivConfig) -> String {
    let one = match (cfg.reference.blocks, cfg.optimized.blocks) {
        (BlockSel::One(b), _) | (_, BlockSel::One(b)) => b,
        (BlockSel::All, BlockSel::All) => return "every block".into(),
    };
    let which = match one {
        [0, 0, 0] => "block 0 only (--block0-only)".to_string(),
        [x, y, z] => format!("block ({x},{y},{z}) only"),
    };
    format!("{which}: outputs other blocks write are not compared")
}

fn unknown_reason(
    incomplete: &Option<String>,
    result: &Compared,
    pairs: &[Pair],
    outputs: &[OutputSummary],
) -> String {
    let at = |k: usize| {
        let p = &pairs[k];
        format!("{}[{}]", outputs[p.output].name, p.index)
    };
    if let Some(why) = incomplete {
        return match &result.unconfirmed {
            Some((_, u)) => format!("{why}; {u}"),
            None => why.clone(),
        };
    }
    if let Some((_, why)) = &result.unconfirmed {
        return why.clone();
    }
    match &result.first_unknown {
        Some((k, why)) => format!("{}: {why}", at(*k)),
        None => "not decided".into(),
    }
}

pub(crate) fn output_names(
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
