//! Talking to z3: one `z3 -smt2 -in` process per worker (through `easy-smt`), queries sent in
//! push/pop scopes with a per-query timeout, models read back, replay files written on demand.

use crate::term::{op_name, Node, Sort, Term};
use easy_smt::{Context, ContextBuilder, Response, SExpr};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One satisfiability question: is the conjunction of `assertions` satisfiable?
#[derive(Clone, Debug)]
pub struct Query {
    /// A file-name-safe name (used for `.smt2` dumps).
    pub name: String,
    /// Conjuncts.
    pub assertions: Vec<Term>,
    /// Terms whose values a model should report (booleans read as 0/1).
    pub watch: Vec<Term>,
    /// Extra assumptions tried first on a satisfiable query, for small counterexamples.
    pub small: Option<Term>,
    /// Facts added only when the query is satisfiable without them (cheap first attempt,
    /// exact second one).
    pub refine: Vec<Term>,
    /// Only the cheap attempts: a query that multiplies symbolic values gets the linear
    /// over-approximation and a short try of the exact integer translation, no bit-blasting;
    /// others the usual check.
    pub cheap: bool,
}

impl Query {
    /// Every subterm of the query (assertions, refinement facts, watch terms, small-model
    /// hint) once, children before parents, with how many parents each has (roots count
    /// one): the order in which encoders translate, and which subterms to name.
    pub(crate) fn postorder(&self) -> (Vec<Term>, HashMap<usize, u32>) {
        let mut refs: HashMap<usize, u32> = HashMap::new();
        let mut order: Vec<Term> = vec![];
        let mut stack: Vec<(Term, bool)> = self
            .assertions
            .iter()
            .chain(&self.refine)
            .chain(&self.watch)
            .chain(&self.small)
            .map(|r| (r.clone(), false))
            .collect();
        while let Some((t, done)) = stack.pop() {
            if done {
                order.push(t);
                continue;
            }
            let c = refs.entry(t.id()).or_insert(0);
            *c += 1;
            if *c > 1 {
                continue;
            }
            stack.push((t.clone(), true));
            if let Node::App(_, args, _) = &*t.0 {
                for a in args.iter().rev() {
                    stack.push((a.clone(), false));
                }
            }
        }
        (order, refs)
    }
}

/// The solver's answer.
#[derive(Clone, Debug)]
pub enum Answer {
    /// Satisfiable, with the values of [`Query::watch`] (`None` where unreadable).
    Sat(Vec<Option<u128>>),
    /// Unsatisfiable.
    Unsat,
    /// No answer, with the reason.
    Unknown(String),
}

/// A z3 process.
pub struct Solver {
    ctx: Context,
    timeout: Duration,
    /// The per-check limit in force (`timeout`, or lower inside `with_timeout`).
    current: Duration,
    /// The z3 process id, for the watchdog of [`Solver::check_with`].
    pid: Option<u32>,
    /// The process stopped answering (killed by the watchdog): nothing more is sent.
    dead: bool,
}

/// Serialises solver starts, so the child a start adds is known.
static STARTING: Mutex<()> = Mutex::new(());

/// The child processes of this process (Linux; empty elsewhere).
fn children() -> std::collections::BTreeSet<u32> {
    let mut out = std::collections::BTreeSet::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for t in tasks.flatten() {
        if let Ok(list) = std::fs::read_to_string(t.path().join("children")) {
            out.extend(
                list.split_whitespace()
                    .filter_map(|p| p.parse::<u32>().ok()),
            );
        }
    }
    out
}

/// How long a z3 process asked for an answer may use no CPU time at all before it is taken
/// for deadlocked: z3 4.8.12 (Debian 12's) sometimes blocks for good on an internal lock of
/// its timers, idle, while we wait for its answer.
const STALL: Duration = Duration::from_secs(10);

/// The CPU time process `pid` has used, in clock ticks (Linux; `None` elsewhere).
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) in parentheses; utime and stime
    // are the 14th and 15th fields of the line, the 12th and 13th after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// Kills process `pid` unless `cancel` fires within `limit`, or earlier when it uses no CPU
