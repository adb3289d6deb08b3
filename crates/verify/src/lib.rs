//! The parametric verifier: proves race freedom, barrier-divergence freedom, in-bounds access
//! and the absence of arithmetic overflow for **every** launch configuration a kernel's
//! contract allows, or refutes them with a counterexample that replays in the interpreter.
//!
//! It follows GPUVerify's two-thread reduction on warpsafe's structured IR: two arbitrary
//! distinct threads are executed symbolically ([`symexec`](crate)), with symbolic launch
//! dimensions, ids, parameters and buffer lengths; memory reads return fresh values
//! (adversarial abstraction); loops are summarised by induction variables with closed forms
//! in an iteration index and havoc for everything else; barriers become epochs (how many
//! barriers a thread passed), so two accesses of one block can race only in the same epoch.
//! Every property reduces to bit-vector queries decided by z3; queries that multiply symbolic
//! values are first tried in an exact translation to integer arithmetic ([`intenc`](crate)),
//! where z3's nonlinear reasoning refutes `row·n + c = row'·n + c'` far faster than
//! bit-blasting does. Terms are the shared index-term language of `warpsafe-terms` (one
//! simplifier, one printer, shared with functional, induct and perm); verify adds only what
//! its symbols stand for and which thread they belong to.
//!
//! ```
//! use warpsafe_ir::{BinOp, Dim, Expr, KernelBuilder, MemRef, ScalarType};
//! use warpsafe_verify::{verify, Config, DimSpec, Property, Verdict};
//!
//! // if (i < n) y[i] = 2 * x[i];   with len(x) = len(y) = n
//! let mut b = KernelBuilder::new("scale");
//! let n = b.scalar_param("n", ScalarType::U32);
//! let x = b.buffer_param("x", ScalarType::F32, false);
//! let y = b.buffer_param("y", ScalarType::F32, true);
//! let i = b.let_("i", b.global_index(Dim::X));
//! b.if_(Expr::binary(BinOp::Lt, b.var(i), b.param(n)), |b| {
//!     let v = Expr::binary(BinOp::Mul, Expr::f32(2.0), b.load(MemRef::Global(x), vec![b.var(i)]));
//!     b.store(MemRef::Global(y), vec![b.var(i)], v);
//! });
//! let len = Expr::new(warpsafe_ir::ExprKind::Param(n), ScalarType::U32).cast(ScalarType::U64);
//! for buf in [x, y] {
//!     b.contract_mut().lengths.push(warpsafe_ir::LengthSpec { param: buf, len: len.clone() });
//! }
//! let kernel = b.finish();
//!
//! // Any n, 256-thread blocks, 16 blocks (with symbolic 3-D dimensions, blocks that differ
//! // only in blockIdx.y would write the same y[i]: a real race of this 1-D indexing).
//! let cfg = Config {
//!     block: DimSpec::Fixed([256, 1, 1]),
//!     grid: DimSpec::Fixed([16, 1, 1]),
//!     ..Config::default()
//! };
//! let report = verify(&kernel, &cfg);
//! # if report.results.iter().any(|r| matches!(&r.verdict, Verdict::Unknown { reason, .. } if reason.contains("z3"))) { return; }
//! assert!(matches!(report.result(Property::Race).unwrap().verdict, Verdict::Verified));
//! assert!(matches!(report.result(Property::Bounds).unwrap().verdict, Verdict::Verified));
//! assert_eq!(report.exit_code(), 0);
//! ```
//!
//! Soundness conventions: buffer parameters never alias; race, bounds and divergence verdicts
//! hold for executions free of the arithmetic hazards the `overflow` property reports (in
//! particular, affine induction variables are assumed not to wrap, and that assumption is
//! checked there); loops may not terminate (partial correctness). Floats are opaque values.

mod atomics;
mod batch;
mod bounds;
mod config;
mod confirm;
mod divergence;
mod eval;
mod intenc;
mod launch;
mod lengths;
mod loops;
mod model;
mod obligation;
mod overflow;
mod races;
mod replay;
mod report;
mod smt;
mod solve;
mod symexec;
mod term;
mod uniform;
mod uninit;

pub use config::{Config, DimSpec, Property};
pub use report::{Counterexample, PropertyResult, Replay, Report, Verdict};
pub use solve::share as budget_share;

