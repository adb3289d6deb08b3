//! Talking to z3 through `warpsafe-smt`: one process per worker, queries sent in push/pop
//! scopes with a per-query timeout, models read back, answers cached by the exact query text,
//! replay files written on demand.

use crate::term::{Node, Sort, Sym, Term};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use warpsafe_smt::{Arena, Cached, Pool, Process, Reply, Response, SExpr};

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
            if let Some((_, args)) = t.as_app() {
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

/// One query's conversation with a z3 process: the strategy (linear over-approximation,
/// pinned and exact integer translations, bit-vectors) over [`warpsafe_smt::Process`].
pub(crate) struct Session<'a> {
    ctx: &'a Arena,
    proc: &'a mut Process,
    timeout: Duration,
    /// The per-check limit in force (`timeout`, or lower inside `with_timeout`).
    current: Duration,
}

impl<'a> Session<'a> {
    /// A session on `proc` with the per-query `timeout`, building terms in `ctx`.
    pub(crate) fn new(
        ctx: &'a Arena,
        proc: &'a mut Process,
        timeout: Duration,
    ) -> io::Result<Session<'a>> {
        proc.set_timeout(timeout)?;
        Ok(Session {
            ctx,
            proc,
            timeout,
            current: timeout,
        })
    }

    /// Decides `q`, whose bit-vector encoding is `bv`. Queries that multiply symbolic values
    /// are first tried in the (exact) integer translation, and go to z3's `qfbv` tactic
    /// (preprocessing and bit-blasting) when that times out: several times faster than the
    /// incremental core on multipliers, slower on the many small queries.
    pub(crate) fn check(
        &mut self,
        q: &Query,
        bv: &Encoded,
        dump: Option<&PathBuf>,
    ) -> io::Result<Answer> {
        let start = Instant::now();
        let mut hard = false;
        if crate::intenc::nonlinear(q) {
            let cheap = CHEAP_TIMEOUT.min(self.timeout);
            let mut pins = vec![];
            if let Some(enc) = crate::intenc::encode_linear(self.ctx, q) {
                write_dump(dump, &q.name, "lin.smt2", &enc, self.ctx);
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
            if let Some(mut enc) = crate::intenc::encode(self.ctx, q) {
                write_dump(dump, &q.name, "int.smt2", &enc, self.ctx);
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
                    self.proc.restart()?;
                    self.proc.set_timeout(self.current)?;
                }
                let res = if q.cheap {
                    self.with_timeout(cheap, |s| s.scoped(&enc, None, start))?
                } else {
                    self.exact_or_refuted(&enc, bv, start)?
                };
                if q.cheap || !matches!(res, Answer::Unknown(_)) {
                    return Ok(res);
                }
                hard = true;
            }
        }
        self.scoped(bv, hard.then_some("qfbv"), start)
    }

    /// Decides the exact integer translation `int` of a query whose bit-vector encoding is
    /// `bv`, with a bit-vector refutation tried in between: past a short integer attempt the
    /// bit-blaster gets a short try, whose `unsat` is taken and whose model is taken only
    /// within the launch's small values (its other models choose large values, which replay
    /// worse than the integer ones), then the integer translation gets the whole limit in a
    /// fresh process. Some queries the bit-blaster refutes in 0.2 s take
    /// the integer core over a minute (a register-blocked SGEMM's float4 tile stores).
    fn exact_or_refuted(
        &mut self,
        int: &Encoded,
        bv: &Encoded,
        start: Instant,
    ) -> io::Result<Answer> {
        if self.current <= INT_SLICE {
            return self.scoped(int, None, start);
        }
        let first = self.with_timeout(INT_SLICE, |s| s.scoped(int, None, start))?;
        if !matches!(first, Answer::Unknown(_)) {
            return Ok(first);
        }
        // The try is a shortcut: a solver that died in it (seen once in a loaded test run)
        // is restarted below like one that gave up.
        let tried = self.with_timeout(BV_SLICE, |s| s.scoped_sized(bv, Some("qfbv"), start));
        match tried {
            Ok((Answer::Unsat, _)) => return Ok(Answer::Unsat),
            // A model within the launch's small values replays as well as an integer one
            // (a wmma GEMM's race between warps: 0.05 s bit-blasted, 71 s in the integer core).
            Ok((sat @ Answer::Sat(_), true)) => return Ok(sat),
            _ => {}
        }
        self.proc.restart()?;
        self.proc.set_timeout(self.current)?;
        self.scoped(int, None, start)
    }

    /// [`Self::run_sized`]'s answer inside a push/pop scope.
    fn scoped(
        &mut self,
        enc: &Encoded,
        tactic: Option<&str>,
        start: Instant,
    ) -> io::Result<Answer> {
        Ok(self.scoped_sized(enc, tactic, start)?.0)
    }

    /// [`Self::run_sized`] inside a push/pop scope.
    fn scoped_sized(
        &mut self,
        enc: &Encoded,
        tactic: Option<&str>,
        start: Instant,
    ) -> io::Result<(Answer, bool)> {
        self.proc.push()?;
        let res = self.run_sized(enc, tactic, start);
        if self.proc.is_dead() {
            return res;
        }
        let popped = self.proc.pop();
        let res = res?;
        popped?;
        Ok(res)
    }

    /// Runs `f` with the solver's per-check timeout lowered to `t`.
    pub(crate) fn with_timeout<R>(
        &mut self,
        t: Duration,
        f: impl FnOnce(&mut Self) -> io::Result<R>,
    ) -> io::Result<R> {
        let outer = self.current;
        self.current = t.min(outer);
        self.proc.set_timeout(self.current)?;
        let res = f(self);
        self.current = outer;
        if !self.proc.is_dead() {
            self.proc.set_timeout(outer)?;
        }
        res
    }

    /// Decides `enc`, a linear over-approximation: `Refuted` proves the original query
    /// unsatisfiable; a model proves nothing, but its values of the symbols `names` are
    /// returned as hints. Leaves no trace in the solver.
    fn linear(&mut self, enc: &Encoded, names: &[String]) -> io::Result<Linear> {
        self.proc.push()?;
        let res = (|| {
            self.load(enc)?;
            // z3's linear-integer tactic: the fastest and steadiest on these queries. Some it
            // does not finish in minutes that its `smt` tactic refutes in a second (NVRTC's
            // loops unrolled by four: remainders `(end - begin) & 3` beside steps of four),
            // so past a short try the `smt` tactic gets the rest of the limit.
            let resp = if self.current > LINEAR_QFLIA_TIMEOUT {
                match self.with_timeout(LINEAR_QFLIA_TIMEOUT, |s| s.check_with(Some("qflia")))? {
                    Response::Unknown if !self.proc.is_dead() => {
                        // In the process whose `qflia` just gave up, z3 ran the `smt` tactic
                        // past its limit (over 60 s, where a fresh process answers in 3 s):
                        // start afresh, in a scope as before.
                        self.proc.restart()?;
                        self.proc.set_timeout(self.current)?;
                        self.proc.push()?;
                        self.load(enc)?;
                        self.check_with(Some("smt"))?
                    }
                    r => r,
                }
            } else {
                self.check_with(Some("qflia"))?
            };
            Ok(match resp {
                Response::Unsat => Linear::Refuted,
                Response::Unknown => Linear::Unknown,
                Response::Sat => {
                    // Prefer a small model: its values pin down a small counterexample. When
                    // there is none, the solver holds no model to read: no hints then.
                    if let Some(small) = enc.small {
                        if !self.small_model(small)? {
                            return Ok(Linear::Model(vec![]));
                        }
                    }
                    let declared: Vec<&String> = names
                        .iter()
                        .filter(|n| enc.decls.iter().any(|(d, _)| d == *n))
                        .collect();
                    let atoms: Vec<SExpr> = declared.iter().map(|n| self.ctx.atom(n)).collect();
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
        if !self.proc.is_dead() {
            self.proc.pop()?;
        }
        res
    }

    /// Asks for a model that also satisfies `small` (through a guard assumption, so the
    /// scope keeps its other models): true when there is one.
    fn small_model(&mut self, small: SExpr) -> io::Result<bool> {
        let g = self.ctx.atom("small_guard");
        self.proc
            .declare_const(self.ctx, "small_guard", self.ctx.bool_sort())?;
        self.proc.assert(self.ctx, self.ctx.imp(g, small))?;
        Ok(self.proc.check_assuming(self.ctx, &[g])? == Response::Sat)
    }

    /// `check-sat-using` the tactic, by default z3's `smt` tactic: the same core as a plain
    /// `check-sat`, but run as a one-shot tactic, which inside a push/pop scope keeps z3's
    /// preprocessing that the incremental solver skips (3–10× faster on our queries). The
    /// tactic is bounded by the limit in force (`try-for`): the `:timeout` option does not
    /// reach every tactic.
    fn check_with(&mut self, tactic: Option<&str>) -> io::Result<Response> {
        self.proc.check_using(tactic.unwrap_or("smt"), self.current)
    }

    /// Declares, defines and asserts what `enc` holds (its refinement facts excepted).
    fn load(&mut self, enc: &Encoded) -> io::Result<()> {
        for (name, sort) in &enc.decls {
            self.proc.declare_const(self.ctx, name, *sort)?;
        }
        for (name, sort, body) in &enc.defs {
            self.proc.define_const(self.ctx, name, *sort, *body)?;
        }
        for a in &enc.asserts {
            self.proc.assert(self.ctx, *a)?;
        }
        Ok(())
    }

    /// Loads `enc`, checks it with `tactic`, and reads the model's values of its watched
    /// terms (a small model where there is one); also whether a model satisfies the
    /// query's small-values constraint (true when the query has none).
    fn run_sized(
        &mut self,
        enc: &Encoded,
        tactic: Option<&str>,
        start: Instant,
    ) -> io::Result<(Answer, bool)> {
        self.load(enc)?;
        let mut resp = self.check_with(tactic)?;
        if resp == Response::Sat && !enc.refine.is_empty() {
            for a in &enc.refine {
                self.proc.assert(self.ctx, *a)?;
            }
            resp = self.check_with(tactic)?;
        }
        match resp {
            Response::Unsat => Ok((Answer::Unsat, false)),
            Response::Unknown => Ok((Answer::Unknown(self.unknown_reason(start)), false)),
            Response::Sat => {
                let mut vals = self.values(&enc.watch)?;
                let mut small = enc.small.is_none();
                if let Some(c) = enc.small {
                    // Without a small model the first one stands.
                    if let Ok(true) = self.small_model(c) {
                        vals = self.values(&enc.watch)?;
                        small = true;
                    }
                }
                Ok((Answer::Sat(vals), small))
            }
        }
    }

    fn unknown_reason(&self, start: Instant) -> String {
        if self.proc.last_timeout_cached() {
            format!(
                "solver timeout ({} ms; cached: this query ran out of that limit or more before)",
                self.timeout.as_millis()
            )
        } else if start.elapsed() * 10 >= self.timeout * 9 {
            format!("solver timeout ({} ms)", self.timeout.as_millis())
        } else {
            "the solver gave up (unknown)".into()
        }
    }

    /// The model's values of `watch` (booleans as 0/1; `None` where unreadable).
    fn values(&mut self, watch: &[SExpr]) -> io::Result<Vec<Option<u128>>> {
        Ok(self
            .proc
            .get_values(self.ctx, watch)?
            .iter()
            .map(Reply::as_u128)
            .collect())
    }
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
                if s.kind == SymKind::Shared && matches!(s.sort, Sort::BitVec(_)) {
                    names.insert(s.name.clone());
                }
            }
        }
        true
    });
    names.into_iter().collect()
}

