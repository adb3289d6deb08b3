//! A proof obligation: one SMT query whose satisfiability means a property is violated,
//! together with what is needed to turn a model into a counterexample.

use crate::smt::Query;
use crate::term::Term;
use crate::Property;
use warpsafe_ir::{Category, Span};

/// A query and how to explain a model of it.
#[derive(Clone, Debug)]
pub struct Obligation {
    /// The property it belongs to.
    pub property: Property,
    /// The query (watch terms are filled in by the model module).
    pub query: Query,
    /// What a model means.
    pub cex: CexInfo,
}

/// How to explain a model.
#[derive(Clone, Debug)]
pub struct CexInfo {
    /// Finding category.
    pub category: Category,
    /// What goes wrong, without the concrete values.
    pub what: String,
    /// 1 for single-thread properties, 2 for races and divergence.
    pub threads: usize,
    /// Source positions involved.
    pub spans: Vec<Span>,
    /// Memory name and element index term, if any.
    pub address: Option<(String, Term)>,
    /// The obligation's own conditions (path conditions, addresses, the bad condition):
    /// a model is an exact execution when none of them depends on an abstracted value.
    pub core: Vec<Term>,
    /// The query leaves out something that could rule the model out (a write the uninit
    /// check cannot vouch for, say): no model is exact.
    pub partial: bool,
    /// The query compares barrier epochs after some barrier: a model is a real execution
    /// only if barriers are not divergent.
    pub epochs: bool,
}

/// The assumptions of a query about `threads` (1 or 2) threads: CUDA limits and the contract,
/// the threads' id ranges and `__assume`s, and (for two) that they differ.
pub fn base(
    l: &crate::launch::Launch,
    logs: &[crate::symexec::ThreadLog; 2],
    threads: usize,
) -> Vec<Term> {
    let mut v = l.assumptions.clone();
    for (th, log) in l.threads.iter().zip(logs).take(threads) {
        v.extend(th.constraints.iter().cloned());
        v.extend(log.assumes.iter().cloned());
    }
    if threads == 2 {
        v.push(l.distinct());
        v.extend(l.pair_facts.iter().cloned());
    }
    v
}

/// The absence of every arithmetic hazard of the first `threads` threads: race and bounds
/// verdicts are about executions the overflow property has not already flagged.
/// Only hazards whose condition speaks about symbols of `core` are kept (the others cannot
/// matter much and would slow the solver down); dropping assumptions is always sound.
pub fn no_hazards(
    logs: &[crate::symexec::ThreadLog; 2],
    threads: usize,
    core: &[&Term],
) -> Vec<Term> {
    let mut syms = std::collections::HashSet::new();
    for c in core {
        for s in c.free_syms() {
            if let Some(x) = s.as_sym() {
                syms.insert(x.name.clone());
            }
        }
    }
    logs.iter()
        .take(threads)
        .flat_map(|l| l.hazards.iter())
        .filter(|h| {
            h.cond
                .free_syms()
                .iter()
                .all(|s| s.as_sym().is_some_and(|x| syms.contains(&x.name)))
        })
        .map(|h| h.pc.and(&h.cond).not())
        .collect()
}

/// A query named `name` over `assertions`, with small-model hints.
pub fn query(name: String, assertions: Vec<Term>, small: &Term) -> Query {
    Query {
        name,
        assertions,
        watch: vec![],
        small: Some(small.clone()),
        refine: vec![],
        cheap: false,
    }
}
