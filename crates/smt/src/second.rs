//! `--second-opinion`: every sat/unsat answer of the configured solver is asked of the other
//! one too. Interactive queries are replayed command by command from what the engine sent
//! ([`Step`]s), on a process of the other solver, and each check the first solver answered
//! is compared; scripts are run again whole. A contradiction (sat against unsat) is said on
//! stderr with a file that replays the query, counted, and turned into "solvers disagree":
//! an `Err` of [`crate::Pool::run`] or an `Unknown` of [`crate::check`]. An unknown, a
//! timeout or a failure of the other solver is no contradiction: it is counted as a second
//! opinion not had.

use crate::oneshot::Answer;
use crate::process::{Process, Response, Step};
use crate::solver::Solver;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

/// Processes of the other solver, reset between queries.
static FREE: Mutex<Vec<Process>> = Mutex::new(vec![]);

/// Replays `steps`, a query `primary` answered, on the other solver; the disagreement, if
/// there is one, as the reason to give.
pub(crate) fn replay(primary: Solver, steps: &[Step], backstop: Duration) -> Option<String> {
    let judged = |s: &Step| matches!(s, Step::Check(_, Response::Sat | Response::Unsat));
    if !steps.iter().any(judged) {
        return None;
    }
    let other = primary.other();
    let reused = FREE.lock().ok().and_then(|mut v| {
        v.iter()
            .position(|p| p.solver() == other)
            .map(|i| v.remove(i))
    });
    let mut p = match reused {
        Some(p) => p,
        None => match Process::start_with(other, backstop) {
            Ok(p) => p,
            Err(e) => {
                failed(other, &e.to_string());
                return None;
            }
        },
    };
    p.begin_query(false);
    let mut n = 0;
    for step in steps {
        let r = match step {
            Step::Send(c) => p.send(c),
            Step::Restart => p.restart(),
            Step::Check(c, first) => {
                if *first == Response::Unknown {
                    continue;
                }
                n += 1;
                match p.check_command(c) {
                    Ok(Response::Unknown) => {
                        crate::stats::count_second_failure();
                        Ok(())
                    }
                    Ok(second) if second == *first => {
                        crate::stats::count_second(false);
                        Ok(())
                    }
                    Ok(second) => {
                        crate::stats::count_second(true);
                        let text = transcript(steps);
                        return Some(disagree(primary, *first, second, n, &text, None));
                    }
                    Err(e) => Err(e),
                }
            }
        };
        if let Err(e) = r {
            failed(other, &e.to_string());
            return None;
        }
    }
    if p.reset().is_ok() {
        if let Ok(mut free) = FREE.lock() {
            free.push(p);
        }
    }
    None
}

/// Runs `script`, which `primary` answered `first` (sat or unsat), on the other solver; the
/// disagreement, if there is one, as the reason to give. `dumped` is the script's dump file.
pub(crate) fn script(
    primary: Solver,
    script: &str,
    first: &Answer,
    timeout: Duration,
    dumped: Option<PathBuf>,
) -> Option<String> {
    let other = primary.other();
    if let Err(e) = other.installed() {
        failed(other, &e);
        return None;
    }
    let said = crate::dialect::script(other, script);
    let (second, _) = crate::oneshot::run(other, &said, timeout);
    let word = |a: &Answer| match a {
        Answer::Sat => Some(Response::Sat),
        Answer::Unsat => Some(Response::Unsat),
        Answer::Unknown(_) => None,
    };
    match (word(first), word(&second)) {
        (Some(a), Some(b)) if a != b => {
            crate::stats::count_second(true);
            Some(disagree(primary, a, b, 1, script, dumped))
        }
        (Some(_), Some(_)) => {
            crate::stats::count_second(false);
            None
        }
        _ => {
            crate::stats::count_second_failure();
            None
        }
    }
}

/// A failed second opinion: counted, and said once per run on stderr.
fn failed(other: Solver, why: &str) {
    crate::stats::count_second_failure();
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| eprintln!("warpsafe: second opinion: {other} failed: {why}"));
}