/// time for [`STALL`] (deadlocked): z3 does not always honour its own time limits
/// (bit-blasting a product of 64-bit terms ran for many minutes under them), and z3 4.8.12
/// can deadlock. A killed process's query is asked again of a fresh one (`SolverPool`).
fn watchdog(pid: u32, limit: Duration) -> std::sync::mpsc::Sender<()> {
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        let start = Instant::now();
        let poll = Duration::from_secs(1);
        let mut last = (cpu_ticks(pid), Instant::now());
        loop {
            let left = limit.saturating_sub(start.elapsed());
            match rx.recv_timeout(poll.min(left)) {
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                _ => return,
            }
            if start.elapsed() >= limit {
                break;
            }
            let now = cpu_ticks(pid);
            if now.is_none() || now != last.0 {
                last = (now, Instant::now());
            } else if last.1.elapsed() >= STALL {
                break;
            }
        }
        let _ = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .stderr(std::process::Stdio::null())
            .status();
    });
    tx
}

impl Solver {
    /// Starts z3 with the per-query `timeout`.
    pub fn new(timeout: Duration) -> io::Result<Solver> {
        let guard = STARTING.lock();
        let before = children();
        let mut ctx = ContextBuilder::new()
            .solver("z3")
            .solver_args(["-smt2", "-in"])
            .build()?;
        let added: Vec<u32> = children().difference(&before).copied().collect();
        drop(guard);
        let pid = match added.as_slice() {
            [p] => Some(*p),
            _ => None,
        };
        let ms = timeout.as_millis().clamp(1, u32::MAX as u128) as u64;
        ctx.set_option(":timeout", ctx.numeral(ms))?;
        Ok(Solver {
            ctx,
            timeout,
            current: timeout,
            pid,
            dead: false,
        })
    }

    /// Decides `q`; I/O failures become `Unknown`. Queries that multiply symbolic values are
    /// first tried in the (exact) integer translation, and go to z3's `qfbv` tactic
    /// (preprocessing and bit-blasting) when that times out: several times faster than the
    /// incremental core on multipliers, slower on the many small queries.
    pub fn check(&mut self, q: &Query, dump: Option<&PathBuf>) -> io::Result<Answer> {
        let start = Instant::now();
        let mut hard = false;
        if crate::intenc::nonlinear(q) {
            let cheap = CHEAP_TIMEOUT.min(self.timeout);
            let mut pins = vec![];
            if let Some(enc) = crate::intenc::encode_linear(&self.ctx, q) {
                write_dump(dump, &q.name, "lin.smt2", &enc, &self.ctx);
                let names = factor_symbols(q);
                let lin = if q.cheap {
                    let t = CHEAP_LINEAR_TIMEOUT.min(self.timeout);
                    self.with_timeout(t, |s| s.linear(&enc, &names))?
                } else {
                    self.linear(&enc, &names)?
                };
                match lin {
                    Linear::Refuted => return Ok(Answer::Unsat),
                    Linear::Model(p) => pins = p,
                    Linear::Unknown => {}
                }
            }
            if let Some(mut enc) = crate::intenc::encode(&self.ctx, q) {
                write_dump(dump, &q.name, "int.smt2", &enc, &self.ctx);
                // The linear model's launch values (dimensions, parameters, lengths) often
                // make the exact query linear and easy; a model with them pinned is a model.
                if !pins.is_empty() {
                    let n = enc.asserts.len();
                    for (name, v) in &pins {
                        let pin = self.ctx.eq(self.ctx.atom(name), self.ctx.numeral(*v));
                        enc.asserts.push(pin);
                    }
                    // Pinned, the products are mostly by constants: linear-integer tactic.
                    let t = PIN_TIMEOUT.min(self.timeout);
                    let res = self.with_timeout(t, |s| s.scoped(&enc, Some("qflia"), start))?;
                    if let Answer::Sat(_) = res {
                        return Ok(res);
                    }
                    enc.asserts.truncate(n);
                    // z3 decides the exact query far less reliably in a process that has just
                    // run other checks (seen: 0.2 s fresh, "unknown" after); start afresh.
                    self.restart()?;
                    enc = crate::intenc::encode(&self.ctx, q).ok_or_else(|| {
                        io::Error::other("the integer translation changed between attempts")
                    })?;
                }
                let res = if q.cheap {
                    self.with_timeout(cheap, |s| s.scoped(&enc, None, start))?
                } else {
                    self.scoped(&enc, None, start)?
                };
                if q.cheap || !matches!(res, Answer::Unknown(_)) {
                    return Ok(res);
                }
                hard = true;
            }
        }
        let enc = encode(&self.ctx, q);
        write_dump(dump, &q.name, "smt2", &enc, &self.ctx);
        self.scoped(&enc, hard.then_some("qfbv"), start)
    }