/// The first attempt at the exact integer translation of a query that is not cheap; past it
/// the bit-vector encoding gets [`BV_SLICE`] to refute the query.
const INT_SLICE: Duration = Duration::from_millis(2000);

/// The bit-vector refutation attempt between two integer ones (see [`INT_SLICE`]).
const BV_SLICE: Duration = Duration::from_millis(1000);

/// The longest a [cheap](Query::cheap) query may take in the exact integer translation.
const CHEAP_TIMEOUT: Duration = Duration::from_millis(700);

/// The longest a [cheap](Query::cheap) query may take in the linear translation: it refutes
/// combined queries of correct kernels in well under this, and a satisfiable one (a buggy
/// kernel) is better left to the exact attempt.
const CHEAP_LINEAR_TIMEOUT: Duration = Duration::from_millis(400);

/// The longest the linear over-approximation is left to z3's `qflia` tactic before its
/// `smt` tactic is tried instead: `qflia` refutes what it refutes well within this.
const LINEAR_QFLIA_TIMEOUT: Duration = Duration::from_millis(1000);

/// The longest the pinned (counterexample-finding) attempt may take: pinned queries are
/// nearly linear, and a satisfiable one is answered in milliseconds.
const PIN_TIMEOUT: Duration = Duration::from_millis(150);

