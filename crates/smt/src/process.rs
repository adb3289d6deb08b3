//! One z3 process in interactive mode (`z3 -smt2 -in`): commands are written without waiting
//! (no `:print-success` round trips), and only `check-sat` and `get-value` read an answer,
//! under the [watchdog](crate::watchdog). A process that dies, is killed, or prints an error
//! is never written to again; every failure is an `Err`, never a panic.

use crate::reply::Reply;
use crate::sexpr::{Arena, SExpr};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

/// The solver program.
pub(crate) const PROGRAM: &str = "z3";

/// The solver's version line (`Z3 version 4.8.12 - 64 bit`), or `None` when it does not run;
/// asked once per process.
pub fn version() -> Option<&'static str> {
    static VERSION: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    VERSION
        .get_or_init(|| {
            let out = Command::new(PROGRAM)
                .arg("-version")
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .output()
                .ok()
                .filter(|o| o.status.success())?;
            Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
        })
        .as_deref()
}

/// True when the solver runs (tests skip what needs it otherwise).
pub fn available() -> bool {
    version().is_some()
}

/// What `check-sat` said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Response {
    /// Satisfiable.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// No answer (gave up or ran out of time).
    Unknown,
}

/// A running solver.
pub struct Process {
    child: Child,
    /// `None` only while dropping.
    stdin: Option<BufWriter<ChildStdin>>,
    stdout: BufReader<ChildStdout>,
    /// Output read but not yet parsed.
    pending: String,
    /// How long one answer may take before the watchdog kills the process.
    backstop: Duration,
    /// Killed, crashed, or out of step with us: nothing more is sent.
    dead: bool,
}

impl Process {
    /// Starts `z3 -smt2 -in` with models on; the watchdog kills it when one answer takes
    /// longer than `backstop` (or it sits idle, deadlocked).
    pub fn start(backstop: Duration) -> io::Result<Process> {
        let mut child = Command::new(PROGRAM)
            .args(["-smt2", "-in"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        crate::stats::count_start();
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("no pipes to the solver"));
        };
        let mut p = Process {
            child,
            stdin: Some(BufWriter::new(stdin)),
            stdout: BufReader::new(stdout),
            pending: String::new(),
            backstop,
            dead: false,
        };
        p.send("(set-option :produce-models true)")?;
        Ok(p)
    }

    /// Replaces the process by a fresh one with the same backstop.
    pub fn restart(&mut self) -> io::Result<()> {
        *self = Process::start(self.backstop)?;
        Ok(())
    }

    /// True once the process must not be used again (killed, crashed, or it printed an error).
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Writes one command that prints nothing.
    pub fn send(&mut self, command: &str) -> io::Result<()> {
        if self.dead {
            return Err(io::Error::other("the solver process is gone"));
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(io::Error::other("the solver process is gone"));
        };
        let r = stdin
            .write_all(command.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"));
        self.dead |= r.is_err();
        r
    }

    /// Writes the command `e` (built in `arena`), which prints nothing.
    pub fn send_expr(&mut self, arena: &Arena, e: SExpr) -> io::Result<()> {
        let mut s = String::new();
        arena.write(e, &mut s);
        self.send(&s)
    }

    /// `(set-option :timeout MS)`: z3's own per-check limit.
    pub fn set_timeout(&mut self, t: Duration) -> io::Result<()> {
        self.send(&format!("(set-option :timeout {})", millis(t)))
    }

    /// `(push 1)`.
    pub fn push(&mut self) -> io::Result<()> {
        self.send("(push 1)")
    }

    /// `(pop 1)`.
    pub fn pop(&mut self) -> io::Result<()> {
        self.send("(pop 1)")
    }

    /// `(declare-const NAME SORT)`.
    pub fn declare_const(&mut self, arena: &Arena, name: &str, sort: SExpr) -> io::Result<()> {
        let mut s = format!("(declare-const {name} ");
        arena.write(sort, &mut s);
        s.push(')');
        self.send(&s)
    }

    /// `(define-fun NAME () SORT BODY)`.
    pub fn define_const(
        &mut self,
        arena: &Arena,
        name: &str,
        sort: SExpr,
        body: SExpr,
    ) -> io::Result<()> {
        let mut s = format!("(define-fun {name} () ");
        arena.write(sort, &mut s);
        s.push(' ');
        arena.write(body, &mut s);
        s.push(')');
        self.send(&s)
    }

    /// `(assert E)`.
    pub fn assert(&mut self, arena: &Arena, e: SExpr) -> io::Result<()> {
        let mut s = String::from("(assert ");
        arena.write(e, &mut s);
        s.push(')');
        self.send(&s)
    }

    /// `(check-sat)`.
    pub fn check(&mut self) -> io::Result<Response> {
        self.check_command("(check-sat)")
    }

    /// `(check-sat-using (try-for TACTIC MS))`: the tactic bounded by `limit` itself (z3's
    /// `:timeout` option does not reach every tactic).
    pub fn check_using(&mut self, tactic: &str, limit: Duration) -> io::Result<Response> {
        self.check_command(&format!(
            "(check-sat-using (try-for {tactic} {}))",
            millis(limit)
        ))
    }

    /// `(check-sat-assuming (A…))`.
    pub fn check_assuming(&mut self, arena: &Arena, assumptions: &[SExpr]) -> io::Result<Response> {
        let mut s = String::from("(check-sat-assuming (");
        for (i, a) in assumptions.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            arena.write(*a, &mut s);
        }
        s.push_str("))");
        self.check_command(&s)
    }