    /// Replaces the z3 process by a fresh one with the same timeout.
    fn restart(&mut self) -> io::Result<()> {
        *self = Solver::new(self.timeout)?;
        Ok(())
    }

    /// [`Self::run`] inside a push/pop scope.
    fn scoped(
        &mut self,
        enc: &Encoded,
        tactic: Option<&str>,
        start: Instant,
    ) -> io::Result<Answer> {
        self.ctx.push()?;
        let res = self.run(enc, tactic, start);
        if self.dead {
            return res;
        }
        let popped = self.ctx.pop();
        let res = res?;
        popped?;
        Ok(res)
    }

    /// Runs `f` with the solver's per-check timeout lowered to `t`.
    fn with_timeout<R>(
        &mut self,
        t: Duration,
        f: impl FnOnce(&mut Self) -> io::Result<R>,
    ) -> io::Result<R> {
        let ms = |d: Duration| {
            self.ctx
                .numeral(d.as_millis().clamp(1, u32::MAX as u128) as u64)
        };
        let (short, full) = (ms(t), ms(self.timeout));
        self.ctx.set_option(":timeout", short)?;
        let outer = self.current;
        self.current = t.min(outer);
        let res = f(self);
        self.current = outer;
        if !self.dead {
            self.ctx.set_option(":timeout", full)?;
        }
        res
    }

    /// Decides `enc`, a linear over-approximation: `Refuted` proves the original query
    /// unsatisfiable; a model proves nothing, but its values of the symbols `names` are
    /// returned as hints. Leaves no trace in the solver.
    fn linear(&mut self, enc: &Encoded, names: &[String]) -> io::Result<Linear> {
        self.ctx.push()?;
        let res = (|| {
            self.load(enc)?;
            // z3's linear-integer tactic: the fastest and steadiest on these queries.
            Ok(match self.check_with(Some("qflia"))? {
                Response::Unsat => Linear::Refuted,
                Response::Unknown => Linear::Unknown,
                Response::Sat => {
                    // Prefer a small model: its values pin down a small counterexample. When
                    // there is none, the solver holds no model to read: no hints then.
                    if let Some(small) = enc.small {
                        let g = self.ctx.atom("small_guard");
                        self.ctx
                            .declare_const("small_guard", self.ctx.bool_sort())?;
                        self.ctx.assert(self.ctx.imp(g, small))?;
                        if self.ctx.check_assuming([g])? != Response::Sat {
                            return Ok(Linear::Model(vec![]));
                        }
                    }
                    let declared: Vec<&String> = names
                        .iter()
                        .filter(|n| enc.decls.iter().any(|(d, _)| d == *n))
                        .collect();
                    let atoms: Vec<SExpr> = declared.iter().map(|n| self.ctx.atom(*n)).collect();
                    let vals = self.values(&atoms)?;
                    Linear::Model(
                        declared
                            .into_iter()
                            .zip(vals)
                            .filter_map(|(n, v)| Some((n.clone(), v?)))
                            .collect(),
                    )
                }
            })
        })();
        if !self.dead {
            self.ctx.pop()?;
        }
        res
    }

    /// `check-sat-using` the tactic, by default z3's `smt` tactic: the same core as a plain
    /// `check-sat`, but run as a one-shot tactic, which inside a push/pop scope keeps z3's
    /// preprocessing that the incremental solver skips (3–10× faster on our queries).
    fn check_with(&mut self, tactic: Option<&str>) -> io::Result<Response> {
        let t = tactic.unwrap_or("smt");
        // The `:timeout` option does not reach every tactic (bit-blasting a product of
        // 64-bit terms ran for many minutes under it): `try-for` bounds the tactic itself.
        let ms = self.current.as_millis().clamp(1, u32::MAX as u128) as u64;
        let bounded = self.ctx.list(vec![
            self.ctx.atom("try-for"),
            self.ctx.atom(t),
            self.ctx.numeral(ms),
        ]);
        let cmd = self
            .ctx
            .list(vec![self.ctx.atom("check-sat-using"), bounded]);
        self.ctx.raw_send(cmd)?;
        // A backstop for a runaway process only: measured from the full query limit (not a
        // lowered one), so a loaded machine's slow answer to a cheap attempt is not killed.
        let dog = self
            .pid
            .map(|p| watchdog(p, self.timeout * 3 + Duration::from_secs(30)));
        let resp = self.ctx.raw_recv();
        drop(dog);
        // A killed process must not be written to again (SIGPIPE ends the CLI).
        self.dead |= resp.is_err();
        let resp = resp.map_err(|e| {
            io::Error::other(format!(
                "solver stopped after its time limit ({} ms): {e}",
                self.current.as_millis()
            ))
        })?;
        match self.ctx.get_atom(resp) {
            Some("sat") => Ok(Response::Sat),
            Some("unsat") => Ok(Response::Unsat),
            Some("unknown") => Ok(Response::Unknown),
            _ => Err(io::Error::other(format!(
                "unexpected solver answer: {}",
                self.ctx.display(resp)
            ))),
        }
    }

