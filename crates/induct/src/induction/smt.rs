//! Deciding one self-contained SMT-LIB script (through `warpsafe-smt`: a fresh z3 process,
//! cached, dumped with `--dump-smt`/`WARPSAFE_DUMP_SMT`).

use super::term::T;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;
use warpsafe_terms::Symbol;

/// z3's answer to one query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The negated obligation is unsatisfiable: the obligation holds.
    Unsat,
    /// A counterexample to the obligation exists.
    Sat,
    /// No answer, with the reason.
    Unknown(String),
}

/// Checks `assertions` (boolean terms) for satisfiability, with every free symbol declared
/// and a soft per-query timeout (and a hard one past it).
pub fn check(assertions: &[T], timeout_ms: u64) -> Answer {
    // Every query is quantifier-free bit-vector arithmetic: bit-blasting directly is much
    // faster than z3's default strategy; the default is the fallback.
    let body = text(assertions);
    match run(&body, timeout_ms, BLAST) {
        Answer::Unknown(_) => run(&body, timeout_ms, "(check-sat)"),
        a => a,
    }
}

const BLAST: &str =
    "(check-sat-using (then simplify propagate-values solve-eqs elim-uncnstr bit-blast sat))";

/// The declarations of the free symbols of `assertions` and the assertions, each printed
/// by the shared printer with its repeated subterms named once.
fn text(assertions: &[T]) -> String {
    let mut names = BTreeMap::new();
    for a in assertions {
        for s in a.free_syms() {
            if let Some(x) = s.as_sym() {
                names.insert(x.name().to_string(), x.sort());
            }
        }
    }
    let mut script = String::new();
    for (n, sort) in &names {
        let _ = writeln!(script, "(declare-const {n} {sort})");
    }
    for a in assertions {
        script.push_str("(assert ");
        a.write_shared(&mut script);
        script.push_str(")\n");
    }
    script
}

fn run(body: &str, timeout_ms: u64, check_cmd: &str) -> Answer {
    let text = format!("{body}{check_cmd}\n");
    match warpsafe_smt::check("induct", &text, Duration::from_millis(timeout_ms.max(1))) {
        warpsafe_smt::Answer::Unsat => Answer::Unsat,
        warpsafe_smt::Answer::Sat => Answer::Sat,
        warpsafe_smt::Answer::Unknown(why) => Answer::Unknown(why),
    }
}

#[cfg(test)]
mod tests {
    use super::super::term::{bv, sym};
    use super::*;

    #[test]
    fn bit_vector_obligations_are_decided() {
        if !warpsafe_smt::available() {
            return;
        }
        let x = sym("x");
        let holds = x.bvand(&bv(15)).ult(&bv(16));
        assert_eq!(check(&[holds.not()], 5000), Answer::Unsat);
        assert_eq!(check(std::slice::from_ref(&holds), 5000), Answer::Sat);
        let y = x.add(&bv(1));
        let shared = y.mul(&y);
        let t = text(&[shared.eq(&bv(4))]);
        assert!(t.contains("(let ((t!0 (bvadd x (_ bv1 32))))"), "{t}");
        assert!(text(&[holds]).starts_with("(declare-const x (_ BitVec 32))\n"));
    }
}