/// Writes `enc` as `DIR/NAME.SUFFIX` when dumping is on; a failed dump is not an error.
fn write_dump(dump: Option<&PathBuf>, name: &str, suffix: &str, enc: &Encoded, ctx: &Arena) {
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
    fn text(&self, ctx: &Arena) -> String {
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

/// The sort as an S-expression, spelled by the terms crate.
fn sort_sexpr(ctx: &Arena, s: Sort) -> SExpr {
    ctx.atom(s.to_string())
}

/// The SMT-LIB text of `t` from the terms crate's printer, the subterms in `names` spelled by
/// their names.
fn spell(ctx: &Arena, t: &Term, names: &HashMap<usize, String>) -> SExpr {
    let mut text = String::new();
    t.write_named(names, &mut text);
    ctx.atom(text)
}

/// The bit-vector encoding of `q`: every free symbol declared once (in the order met), every
/// subterm with several parents defined once (`d0`, `d1`, …, children before parents) and
/// referred to by its name.
pub(crate) fn encode(ctx: &Arena, q: &Query) -> Encoded {
    let (order, refs) = q.postorder();
    let mut names: HashMap<usize, String> = HashMap::new();
    let mut enc = Encoded::default();
    let mut declared = HashSet::new();
    let mut declare = |enc: &mut Encoded, s: &Sym| {
        if declared.insert(s.name.clone()) {
            enc.decls.push((s.name.clone(), sort_sexpr(ctx, s.sort)));
        }
    };
    for t in &order {
        match t.node() {
            Node::Sym(s) => declare(&mut enc, s),
            // Symbols under a quantifier are not in `order`: declare its free ones.
            Node::Forall(..) => {
                for x in t.free_syms() {
                    if let Some(s) = x.as_sym() {
                        declare(&mut enc, s);
                    }
                }
            }
            Node::App(..) if refs.get(&t.id()).copied().unwrap_or(0) > 1 => {
                let body = spell(ctx, t, &names);
                let name = format!("d{}", enc.defs.len());
                enc.defs
                    .push((name.clone(), sort_sexpr(ctx, t.sort()), body));
                names.insert(t.id(), name);
            }
            _ => {}
        }
    }
    let all = |ts: &[Term]| ts.iter().map(|t| spell(ctx, t, &names)).collect();
    enc.asserts = all(&q.assertions);
    enc.refine = all(&q.refine);
    enc.watch = all(&q.watch);
    enc.small = q.small.as_ref().map(|t| spell(ctx, t, &names));
    enc
}

/// Solvers shared by the rayon workers of one verification run (at most one per worker).
pub struct SolverPool {
    pool: Pool,
    timeout: Duration,
    dump: Option<PathBuf>,
    deadline: Option<Instant>,
}

impl SolverPool {
    /// An empty pool; solvers start on first use. Queries are dumped to `dump`, else to the
    /// directory of `warpsafe_smt`'s settings (`WARPSAFE_DUMP_SMT`).
    pub fn new(timeout: Duration, dump: Option<PathBuf>) -> SolverPool {
        SolverPool {
            // A backstop for a runaway process only: measured from the full query limit (not
            // a lowered one), so a loaded machine's slow answer to a cheap attempt is not
            // killed.
            pool: Pool::new(timeout * 3 + Duration::from_secs(30)),
            timeout,
            dump: dump.or_else(|| warpsafe_smt::settings().dump_dir),
            deadline: None,
        }
    }

    /// The pool with a deadline for the whole run: a query asked after it answers `unknown`,
    /// one asked before gets at most the time left.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> SolverPool {
        self.deadline = deadline;
        self
    }

    /// Decides `q` from the cache, or on a free solver (starting one if needed).
    ///
    /// A query with quantified assertions (the uninit property's "no thread wrote the cell")
    /// is first asked without them, briefly: it also holds their instances at likely
    /// witnesses, which usually refute it alone, and z3 takes far longer to find that with
    /// the quantifier present (seen: 0.1 s against more than 10 s on NVRTC's unrolled tile
    /// reads). Dropping assertions only weakens a query, so an unsatisfiable answer stands.
    /// It ends by `until` too when given (a property's share of the run's budget): asked
    /// after it, `q` answers `unknown` naming that share.
    pub fn check_until(&self, q: &Query, until: Option<Instant>) -> Answer {
        if let Some(weaker) = without_quantifiers(q) {
            if let Answer::Unsat = self.check_within(&weaker, Some(INSTANCES_TIMEOUT), until) {
                return Answer::Unsat;
            }
        }
        self.check_within(q, None, until)
    }

    /// [`Self::check_until`] under at most `limit`, for a query whose `unknown` costs only
    /// precision (a length candidate left unproved).
    pub fn check_for(&self, q: &Query, limit: Duration, until: Option<Instant>) -> Answer {
        if let Some(weaker) = without_quantifiers(q) {
            let brief = INSTANCES_TIMEOUT.min(limit);
            if let Answer::Unsat = self.check_within(&weaker, Some(brief), until) {
                return Answer::Unsat;
            }
        }
        self.check_within(q, Some(limit), until)
    }

    /// [`Self::check_until`] without the quantifier-free attempt, under at most `limit` when
    /// given.
    fn check_within(&self, q: &Query, limit: Option<Duration>, until: Option<Instant>) -> Answer {
        if q.assertions.iter().any(|a| a.as_bool() == Some(false)) {
            warpsafe_smt::dump_to(
                self.dump.as_deref(),
                &format!("{}.smt2", q.name),
                "(assert false)\n(check-sat)\n",
            );
            return Answer::Unsat;
        }
        let ctx = Arena::new();
        let bv = encode(&ctx, q);
        let text = bv.text(&ctx);
        warpsafe_smt::dump_to(self.dump.as_deref(), &format!("{}.smt2", q.name), &text);
        let key = cache_key(q, &bv, &ctx, &text);
        if let Some(a) =
            warpsafe_smt::cache::lookup(&key).and_then(|c| from_cached(&c, q.watch.len()))
        {
            return a;
        }
        // The share ends first when it is given and earlier than the run's deadline.
        let share = until.filter(|u| self.deadline.is_none_or(|d| *u < d));
        let now = Instant::now();
        let left = share
            .or(self.deadline)
            .map(|d| d.saturating_duration_since(now));
        let left = match (left, limit) {
            (Some(l), Some(m)) => Some(l.min(m)),
            (l, m) => l.or(m),
        };
        if left.is_some_and(|l| l.is_zero()) {
            return Answer::Unknown(if share.is_some() {
                "this property's share of the time budget (--timeout) is spent".into()
            } else {
                "the time budget of the run (--timeout) is spent".into()
            });
        }
        // z3's nonlinear and linear-integer runs are sensitive to what earlier queries left in
        // the process (a query taking 0.2 s alone took 5 s after others); they get a fresh one.
        let fresh = crate::intenc::nonlinear(q);
        let asked_at = Instant::now();
        let asked = self.pool.run(fresh, |proc| {
            let mut s = Session::new(&ctx, proc, self.timeout)?;
            match left {
                Some(l) if l < self.timeout => {
                    s.with_timeout(l, |s| s.check(q, &bv, self.dump.as_ref()))
                }
                _ => s.check(q, &bv, self.dump.as_ref()),
            }
        });
        // An unknown that used up a limit lowered to what was left of the budget is the
        // budget's, not the solver's.
        let asked = asked.map(|a| match (a, left) {
            (Answer::Unknown(_), Some(l))
                if l < self.timeout && limit.is_none() && asked_at.elapsed() * 10 >= l * 9 =>
            {
                Answer::Unknown(format!(
                    "solver timeout ({} ms: what was left of {})",
                    l.as_millis(),
                    if share.is_some() {
                        "this property's share of the time budget (--timeout)"
                    } else {
                        "the time budget of the run (--timeout)"
                    }
                ))
            }
            (a, _) => a,
        });
        match asked {
            Ok(a) => {
                if let Some(c) = to_cached(&a) {
                    warpsafe_smt::cache::store(&key, &c);
                }
                a
            }
            Err(e) => Answer::Unknown(format!("solver error: {e}")),
        }
    }
}

/// The longest the attempt without quantified assertions may take: it answers in a fraction
/// of this when the instances suffice.
const INSTANCES_TIMEOUT: Duration = Duration::from_millis(1500);

/// `q` with every quantified formula in a positive place (an assertion, or under `and`/`or`
/// only, as in a combined query's disjuncts) replaced by `true`: a weaker query, when it
/// has any.
fn without_quantifiers(q: &Query) -> Option<Query> {
    let mut changed = false;
    let assertions = q
        .assertions
        .iter()
        .map(|t| weaken(t, &mut changed))
        .collect();
    changed.then(|| Query {
        name: format!("{}_instances", q.name),
        assertions,
        // Only its unsatisfiability is used.
        watch: vec![],
        small: None,
        refine: q.refine.clone(),
        cheap: q.cheap,
    })
}

/// `t` with its positive quantified subformulas `true` (see [`without_quantifiers`]).
fn weaken(t: &Term, changed: &mut bool) -> Term {
    match t.node() {
        Node::Forall(..) => {
            *changed = true;
            Term::tt()
        }
        Node::App(op @ (crate::term::Op::And | crate::term::Op::Or), xs, _) => {
            let before = *changed;
            *changed = false;
            let ys: Vec<Term> = xs.iter().map(|x| weaken(x, changed)).collect();
            let now = *changed;
            *changed |= before;
            match (now, op) {
                (false, _) => t.clone(),
                (true, crate::term::Op::And) => Term::and_all(ys),
                (true, _) => Term::or_all(ys),
            }
        }
        _ => t.clone(),
    }
}

/// The cache key of `q`: its exact bit-vector text (what it asks), the small-model hint and
/// whether only the cheap attempts are made (which answers a run can give).
fn cache_key(q: &Query, bv: &Encoded, ctx: &Arena, text: &str) -> String {
    let mut key = format!("verify cheap={}\n", q.cheap);
    if let Some(small) = bv.small {
        key.push_str("; small: ");
        ctx.write(small, &mut key);
        key.push('\n');
    }
    key.push_str(text);
    key
}

/// The cache entry for an answer: sat with the watched values (`_` where unreadable), unsat;
/// `unknown` is never kept.
fn to_cached(a: &Answer) -> Option<Cached> {
    match a {
        Answer::Unsat => Some(Cached::Unsat),
        Answer::Sat(vals) => Some(Cached::Sat(
            vals.iter()
                .map(|v| v.map_or("_".to_string(), |v| v.to_string()))
                .collect::<Vec<_>>()
                .join(" "),
        )),
        Answer::Unknown(_) => None,
    }
}

/// The answer of a cache entry for a query watching `n` terms (`None` if malformed).
fn from_cached(c: &Cached, n: usize) -> Option<Answer> {
    match c {
        Cached::Unsat => Some(Answer::Unsat),
        Cached::Sat(text) => {
            let vals: Vec<Option<u128>> = text
                .split_whitespace()
                .map(|v| if v == "_" { None } else { v.parse().ok() })
                .collect();
            (vals.len() == n).then_some(Answer::Sat(vals))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::{sym, SymKind};

    fn query(assertions: Vec<Term>, watch: Vec<Term>) -> Query {
        Query {
            name: "q".into(),
            assertions,
            watch,
            small: None,
            refine: vec![],
            cheap: false,
        }
    }

    #[test]
    fn shared_subterms_are_defined_once_and_spelled_by_the_terms_printer() {
        let x = sym("x".into(), Sort::BitVec(32), SymKind::Shared, 0);
        let s = x.add(&Term::bv(32, 1));
        let q = query(
            vec![s.ult(&Term::bv(32, 8)), s.ne(&Term::bv(32, 3))],
            vec![x.clone()],
        );
        let ctx = Arena::new();
        assert_eq!(
            encode(&ctx, &q).text(&ctx),
            "(set-option :produce-models true)\n\
             (declare-const x (_ BitVec 32))\n\
             (define-fun d0 () (_ BitVec 32) (bvadd x (_ bv1 32)))\n\
             (assert (bvult d0 (_ bv8 32)))\n\
             (assert (not (= d0 (_ bv3 32))))\n\
             (check-sat)\n\
             (get-value (x))\n"
        );
    }

    #[test]
    fn quantified_symbols_stay_bound_and_free_ones_are_declared() {
        let (x, y) = (
            sym("x".into(), Sort::BitVec(8), SymKind::Shared, 0),
            sym("y".into(), Sort::BitVec(8), SymKind::Tid, 2),
        );
        let sum = x.add(&y);
        // `x + y` is shared outside and inside the quantifier: the body must not use the
        // name of the outer definition's twin, and `x` (free in the body only) is declared.
        let f = Term::forall(vec![y.clone()], sum.ne(&Term::bv(8, 0)));
        let q = query(vec![f, sum.ult(&Term::bv(8, 9)), sum.ne(&x)], vec![]);
        let ctx = Arena::new();
        let text = encode(&ctx, &q).text(&ctx);
        assert!(text.contains("(declare-const x (_ BitVec 8))"), "{text}");
        assert!(text.contains("(declare-const y (_ BitVec 8))"), "{text}");
        assert!(
            text.contains("(define-fun d0 () (_ BitVec 8) (bvadd x y))"),
            "{text}"
        );
        assert!(
            text.contains("(assert (forall ((y (_ BitVec 8))) (not (= (bvadd x y) (_ bv0 8)))))"),
            "{text}"
        );
    }

    #[test]
    fn cache_entries_round_trip_answers_and_never_hold_unknown() {
        for (a, n) in [
            (Answer::Unsat, 0),
            (Answer::Sat(vec![Some(3), None, Some(u128::MAX)]), 3),
            (Answer::Sat(vec![]), 0),
        ] {
            let c = to_cached(&a).expect("cached");
            let back = from_cached(&c, n);
            assert_eq!(format!("{back:?}"), format!("{:?}", Some(a)));
        }
        assert!(to_cached(&Answer::Unknown("timeout".into())).is_none());
        assert!(from_cached(&Cached::Sat("1 2".into()), 3).is_none());
    }
}