use confirm::{property_result, Ctx};
use obligation::Obligation;
use smt::SolverPool;
use std::time::Instant;
use term::Term;
use warpsafe_ir::Kernel;

/// Verifies `kernel` under `cfg` and reports a verdict per requested property.
pub fn verify(kernel: &Kernel, cfg: &Config) -> Report {
    let start = Instant::now();
    let mut launch = launch::Launch::new(kernel, cfg);
    let logs = [
        symexec::execute(kernel, &launch, 0),
        symexec::execute(kernel, &launch, 1),
    ];
    let pool = SolverPool::new(cfg.timeout, cfg.dump_smt.clone()).with_deadline(cfg.deadline);
    // Undeclared buffer lengths: the inferred requirement is what bounds reports, and what
    // every other property assumes (so their counterexamples replay with large enough
    // buffers).
    let needs = if cfg.strict_bounds {
        vec![]
    } else {
        // The inference takes at most one property's share of the budget: a kernel whose
        // requirement is hard to find still gets its properties checked.
        let solving = lengths::Solving {
            pool: &pool,
            jobs: cfg.jobs,
            until: solve::share(cfg.deadline, cfg.properties.len() + 1),
        };
        lengths::infer(kernel, &launch, &logs, solving)
    };
    for (p, need) in &needs {
        if let (lengths::Need::Length { term, .. }, Some(Some(len))) = (need, launch.lens.get(*p)) {
            launch.assumptions.push(term.ule(len));
        }
    }
    let inferred: Vec<usize> = needs.iter().map(|(p, _)| *p).collect();
    let counters = atomics::counters(kernel);
    let distinct = atomics::distinct_results(&logs, &counters);
    let counter_note: Vec<String> = counters
        .iter()
        .filter(|_| !distinct.is_empty())
        .map(|m| {
            format!(
                "assuming the atomic counter `{}` does not wrap around",
                kernel.mem_name(*m)
            )
        })
        .collect();
    launch.pair_facts = distinct;
    launch.pair_facts.extend(same_exits(&launch, &logs));
    launch.pair_facts.extend(same_votes(&launch, &logs));
    launch.pair_facts.extend(epoch_sums(&launch, &logs));
    let small = launch.small(kernel);
    let benign = if cfg.strict_races {
        races::Benign::Strict
    } else {
        races::Benign::Constants
    };
    let mut obligations: Vec<Obligation> = vec![];
    let mut blocked: Vec<(Property, String, warpsafe_ir::Span)> = vec![];
    for &p in &cfg.properties {
        if let Some(u) = logs[0].unsupported.iter().find(|u| u.props.contains(&p)) {
            blocked.push((p, u.reason.clone(), u.span));
            continue;
        }
        obligations.extend(match p {
            Property::Race => {
                let mode = races::Mode {
                    lockstep: cfg.lockstep_warps,
                    benign,
                    refined: false,
                };
                let until = solve::share(cfg.deadline, cfg.properties.len());
                match races::obligations(kernel, &launch, &logs, mode, &small, until) {
                    Some(o) => o,
                    None => {
                        let why = "the time budget of the run (--timeout) is spent building \
                                   the pairs of accesses to compare";
                        blocked.push((p, why.into(), kernel.span));
                        continue;
                    }
                }
            }
            Property::Divergence => divergence::obligations(kernel, &launch, &logs, &small, false),
            Property::Bounds => {
                let mut o = bounds::obligations(kernel, &launch, &logs, &small, &inferred);
                o.extend(overflow::memory_checks(kernel, &launch, &logs, &small));
                o
            }
            Property::Overflow => overflow::obligations(kernel, &launch, &logs, &small),
            Property::Assert => overflow::assertions(kernel, &launch, &logs, &small),
            Property::Uninit => uninit::obligations(kernel, &launch, &logs, &small),
        });
    }
    for o in &mut obligations {
        model::watch(&mut o.query, &launch, &o.cex);
    }
    let mut answers = solve::combined(kernel, cfg, &pool, &obligations);
    let free_lengths = needs
        .iter()
        .filter(|(_, n)| matches!(n, lengths::Need::Unbounded { .. }))
        .map(|(p, _)| kernel.params[*p].name.clone())
        .collect();
    let ctx = Ctx {
        kernel,
        launch: &launch,
        cfg,
        pool: &pool,
        inexact: logs
            .iter()
            .flat_map(|l| l.inexact_iters.iter().cloned())
            .collect(),
        free_lengths,
    };
    // Property by property, each by its own share of what is left of the run's budget, the
    // properties with fewer obligations left first (what they leave unused goes on to the
    // others).
    let mut order: Vec<Property> = cfg
        .properties
        .iter()
        .copied()
        .filter(|p| !blocked.iter().any(|b| b.0 == *p))
        .collect();
    order.sort_by_key(|&p| solve::pending(p, &obligations, &answers));
    let mut decided = vec![];
    for (k, &p) in order.iter().enumerate() {
        let until = solve::share(cfg.deadline, order.len() - k);
        solve::property(p, cfg, &pool, &obligations, &mut answers, until);
        let mut result = property_result(p, &obligations, &mut answers, &ctx, until);
        if p == Property::Bounds {
            apply_needs(&mut result, kernel, &needs);
        }
        if p == Property::Race {
            result.assumptions.extend(counter_note.iter().cloned());
            if races::tolerates_benign(&logs, benign) {
                result.assumptions.push(
                    "two writes of one constant to a cell are tolerated as a benign race \
                     (GPUVerify's default; --strict-races reports them)"
                        .into(),
                );
            }
        }
        if p == Property::Assert {
            unclaimed(kernel, &mut result.verdict);
        }
        decided.push(result);
    }
    let mut results = vec![];
    for &p in &cfg.properties {
        if let Some((_, reason, span)) = blocked.iter().find(|b| b.0 == p) {
            results.push(PropertyResult::unknown(p, reason.clone(), Some(*span)));
        } else if let Some(r) = decided.iter().find(|r| r.property == p) {
            results.push(r.clone());
        }
    }
    refine_races(&mut results, &logs, &small, &ctx);
    refine_divergence(&mut results, &logs, &small, &ctx);
    refine_asserts(&mut results, &logs, &small, &ctx);
    unconfirm_if_divergent(&mut results);
    Report {
        kernel: kernel.name.clone(),
        queries: results.iter().map(|r| r.queries).sum(),
        results,
        seconds: start.elapsed().as_secs_f64(),
        assumptions: launch::notes(kernel, cfg)
            .into_iter()
            .chain(left_out_hints(kernel))
            .collect(),
    }
}

