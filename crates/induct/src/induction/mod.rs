//! All-sizes induction over barrier loops: the abstract engine records loop-head states at
//! a few sizes, [`fit`] generalises them into a candidate invariant, and z3 proves with
//! symbolic block size `N`, thread and loop variable that it holds on entry, is preserved
//! by one race-free iteration, and gives the spec after the last phase.

pub mod fit;
mod obligations;
pub mod shape;
pub mod smt;
pub mod sym;
pub mod template;
pub mod term;

use crate::machine::{run_abstract, AbsLaunch};
use crate::outcome::{Method, Obligation, SizeDomain};
use crate::summary::Mode;
pub use obligations::MAX_N;

use fit::{fit_array, fit_bound, fit_values, ArrayFit, Bound, Observation};
use shape::{phases, Phase};
use std::time::Instant;
use warpsafe_equiv::Spec;
use warpsafe_ir::Kernel;

/// What the induction attempt produced.
#[derive(Clone, Debug, Default)]
pub struct InductionReport {
    /// Obligations attempted, each with its outcome.
    pub obligations: Vec<Obligation>,
    /// `None` when every obligation was proved; otherwise why the all-sizes claim fails.
    pub failure: Option<String>,
}

/// The fitted invariant of one barrier loop.
#[derive(Clone, Debug)]
pub struct LoopInvariant {
    /// Per shared array (where one fitted).
    pub arrays: Vec<ArrayFit>,
    /// The loop variable's bound.
    pub bound: Bound,
    /// Whether the loop variable is always zero or a power of two.
    pub pow2: bool,
    /// Whether zero occurred.
    pub zero_seen: bool,
    /// Values of the other carried variables.
    pub values: Vec<(u32, Vec<i64>)>,
}

/// The block sizes an induction covers: `lo..=hi` (both at most [`MAX_N`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// The smallest.
    pub lo: u32,
    /// The largest.
    pub hi: u32,
}

impl Sizes {
    /// Every size up to [`MAX_N`].
    pub const ALL: Sizes = Sizes {
        lo: 1,
        hi: MAX_N as u32,
    };
}

/// The sizes the fitter learns from.
fn fit_sizes(domain: SizeDomain, sizes: Sizes) -> Vec<u32> {
    let all: Vec<u32> = match domain {
        SizeDomain::PowersOfTwo => (0..7).map(|e| 1 << e).collect(),
        SizeDomain::All => (1..=20).chain([32, 64]).collect(),
    };
    all.into_iter()
        .filter(|n| (sizes.lo..=sizes.hi).contains(n))
        .collect()
}

/// Fits an invariant for every barrier loop of `k` from abstract runs in `mode`.
pub fn fit_invariants(
    k: &Kernel,
    mode: Mode,
    domain: SizeDomain,
) -> Result<Vec<LoopInvariant>, String> {
    fit_invariants_in(k, mode, domain, Sizes::ALL)
}

/// [`fit_invariants`] learning only from block sizes in `sizes`.
pub fn fit_invariants_in(
    k: &Kernel,
    mode: Mode,
    domain: SizeDomain,
    sizes: Sizes,
) -> Result<Vec<LoopInvariant>, String> {
    let ph = phases(k)?;
    let loops: Vec<&shape::BarrierLoop> = ph
        .iter()
        .filter_map(|p| match p {
            Phase::Loop(l) => Some(l),
            _ => None,
        })
        .collect();
    let mut runs = vec![];
    for n in fit_sizes(domain, sizes) {
        let launch = AbsLaunch {
            block: n,
            grid: 1,
            n: n as i64,
        };
        let r = run_abstract(k, &launch, mode, true)
            .map_err(|f| format!("the abstract run at size {n} failed: {f}"))?;
        runs.push((n as i64, r.heads));
    }
    let declared = k.contract.block_dim.map(|d| d[0] as u64);
    let mut out = vec![];
    for (li, l) in loops.iter().enumerate() {
        let obs: Vec<Observation> = runs
            .iter()
            .flat_map(|(n, heads)| {
                heads
                    .iter()
                    .filter(move |h| h.loop_index == li)
                    .map(move |h| Observation { n: *n, head: h })
            })
            .collect();
        if obs.is_empty() {
            return Err(format!("loop {} never reached its head", li + 1));
        }
        let v = l.var.0;
        let carried: Vec<u32> = l.carried.iter().map(|c| c.0).collect();
        let mut arrays = vec![];
        for (ai, a) in k.shared.iter().enumerate() {
            let rows = match a.dims.as_slice() {
                [d] if Some(*d) == declared => 1,
                [r, d] if Some(*d) == declared && *r <= 4 => *r as i64,
                _ => continue,
            };
            if let Some(f) = fit_array(&obs, ai as u32, rows, v, &carried) {
                arrays.push(f);
            }
        }
        let vs: Vec<(i64, i64)> = obs
            .iter()
            .filter_map(|o| o.head.uniform[v as usize].map(|x| (x, o.n)))
            .collect();
        if vs.len() != obs.len() {
            return Err(format!("loop {}: the loop variable is not uniform", li + 1));
        }
        let (bound, pow2) = fit_bound(&vs)
            .ok_or_else(|| format!("loop {}: no bound on the loop variable fits", li + 1))?;
        let mut values = vec![];
        for &c in &carried {
            if c == v {
                continue;
            }
            let vals = fit_values(&obs, c).ok_or_else(|| {
                format!(
                    "loop {}: `{}` is not uniform with few values",
                    li + 1,
                    k.vars[c as usize].name
                )
            })?;
            values.push((c, vals));
        }
        out.push(LoopInvariant {
            arrays,
            bound,
            pow2,
            zero_seen: vs.iter().any(|&(x, _)| x == 0),
            values,
        });
    }
    Ok(out)
}