    /// Declares, defines and asserts what `enc` holds (its refinement facts excepted).
    fn load(&mut self, enc: &Encoded) -> io::Result<()> {
        for (name, sort) in &enc.decls {
            self.ctx.declare_const(name, *sort)?;
        }
        for (name, sort, body) in &enc.defs {
            self.ctx.define_const(name, *sort, *body)?;
        }
        for a in &enc.asserts {
            self.ctx.assert(*a)?;
        }
        Ok(())
    }

    fn run(&mut self, enc: &Encoded, tactic: Option<&str>, start: Instant) -> io::Result<Answer> {
        self.load(enc)?;
        let mut resp = self.check_with(tactic)?;
        if resp == Response::Sat && !enc.refine.is_empty() {
            for a in &enc.refine {
                self.ctx.assert(*a)?;
            }
            resp = self.check_with(tactic)?;
        }
        match resp {
            Response::Unsat => Ok(Answer::Unsat),
            Response::Unknown => Ok(Answer::Unknown(self.unknown_reason(start))),
            Response::Sat => {
                let mut vals = self.values(&enc.watch)?;
                if let Some(small) = enc.small {
                    let g = self.ctx.atom("small_guard");
                    self.ctx
                        .declare_const("small_guard", self.ctx.bool_sort())?;
                    self.ctx.assert(self.ctx.imp(g, small))?;
                    if let Ok(Response::Sat) = self.ctx.check_assuming([g]) {
                        vals = self.values(&enc.watch)?;
                    }
                }
                Ok(Answer::Sat(vals))
            }
        }
    }

    fn unknown_reason(&self, start: Instant) -> String {
        if start.elapsed() * 10 >= self.timeout * 9 {
            format!("solver timeout ({} ms)", self.timeout.as_millis())
        } else {
            "the solver gave up (unknown)".into()
        }
    }

    fn values(&mut self, watch: &[SExpr]) -> io::Result<Vec<Option<u128>>> {
        if watch.is_empty() {
            return Ok(vec![]);
        }
        // Sent and read here rather than through `get_value`, which panics on an answer that
        // is not a list of pairs (z3 reports a missing model as `(error …)`).
        let cmd = self.ctx.list(vec![
            self.ctx.atom("get-value"),
            self.ctx.list(watch.to_vec()),
        ]);
        self.ctx.raw_send(cmd)?;
        // A backstop for a runaway process only: measured from the full query limit (not a
        // lowered one), so a loaded machine's slow answer to a cheap attempt is not killed.
        let dog = self
            .pid
            .map(|p| watchdog(p, self.timeout * 3 + Duration::from_secs(30)));
        let resp = self.ctx.raw_recv();
        drop(dog);
        // A killed process must not be written to again (SIGPIPE ends the CLI).
        self.dead |= resp.is_err();
        let resp = resp.map_err(|e| {
            io::Error::other(format!(
                "solver stopped after its time limit ({} ms): {e}",
                self.current.as_millis()
            ))
        })?;
        let bad = || io::Error::other(format!("no model: {}", self.ctx.display(resp)));
        let Some(pairs) = self.ctx.get_list(resp) else {
            return Err(bad());
        };
        if pairs.len() != watch.len() {
            return Err(bad());
        }
        pairs
            .iter()
            .map(|p| match self.ctx.get_list(*p) {
                Some([_, v]) => Ok(parse_value(&self.ctx, *v)),
                _ => Err(bad()),
            })
            .collect()
    }
}

