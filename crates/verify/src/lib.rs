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
//! bit-blasting does.
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

mod batch;
mod bounds;
mod config;
mod divergence;
mod eval;
mod intenc;
mod launch;
mod loops;
mod model;
mod obligation;
mod overflow;
mod races;
mod replay;
mod report;
mod smt;
mod symexec;
mod term;
mod uniform;

pub use config::{Config, DimSpec, Property};
pub use report::{Counterexample, PropertyResult, Replay, Report, Verdict};

use obligation::Obligation;
use rayon::prelude::*;
use smt::{Answer, SolverPool};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use warpsafe_ir::Kernel;

/// Verifies `kernel` under `cfg` and reports a verdict per requested property.
pub fn verify(kernel: &Kernel, cfg: &Config) -> Report {
    let start = Instant::now();
    let launch = launch::Launch::new(kernel, cfg);
    let logs = [
        symexec::execute(kernel, &launch, 0),
        symexec::execute(kernel, &launch, 1),
    ];
    let small = launch.small(kernel);
    let mut obligations: Vec<Obligation> = vec![];
    let mut blocked: Vec<(Property, String, warpsafe_ir::Span)> = vec![];
    for &p in &cfg.properties {
        if let Some(u) = logs[0].unsupported.iter().find(|u| u.props.contains(&p)) {
            blocked.push((p, u.reason.clone(), u.span));
            continue;
        }
        obligations.extend(match p {
            Property::Race => {
                races::obligations(kernel, &launch, &logs, cfg.lockstep_warps, &small)
            }
            Property::Divergence => divergence::obligations(kernel, &launch, &logs, &small, false),
            Property::Bounds => bounds::obligations(kernel, &launch, &logs, &small),
            Property::Overflow => overflow::obligations(kernel, &launch, &logs, &small),
        });
    }
    for o in &mut obligations {
        model::watch(&mut o.query, &launch, &o.cex);
    }
    let pool = SolverPool::new(cfg.timeout, cfg.dump_smt.clone());
    let answers = solve_all(kernel, cfg, &pool, &obligations);
    let mut results = vec![];
    let mut queries = 0;
    for &p in &cfg.properties {
        if let Some((_, reason, span)) = blocked.iter().find(|b| b.0 == p) {
            results.push(PropertyResult {
                property: p,
                verdict: Verdict::Unknown {
                    reason: reason.clone(),
                    span: Some(*span),
                },
                seconds: 0.0,
                queries: 0,
            });
            continue;
        }
        let result = property_result(p, &obligations, &answers, kernel, &launch, cfg);
        queries += result.queries;
        results.push(result);
    }
    // Divergence refuted only because every read is arbitrary per thread: once the race
    // property is verified, two threads reading one address in one barrier interval read
    // the same value, and the refined check decides.
    let race_free = results
        .iter()
        .any(|r| r.property == Property::Race && matches!(r.verdict, Verdict::Verified));
    let diverges = results.iter().position(|r| {
        r.property == Property::Divergence && matches!(r.verdict, Verdict::Violated(_))
    });
    if let (true, false, Some(i)) = (race_free, cfg.lockstep_warps, diverges) {
        let mut refined = divergence::obligations(kernel, &launch, &logs, &small, true);
        for o in &mut refined {
            model::watch(&mut o.query, &launch, &o.cex);
        }
        let again = solve_all(kernel, cfg, &pool, &refined);
        let r = property_result(Property::Divergence, &refined, &again, kernel, &launch, cfg);
        queries += r.queries;
        results[i] = PropertyResult {
            property: Property::Divergence,
            verdict: r.verdict,
            seconds: results[i].seconds + r.seconds,
            queries: results[i].queries + r.queries,
        };
    }
    Report {
        kernel: kernel.name.clone(),
        results,
        seconds: start.elapsed().as_secs_f64(),
        queries,
    }
}