/// Says the disagreement on stderr (with a file that replays the query: `dumped`, else one
/// written to the dump directory or the temporary directory) and returns the reason.
fn disagree(
    primary: Solver,
    first: Response,
    second: Response,
    check: usize,
    text: &str,
    dumped: Option<PathBuf>,
) -> String {
    let word = |r: Response| match r {
        Response::Sat => "sat",
        Response::Unsat => "unsat",
        Response::Unknown => "unknown",
    };
    let file = dumped.or_else(|| {
        let dir = crate::settings()
            .dump_dir
            .unwrap_or_else(std::env::temp_dir);
        let path = dir.join(format!("warpsafe-disagreement-{:016x}.smt2", hash(text)));
        let _ = std::fs::create_dir_all(&dir);
        std::fs::write(&path, text).ok().map(|()| path)
    });
    let place = match file {
        Some(f) => format!("query in {}", f.display()),
        None => format!("query {:016x}", hash(text)),
    };
    let why = format!(
        "solvers disagree: {primary} says {}, {} says {} (check {check} of the {place})",
        word(first),
        primary.other(),
        word(second)
    );
    eprintln!("warpsafe: {why}");
    why
}

/// The query as a script (the engine's words: z3's), for people to replay.
fn transcript(steps: &[Step]) -> String {
    let mut s = String::from("(set-option :produce-models true)\n");
    for step in steps {
        match step {
            Step::Send(c) | Step::Check(c, _) => s.push_str(c),
            Step::Restart => s.push_str("(reset)\n(set-option :produce-models true)"),
        }
        s.push('\n');
    }
    s
}

/// FNV-1a, for naming a query.
fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both() -> bool {
        Solver::Z3.installed().is_ok() && Solver::Cvc5.installed().is_ok()
    }

    #[test]
    fn agreeing_solvers_raise_nothing_and_a_contradiction_is_named() {
        if !both() {
            eprintln!("z3 or cvc5 missing: skipped");
            return;
        }
        let steps = vec![
            Step::Send("(declare-const x Int)".into()),
            Step::Send("(set-option :timeout 5000)".into()),
            Step::Send("(push 1)".into()),
            Step::Send("(assert (> x 0))".into()),
            Step::Check("(check-sat-using (try-for smt 5000))".into(), Response::Sat),
            Step::Send("(assert (< x 0))".into()),
            Step::Check("(check-sat)".into(), Response::Unsat),
            Step::Send("(pop 1)".into()),
        ];
        let before = crate::stats();
        assert_eq!(replay(Solver::Z3, &steps, Duration::from_secs(30)), None);
        let d = crate::stats().since(&before);
        assert!(d.second_checks >= 2, "{d:?}");
        // A first answer that is wrong (as if the first solver had a bug) is contradicted.
        let mut wrong = steps.clone();
        wrong[6] = Step::Check("(check-sat)".into(), Response::Sat);
        let why = replay(Solver::Z3, &wrong, Duration::from_secs(30)).expect("disagreement");
        assert!(
            why.starts_with(
                "solvers disagree: z3 says sat, cvc5 says unsat (check 2 of the query in "
            ),
            "{why}"
        );
        let file = why
            .rsplit("query in ")
            .next()
            .and_then(|s| s.strip_suffix(')'))
            .expect("a file");
        let text = std::fs::read_to_string(file).expect("the replay file");
        assert!(text.contains("(assert (< x 0))"));
        let _ = std::fs::remove_file(file);
        // A script: the other solver agrees, or contradicts a wrong first answer.
        let s = "(declare-const x Int)\n(assert (> x 0))\n(assert (< x 0))\n(check-sat)\n";
        let t = Duration::from_secs(5);
        assert_eq!(script(Solver::Cvc5, s, &Answer::Unsat, t, None), None);
        let why = script(Solver::Cvc5, s, &Answer::Sat, t, None).expect("disagreement");
        assert!(why.contains("cvc5 says sat, z3 says unsat"), "{why}");
    }
}
