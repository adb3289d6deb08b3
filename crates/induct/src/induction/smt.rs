//! Deciding one self-contained SMT-LIB script (through `warpsafe-smt`: a fresh z3 process,
//! cached, dumped with `--dump-smt`/`WARPSAFE_DUMP_SMT`).

use std::time::Duration;

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

/// Checks `assertions` (SMT-LIB terms) for satisfiability after `decls`, with a soft
/// per-query timeout (and a hard one past it).
pub fn check(decls: &[String], assertions: &[String], timeout_ms: u64) -> Answer {
    // Every query is quantifier-free bit-vector arithmetic: bit-blasting directly is much
    // faster than z3's default strategy; the default is the fallback.
    match run(decls, assertions, timeout_ms, BLAST) {
        Answer::Unknown(_) => run(decls, assertions, timeout_ms, "(check-sat)"),
        a => a,
    }
}

const BLAST: &str =
    "(check-sat-using (then simplify propagate-values solve-eqs elim-uncnstr bit-blast sat))";

/// The script of `decls`, `assertions` and `check_cmd`.
fn script(decls: &[String], assertions: &[String], check_cmd: &str) -> String {
    let mut script = String::new();
    for d in decls {
        script.push_str(d);
        script.push('\n');
    }
    for a in assertions {
        script.push_str(&format!("(assert {a})\n"));
    }
    script.push_str(check_cmd);
    script.push('\n');
    script
}

fn run(decls: &[String], assertions: &[String], timeout_ms: u64, check_cmd: &str) -> Answer {
    let text = script(decls, assertions, check_cmd);
    match warpsafe_smt::check("induct", &text, Duration::from_millis(timeout_ms.max(1))) {
        warpsafe_smt::Answer::Unsat => Answer::Unsat,
        warpsafe_smt::Answer::Sat => Answer::Sat,
        warpsafe_smt::Answer::Unknown(why) => Answer::Unknown(why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_vector_obligations_are_decided() {
        if !warpsafe_smt::available() {
            return;
        }
        let decls = ["(declare-const x (_ BitVec 8))".to_string()];
        let holds = ["(bvult (bvand x #x0f) #x10)".to_string()];
        let negated = [format!("(not {})", holds[0])];
        assert_eq!(check(&decls, &negated, 5000), Answer::Unsat);
        assert_eq!(check(&decls, &holds, 5000), Answer::Sat);
    }
}