/// The verdict of property `p` from the answers to its obligations (the first
/// counterexample, decoded and replayed; else the first unknown; else verified), with the
/// time and queries spent on it.
fn property_result(
    p: Property,
    obligations: &[Obligation],
    answers: &Answers,
    kernel: &Kernel,
    launch: &launch::Launch,
    cfg: &Config,
) -> PropertyResult {
    let mine: Vec<(&Obligation, &(Answer, Duration))> = obligations
        .iter()
        .zip(&answers.per_obligation)
        .filter(|(o, _)| o.property == p)
        .collect();
    let (batch_time, batch_queries) = answers.batches.get(&p).copied().unwrap_or_default();
    let seconds =
        batch_time.as_secs_f64() + mine.iter().map(|(_, (_, d))| d.as_secs_f64()).sum::<f64>();
    let property_queries = batch_queries + mine.iter().filter(|(_, (_, d))| !d.is_zero()).count();
    let mut verdict = Verdict::Verified;
    for (o, (a, _)) in &mine {
        match a {
            Answer::Sat(vals) => {
                let (mut cx, dyn_shared) = model::decode(vals, launch, kernel, &o.cex);
                if cfg.replay {
                    cx.replay = Some(replay::replay(kernel, &cx, dyn_shared, cfg.lockstep_warps));
                }
                verdict = Verdict::Violated(cx);
                break;
            }
            Answer::Unknown(reason) if matches!(verdict, Verdict::Verified) => {
                verdict = Verdict::Unknown {
                    reason: format!("{}: {reason}", o.cex.what),
                    span: o.cex.spans.first().copied(),
                };
            }
            _ => {}
        }
    }
    PropertyResult {
        property: p,
        verdict,
        seconds,
        queries: property_queries,
    }
}

/// The answer to every obligation, and per property the time and count of combined queries.
struct Answers {
    per_obligation: Vec<(Answer, Duration)>,
    batches: HashMap<Property, (Duration, usize)>,
}

/// Decides the obligations in parallel: first one combined query per property
/// ([`batch::combine`]), then, for properties it did not settle, each obligation on its own.
/// Obligations settled by a combined query get `Unsat` with zero time.
fn solve_all(kernel: &Kernel, cfg: &Config, pool: &SolverPool, obls: &[Obligation]) -> Answers {
    let run =
        |work: &(dyn Fn() -> Vec<(Answer, Duration)> + Sync)| match rayon::ThreadPoolBuilder::new()
            .num_threads(cfg.jobs.max(1))
            .build()
        {
            Ok(tp) => tp.install(work),
            Err(_) => work(),
        };
    let timed = |q: &smt::Query| {
        let t = Instant::now();
        let a = pool.check(q);
        (a, t.elapsed())
    };
    let combined: Vec<(Property, smt::Query)> = cfg
        .properties
        .iter()
        .filter_map(|&p| {
            let mine: Vec<&Obligation> = obls.iter().filter(|o| o.property == p).collect();
            let name = format!("{}_{}_all", kernel.name, p.name());
            batch::combine(name, &mine).map(|q| (p, q))
        })
        .collect();
    let batch_answers = run(&|| combined.par_iter().map(|(_, q)| timed(q)).collect());
    let mut batches = HashMap::new();
    let mut settled = vec![];
    // Per property with a satisfiable combined query: the index (among that property's
    // obligations) of one obligation its model satisfies.
    let mut witness: HashMap<Property, usize> = HashMap::new();
    for ((p, _), (a, d)) in combined.iter().zip(&batch_answers) {
        batches.insert(*p, (*d, 1));
        match a {
            Answer::Unsat => settled.push(*p),
            Answer::Sat(vals) => {
                if let Some(i) = vals.iter().position(|v| *v == Some(1)) {
                    witness.insert(*p, i);
                }
            }
            Answer::Unknown(_) => {}
        }
    }
    let index_in_property: Vec<usize> = obls
        .iter()
        .scan(HashMap::<Property, usize>::new(), |seen, o| {
            let c = seen.entry(o.property).or_default();
            *c += 1;
            Some(*c - 1)
        })
        .collect();
    let skip = |i: usize| {
        let p = obls[i].property;
        settled.contains(&p) || witness.get(&p).is_some_and(|&w| w != index_in_property[i])
    };
    let mut per_obligation = run(&|| {
        (0..obls.len())
            .into_par_iter()
            .map(|i| {
                if skip(i) {
                    (Answer::Unsat, Duration::ZERO)
                } else {
                    timed(&obls[i].query)
                }
            })
            .collect()
    });
    // A witness the solver does not confirm on its own (a timeout, say; its query assumes
    // no more than the combined one, so it cannot be unsatisfiable) falls back to deciding
    // every obligation of its property.
    for (&p, &w) in &witness {
        let i = (0..obls.len()).find(|&i| obls[i].property == p && index_in_property[i] == w);
        let confirmed = i.is_some_and(|i| matches!(per_obligation[i].0, Answer::Sat(_)));
        if !confirmed {
            for j in 0..obls.len() {
                if obls[j].property == p && Some(j) != i {
                    per_obligation[j] = timed(&obls[j].query);
                }
            }
        }
    }
    Answers {
        per_obligation,
        batches,
    }
}
