//! Running z3 on one self-contained SMT-LIB script.

use std::io::Write;
use std::process::{Command, Stdio};

static DUMPED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

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
/// per-query timeout and a hard one twice as long. With `WARPSAFE_INDUCT_DUMP=DIR` every
/// script is also written to `DIR/qN.smt2` for replay.
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

fn run(decls: &[String], assertions: &[String], timeout_ms: u64, check_cmd: &str) -> Answer {
    run_program("z3", decls, assertions, timeout_ms, check_cmd)
}

/// Runs `program` (z3 or a stand-in) on the script: a program that does not start, or an
/// answer other than `unsat`/`sat`, is `Unknown`, never a proof.
fn run_program(
    program: &str,
    decls: &[String],
    assertions: &[String],
    timeout_ms: u64,
    check_cmd: &str,
) -> Answer {
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
    if let Some(dir) = std::env::var_os("WARPSAFE_INDUCT_DUMP") {
        let n = DUMPED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let _ = std::fs::write(
            std::path::Path::new(&dir).join(format!("q{n}.smt2")),
            &script,
        );
    }
    let hard = (timeout_ms * 2).div_ceil(1000).max(1);
    let child = Command::new(program)
        .args([
            "-smt2".to_string(),
            "-in".to_string(),
            format!("-t:{timeout_ms}"),
            format!("-T:{hard}"),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return Answer::Unknown(format!("cannot start {program}: {e}")),
    };
    if let Some(mut stdin) = child.stdin.take() {
        if let Err(e) = stdin.write_all(script.as_bytes()) {
            return Answer::Unknown(format!("cannot talk to z3: {e}"));
        }
    }
    let out = match child.wait_with_output() {
        Ok(o) => o,
        Err(e) => return Answer::Unknown(format!("z3 failed: {e}")),
    };
    let text = String::from_utf8_lossy(&out.stdout);
    match text.lines().map(str::trim).find(|l| !l.is_empty()) {
        Some("unsat") => Answer::Unsat,
        Some("sat") => Answer::Sat,
        Some("unknown") | Some("timeout") => Answer::Unknown("z3 gave no answer in time".into()),
        Some(other) => Answer::Unknown(format!("z3: {other}")),
        None => Answer::Unknown("z3 gave no answer in time".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solver_that_does_not_start_proves_nothing() {
        let a = run_program(
            "warpsafe-no-such-solver",
            &[],
            &["false".to_string()],
            1000,
            "(check-sat)",
        );
        assert!(
            matches!(&a, Answer::Unknown(r) if r.contains("cannot start")),
            "{a:?}"
        );
    }
}
