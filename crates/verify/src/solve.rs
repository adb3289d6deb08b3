//! Deciding a run's obligations: one combined query per property first ([`batch::combine`]),
//! in parallel, then, property by property, each obligation the combined query did not
//! settle, in parallel.
//!
//! With a deadline for the run, every property gets its own share of the budget, so that a
//! slow one never leaves the others unasked: a combined query may take at most half of an
//! equal part of the budget ([`combined`]), and each property's own obligations (and its
//! verdict's confirmation) end by an equal part of what is left among the properties still
//! to decide ([`share`]); time one leaves unused passes on to the later ones, which are
//! those with more obligations left ([`pending`]).

use crate::batch;
use crate::obligation::Obligation;
use crate::smt::{self, Answer, SolverPool};
use crate::{Config, Property};
use rayon::prelude::*;
use std::collections::HashMap;
use std::time::{Duration, Instant};
use warpsafe_ir::Kernel;

/// The answer to every obligation, and per property the time and count of combined queries.
pub struct Answers {
    /// Per obligation: its answer and solver time, or `None` when it was not asked because
    /// another obligation of its property already has a model.
    pub per_obligation: Vec<Option<(Answer, Duration)>>,
    /// Per property: time and number of combined queries.
    pub batches: HashMap<Property, (Duration, usize)>,
    /// Properties whose combined query is unsatisfiable.
    settled: Vec<Property>,
    /// Per property with a satisfiable combined query: the index (among that property's
    /// obligations) of one obligation its model satisfies.
    witness: HashMap<Property, usize>,
}

/// Runs `work` on a pool of `jobs` threads.
fn run_on<R: Send>(jobs: usize, work: impl FnOnce() -> R + Send) -> R {
    match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
    {
        Ok(tp) => tp.install(work),
        Err(_) => work(),
    }
}

/// Decides `q`, by `until` when given, and measures how long it took.
pub fn timed(pool: &SolverPool, q: &smt::Query, until: Option<Instant>) -> (Answer, Duration) {
    let t = Instant::now();
    let a = pool.check_until(q, until);
    (a, t.elapsed())
}

/// The end of the next property's share of the run's budget: an equal part of what is left
/// until `deadline` among the `left` properties still to decide (`None` without a deadline).
pub fn share(deadline: Option<Instant>, left: usize) -> Option<Instant> {
    let now = Instant::now();
    let parts = u32::try_from(left.max(1)).unwrap_or(u32::MAX);
    deadline.map(|d| now + d.saturating_duration_since(now) / parts)
}

/// Asks one combined query per property, in parallel; every obligation is still unasked
/// (`None`). With a deadline, each combined query takes at most half of its property's
/// equal part of the budget left (the `jobs` solvers share it), so the combined queries
/// leave at least half of the budget to the obligations.
pub fn combined(kernel: &Kernel, cfg: &Config, pool: &SolverPool, obls: &[Obligation]) -> Answers {
    // Past the deadline, not even the combined queries are built.
    let spent = cfg.deadline.is_some_and(|d| Instant::now() >= d);
    let combined: Vec<(Property, smt::Query)> = cfg
        .properties
        .iter()
        .filter(|_| !spent)
        .filter_map(|&p| {
            let mine: Vec<&Obligation> = obls.iter().filter(|o| o.property == p).collect();
            let name = format!("{}_{}_all", kernel.name, p.name());
            batch::combine(name, &mine).map(|q| (p, q))
        })
        .collect();
    let limit = cfg.deadline.map(|d| {
        let parts = u32::try_from(2 * combined.len().max(1)).unwrap_or(u32::MAX);
        let jobs = u32::try_from(cfg.jobs.max(1)).unwrap_or(1);
        d.saturating_duration_since(Instant::now()) * jobs / parts
    });
    let batch_answers: Vec<(Answer, Duration)> = run_on(cfg.jobs, || {
        combined
            .par_iter()
            .map(|(_, q)| timed(pool, q, limit.map(|l| Instant::now() + l)))
            .collect()
    });
    let mut batches = HashMap::new();
    let mut settled = vec![];
    let mut witness = HashMap::new();
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
    Answers {
        per_obligation: vec![None; obls.len()],
        batches,
        settled,
        witness,
    }
}

/// How many of `p`'s obligations [`property`] will ask: none when its combined query
/// settled them, one when its model names a witness, else all.
pub fn pending(p: Property, obls: &[Obligation], answers: &Answers) -> usize {
    if answers.settled.contains(&p) {
        0
    } else if answers.witness.contains_key(&p) {
        1
    } else {
        obls.iter().filter(|o| o.property == p).count()
    }
}

/// Decides `p`'s obligations, in parallel, by `until` when given: those its combined query
/// settled get `Unsat` with zero time; where the combined query has a model, only the
/// obligation it satisfies is asked (the others stay `None` until a caller needs them),
/// unless the solver does not confirm that one on its own.
pub fn property(
    p: Property,
    cfg: &Config,
    pool: &SolverPool,
    obls: &[Obligation],
    answers: &mut Answers,
    until: Option<Instant>,
) {
    let mine: Vec<usize> = (0..obls.len()).filter(|&i| obls[i].property == p).collect();
    if answers.settled.contains(&p) {
        for &i in &mine {
            answers.per_obligation[i] = Some((Answer::Unsat, Duration::ZERO));
        }
        return;
    }
    let witness = answers.witness.get(&p).copied();
    let asked: Vec<(usize, Option<(Answer, Duration)>)> = run_on(cfg.jobs, || {
        mine.par_iter()
            .enumerate()
            .map(|(k, &i)| {
                if witness.is_some_and(|w| w != k) {
                    (i, None)
                } else {
                    (i, Some(timed(pool, &obls[i].query, until)))
                }
            })
            .collect()
    });
    for (i, a) in asked {
        answers.per_obligation[i] = a;
    }
    // A witness the solver does not confirm on its own (a timeout, say; its query assumes
    // no more than the combined one, so it cannot be unsatisfiable) falls back to deciding
    // every obligation of its property.
    if let Some(w) = witness {
        let confirmed = mine
            .get(w)
            .is_some_and(|&i| matches!(answers.per_obligation[i], Some((Answer::Sat(_), _))));
        if !confirmed {
            for &j in &mine {
                if answers.per_obligation[j].is_none() {
                    answers.per_obligation[j] = Some(timed(pool, &obls[j].query, until));
                }
            }
        }
    }
}

/// Decides every property's obligations ([`combined`], then [`property`] for each) by the
/// run's deadline.
pub fn solve_all(kernel: &Kernel, cfg: &Config, pool: &SolverPool, obls: &[Obligation]) -> Answers {
    let mut answers = combined(kernel, cfg, pool, obls);
    for &p in &cfg.properties {
        property(p, cfg, pool, obls, &mut answers, cfg.deadline);
    }
    answers
}
