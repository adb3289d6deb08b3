//! The fast road of an equivalence check: both kernels run in field mode ([`crate::field`])
//! at each random point; when every compared element has the same value on both sides at
//! every point, and neither run has a finding, the pair is `equal` up to the Schwartz–Zippel
//! bound, with no term built. Anything else (a refusal, a finding, a difference, a budget
//! spent) returns `None`, and the check runs on terms, which decides exactly, finds the
//! counterexample and reports the findings.

use crate::budget::Budget;
use crate::equiv::{output_names, scope, seed, EquivConfig, EquivReport, Phases};
use crate::field::size_of;
use crate::report::{IdentityTest, KernelRun, OutputSummary};
use crate::sequence::Stage;
use crate::symexec::{run_field, FieldRun};
use crate::value::SVal;
use crate::{BlockSel, EquivError};
use std::sync::Arc;
use std::time::Instant;
use warpsafe_algebra::{log2_add, Tester};

/// Points per element when `--field-points` does not say: each is one more run of both kernels,
/// and one point bounds a wrong `equal` by about `degree / 2^61` per element (printed).
const DEFAULT_POINTS: u32 = 1;

/// `Some(equal)` when the field decides the pair equal, else `None` (see the module doc).
pub(crate) fn equal_in_field(
    reference: &[Stage],
    optimized: &[Stage],
    cfg: &EquivConfig,
    budget: &Arc<Budget>,
) -> Result<Option<EquivReport>, EquivError> {
    let ([r], [o]) = (reference, optimized) else {
        return Ok(None);
    };
    if cfg.exact {
        return Ok(None);
    }
    let start = Instant::now();
    let seed = seed(cfg);
    let tester = Tester::new(seed, cfg.field_points.unwrap_or(DEFAULT_POINTS));
    let all_blocks = cfg.reference.blocks == BlockSel::All && cfg.optimized.blocks == BlockSel::All;
    let mut decided: Option<(Decided, FieldRun, FieldRun)> = None;
    for k in 0..tester.points() as usize {
        let Some(ev) = tester.point(k) else {
            return Ok(None);
        };
        let rr = run_field(r.program, r.exec, budget, ev)?;
        if !clean(&rr, budget) {
            return Ok(None);
        }
        let ro = run_field(o.program, o.exec, budget, ev)?;
        if !clean(&ro, budget) {
            return Ok(None);
        }
        let Some(d) = compare(&rr, &ro, cfg, all_blocks, &tester)? else {
            return Ok(None);
        };
        // Every point compares the same elements; the first gives the sizes.
        if decided.is_none() {
            decided = Some((d, rr, ro));
        }
    }
    let Some((d, rr, ro)) = decided else {
        return Ok(None);
    };
    let seconds = start.elapsed().as_secs_f64();
    Ok(Some(EquivReport {
        verdict: "equal",
        reason: None,
        scope: scope(cfg),
        reference: KernelRun::of(&rr.outcome),
        optimized: KernelRun::of(&ro.outcome),
        outputs: d.outputs,
        counterexample: None,
        identity: Some(IdentityTest {
            elements: d.elements,
            points: tester.points(),
            prime: tester.prime(),
            seed,
            error_log2: d.error_log2,
        }),
        seconds,
        phases: Phases {
            run: seconds,
            ..Phases::default()
        },
    }))
}

/// What one point decided: every compared element equal.
struct Decided {
    outputs: Vec<OutputSummary>,
    elements: u64,
    /// log₂ of the bound on a wrong `equal` among them (at every point).
    error_log2: f64,
}

/// True when the run stayed in the field, found nothing and kept within the budget.
fn clean(run: &FieldRun, budget: &Budget) -> bool {
    run.refused.is_none() && run.outcome.findings.is_empty() && budget.spent().is_none()
}

/// The same value on both sides: field values by their value, concrete bits by their bits,
/// an untouched input by its name and index (the same on both sides).
fn same(a: SVal, b: SVal) -> bool {
    match (a, b) {
        (SVal::F { v: x, .. }, SVal::F { v: y, .. }) => x == y,
        (SVal::C(x), SVal::C(y)) => x == y,
        (SVal::Input, SVal::Input) => true,
        _ => false,
    }
}

/// Compares the outputs of one point: `None` at the first element that differs (or that
/// holds no value the field can compare).
fn compare(
    r: &FieldRun,
    o: &FieldRun,
    cfg: &EquivConfig,
    all_blocks: bool,
    tester: &Tester,
) -> Result<Option<Decided>, EquivError> {
    let names = output_names(&r.outcome, &o.outcome, cfg)?;
    let mut outputs = Vec::new();
    let (mut elements, mut error_log2) = (0u64, f64::NEG_INFINITY);
    for name in &names {
        let slot = |run: &FieldRun| run.outcome.buffers.iter().position(|b| &b.name == name);
        let (Some(sr), Some(so)) = (slot(r), slot(o)) else {
            continue;
        };
        let (br, bo) = (&r.outcome.buffers[sr], &o.outcome.buffers[so]);
        let (vr, vo) = (&r.values[sr], &o.values[so]);
        if vr.len() != vo.len() {
            // The exact road reports the mismatch.
            return Ok(None);
        }
        let mut summary = OutputSummary {
            name: name.clone(),
            elements: vr.len() as u64,
            ..OutputSummary::default()
        };
        for i in 0..vr.len() {
            let (wr, wo) = (br.written[i], bo.written[i]);
            if !(all_blocks || (wr && wo)) {
                summary.skipped += u64::from(wr || wo);
                continue;
            }
            if !same(vr[i], vo[i]) {
                return Ok(None);
            }
            if let (Some(a), Some(b)) = (size_of(vr[i]), size_of(vo[i])) {
                error_log2 = log2_add(error_log2, tester.error_log2(a, b));
            }
            summary.compared += 1;
            summary.equal += 1;
            elements += 1;
        }
        outputs.push(summary);
    }
    Ok(Some(Decided {
        outputs,
        elements,
        error_log2,
    }))
}