fn parse_value(ctx: &Context, v: SExpr) -> Option<u128> {
    let a = ctx.get_atom(v)?;
    if a == "true" {
        return Some(1);
    }
    if a == "false" {
        return Some(0);
    }
    if let Some(h) = a.strip_prefix("#x") {
        return u128::from_str_radix(h, 16).ok();
    }
    if let Some(b) = a.strip_prefix("#b") {
        return u128::from_str_radix(b, 2).ok();
    }
    a.parse::<u128>().ok()
}

/// What the linear over-approximation says.
enum Linear {
    Refuted,
    /// Satisfiable, with the model's values of the requested symbols.
    Model(Vec<(String, u128)>),
    Unknown,
}

/// The launch-level symbols (dimensions, parameters: shared by both threads) that occur in a
/// factor of a product of two non-constant values: pinned to values, they leave the products
/// linear. Buffer lengths are not among them unless they are factors themselves; a length
/// defined as a product must stay free for the pinned query to keep its models.
fn factor_symbols(q: &Query) -> Vec<String> {
    use crate::term::SymKind;
    let mut names = std::collections::BTreeSet::new();
    crate::intenc::products(q, &mut |factors| {
        for x in factors.iter().flat_map(Term::free_syms) {
            if let Some(s) = x.as_sym() {
                if s.kind == SymKind::Shared && matches!(s.sort, Sort::Bv(_)) {
                    names.insert(s.name.clone());
                }
            }
        }
        true
    });
    names.into_iter().collect()
}

/// The longest a [cheap](Query::cheap) query may take in the exact integer translation.
const CHEAP_TIMEOUT: Duration = Duration::from_millis(700);

/// The longest a [cheap](Query::cheap) query may take in the linear translation: it refutes
/// combined queries of correct kernels in well under this, and a satisfiable one (a buggy
/// kernel) is better left to the exact attempt.
const CHEAP_LINEAR_TIMEOUT: Duration = Duration::from_millis(400);

/// The longest the pinned (counterexample-finding) attempt may take: pinned queries are
/// nearly linear, and a satisfiable one is answered in milliseconds.
const PIN_TIMEOUT: Duration = Duration::from_millis(150);

/// Writes `enc` as `DIR/NAME.SUFFIX` when dumping is on; a failed dump is not an error.
fn write_dump(dump: Option<&PathBuf>, name: &str, suffix: &str, enc: &Encoded, ctx: &Context) {
    if let Some(dir) = dump {
        let _ = std::fs::create_dir_all(dir);
        let _ = std::fs::write(dir.join(format!("{name}.{suffix}")), enc.text(ctx));
    }
}

/// A query turned into solver commands.
#[derive(Default)]
pub(crate) struct Encoded {
    pub(crate) decls: Vec<(String, SExpr)>,
    pub(crate) defs: Vec<(String, SExpr, SExpr)>,
    pub(crate) asserts: Vec<SExpr>,
    pub(crate) refine: Vec<SExpr>,
    pub(crate) watch: Vec<SExpr>,
    pub(crate) small: Option<SExpr>,
}

impl Encoded {
    fn text(&self, ctx: &Context) -> String {
        let mut s = String::from("(set-option :produce-models true)\n");
        for (n, sort) in &self.decls {
            let _ = writeln!(s, "(declare-const {n} {})", ctx.display(*sort));
        }
        for (n, sort, b) in &self.defs {
            let _ = writeln!(
                s,
                "(define-fun {n} () {} {})",
                ctx.display(*sort),
                ctx.display(*b)
            );
        }
        for a in &self.asserts {
            let _ = writeln!(s, "(assert {})", ctx.display(*a));
        }
        if !self.refine.is_empty() {
            s.push_str("; refinement, asserted when the query above is satisfiable:\n");
            for a in &self.refine {
                let _ = writeln!(s, "; (assert {})", ctx.display(*a));
            }
        }
        s.push_str("(check-sat)\n");
        if !self.watch.is_empty() {
            let w: Vec<String> = self
                .watch
                .iter()
                .map(|w| ctx.display(*w).to_string())
                .collect();
            let _ = writeln!(s, "(get-value ({}))", w.join(" "));
        }
        s
    }
}

fn sort_sexpr(ctx: &Context, s: Sort) -> SExpr {
    match s {
        Sort::Bool => ctx.bool_sort(),
        Sort::Bv(w) => ctx.bit_vec_sort(ctx.numeral(w)),
    }
}

