//! One query for all obligations of a property: their shared assumptions once, and the
//! disjunction of what each adds. When that query is unsatisfiable every obligation is, and
//! a correct kernel is done with one solver call per property instead of one per access
//! pair; otherwise the obligations are decided one by one, for a precise counterexample.

use crate::obligation::Obligation;
use crate::smt::Query;
use crate::term::Term;
use std::collections::HashSet;

/// Fewest obligations worth combining: below this the combined query is pure overhead.
pub const MIN_BATCH: usize = 3;

/// The combined query of `obls` (named `name`), or `None` when there are too few of them.
/// Its watch terms are the obligations' own parts, so a model tells which obligation it
/// satisfies; it is a [cheap](Query::cheap) query, as the obligations themselves are the
/// fallback.
///
/// Unsatisfiable exactly when every obligation is: `C ∧ (R₁ ∨ … ∨ Rₙ)` with `C` the common
/// conjuncts and `Rᵢ` the rest of obligation `i`. The refinement facts of all obligations
/// are asserted together; each is the absence of an arithmetic hazard, an assumption every
/// race, bounds and divergence verdict already makes (the overflow property reports them).
pub fn combine(name: String, obls: &[&Obligation]) -> Option<Query> {
    if obls.len() < MIN_BATCH {
        return None;
    }
    let ids: Vec<HashSet<usize>> = obls
        .iter()
        .map(|o| o.query.assertions.iter().map(Term::id).collect())
        .collect();
    let first = &obls[0].query.assertions;
    let common: Vec<Term> = first
        .iter()
        .filter(|t| ids.iter().all(|s| s.contains(&t.id())))
        .cloned()
        .collect();
    let common_ids: HashSet<usize> = common.iter().map(Term::id).collect();
    let rests: Vec<Term> = obls
        .iter()
        .map(|o| {
            Term::and_all(
                o.query
                    .assertions
                    .iter()
                    .filter(|t| !common_ids.contains(&t.id()))
                    .cloned(),
            )
        })
        .collect();
    let mut assertions = common;
    assertions.push(Term::or_all(rests.iter().cloned()));
    let mut seen = HashSet::new();
    let refine = obls
        .iter()
        .flat_map(|o| o.query.refine.iter())
        .filter(|t| seen.insert(t.id()))
        .cloned()
        .collect();
    Some(Query {
        name,
        assertions,
        watch: rests,
        small: None,
        refine,
        cheap: true,
    })
}
