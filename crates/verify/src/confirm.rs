//! From solver answers to a property's verdict. A model becomes `violated` only when it is
//! exact (it depends on no abstracted value) or the interpreter reproduces it; otherwise a
//! few other models are tried, and failing those the verdict is `possible`.

use crate::launch::Launch;
use crate::obligation::Obligation;
use crate::smt::{Answer, SolverPool};
use crate::solve::{timed, Answers};
use crate::term::{Sort, SymKind, Term};
use crate::{model, replay, Config, Counterexample, Property, PropertyResult, Verdict};
use std::collections::HashSet;
use std::time::{Duration, Instant};
use warpsafe_ir::Kernel;

/// Other models tried when a counterexample is neither exact nor reproduced.
const EXTRA_MODELS: usize = 2;

/// True when none of `core`'s symbols stands for an abstracted value: memory contents (and
/// atomic or shuffle results), havocked loop state, or loop iterations (in `inexact`) whose
/// reachability the summary states only approximately.
pub fn exact(core: &[Term], inexact: &HashSet<String>) -> bool {
    core.iter()
        .flat_map(Term::free_syms)
        .all(|s| match s.as_sym() {
            Some(x) => match x.kind {
                SymKind::Load | SymKind::Havoc => false,
                SymKind::Exit { .. } | SymKind::Iter { .. } => !inexact.contains(&x.name),
                _ => true,
            },
            None => true,
        })
}

/// The verdict of property `p` from the answers to its obligations, asking the solver for
/// obligations not yet decided when an earlier model is not confirmed: a confirmed
/// counterexample wins, then an unconfirmed one (`possible`), then the first unknown. Queries
/// asked here end by `until` when given (the property's share of the run's budget).
pub fn property_result(
    p: Property,
    obligations: &[Obligation],
    answers: &mut Answers,
    ctx: &Ctx<'_>,
    until: Option<Instant>,
) -> PropertyResult {
    let mine: Vec<usize> = (0..obligations.len())
        .filter(|&i| obligations[i].property == p)
        .collect();
    let (batch_time, batch_queries) = answers.batches.get(&p).copied().unwrap_or_default();
    let mut seconds = batch_time;
    let mut queries = batch_queries;
    let mut possible: Option<(Counterexample, String)> = None;
    let mut unknown: Option<Verdict> = None;
    let mut verdict = None;
    for &i in &mine {
        let o = &obligations[i];
        let (answer, d) = match &answers.per_obligation[i] {
            Some(a) => a.clone(),
            None => {
                let a = timed(ctx.pool, &o.query, until);
                answers.per_obligation[i] = Some(a.clone());
                a
            }
        };
        seconds += d;
        queries += usize::from(!d.is_zero());
        match answer {
            Answer::Sat(vals) => {
                let (cx, extra) = confirm(o, &vals, ctx, until);
                seconds += extra.0;
                queries += extra.1;
                if cx.confirmed() {
                    verdict = Some(Verdict::Violated(cx));
                    break;
                }
                if possible.is_none() {
                    possible = Some((cx, why_possible(ctx.cfg)));
                }
            }
            Answer::Unknown(reason) if unknown.is_none() => {
                unknown = Some(Verdict::Unknown {
                    reason: format!("{}: {reason}", o.cex.what),
                    span: o.cex.spans.first().copied(),
                });
            }
            _ => {}
        }
    }
    let verdict = verdict
        .or_else(|| {
            possible.map(|(counterexample, why)| Verdict::Possible {
                counterexample,
                why,
            })
        })
        .or(unknown)
        .unwrap_or(Verdict::Verified);
    PropertyResult {
        property: p,
        verdict,
        seconds: seconds.as_secs_f64(),
        queries,
        assumptions: vec![],
    }
}

fn why_possible(cfg: &Config) -> String {
    if cfg.replay {
        format!(
            "the model depends on abstracted values (memory contents or summarised loops) and \
             the interpreter did not reproduce it, nor {EXTRA_MODELS} other models"
        )
    } else {
        "the model depends on abstracted values (memory contents or summarised loops) and \
         replay is off"
            .into()
    }
}

/// What a property's verdict needs besides the answers.
pub struct Ctx<'a> {
    /// The kernel.
    pub kernel: &'a Kernel,
    /// Its symbolic launch.
    pub launch: &'a Launch,
    /// The run's settings.
    pub cfg: &'a Config,
    /// The solvers.
    pub pool: &'a SolverPool,
    /// Loop iteration symbols whose summaries are approximate (see `ThreadLog::inexact_iters`).
    pub inexact: HashSet<String>,
    /// Buffers whose length nothing constrains (no declaration, no inferred requirement):
    /// a model's value for it is arbitrary, so replays give them room.
    pub free_lengths: Vec<String>,
}

/// Elements a replay gives a buffer of unconstrained length (at least).
const FREE_LENGTH: u64 = 1 << 16;

/// The counterexample of a model of `o`, replayed; when it is neither exact nor
/// reproduced, up to [`EXTRA_MODELS`] other launches are tried (by `until`). Also returns the
/// solver time and queries spent on those.
fn confirm(
    o: &Obligation,
    vals: &[Option<u128>],
    ctx: &Ctx<'_>,
    until: Option<Instant>,
) -> (Counterexample, (Duration, usize)) {
    let explain = |vals: &[Option<u128>]| {
        let (mut cx, dyn_shared) = model::decode(vals, ctx.launch, ctx.kernel, &o.cex);
        cx.exact = !o.cex.partial && exact(&o.cex.core, &ctx.inexact);
        for (name, len) in &mut cx.buffer_lens {
            if ctx.free_lengths.contains(name) {
                *len = (*len).max(FREE_LENGTH);
            }
        }
        if ctx.cfg.replay {
            cx.replay = Some(replay::replay(
                ctx.kernel,
                &cx,
                dyn_shared,
                ctx.cfg.lockstep_warps,
            ));
        }
        cx
    };
    let first = explain(vals);
    let mut spent = (Duration::ZERO, 0);
    if first.confirmed() || !ctx.cfg.replay {
        return (first, spent);
    }
    let launch_terms = o.query.watch.len() - usize::from(o.cex.address.is_some());
    let mut q = o.query.clone();
    let mut last: Vec<Option<u128>> = vals.to_vec();
    for _ in 0..EXTRA_MODELS {
        q.assertions
            .push(other_launch(&q.watch[..launch_terms], &last));
        let (a, d) = timed(ctx.pool, &q, until);
        spent.0 += d;
        spent.1 += 1;
        let Answer::Sat(next) = a else { break };
        let cx = explain(&next);
        if cx.confirmed() {
            return (cx, spent);
        }
        last = next;
    }
    (first, spent)
}

/// A launch other than the one of the model `vals` of `terms`.
fn other_launch(terms: &[Term], vals: &[Option<u128>]) -> Term {
    Term::or_all(terms.iter().zip(vals).filter_map(|(t, v)| {
        let v = (*v)?;
        Some(match t.sort() {
            Sort::Bool if v == 0 => t.clone(),
            Sort::Bool => t.not(),
            s => t.ne(&Term::from_bits(s, v)?),
        })
    }))
}