/// A boolean or bit-vector constant (anything else is `false`).
fn constant(ctx: &Context, t: &Term) -> SExpr {
    match &*t.0 {
        Node::BoolC(true) => ctx.true_(),
        Node::BvC(w, v) => ctx.list(vec![
            ctx.atom("_"),
            ctx.atom(format!("bv{v}")),
            ctx.numeral(*w),
        ]),
        _ => ctx.false_(),
    }
}

fn encode(ctx: &Context, q: &Query) -> Encoded {
    // Count parents so that shared subterms become named definitions.
    let (order, refs) = q.postorder();
    let mut memo: HashMap<usize, SExpr> = HashMap::new();
    let mut enc = Encoded {
        decls: vec![],
        defs: vec![],
        asserts: vec![],
        refine: vec![],
        watch: vec![],
        small: None,
    };
    for t in &order {
        let e = match &*t.0 {
            Node::BoolC(_) | Node::BvC(..) => constant(ctx, t),
            Node::Sym(s) => {
                enc.decls.push((s.name.clone(), sort_sexpr(ctx, s.sort)));
                ctx.atom(s.name.clone())
            }
            Node::App(op, args, sort) => {
                let mut items = vec![ctx.atom(op_name(*op))];
                items.extend(args.iter().map(|a| memo[&a.id()]));
                let body = ctx.list(items);
                if refs.get(&t.id()).copied().unwrap_or(0) > 1 {
                    let name = format!("d{}", enc.defs.len());
                    enc.defs.push((name.clone(), sort_sexpr(ctx, *sort), body));
                    ctx.atom(name)
                } else {
                    body
                }
            }
            Node::Forall(vars, body) => {
                let bound: std::collections::HashSet<&str> = vars
                    .iter()
                    .filter_map(|v| v.as_sym().map(|s| s.name.as_str()))
                    .collect();
                for s in t.free_syms() {
                    if let Some(x) = s.as_sym() {
                        enc.decls.push((x.name.clone(), sort_sexpr(ctx, x.sort)));
                    }
                }
                let binders: Vec<SExpr> = vars
                    .iter()
                    .map(|v| ctx.list(vec![ctx.atom(v.to_string()), sort_sexpr(ctx, v.sort())]))
                    .collect();
                let b = inline(ctx, body, &bound, &memo, &mut HashMap::new());
                ctx.list(vec![ctx.atom("forall"), ctx.list(binders), b])
            }
        };
        memo.insert(t.id(), e);
    }
    let mut declared = std::collections::HashSet::new();
    enc.decls.retain(|(n, _)| declared.insert(n.clone()));
    enc.asserts = q.assertions.iter().map(|a| memo[&a.id()]).collect();
    enc.refine = q.refine.iter().map(|a| memo[&a.id()]).collect();
    enc.watch = q.watch.iter().map(|a| memo[&a.id()]).collect();
    enc.small = q.small.as_ref().map(|a| memo[&a.id()]);
    enc
}

/// A term inside a quantifier: subterms free of the bound symbols reuse their top-level
/// encoding when there is one; the rest are spelled out (a top-level definition would refer
/// to the global constant, not the bound variable).
fn inline(
    ctx: &Context,
    t: &Term,
    bound: &std::collections::HashSet<&str>,
    top: &HashMap<usize, SExpr>,
    local: &mut HashMap<usize, SExpr>,
) -> SExpr {
    if let Some(e) = local.get(&t.id()) {
        return *e;
    }
    let depends = || {
        t.free_syms()
            .iter()
            .any(|s| s.as_sym().is_some_and(|x| bound.contains(x.name.as_str())))
    };
    if let Some(e) = top.get(&t.id()).filter(|_| !depends()) {
        return *e;
    }
    let e = match &*t.0 {
        Node::BoolC(_) | Node::BvC(..) => constant(ctx, t),
        Node::Sym(s) => ctx.atom(s.name.clone()),
        Node::App(op, args, _) => {
            let mut items = vec![ctx.atom(op_name(*op))];
            items.extend(args.iter().map(|a| inline(ctx, a, bound, top, local)));
            ctx.list(items)
        }
        Node::Forall(vars, body) => {
            let mut inner = bound.clone();
            inner.extend(
                vars.iter()
                    .filter_map(|v| v.as_sym().map(|s| s.name.as_str())),
            );
            let binders: Vec<SExpr> = vars
                .iter()
                .map(|v| ctx.list(vec![ctx.atom(v.to_string()), sort_sexpr(ctx, v.sort())]))
                .collect();
            let b = inline(ctx, body, &inner, top, &mut HashMap::new());
            ctx.list(vec![ctx.atom("forall"), ctx.list(binders), b])
        }
    };
    local.insert(t.id(), e);
    e
}

