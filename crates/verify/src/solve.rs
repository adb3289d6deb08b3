//! Deciding a run's obligations in parallel: one combined query per property first
//! ([`batch::combine`]), then each obligation the combined query did not settle.

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

/// Decides `q` and measures how long it took.
pub fn timed(pool: &SolverPool, q: &smt::Query) -> (Answer, Duration) {
    let t = Instant::now();
    let a = pool.check(q);
    (a, t.elapsed())
}

/// Decides the obligations: a combined query per property, then the obligations of the
/// properties it did not settle. Obligations settled by an unsatisfiable combined query get
/// `Unsat` with zero time; where the combined query has a model, only the obligation it
/// satisfies is asked (the others stay `None` until a caller needs them).
pub fn solve_all(kernel: &Kernel, cfg: &Config, pool: &SolverPool, obls: &[Obligation]) -> Answers {
    let combined: Vec<(Property, smt::Query)> = cfg
        .properties
        .iter()
        .filter_map(|&p| {
            let mine: Vec<&Obligation> = obls.iter().filter(|o| o.property == p).collect();
            let name = format!("{}_{}_all", kernel.name, p.name());
            batch::combine(name, &mine).map(|q| (p, q))
        })
        .collect();
    let batch_answers: Vec<(Answer, Duration)> = run_on(cfg.jobs, || {
        combined.par_iter().map(|(_, q)| timed(pool, q)).collect()
    });
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
    let mut per_obligation: Vec<Option<(Answer, Duration)>> = run_on(cfg.jobs, || {
        (0..obls.len())
            .into_par_iter()
            .map(|i| {
                let p = obls[i].property;
                if settled.contains(&p) {
                    Some((Answer::Unsat, Duration::ZERO))
                } else if witness.get(&p).is_some_and(|&w| w != index_in_property[i]) {
                    None
                } else {
                    Some(timed(pool, &obls[i].query))
                }
            })
            .collect()
    });
    // A witness the solver does not confirm on its own (a timeout, say; its query assumes
    // no more than the combined one, so it cannot be unsatisfiable) falls back to deciding
    // every obligation of its property.
    for (&p, &w) in &witness {
        let i = (0..obls.len()).find(|&i| obls[i].property == p && index_in_property[i] == w);
        let confirmed = i.is_some_and(|i| matches!(per_obligation[i], Some((Answer::Sat(_), _))));
        if !confirmed {
            for j in 0..obls.len() {
                if obls[j].property == p && per_obligation[j].is_none() {
                    per_obligation[j] = Some(timed(pool, &obls[j].query));
                }
            }
        }
    }
    Answers {
        per_obligation,
        batches,
    }
}