/// Threads of one block leave a synchronising loop whose exit conditions are block-uniform at
/// the same iteration (the divergence property checks that they reach its barriers
/// together).
fn same_exits(launch: &launch::Launch, logs: &[symexec::ThreadLog; 2]) -> Vec<Term> {
    let same_block = launch.same_block();
    logs[0]
        .uniform_exits
        .iter()
        .zip(&logs[1].uniform_exits)
        .map(|(a, b)| same_block.implies(&a.eq(b)))
        .collect()
}

/// Two threads that reach the same warp vote (same warp, both lanes in the same mask) or the
/// same barrier reduction (same block) outside loops take part in one collective and get
/// the same value.
fn same_votes(launch: &launch::Launch, logs: &[symexec::ThreadLog; 2]) -> Vec<Term> {
    let (same_block, same_warp) = (launch.same_block(), launch.same_warp());
    logs[0]
        .votes
        .iter()
        .zip(&logs[1].votes)
        .take_while(|(a, b)| a.span == b.span)
        .map(|(a, b)| {
            let together = match (&a.warp, &b.warp) {
                (Some((ma, ia)), Some((mb, ib))) => same_warp.and(ia).and(ib).and(&ma.eq(mb)),
                _ => same_block.clone(),
            };
            together
                .and(&a.pc)
                .and(&b.pc)
                .implies(&a.value.eq(&b.value))
        })
        .collect()
}

/// The facts two threads' sums of syncs obey in loops whose iterations execute different
/// numbers of them (see [`symexec::EpochSum`]).
fn epoch_sums(launch: &launch::Launch, logs: &[symexec::ThreadLog; 2]) -> Vec<Term> {
    let same_block = launch.same_block();
    logs[0]
        .epoch_sums
        .iter()
        .zip(&logs[1].epoch_sums)
        .take_while(|(a, b)| a.span == b.span)
        .flat_map(|(a, b)| a.pair_facts(b, &same_block))
        .collect()
}