    /// Sends a check command and reads its answer.
    pub fn check_command(&mut self, command: &str) -> io::Result<Response> {
        self.send(command)?;
        crate::stats::count_check();
        let r = self.answer()?;
        match r.atom() {
            Some("sat") => Ok(Response::Sat),
            Some("unsat") => Ok(Response::Unsat),
            Some("unknown") | Some("timeout") => Ok(Response::Unknown),
            _ => {
                self.dead = true;
                Err(io::Error::other(format!("unexpected solver answer: {r}")))
            }
        }
    }

    /// `(get-value (T…))` after a satisfiable check: the value of each term, in order.
    pub fn get_values(&mut self, arena: &Arena, terms: &[SExpr]) -> io::Result<Vec<Reply>> {
        if terms.is_empty() {
            return Ok(vec![]);
        }
        let mut s = String::from("(get-value (");
        for (i, t) in terms.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            arena.write(*t, &mut s);
        }
        s.push_str("))");
        self.send(&s)?;
        let r = self.answer()?;
        let bad = || io::Error::other(format!("no model: {r}"));
        let pairs = r.list().ok_or_else(bad)?;
        if pairs.len() != terms.len() {
            return Err(bad());
        }
        pairs
            .iter()
            .map(|p| match p.list() {
                Some([_, v]) => Ok(v.clone()),
                _ => Err(bad()),
            })
            .collect()
    }

    /// Flushes what was sent and reads one answer, under the watchdog. An `(error …)` (from
    /// this command or an earlier one) is an `Err`, and the process is not used again.
    fn answer(&mut self) -> io::Result<Reply> {
        let flushed = match self.stdin.as_mut() {
            Some(w) => w.flush(),
            None => Err(io::Error::other("the solver process is gone")),
        };
        if let Err(e) = flushed {
            self.dead = true;
            return Err(e);
        }
        let _dog = crate::watchdog::watch(self.child.id(), self.backstop);
        let r = self.read_reply();
        drop(_dog);
        match r {
            Ok(r) if r.is_error() => {
                self.dead = true;
                Err(io::Error::other(format!("solver error: {r}")))
            }
            Ok(r) => Ok(r),
            Err(e) => {
                self.dead = true;
                Err(io::Error::other(format!(
                    "the solver stopped answering (killed after {} s, or crashed): {e}",
                    self.backstop.as_secs()
                )))
            }
        }
    }

    fn read_reply(&mut self) -> io::Result<Reply> {
        loop {
            if let Some((r, used)) = Reply::parse(&self.pending) {
                self.pending.drain(..used);
                return Ok(r);
            }
            let n = self.stdout.read_line(&mut self.pending)?;
            if n == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "end of solver output",
                ));
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Unsent commands (a final `pop`) are discarded, not flushed: the process may be gone,
        // and writing to it would raise SIGPIPE, which ends a CLI that restores its default.
        if let Some(w) = self.stdin.take() {
            drop(w.into_parts());
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `d` in whole milliseconds, at least 1 (z3 reads 0 as "no limit").
pub(crate) fn millis(d: Duration) -> u64 {
    d.as_millis().clamp(1, u32::MAX as u128) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn z3() -> Option<Process> {
        Process::start(Duration::from_secs(60)).ok()
    }

    #[test]
    fn incremental_checks_models_and_scopes() {
        let Some(mut p) = z3() else { return };
        let a = Arena::new();
        let x = a.atom("x");
        p.declare_const(&a, "x", a.bit_vec_sort(8)).unwrap();
        p.push().unwrap();
        p.assert(&a, a.app("bvugt", [x, a.atom("#xf0")])).unwrap();
        assert_eq!(p.check().unwrap(), Response::Sat);
        let v = p.get_values(&a, &[x]).unwrap();
        assert!(v[0].as_u128().is_some_and(|v| v > 0xf0));
        p.assert(&a, a.app("bvult", [x, a.atom("#x10")])).unwrap();
        assert_eq!(
            p.check_using("smt", Duration::from_secs(5)).unwrap(),
            Response::Unsat
        );
        p.pop().unwrap();
        let g = a.atom("g");
        p.declare_const(&a, "g", a.bool_sort()).unwrap();
        p.assert(&a, a.imp(g, a.eq(x, a.atom("#x07")))).unwrap();
        assert_eq!(p.check_assuming(&a, &[g]).unwrap(), Response::Sat);
        assert_eq!(p.get_values(&a, &[x]).unwrap()[0].as_u128(), Some(7));
        assert!(!p.is_dead());
    }

    #[test]
    fn an_error_is_a_result_and_retires_the_process() {
        let Some(mut p) = z3() else { return };
        p.send("(assert undeclared)").unwrap();
        assert!(p.check().is_err());
        assert!(p.is_dead());
        assert!(p.check().is_err(), "nothing more is sent");
        // get-value without a model: an error, not a panic.
        let Some(mut p) = z3() else { return };
        p.send("(assert false)").unwrap();
        assert_eq!(p.check().unwrap(), Response::Unsat);
        let a = Arena::new();
        assert!(p.get_values(&a, &[a.true_()]).is_err());
    }
}