/// Solvers shared by the rayon workers of one verification run (at most one per worker).
pub struct SolverPool {
    free: Mutex<Vec<Solver>>,
    timeout: Duration,
    dump: Option<PathBuf>,
    deadline: Option<Instant>,
}

impl SolverPool {
    /// An empty pool; solvers start on first use.
    pub fn new(timeout: Duration, dump: Option<PathBuf>) -> SolverPool {
        SolverPool {
            free: Mutex::new(vec![]),
            timeout,
            dump,
            deadline: None,
        }
    }

    /// The pool with a deadline for the whole run: a query asked after it answers `unknown`,
    /// one asked before gets at most the time left.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> SolverPool {
        self.deadline = deadline;
        self
    }

    /// Decides `q` on a free solver (starting one if needed).
    pub fn check(&self, q: &Query) -> Answer {
        if q.assertions.iter().any(|a| a.as_bool() == Some(false)) {
            if let Some(dir) = &self.dump {
                let _ = std::fs::create_dir_all(dir);
                let _ = std::fs::write(
                    dir.join(format!("{}.smt2", q.name)),
                    "(assert false)\n(check-sat)\n",
                );
            }
            return Answer::Unsat;
        }
        // z3's nonlinear and linear-integer runs are sensitive to what earlier queries left in
        // the process (a query taking 0.2 s alone took 5 s after others); they get a fresh one.
        let fresh = crate::intenc::nonlinear(q);
        let popped = if fresh {
            None
        } else {
            self.free.lock().map(|mut v| v.pop()).unwrap_or(None)
        };
        let mut solver = match popped {
            Some(s) => s,
            None => match Solver::new(self.timeout) {
                Ok(s) => s,
                Err(e) => return Answer::Unknown(format!("cannot start z3: {e}")),
            },
        };
        // A solver process that answers something unexpected must not take the run down:
        // the answer is unknown, and the process is dropped.
        let left = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        if left.is_some_and(|l| l.is_zero()) {
            return Answer::Unknown("the time budget of the run (--timeout) is spent".into());
        }
        let ask = |solver: &mut Solver| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match left {
                Some(l) if l < self.timeout => {
                    solver.with_timeout(l, |s| s.check(q, self.dump.as_ref()))
                }
                _ => solver.check(q, self.dump.as_ref()),
            }))
        };
        let mut checked = ask(&mut solver);
        // A process that died mid-query (killed by its watchdog on a loaded machine, or
        // crashed) says nothing about the query: it is asked once more, of a fresh process.
        if matches!(checked, Ok(Err(_))) && solver.dead {
            match Solver::new(self.timeout) {
                Ok(s) => {
                    solver = s;
                    checked = ask(&mut solver);
                }
                Err(e) => return Answer::Unknown(format!("cannot restart z3: {e}")),
            }
        }
        let Ok(checked) = checked else {
            return Answer::Unknown("the solver interface failed on this query".into());
        };
        match checked {
            Ok(a) => {
                if !fresh {
                    if let Ok(mut v) = self.free.lock() {
                        v.push(solver);
                    }
                }
                a
            }
            Err(e) => Answer::Unknown(format!("solver error: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idle_process_is_taken_for_deadlocked_and_killed_long_before_the_limit() {
        if cpu_ticks(std::process::id()).is_none() {
            return; // no /proc: only the limit applies
        }
        let mut idle = std::process::Command::new("sleep")
            .arg("300")
            .spawn()
            .expect("sleep starts");
        let start = Instant::now();
        let _dog = watchdog(idle.id(), Duration::from_secs(300));
        let status = idle.wait().expect("waits");
        assert!(!status.success(), "killed, not finished");
        let took = start.elapsed();
        assert!(took >= STALL && took < STALL * 3, "killed after {took:?}");
    }

    #[test]
    fn a_busy_process_is_left_to_its_limit() {
        if cpu_ticks(std::process::id()).is_none() {
            return;
        }
        let mut busy = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .expect("sh starts");
        let start = Instant::now();
        let _dog = watchdog(busy.id(), STALL + Duration::from_secs(3));
        let status = busy.wait().expect("waits");
        assert!(!status.success());
        assert!(start.elapsed() >= STALL + Duration::from_secs(3));
    }
}