/// Hints and assumptions of the source no engine translates, each as a note (no verdict
/// rests on them; see [`warpsafe_ir::UncheckedAnnotation::hint`]).
fn left_out_hints(kernel: &Kernel) -> impl Iterator<Item = String> + '_ {
    kernel
        .contract
        .unchecked
        .iter()
        .filter(|u| u.hint)
        .map(|u| {
            format!(
                "not checked: {} (a proof hint or precondition: no verdict rests on it)",
                u.what
            )
        })
}

/// The bounds verdict with the inferred length requirements: printed as assumptions when it
/// holds, and `unknown` where a buffer's accesses have no requirement at all.
fn apply_needs(result: &mut PropertyResult, kernel: &Kernel, needs: &[(usize, lengths::Need)]) {
    for (p, need) in needs {
        let name = &kernel.params[*p].name;
        match need {
            lengths::Need::Length { text, .. } => result.assumptions.push(format!(
                "needs len({name}) >= {text} (no length declared; inferred)"
            )),
            lengths::Need::Unbounded { reason, span } => {
                if matches!(result.verdict, Verdict::Verified) {
                    result.verdict = Verdict::Unknown {
                        reason: reason.clone(),
                        span: Some(*span),
                    };
                }
            }
        }
    }
}

/// Race and uninit models compare barrier epochs, which count the same barriers in every
/// thread only when barriers are not divergent: when divergence is refuted or undecided,
/// their counterexamples count as confirmed only if the interpreter reproduced them.
fn unconfirm_if_divergent(results: &mut [PropertyResult]) {
    let divergent = results
        .iter()
        .any(|r| r.property == Property::Divergence && !matches!(r.verdict, Verdict::Verified));
    if !divergent {
        return;
    }
    for r in results
        .iter_mut()
        .filter(|r| matches!(r.property, Property::Race | Property::Uninit))
    {
        let Verdict::Violated(cx) = &r.verdict else {
            continue;
        };
        if !cx.epochs || cx.replay.as_ref().is_some_and(|p| p.reproduced) {
            continue;
        }
        r.verdict = Verdict::Possible {
            counterexample: cx.clone(),
            why: "barriers may be divergent (divergence is not verified), so the barrier \
                  intervals the model compares may not align, and the interpreter did not \
                  reproduce it"
                .into(),
        };
    }
}

/// A race found by the first pass is asked again with what reads tell ([`races::Mode`]'s
/// `refined` pass): a thread's reads of one address in one barrier interval agree, and two
/// threads writing one value to a cell is a benign race, tolerated as GPUVerify does by
/// default (`--strict-races` reports it). Not under `--warp-sync` (lanes of a warp read in
/// lock-step, so reads of one interval need not agree).
fn refine_races(
    results: &mut [PropertyResult],
    logs: &[symexec::ThreadLog; 2],
    small: &term::Term,
    ctx: &Ctx<'_>,
) {
    let found = results.iter().position(|r| {
        r.property == Property::Race
            && matches!(r.verdict, Verdict::Violated(_) | Verdict::Possible { .. })
    });
    let cfg = ctx.cfg;
    let (Some(i), false) = (found, cfg.lockstep_warps) else {
        return;
    };
    let mode = races::Mode {
        lockstep: false,
        benign: if cfg.strict_races {
            races::Benign::Strict
        } else {
            races::Benign::Values
        },
        refined: true,
    };
    let until = cfg.deadline;
    let (k, l) = (ctx.kernel, ctx.launch);
    let Some(mut refined) = races::obligations(k, l, logs, mode, small, until) else {
        return;
    };
    for o in &mut refined {
        model::watch(&mut o.query, l, &o.cex);
    }
    let mut again = solve::solve_all(k, cfg, ctx.pool, &refined);
    let r = property_result(Property::Race, &refined, &mut again, ctx, until);
    let old = &results[i];
    let write_pair = match &old.verdict {
        Verdict::Violated(c)
        | Verdict::Possible {
            counterexample: c, ..
        } => c.message.contains(": write and write"),
        _ => false,
    };
    let keep_old =
        matches!(old.verdict, Verdict::Violated(_)) && matches!(r.verdict, Verdict::Unknown { .. });
    if keep_old {
        return;
    }
    let mut assumptions = old.assumptions.clone();
    if matches!(r.verdict, Verdict::Verified) && write_pair && !cfg.strict_races {
        assumptions.push(
            "two writes of one value to a cell are tolerated as a benign race (GPUVerify's \
             default; --strict-races reports them)"
                .into(),
        );
    }
    results[i] = PropertyResult {
        property: Property::Race,
        verdict: r.verdict,
        seconds: old.seconds + r.seconds,
        queries: old.queries + r.queries,
        assumptions,
    };
}