/// Attempts the all-sizes proof for the block sizes of `domain` within `sizes`, with the
/// combination `mode` the bounded runs needed.
pub fn prove(
    k: &Kernel,
    spec: Option<&Spec>,
    domain: SizeDomain,
    mode: Mode,
    sizes: Sizes,
    timeout_ms: u64,
) -> InductionReport {
    let t0 = Instant::now();
    let fail = |reason: String| InductionReport {
        obligations: vec![Obligation {
            name: "invariant inference".into(),
            method: Method::Induction,
            holds: None,
            detail: reason.clone(),
            seconds: t0.elapsed().as_secs_f64(),
        }],
        failure: Some(reason),
    };
    let Some(spec) = spec else {
        return fail("no spec to prove".into());
    };
    let invs = match fit_invariants_in(k, mode, domain, sizes) {
        Ok(i) => i,
        Err(e) => return fail(format!("no invariant: {e}")),
    };
    let fit_seconds = t0.elapsed().as_secs_f64();
    let mut report = prove_with_in(k, spec, domain, mode, sizes, &invs, timeout_ms);
    if let Some(first) = report.obligations.first_mut() {
        first.seconds = fit_seconds;
    }
    report
}

/// Proves the candidate invariants `invs` (one per barrier loop) by SMT: entry,
/// preservation without races, and the spec on exit. Any candidate may be passed; a wrong
/// one makes some obligation fail.
pub fn prove_with(
    k: &Kernel,
    spec: &Spec,
    domain: SizeDomain,
    mode: Mode,
    invs: &[LoopInvariant],
    timeout_ms: u64,
) -> InductionReport {
    prove_with_in(k, spec, domain, mode, Sizes::ALL, invs, timeout_ms)
}

/// [`prove_with`] for the block sizes in `sizes` only (the contract's range).
pub fn prove_with_in(
    k: &Kernel,
    spec: &Spec,
    domain: SizeDomain,
    mode: Mode,
    sizes: Sizes,
    invs: &[LoopInvariant],
    timeout_ms: u64,
) -> InductionReport {
    let fail = |reason: String| InductionReport {
        obligations: vec![Obligation {
            name: "kernel shape".into(),
            method: Method::Induction,
            holds: None,
            detail: reason.clone(),
            seconds: 0.0,
        }],
        failure: Some(reason),
    };
    let ph = match phases(k) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let loops = ph.iter().filter(|p| matches!(p, Phase::Loop(_))).count();
    if loops != invs.len() {
        return fail(format!(
            "{loops} barrier loops but {} invariants",
            invs.len()
        ));
    }
    let mut report = InductionReport::default();
    report.obligations.push(Obligation {
        name: "invariant inference".into(),
        method: Method::Induction,
        holds: Some(true),
        detail: obligations::describe(k, invs),
        seconds: 0.0,
    });
    let ctx = obligations::Ctx {
        k,
        spec,
        mode,
        domain,
        phases: &ph,
        invs,
        sizes,
        timeout_ms,
    };
    let results = ctx.run_all();
    let mut failure = None;
    for r in results {
        if r.holds != Some(true) && failure.is_none() {
            failure = Some(format!("{}: {}", r.name, r.detail));
        }
        report.obligations.push(r);
    }
    report.failure = failure;
    report
}
