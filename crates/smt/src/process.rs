//! One solver process in interactive mode (`z3 -smt2 -in`, `cvc5 --incremental`): commands
//! are written without waiting (no `:print-success` round trips), in the solver's own words
//! ([`crate::dialect`]), and only checks, `get-value` and `get-model` read an answer, under
//! the [watchdog](crate::watchdog). A process that dies, is killed, or prints an error is
//! never written to again; every failure is an `Err`, never a panic.

use crate::reply::Reply;
use crate::sexpr::{Arena, SExpr};
use crate::solver::Solver;
use crate::watchdog::Kill;
use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// The solver's version line (`Z3 version 4.8.12 - 64 bit`) for the configured solver, or
/// `None` when it does not run; asked once per process.
pub fn version() -> Option<&'static str> {
    crate::settings().solver.version()
}

/// True when the configured solver runs (tests skip what needs it otherwise).
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

/// One command of a query as the engine wrote it, kept for a second opinion
/// ([`crate::second`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A command that prints nothing.
    Send(String),
    /// A check command and what this process answered.
    Check(String, Response),
    /// The process was replaced by a fresh one.
    Restart,
}

/// A running solver.
pub struct Process {
    solver: Solver,
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
    /// Dead because the solver printed an `(error …)`.
    errored: bool,
    /// Dead because the watchdog killed it for taking longer than the backstop.
    over_limit: bool,
    /// The per-check limit of [`Process::set_timeout`] in force.
    limit: Option<Duration>,
    /// What the solver received since the query began ([`Process::begin_query`]), limits
    /// and `get-value` left out: with a check appended, the key of its timeout entries.
    key: String,
    /// With a second opinion: the query's commands as the engine wrote them.
    record: Option<Vec<Step>>,
    /// Definitions whose bodies hold a quantifier (no solver evaluates them in a model),
    /// with the scope depth they were made at.
    quantified: HashMap<String, usize>,
    depth: usize,
    /// The last check was answered `Unknown` from the timeout cache, not by the solver.
    cached_timeout: bool,
}

impl Process {
    /// Starts the configured solver ([`crate::settings`]) with models on; the watchdog
    /// kills it when one answer takes longer than `backstop` (or it sits idle, deadlocked).
    pub fn start(backstop: Duration) -> io::Result<Process> {
        Process::start_with(crate::settings().solver, backstop)
    }