/// An assertion is verified only as far as the annotations it rests on are checked: one we
/// cannot translate (not a mere hint) leaves it `unknown`.
fn unclaimed(kernel: &Kernel, verdict: &mut Verdict) {
    let claim = kernel.contract.unchecked.iter().find(|u| !u.hint);
    if let (Verdict::Verified, Some(u)) = (&verdict, claim) {
        *verdict = Verdict::Unknown {
            reason: u.what.clone(),
            span: Some(u.span),
        };
    }
}

/// Where property `p`'s result is, when the race property is verified and `p`'s verdict is
/// one `worth` asking again (the refinements that assume race freedom start from it).
fn after_race_free(
    results: &[PropertyResult],
    p: Property,
    worth: impl Fn(&Verdict) -> bool,
) -> Option<usize> {
    let race_free = results
        .iter()
        .any(|r| r.property == Property::Race && matches!(r.verdict, Verdict::Verified));
    let at = results
        .iter()
        .position(|r| r.property == p && worth(&r.verdict));
    at.filter(|_| race_free)
}

/// An assertion refuted only over reads that are arbitrary: once the race property is
/// verified, a thread reads back what it last read or wrote at an address in the same barrier
/// interval ([`obligation::own_reads`]), and the refined check decides.
fn refine_asserts(
    results: &mut [PropertyResult],
    logs: &[symexec::ThreadLog; 2],
    small: &term::Term,
    ctx: &Ctx<'_>,
) {
    let possible = |v: &Verdict| matches!(v, Verdict::Possible { .. });
    let Some(i) = after_race_free(results, Property::Assert, possible) else {
        return;
    };
    let (k, l) = (ctx.kernel, ctx.launch);
    let lockstep = ctx.cfg.lockstep_warps;
    let skip = |m: warpsafe_ir::MemRef| lockstep && k.is_volatile(m);
    let mut refined = overflow::assertions(k, l, logs, small);
    for o in &mut refined {
        let core = o.cex.core.clone();
        let roots: Vec<&Term> = core.iter().collect();
        o.query
            .assertions
            .extend(obligation::own_reads(logs, &roots, &skip));
        model::watch(&mut o.query, l, &o.cex);
    }
    let mut again = solve::solve_all(k, ctx.cfg, ctx.pool, &refined);
    let mut r = property_result(
        Property::Assert,
        &refined,
        &mut again,
        ctx,
        ctx.cfg.deadline,
    );
    if matches!(r.verdict, Verdict::Unknown { .. }) {
        return;
    }
    unclaimed(k, &mut r.verdict);
    let old = &results[i];
    results[i] = PropertyResult {
        property: Property::Assert,
        verdict: r.verdict,
        seconds: old.seconds + r.seconds,
        queries: old.queries + r.queries,
        assumptions: old.assumptions.clone(),
    };
}

/// Divergence refuted only because every read is arbitrary per thread: once the race
/// property is verified, two threads reading one address in one barrier interval read the
/// same value, and the refined check decides.
fn refine_divergence(
    results: &mut [PropertyResult],
    logs: &[symexec::ThreadLog; 2],
    small: &term::Term,
    ctx: &Ctx<'_>,
) {
    let found = |v: &Verdict| matches!(v, Verdict::Violated(_) | Verdict::Possible { .. });
    let diverges = after_race_free(results, Property::Divergence, found);
    let (false, Some(i)) = (ctx.cfg.lockstep_warps, diverges) else {
        return;
    };
    let mut refined = divergence::obligations(ctx.kernel, ctx.launch, logs, small, true);
    for o in &mut refined {
        model::watch(&mut o.query, ctx.launch, &o.cex);
    }
    let mut again = solve::solve_all(ctx.kernel, ctx.cfg, ctx.pool, &refined);
    let r = property_result(
        Property::Divergence,
        &refined,
        &mut again,
        ctx,
        ctx.cfg.deadline,
    );
    let old = &results[i];
    results[i] = PropertyResult {
        property: Property::Divergence,
        verdict: r.verdict,
        seconds: old.seconds + r.seconds,
        queries: old.queries + r.queries,
        assumptions: r.assumptions,
    };
}