    /// Starts `solver` (see [`Process::start`]).
    pub fn start_with(solver: Solver, backstop: Duration) -> io::Result<Process> {
        let program = solver.program();
        let mut child = Command::new(&program)
            .args(solver.interactive_args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| io::Error::new(e.kind(), format!("cannot start {program}: {e}")))?;
        crate::stats::count_start();
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("no pipes to the solver"));
        };
        let mut p = Process {
            solver,
            child,
            stdin: Some(BufWriter::new(stdin)),
            stdout: BufReader::new(stdout),
            pending: String::new(),
            backstop,
            dead: false,
            errored: false,
            over_limit: false,
            limit: None,
            key: String::new(),
            record: None,
            cached_timeout: false,
            quantified: HashMap::new(),
            depth: 0,
        };
        p.write(init(solver))?;
        Ok(p)
    }

    /// The solver this process runs.
    pub fn solver(&self) -> Solver {
        self.solver
    }

    /// Marks the start of a query on a process that may have answered others: timeout
    /// entries are keyed by what is sent from here on; with `record`, the commands are kept
    /// for a second opinion ([`Process::take_record`]).
    pub fn begin_query(&mut self, record: bool) {
        self.key.clear();
        self.record = record.then(Vec::new);
    }

    /// The commands kept since [`Process::begin_query`] asked for them.
    pub(crate) fn take_record(&mut self) -> Option<Vec<Step>> {
        self.record.take()
    }

    /// Replaces the process by a fresh one with the same backstop.
    pub fn restart(&mut self) -> io::Result<()> {
        let record = self.record.take();
        *self = Process::start_with(self.solver, self.backstop)?;
        self.record = record.map(|mut r| {
            r.push(Step::Restart);
            r
        });
        Ok(())
    }

    /// `(reset)`: the process as freshly started (no declarations, assertions, scopes or
    /// limits), to answer an unrelated query.
    pub fn reset(&mut self) -> io::Result<()> {
        self.write("(reset)")?;
        self.write(init(self.solver))?;
        self.limit = None;
        self.key.clear();
        self.record = None;
        self.quantified.clear();
        self.depth = 0;
        Ok(())
    }

    /// True when the process died of an `(error …)` it printed (what was sent is at fault,
    /// not the process).
    pub fn errored(&self) -> bool {
        self.errored
    }

    /// True when the process was killed for taking longer than its backstop (asking the same
    /// again would take as long).
    pub fn over_limit(&self) -> bool {
        self.over_limit
    }

    /// True once the process must not be used again (killed, crashed, or it printed an error).
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Writes one command that prints nothing (said in the solver's own words:
    /// [`crate::dialect`]).
    pub fn send(&mut self, command: &str) -> io::Result<()> {
        if self.dead {
            return Err(io::Error::other("the solver process is gone"));
        }
        if let Some(r) = self.record.as_mut() {
            r.push(Step::Send(command.to_string()));
        }
        if let Some(ms) = crate::dialect::timeout_of(command) {
            self.limit = Some(Duration::from_millis(ms));
        }
        let Some(said) = crate::dialect::command(self.solver, command) else {
            return Ok(());
        };
        if crate::dialect::timeout_of(command).is_none() {
            self.key.push_str(&said);
            self.key.push('\n');
        }
        self.write(&said)
    }

    /// Writes `text` and a newline as it is.
    fn write(&mut self, text: &str) -> io::Result<()> {
        if self.dead {
            return Err(io::Error::other("the solver process is gone"));
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(io::Error::other("the solver process is gone"));
        };
        let r = stdin
            .write_all(text.as_bytes())
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

    /// `(set-option :timeout MS)`: the per-check limit (cvc5's `:tlimit-per`).
    pub fn set_timeout(&mut self, t: Duration) -> io::Result<()> {
        self.send(&format!("(set-option :timeout {})", millis(t)))
    }

    /// `(push 1)`.
    pub fn push(&mut self) -> io::Result<()> {
        self.send("(push 1)")?;
        self.depth += 1;
        Ok(())
    }

    /// `(pop 1)`.
    pub fn pop(&mut self) -> io::Result<()> {
        self.send("(pop 1)")?;
        self.depth = self.depth.saturating_sub(1);
        let depth = self.depth;
        self.quantified.retain(|_, d| *d <= depth);
        Ok(())
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
        self.send(&s)?;
        if self.has_quantifier(arena, body) {
            self.quantified.insert(name.to_string(), self.depth);
        }
        Ok(())
    }

    /// True when `e` holds a quantifier, directly or through a definition.
    fn has_quantifier(&self, arena: &Arena, e: SExpr) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            if !seen.insert(e) {
                continue;
            }
            if let Some(a) = arena.get_atom(e) {
                // An atom may be a whole term spelled as text.
                let quantified = a
                    .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
                    .any(|w| w == "forall" || w == "exists" || self.quantified.contains_key(w));
                if quantified {
                    return true;
                }
            } else if let Some(l) = arena.get_list(e) {
                stack.extend(l.iter().copied());
            }
        }
        false
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

    /// True when the last check's `Unknown` came from the timeout cache: the same query ran
    /// out of the same or a larger limit before, on this solver.
    pub fn last_timeout_cached(&self) -> bool {
        self.cached_timeout
    }

    /// Sends a check command and reads its answer. A check whose text (with what was sent
    /// before it in this query) ran out of the same or a larger limit before, on this solver,
    /// is answered `Unknown` at once ([`crate::cache::timed_out`]); one that runs out now is
    /// remembered.
    pub fn check_command(&mut self, command: &str) -> io::Result<Response> {
        if self.dead {
            return Err(io::Error::other("the solver process is gone"));
        }
        let own = crate::dialect::try_for(command).map(Duration::from_millis);
        let limit = own.or(self.limit);
        let key_cmd = crate::dialect::without_limits(command);
        let key = format!("{}{key_cmd}\n", self.key);
        self.cached_timeout = false;
        let resp = match limit {
            Some(l) if crate::cache::timed_out(self.solver, &key, l) => {
                crate::stats::count_cached_timeout();
                self.cached_timeout = true;
                Response::Unknown
            }
            _ => self.ask(command, own, limit, &key)?,
        };
        self.key = key;
        if let Some(r) = self.record.as_mut() {
            r.push(Step::Check(command.to_string(), resp));
        }
        Ok(resp)
    }

    /// Asks the solver `command`, whose own limit is `own` and the one in force `limit`.
    fn ask(
        &mut self,
        command: &str,
        own: Option<Duration>,
        limit: Option<Duration>,
        key: &str,
    ) -> io::Result<Response> {
        let said = crate::dialect::command(self.solver, command)
            .map(|c| c.into_owned())
            .unwrap_or_else(|| "(check-sat)".to_string());
        self.write(&said)?;
        if own.is_some() && self.solver == Solver::Cvc5 {
            // The check's own limit was set for it alone; the one in force comes back.
            let back = self.limit.map_or(0, millis);
            self.write(&format!("(set-option :tlimit-per {back})"))?;
        }
        crate::stats::count_check();
        let start = Instant::now();
        let r = self.answer()?;
        let resp = match r.atom() {
            Some("sat") => Response::Sat,
            Some("unsat") => Response::Unsat,
            Some("unknown") | Some("timeout") => Response::Unknown,
            _ => {
                self.dead = true;
                return Err(io::Error::other(format!("unexpected solver answer: {r}")));
            }
        };
        if let (Response::Unknown, Some(l)) = (resp, limit) {
            // Out of time, not given up early: the same text under the same limit would run
            // out again.
            if start.elapsed() * 10 >= l * 9 {
                crate::cache::store_timeout(self.solver, key, l);
            }
        }
        Ok(resp)
    }

    /// `(get-value (T…))` after a satisfiable check: the value of each term, in order.
    /// A term with a quantifier has no value in a model (z3 and cvc5 refuse to evaluate
    /// one): it is not asked, and its value is the atom `?`, which reads as no number.
    pub fn get_values(&mut self, arena: &Arena, terms: &[SExpr]) -> io::Result<Vec<Reply>> {
        let asked: Vec<bool> = terms
            .iter()
            .map(|t| !self.has_quantifier(arena, *t))
            .collect();
        let mut s = String::from("(get-value (");
        for (i, t) in terms.iter().zip(&asked).filter(|(_, a)| **a).enumerate() {
            if i > 0 {
                s.push(' ');
            }
            arena.write(*t.0, &mut s);
        }
        s.push_str("))");
        let n = asked.iter().filter(|a| **a).count();
        let mut values = if n == 0 {
            vec![]
        } else {
            self.write(&s)?;
            let r = self.answer()?;
            let bad = || io::Error::other(format!("no model: {r}"));
            let pairs = r.list().ok_or_else(bad)?;
            if pairs.len() != n {
                return Err(bad());
            }
            pairs
                .iter()
                .map(|p| match p.list() {
                    Some([_, v]) => Ok(v.clone()),
                    _ => Err(bad()),
                })
                .collect::<io::Result<Vec<Reply>>>()?
        }
        .into_iter();
        Ok(asked
            .iter()
            .map(|a| match a {
                true => values.next().unwrap_or_else(unreadable),
                false => unreadable(),
            })
            .collect())
    }

    /// `(get-model)` after a satisfiable check: each constant and function the model
    /// defines, with its value (z3's and cvc5's layouts alike: [`Reply::model`]).
    pub fn get_model(&mut self) -> io::Result<Vec<(String, Reply)>> {
        self.write("(get-model)")?;
        let r = self.answer()?;
        r.model()
            .ok_or_else(|| io::Error::other(format!("no model: {r}")))
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
        let dog = crate::watchdog::watch(self.child.id(), self.backstop);
        let mut r = self.read_reply();
        // cvc5 says `unsupported` for options it does not know and goes on.
        while matches!(&r, Ok(Reply::Atom(a)) if a == "unsupported") {
            r = self.read_reply();
        }
        let killed = dog.killed();
        drop(dog);
        match r {
            // z3 4.8.12 reports a check that its timer stopped inside a tactic as the error
            // `tactic failed: canceled` (seen on a loaded machine): out of time, not a
            // failure, and the process goes on.
            Ok(r) if r.is_error() && r.to_string().contains("canceled") => {
                Ok(Reply::Atom("unknown".into()))
            }
            Ok(r) if r.is_error() => {
                self.dead = true;
                self.errored = true;
                Err(io::Error::other(format!("solver error: {r}")))
            }
            Ok(r) => Ok(r),
            Err(e) => {
                self.dead = true;
                self.over_limit = killed == Some(Kill::OverLimit);
                let why = match killed {
                    Some(Kill::OverLimit) => {
                        format!("killed after the {} s backstop", self.backstop.as_secs())
                    }
                    Some(Kill::Stalled) => format!(
                        "killed after {} s without using the CPU (deadlocked)",
                        crate::watchdog::STALL.as_secs()
                    ),
                    None => match self.child.try_wait() {
                        Ok(Some(status)) => format!("it exited: {status}"),
                        _ => "it crashed".to_string(),
                    },
                };
                Err(io::Error::other(format!(
                    "the solver stopped answering ({why}): {e}"
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

/// The first command of a process (and after a reset).
fn init(solver: Solver) -> &'static str {
    match solver {
        Solver::Z3 => "(set-option :produce-models true)",
        // Models are on from the command line; the logic said, so that cvc5 does not warn.
        Solver::Cvc5 => "(set-logic ALL)",
    }
}

/// What [`Process::get_values`] gives for a term no model evaluates.
fn unreadable() -> Reply {
    Reply::Atom("?".into())
}

/// `d` in whole milliseconds, at least 1 (z3 reads 0 as "no limit").
pub(crate) fn millis(d: Duration) -> u64 {
    d.as_millis().clamp(1, u32::MAX as u128) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A process of each installed solver.
    fn each() -> Vec<Process> {
        Solver::ALL
            .into_iter()
            .filter_map(|s| {
                let p = Process::start_with(s, Duration::from_secs(60)).ok();
                if p.is_none() {
                    eprintln!("{s} is not installed: skipped");
                }
                p
            })
            .collect()
    }

    #[test]
    fn incremental_checks_models_and_scopes() {
        for mut p in each() {
            let s = p.solver();
            let a = Arena::new();
            let x = a.atom("x");
            p.set_timeout(Duration::from_secs(20)).unwrap();
            p.declare_const(&a, "x", a.bit_vec_sort(8)).unwrap();
            p.push().unwrap();
            p.assert(&a, a.app("bvugt", [x, a.atom("#xf0")])).unwrap();
            assert_eq!(p.check().unwrap(), Response::Sat, "{s}");
            let v = p.get_values(&a, &[x]).unwrap();
            assert!(v[0].as_u128().is_some_and(|v| v > 0xf0), "{s}: {v:?}");
            let m = p.get_model().unwrap();
            assert!(
                m.iter()
                    .any(|(n, w)| n == "x" && w.as_u128() == v[0].as_u128()),
                "{s}: {m:?}"
            );
            p.assert(&a, a.app("bvult", [x, a.atom("#x10")])).unwrap();
            assert_eq!(
                p.check_using("smt", Duration::from_secs(5)).unwrap(),
                Response::Unsat,
                "{s}"
            );
            p.pop().unwrap();
            let g = a.atom("g");
            p.declare_const(&a, "g", a.bool_sort()).unwrap();
            p.assert(&a, a.imp(g, a.eq(x, a.atom("#x07")))).unwrap();
            assert_eq!(p.check_assuming(&a, &[g]).unwrap(), Response::Sat, "{s}");
            assert_eq!(p.get_values(&a, &[x]).unwrap()[0].as_u128(), Some(7), "{s}");
            assert!(!p.is_dead(), "{s}");
        }
    }

    #[test]
    fn quantified_terms_have_no_value_and_are_not_asked() {
        for mut p in each() {
            let s = p.solver();
            let a = Arena::new();
            let (x, y) = (a.atom("x"), a.atom("y"));
            p.declare_const(&a, "x", a.int_sort()).unwrap();
            p.push().unwrap();
            let all = a.list(vec![
                a.atom("forall"),
                a.list(vec![a.list(vec![y, a.int_sort()])]),
                a.app("<=", [x, a.app("*", [y, y])]),
            ]);
            p.define_const(&a, "q", a.bool_sort(), all).unwrap();
            let q = a.atom("q");
            p.define_const(&a, "r", a.bool_sort(), a.app("not", [q]))
                .unwrap();
            // A term spelled as one text atom (as verify writes them).
            let text = a.atom("(forall ((z Int)) (< x (+ z z 1)))");
            p.define_const(&a, "t", a.bool_sort(), text).unwrap();
            p.assert(&a, a.eq(x, a.int(-2))).unwrap();
            assert_eq!(p.check().unwrap(), Response::Sat, "{s}");
            let v = p
                .get_values(&a, &[x, q, a.atom("r"), a.atom("(and t true)")])
                .unwrap();
            assert_eq!(v[0].to_string(), "(- 2)", "{s}");
            assert_eq!(v[1].as_u128(), None, "{s}");
            assert_eq!(v[2].as_u128(), None, "{s}: through a definition");
            assert_eq!(v[3].as_u128(), None, "{s}: a definition in a text");
            p.pop().unwrap();
            // Popped with its scope: a new `q` is an ordinary name.
            p.define_const(&a, "q", a.bool_sort(), a.true_()).unwrap();
            assert_eq!(p.check().unwrap(), Response::Sat, "{s}");
            assert_eq!(p.get_values(&a, &[q]).unwrap()[0].as_u128(), Some(1), "{s}");
            assert!(!p.is_dead(), "{s}");
        }
    }

    #[test]
    fn a_timeout_is_not_waited_for_twice_under_the_same_limit() {
        for mut p in each() {
            let s = p.solver();
            // 64-bit factoring: far beyond 300 ms for both solvers. The pid keeps the text
            // apart from other runs' disk caches.
            let hard = format!(
                "(assert (and (= (bvmul a b) #x{:016x}) (bvugt a #x0000000000000003) (bvugt b #x0000000000000003) (bvult a #x00000000ffffffff) (bvult b #x00000000ffffffff)))",
                0x1234_5678_90ab_cdefu64 ^ std::process::id() as u64
            );
            let ask = |p: &mut Process, ms: u64| {
                p.begin_query(false);
                p.send("(declare-const a (_ BitVec 64))").unwrap();
                p.send("(declare-const b (_ BitVec 64))").unwrap();
                p.push().unwrap();
                p.send(&hard).unwrap();
                let t = Instant::now();
                let r = p.check_using("qfbv", Duration::from_millis(ms)).unwrap();
                let cached = p.last_timeout_cached();
                p.pop().unwrap();
                p.reset().unwrap();
                (r, t.elapsed(), cached)
            };
            let before = crate::stats();
            let (r, took, cached) = ask(&mut p, 300);
            if r != Response::Unknown {
                eprintln!("{s} decided the hard query in {took:?}: skipped");
                continue;
            }
            assert!(took >= Duration::from_millis(250), "{s}: {took:?}");
            assert!(!cached, "{s}: the first timeout is the solver's own");
            let (r, again, cached) = ask(&mut p, 300);
            assert_eq!(r, Response::Unknown, "{s}");
            assert!(cached, "{s}: the second comes from the cache");
            assert!(
                again < Duration::from_millis(100),
                "{s}: asked again ({again:?})"
            );
            let (r, smaller, _) = ask(&mut p, 100);
            assert_eq!(r, Response::Unknown, "{s}");
            assert!(smaller < Duration::from_millis(80), "{s}: {smaller:?}");
            let d = crate::stats().since(&before);
            assert_eq!(d.cached_timeouts, 2, "{s}: {d:?}");
            // A larger limit is asked again.
            let (_, larger, cached) = ask(&mut p, 600);
            assert!(larger >= Duration::from_millis(500), "{s}: {larger:?}");
            assert!(!cached, "{s}: a larger limit is the solver's answer");
            assert!(!p.is_dead(), "{s}");
        }
    }

    #[test]
    fn an_error_is_a_result_and_retires_the_process() {
        for s in Solver::ALL {
            let Ok(mut p) = Process::start_with(s, Duration::from_secs(60)) else {
                continue;
            };
            p.send("(assert undeclared)").unwrap();
            assert!(p.check().is_err(), "{s}");
            assert!(p.is_dead() && p.errored(), "{s}");
            assert!(p.check().is_err(), "{s}: nothing more is sent");
            // get-value without a model: an error, not a panic.
            let Ok(mut p) = Process::start_with(s, Duration::from_secs(60)) else {
                continue;
            };
            p.send("(assert false)").unwrap();
            assert_eq!(p.check().unwrap(), Response::Unsat, "{s}");
            let a = Arena::new();
            assert!(p.get_values(&a, &[a.true_()]).is_err(), "{s}");
        }
    }
}
