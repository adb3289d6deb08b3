//! The proof of one kernel against one spec: builds every obligation, runs the parametric
//! verifier for the safety facts the proof rests on, and decides the rest with z3.

use crate::congruence::{linear_query, StagedDef};
use crate::coverage::{chain, witness};
use crate::encode::{buffer_read, param_sym, type_range, Encoder, Mode, Unsupported};
use crate::exec::{self, AccOp, Events, StoreEv};
use crate::launch::{dims_of, Launch};
use crate::poly::Poly;
use crate::solve::{Answer, Query};
use crate::specenc::{Red, SpecEnc};
use crate::term::{Sort, Term, TermExt};
use crate::writers::merge_stores;
use rayon::prelude::*;
use serde::Serialize;
use std::time::{Duration, Instant};
use warpsafe_equiv::{Reduce, Spec};
use warpsafe_ir::{Kernel, ParamId, ParamKind, Span};

/// Settings.
#[derive(Clone, Debug)]
pub struct Options {
    /// Time limit of each SMT obligation.
    pub timeout: Duration,
    /// Parallel solver processes.
    pub jobs: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            timeout: Duration::from_secs(30),
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// One obligation and how it ended.
#[derive(Clone, Debug, Serialize)]
pub struct Obligation {
    /// `safety`, `no-wrap`, `loop`, `ownership`, `reads-inputs`, `index`, `value`, `frame`,
    /// `coverage`, `trip-count` or `step`.
    pub kind: &'static str,
    /// What it states.
    pub what: String,
    /// `parametric verifier`, `smt` or `induction`.
    pub method: &'static str,
    /// `proved`, `refuted` (the statement is false for some configuration) or `unknown`.
    pub verdict: &'static str,
    /// z3's reason when not proved.
    pub reason: Option<String>,
    /// Seconds.
    pub seconds: f64,
}

/// The outcome of [`prove_all_sizes`].
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// `proved` (every size) or `unknown`.
    pub verdict: &'static str,
    /// Why not proved.
    pub reason: Option<String>,
    /// Where the reason points, when it is a construct of the kernel.
    pub span: Option<Span>,
    /// The preconditions the proof assumes.
    pub assumptions: Vec<String>,
    /// Every obligation.
    pub obligations: Vec<Obligation>,
    /// Seconds in all.
    pub seconds: f64,
}

struct Pending {
    kind: &'static str,
    what: String,
    method: &'static str,
    query: Query,
    /// A stronger query asked first (the linear road of [`crate::congruence`]).
    linear: Option<Query>,
}

/// Proves `kernel` meets `spec` for every launch configuration and size its contract allows.
pub fn prove_all_sizes(kernel: &Kernel, spec: &Spec, opts: &Options) -> Outcome {
    let start = Instant::now();
    let launch = Launch::new(dims_of(kernel)).with_fixed_blocks(kernel);
    let mut assumptions = launch.describe();
    assumptions.push("buffer parameters do not alias; floats are reals (fast-math)".into());
    assumptions.extend(kernel.contract.lengths.iter().map(|l| {
        format!(
            "len({}) == {}",
            kernel.params[l.param.0 as usize].name,
            kernel.expr_to_string(&l.len)
        )
    }));
    assumptions.extend(
        kernel
            .contract
            .requires
            .iter()
            .map(|r| format!("requires {}", kernel.expr_to_string(r))),
    );
    let unknown = |reason: String,
                   span: Option<Span>,
                   obligations: Vec<Obligation>,
                   assumptions: Vec<String>| Outcome {
        verdict: "unknown",
        reason: Some(reason),
        span,
        assumptions,
        obligations,
        seconds: start.elapsed().as_secs_f64(),
    };
    let enc = Encoder::new(kernel, launch.clone(), Mode::Kernel);
    let events = match exec::run(enc) {
        Ok(ev) => ev,
        Err(Unsupported { reason, span }) => {
            return unknown(
                format!("outside the parametric shapes: {reason}"),
                Some(span),
                vec![],
                assumptions,
            )
        }
    };
    let mut builder = Builder {
        kernel,
        launch: &launch,
        spec,
        events: &events,
        base: vec![],
        pending: vec![],
        staged: vec![],
    };
    if let Err(reason) = builder.base_facts() {
        return unknown(reason, None, vec![], assumptions);
    }
    if let Err(reason) = builder.all() {
        return unknown(reason, None, vec![], assumptions);
    }
    let pending = builder.pending;

    let mut obligations = vec![];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.max(1))
        .build();
    let prepared: Vec<Prepared> = pending
        .iter()
        .map(|p| Prepared {
            kind: p.kind,
            what: p.what.clone(),
            method: p.method,
            script: p.query.script_unless_trivial(),
            linear: p.linear.as_ref().map(Query::script),
        })
        .collect();
    let solve = |p: &Prepared| {
        let (answer, seconds) = decide(p, opts.timeout);
        let answer = match (p.kind, answer) {
            // The assumptions must admit some launch: else every obligation holds vacuously.
            ("consistency", Answer::Refuted) => Answer::Proved,
            ("consistency", Answer::Proved) => Answer::Refuted,
            (_, a) => a,
        };
        let (verdict, reason) = match answer {
            Answer::Proved => ("proved", None),
            Answer::Refuted => (
                "refuted",
                Some("z3 found a configuration where it fails".to_string()),
            ),
            Answer::Unknown(r) => ("unknown", Some(r)),
        };
        Obligation {
            kind: p.kind,
            what: p.what.clone(),
            method: p.method,
            verdict,
            reason,
            seconds,
        }
    };
    let solved: Vec<Obligation> = match pool {
        Ok(pool) => pool.install(|| prepared.par_iter().map(solve).collect()),
        Err(_) => prepared.iter().map(solve).collect(),
    };
    obligations.extend(solved);
    match obligations.iter().find(|o| o.verdict != "proved") {
        Some(o) => {
            let reason = format!(
                "{} obligation not proved: {} ({})",
                o.kind,
                o.what,
                o.reason.clone().unwrap_or_default()
            );
            unknown(reason, None, obligations, assumptions)
        }
        None => Outcome {
            verdict: "proved",
            reason: None,
            span: None,
            assumptions,
            obligations,
            seconds: start.elapsed().as_secs_f64(),
        },
    }
}

/// One obligation's scripts, ready for z3.
struct Prepared {
    kind: &'static str,
    what: String,
    method: &'static str,
    /// `None` when the goal is trivially true.
    script: Option<String>,
    /// The linear road's stronger script, asked first.
    linear: Option<String>,
}

/// The answer to `p` and the seconds z3 took: the linear road's script first (a third of the
/// time limit; only its proof counts: a stronger goal refuted says nothing), then the
/// obligation as it is.
fn decide(p: &Prepared, timeout: Duration) -> (Answer, f64) {
    let Some(script) = &p.script else {
        return (Answer::Proved, 0.0);
    };
    let mut spent = 0.0;
    if let Some(linear) = &p.linear {
        let (answer, seconds) = crate::solve::run_script(linear, timeout / 3);
        if answer == Answer::Proved {
            return (answer, seconds);
        }
        spent = seconds;
    }
    let (answer, seconds) = crate::solve::run_script(script, timeout);
    (answer, spent + seconds)
}

/// Collects the obligations of one proof.
pub(crate) struct Builder<'a> {
    pub(crate) kernel: &'a Kernel,
    pub(crate) launch: &'a Launch,
    spec: &'a Spec,
    pub(crate) events: &'a Events,
    /// Facts about the launch and the contract (without the thread's own ranges).
    base: Vec<Term>,
    pending: Vec<Pending>,
    /// What each shared read returns ([`staged`](crate)): premises of value obligations only.
    pub(crate) staged: Vec<StagedDef>,
}

/// Renames one thread's symbols (ids and iterations) for a second, different thread.
fn other_thread(events: &Events) -> impl Fn(&str) -> Option<String> + '_ {
    move |n: &str| {
        let id = n.starts_with("tid_") || n.starts_with("bid_");
        (id || events.iter_syms.contains(n)).then(|| format!("{n}_c"))
    }
}

fn second(events: &Events) -> impl Fn(&str) -> Option<String> + '_ {
    move |n: &str| events.iter_syms.contains(n).then(|| format!("{n}_b"))
}

impl Builder<'_> {
    fn base_facts(&mut self) -> Result<(), String> {
        let mut facts = self.launch.dim_facts();
        for (i, p) in self.kernel.params.iter().enumerate() {
            if let ParamKind::Scalar(t) = p.kind {
                if t.is_int() {
                    let (lo, hi) = type_range(t);
                    if let Some(s) = param_sym(self.kernel, ParamId(i as u32)) {
                        facts.push(Term::int(lo).le(&s).and(&s.le(&Term::int(hi))));
                    }
                }
            }
        }
        let mut enc = Encoder::new(self.kernel, self.launch.clone(), Mode::Exact);
        for r in &self.kernel.contract.requires {
            let v = enc
                .expr(r, &vec![], &Term::tt())
                .map_err(|u| format!("cannot state the precondition: {}", u.reason))?;
            if v.t.sort() != Sort::Bool {
                return Err("a `requires` that is not a condition".into());
            }
            facts.push(v.t);
        }
        if !enc.loads.is_empty() {
            return Err("a precondition reads memory".into());
        }
        self.base = facts;
        Ok(())
    }

    /// Premises for one instance of the thread.
    pub(crate) fn premises(&self, extra: &[Term]) -> Vec<Term> {
        let mut p = self.base.clone();
        p.extend(self.launch.thread_facts());
        p.extend(self.events.defs.iter().cloned());
        p.extend(extra.iter().cloned());
        p
    }

    /// [`Builder::premises`] and what the shared reads return.
    fn value_premises(&self, extra: &[Term]) -> Vec<Term> {
        let mut p = self.premises(extra);
        p.extend(self.staged.iter().map(StagedDef::premise));
        p
    }

    pub(crate) fn push(
        &mut self,
        kind: &'static str,
        method: &'static str,
        what: String,
        premises: Vec<Term>,
        goal: Term,
    ) {
        let (mut premises, goal) = (premises, goal);
        if matches!(kind, "step" | "value") && goal.mentions(crate::expo::EXP) {
            // Exponentials of sums as products, every exponential positive ([`crate::expo`]).
            let goal = crate::expo::split(&goal);
            premises = premises.iter().map(crate::expo::split).collect();
            let facts = crate::expo::positive_facts(premises.iter().chain([&goal]));
            premises.extend(facts);
            let linear = linear_query(&premises, &self.staged, &goal);
            self.pending.push(Pending {
                kind,
                what,
                method,
                query: Query { premises, goal },
                linear,
            });
            return;
        }
        let linear = matches!(kind, "step" | "value")
            .then(|| linear_query(&premises, &self.staged, &goal))
            .flatten();
        self.pending.push(Pending {
            kind,
            what,
            method,
            query: Query { premises, goal },
            linear,
        });
    }

    fn all(&mut self) -> Result<(), String> {
        self.push(
            "consistency",
            "smt",
            "the assumptions admit at least one launch (no obligation holds vacuously)".into(),
            self.premises(&[]),
            Term::bool(false),
        );
        self.side();
        self.bounds()?;
        self.staged()?;
        self.races();
        self.ownership();
        self.reads_inputs();
        self.values()?;
        self.coverage()?;
        Ok(())
    }

    pub(crate) fn line(&self, span: Span) -> String {
        format!("bytes {}..{}", span.lo, span.hi)
    }

    fn side(&mut self) {
        for s in &self.events.side {
            let mut premises = self.base.clone();
            premises.extend(self.launch.thread_facts());
            if s.defs {
                premises.extend(self.events.defs.iter().cloned());
            }
            premises.push(s.guard.clone());
            let kind = if s.what.contains("counter") {
                "loop"
            } else {
                "no-wrap"
            };
            let what = format!("{} ({})", s.what, self.line(s.span));
            self.push(kind, "smt", what, premises, s.cond.clone());
        }
    }

    fn bounds(&mut self) -> Result<(), String> {
        let mut enc = Encoder::new(self.kernel, self.launch.clone(), Mode::Exact);
        let accesses: Vec<(ParamId, Term, Term, Span, &str)> = self
            .events
            .loads
            .iter()
            .map(|l| (l.buf, l.addr.clone(), l.guard.clone(), l.span, "read"))
            .chain(
                self.events
                    .stores
                    .iter()
                    .map(|s| (s.buf, s.addr.clone(), s.guard.clone(), s.span, "write")),
            )
            .collect();
        let mut senc = SpecEnc::new(self.kernel, self.launch, self.spec);
        for (buf, addr, guard, span, verb) in accesses {
            let len = enc
                .buffer_len(buf, span)
                .map_err(|u| format!("bounds of `{}`: {}", self.name(buf), u.reason))?;
            let at = format!("the {verb} of `{}` ({})", self.name(buf), self.line(span));
            if let Some((within, size)) = self.shaped(&mut senc, buf, &addr) {
                // `addr = Σ idx_m · stride_m` exactly, so `0 ≤ idx_m < extent_m` for every m
                // puts it in `[0, Π extent_m)`: two linear-looking queries instead of one
                // product the solver may not settle.
                // Or, where the indices are not the address's digits, the flat address is
                // within the product of the extents (bounded by the length just below).
                let flat = Term::int(0).le(&addr).and(&addr.lt(&size));
                let what = format!("{at}: each index is within the spec's shape");
                self.push(
                    "bounds",
                    "smt",
                    what,
                    self.premises(&[guard]),
                    within.or(&flat),
                );
                let what = format!("{at}: the buffer holds the spec's shape");
                self.push("bounds", "smt", what, self.premises(&[]), size.le(&len.t));
                continue;
            }
            let goal = Term::int(0).le(&addr).and(&addr.lt(&len.t));
            let what = format!("{at} is in bounds");
            self.push("bounds", "smt", what, self.premises(&[guard]), goal);
        }
        Ok(())
    }

    /// When the spec gives `buf` a shape whose inner extents are single products: that each
    /// row-major index of `addr` is within its extent, and the product of the extents.
    fn shaped(&self, senc: &mut SpecEnc, buf: ParamId, addr: &Term) -> Option<(Term, Term)> {
        let name = self.name(buf);
        let dims = senc.shape(name).ok()??;
        let (idx, conds) = row_major(name, addr, &dims).ok()?;
        let within = Term::and_all(conds).and(&idx[0].lt(&dims[0]));
        let size = dims
            .iter()
            .skip(1)
            .fold(dims[0].clone(), |acc, d| acc.mul(d));
        Some((within, size))
    }

    /// Premises for two threads `A` and `B ≠ A`, with `B`'s symbols renamed.
    fn two_threads(&self, a: &Term, b: &Term) -> Vec<Term> {
        let ren = other_thread(self.events);
        let mut p = self.premises(&[a.clone(), b.rename(&ren)]);
        p.extend(self.launch.thread_facts().iter().map(|f| f.rename(&ren)));
        p.extend(self.events.defs.iter().map(|d| d.rename(&ren)));
        let l = self.launch;
        let differ = Term::or_all((0..l.dims).flat_map(|d| {
            [
                l.tid[d].eq(&l.tid[d].rename(&ren)).not(),
                l.bid[d].eq(&l.bid[d].rename(&ren)).not(),
            ]
        }));
        p.push(differ);
        p
    }

    fn races(&mut self) {
        let ren = other_thread(self.events);
        let stores = self.events.stores.clone();
        let loads = self.events.loads.clone();
        for (i, s) in stores.iter().enumerate() {
            let name = self.name(s.buf).to_string();
            let same: Vec<&StoreEv> = stores.iter().filter(|o| o.buf == s.buf).collect();
            // The buffer's stores as one event: the store itself, or a vector store's lanes
            // as a virtual loop (then argued once, at its first lane).
            let one = match same.as_slice() {
                [_] => Some(s.clone()),
                _ => {
                    merge_stores(&same, crate::term::sym(format!("race_u_{name}"), Sort::Int)).ok()
                }
            };
            let first = same.first().is_some_and(|f| std::ptr::eq(*f, s));
            let ch = one.as_ref().and_then(|m| {
                chain(self.launch, m)
                    .ok()
                    .filter(|c| c.determines_thread(self.launch))
                    .map(|c| (c, m.guard.clone()))
            });
            if ch.is_some() && !first {
                continue;
            }
            match &ch {
                Some((c, guard)) => {
                    let mut goal = Term::tt();
                    for l in &c.links {
                        goal = goal.and(&Term::int(0).le(&l.x));
                        if let Some(r) = &l.radix {
                            goal = goal.and(&l.x.lt(r)).and(&Term::int(1).le(r));
                        }
                        if let Some(e) = &l.exact {
                            goal = goal.and(e);
                        }
                    }
                    let what = format!(
                        "`{name}` store ({}): each element has one writer thread and iteration (the address is a mixed-radix number of the thread and iteration)",
                        self.line(s.span)
                    );
                    self.push(
                        "race",
                        "smt",
                        what,
                        self.premises(std::slice::from_ref(guard)),
                        goal,
                    );
                }
                None => {
                    for o in stores.iter().skip(i).filter(|o| o.buf == s.buf) {
                        let what = format!(
                            "`{name}`: no two threads write one element ({}, {})",
                            self.line(s.span),
                            self.line(o.span)
                        );
                        let goal = s.addr.eq(&o.addr.rename(&ren)).not();
                        self.push(
                            "race",
                            "smt",
                            what,
                            self.two_threads(&s.guard, &o.guard),
                            goal,
                        );
                    }
                }
            }
            for l in loads.iter().filter(|l| l.buf == s.buf) {
                let what = format!(
                    "`{name}`: no thread reads ({}) an element another thread writes ({})",
                    self.line(l.span),
                    self.line(s.span)
                );
                let digits = ch.as_ref().and_then(|(c, _)| Some((c, c.digits(&l.addr)?)));
                match digits {
                    Some((c, ys)) => {
                        let mut goal = Term::tt();
                        for (link, y) in c.links.iter().zip(&ys) {
                            goal = goal.and(&Term::int(0).le(y));
                            if let Some(r) = &link.radix {
                                goal = goal.and(&y.lt(r));
                            }
                            if let Some(e) = &link.exact {
                                goal = goal.and(e);
                            }
                            if link.ids.iter().any(|&d| d != usize::MAX) {
                                goal = goal.and(&y.eq(&link.x));
                            }
                        }
                        self.push(
                            "race",
                            "smt",
                            what,
                            self.premises(std::slice::from_ref(&l.guard)),
                            goal,
                        );
                    }
                    None => {
                        let goal = l.addr.eq(&s.addr.rename(&ren)).not();
                        self.push(
                            "race",
                            "smt",
                            what,
                            self.two_threads(&l.guard, &s.guard),
                            goal,
                        );
                    }
                }
            }
        }
    }

    fn name(&self, p: ParamId) -> &str {
        &self.kernel.params[p.0 as usize].name
    }

    fn ownership(&mut self) {
        let ren = second(self.events);
        let stores = &self.events.stores;
        for (i, a) in stores.iter().enumerate() {
            for b in stores.iter().skip(i) {
                if a.buf != b.buf || (std::ptr::eq(a, b) && a.loops.is_empty()) {
                    continue;
                }
                let b2 = b.addr.rename(&ren);
                let mut premises = self.premises(&[a.guard.clone(), b.guard.rename(&ren)]);
                premises.extend(self.events.defs.iter().map(|d| d.rename(&ren)));
                let same = a.addr.eq(&b2);
                let goal = if std::ptr::eq(a, b) {
                    let iters = Term::and_all(a.loops.iter().map(|(_, t)| t.eq(&t.rename(&ren))));
                    same.implies(&iters)
                } else {
                    same.not()
                };
                let what = format!(
                    "no element of `{}` is written twice by one thread ({}, {})",
                    self.name(a.buf),
                    self.line(a.span),
                    self.line(b.span)
                );
                self.push("ownership", "smt", what, premises, goal);
            }
        }
    }

    fn reads_inputs(&mut self) {
        let ren = second(self.events);
        for l in &self.events.loads {
            for s in self.events.stores.iter().filter(|s| s.buf == l.buf) {
                let common = l
                    .loops
                    .iter()
                    .zip(&s.loops)
                    .take_while(|(x, y)| x.0 == y.0)
                    .count();
                let mut before = vec![];
                let mut prefix_equal = Term::tt();
                for d in 0..common {
                    let (tl, ts) = (&l.loops[d].1, s.loops[d].1.rename(&ren));
                    before.push(prefix_equal.and(&ts.lt(tl)));
                    prefix_equal = prefix_equal.and(&ts.eq(tl));
                }
                if s.pos < l.pos {
                    before.push(prefix_equal);
                }
                if before.is_empty() {
                    continue;
                }
                let mut premises = self.premises(&[l.guard.clone(), s.guard.rename(&ren)]);
                premises.extend(self.events.defs.iter().map(|d| d.rename(&ren)));
                let goal = l
                    .addr
                    .eq(&s.addr.rename(&ren))
                    .and(&Term::or_all(before))
                    .not();
                let what = format!(
                    "the read of `{}` ({}) never sees this thread's earlier write ({})",
                    self.name(l.buf),
                    self.line(l.span),
                    self.line(s.span)
                );
                self.push("reads-inputs", "smt", what, premises, goal);
            }
        }
    }

    /// The indices of `store`'s element in the row-major shape of its buffer, and the
    /// conditions that make them the decomposition.
    fn indices(
        &self,
        senc: &mut SpecEnc,
        store: &StoreEv,
    ) -> Result<(Vec<Term>, Vec<Term>), String> {
        let name = self.name(store.buf).to_string();
        let Some(dims) = senc.shape(&name)? else {
            return Ok((vec![store.addr.clone()], vec![]));
        };
        row_major(&name, &store.addr, &dims)
    }

    fn values(&mut self) -> Result<(), String> {
        let mut senc = SpecEnc::new(self.kernel, self.launch, self.spec);
        for eq in &self.spec.equations {
            senc.buffer(&eq.buffer)?;
            SpecEnc::index_vars(eq)?;
        }
        let stores = self.events.stores.clone();
        for s in &stores {
            let name = self.name(s.buf).to_string();
            let (idx, conds) = self.indices(&mut senc, s)?;
            let what = format!(
                "`{name}` store ({}) decomposes into row-major indices",
                self.line(s.span)
            );
            self.push(
                "index",
                "smt",
                what,
                self.premises(std::slice::from_ref(&s.guard)),
                Term::and_all(conds.clone()),
            );
            let mut ctx = vec![s.guard.clone()];
            ctx.extend(conds);
            let mut outside = Term::tt();
            for eq in self.spec.equations.iter().filter(|e| e.buffer == name) {
                let vars = SpecEnc::index_vars(eq)?;
                let binding: Vec<(String, Term)> =
                    vars.into_iter().zip(idx.iter().cloned()).collect();
                let (inst, facts) = crate::cancel::normalize(senc.instance(eq, &binding)?);
                outside = outside.and(&inst.domain.not());
                let mut c = ctx.clone();
                c.push(inst.domain.clone());
                c.extend(facts);
                for (case, value) in self.cases(s) {
                    let mut c = c.clone();
                    c.push(case);
                    let what = format!(
                        "`{name}` store ({}) writes the spec's value",
                        self.line(s.span)
                    );
                    self.equal(c, value, inst.value.clone(), &inst.reds, what, false);
                }
            }
            let init = buffer_read(self.kernel, s.buf, &s.addr).ok_or("a store to a non-buffer")?;
            let mut c = ctx.clone();
            c.push(outside);
            let what = format!(
                "`{name}` store ({}) leaves elements outside the spec's domain unchanged",
                self.line(s.span)
            );
            self.push(
                "frame",
                "smt",
                what,
                self.value_premises(&c),
                same_value(&s.value, &init),
            );
        }
        Ok(())
    }

    /// The store's value case by case: while it picks among several accumulators by the
    /// iterations of loops with constant trip counts (a local array of results read at the
    /// loops' counters), one case per iteration of each such loop, innermost first, the choice
    /// resolved (at most 256 cases); else one case.
    fn cases(&self, s: &StoreEv) -> Vec<(Term, Term)> {
        let accs = |v: &Term| {
            self.events
                .accs
                .iter()
                .filter(|a| v.mentions(&a.sym.smt()))
                .count()
        };
        let mut out = vec![(Term::tt(), s.value.clone())];
        for (_, t) in s.loops.iter().rev() {
            let Some(&k) = self.events.constant_trips.get(&t.smt()) else {
                continue;
            };
            let name = &t.smt();
            let picks = out.iter().any(|(_, v)| accs(v) >= 2 && v.mentions(name));
            if !picks || (out.len() as i128).saturating_mul(k) > 256 {
                continue;
            }
            out = out
                .iter()
                .flat_map(|(c, v)| {
                    (0..k).map(move |r| {
                        let r = Term::int(r);
                        (c.and(&t.eq(&r)), v.replace(name, &r))
                    })
                })
                .collect();
        }
        out
    }

    /// `lhs = rhs` under `ctx`, linking the kernel's accumulators in `lhs` with the spec's
    /// reductions in `rhs` by induction.
    fn equal(
        &mut self,
        ctx: Vec<Term>,
        mut lhs: Term,
        rhs: Term,
        reds: &[Red],
        what: String,
        step: bool,
    ) {
        let accs: Vec<&exec::Acc> = self
            .events
            .accs
            .iter()
            .filter(|a| lhs.mentions(&a.sym.smt()))
            .collect();
        let mut free: Vec<&Red> = reds.iter().filter(|r| rhs.mentions(&r.sym.smt())).collect();
        // Accumulators and reductions at the same place of the two sides go together
        // (`o / l` against `Σ e·v / Σ e`); the others in order.
        let mut aligned = vec![];
        let syms: Vec<Term> = accs.iter().map(|a| a.sym.clone()).collect();
        align(&lhs, &rhs, &syms, &mut aligned);
        for a in accs {
            let want = match a.op {
                AccOp::Sum => Reduce::Sum,
                AccOp::Prod => Reduce::Prod,
            };
            let fits = |r: &&Red| r.op == want && r.sym.sort() == a.sym.sort();
            let at = aligned
                .iter()
                .find(|(x, _)| *x == a.sym)
                .and_then(|(_, y)| free.iter().position(|r| r.sym == *y && fits(r)));
            let Some(pos) = at.or_else(|| free.iter().position(fits)) else {
                continue;
            };
            let r = free.remove(pos);
            if self.split(&ctx, a, r, reds) || self.split_unrolled(&ctx, a, r, reds) {
                lhs = lhs.replace(&a.sym.smt(), &combine(a, &r.sym));
                continue;
            }
            let span = ite_nonneg(&r.hi.sub(&r.lo));
            let mut c = ctx.clone();
            c.push(a.entry.clone());
            c.push(a.trip.clone());
            self.push(
                "trip-count",
                "induction",
                format!(
                    "the `{}` loop runs once per term of the spec's reduction",
                    a.name
                ),
                self.value_premises(&c),
                a.k.eq(&span),
            );
            let k_spec = r.lo.add(&a.t);
            let body = r.body.replace(&r.k.smt(), &k_spec);
            for (case, summand) in self.picks(&a.t, &a.summand) {
                let mut c = ctx.clone();
                c.push(a.iter_guard.clone());
                c.push(case);
                // Nested reductions of the spec mention this index: it is lo + t here.
                c.push(r.k.eq(&k_spec));
                self.equal(
                    c,
                    summand,
                    body.clone(),
                    reds,
                    format!(
                        "step of `{}`: iteration t adds the spec's term lo + t",
                        a.name
                    ),
                    true,
                );
            }
            lhs = lhs.replace(&a.sym.smt(), &combine(a, &r.sym));
        }
        let (kind, method) = if step {
            ("step", "induction")
        } else {
            ("value", "smt")
        };
        self.push(
            kind,
            method,
            what,
            self.value_premises(&ctx),
            same_value(&lhs, &rhs),
        );
    }

    /// A tiled reduction: the loop `a` adds, per iteration, the sum of an inner loop started
    /// from zero, and the spec's `r` has no nested reduction. Then
    /// `Σ_{t<K_o} Σ_{u<K_i} e(t, u) = Σ_{k∈[lo,hi)} body(k)` when `K_o·K_i = hi − lo` (the inner
    /// count is the same in every outer iteration) and `e(t, u) = body(lo + t·K_i + u)`.
    /// Pushes those obligations and returns true, or returns false when `a` is not of that shape.
    fn split(&mut self, ctx: &[Term], a: &exec::Acc, r: &Red, reds: &[Red]) -> bool {
        let Some(inner) = self
            .events
            .accs
            .iter()
            .find(|i| i.sym == a.summand && i.op == a.op)
            .cloned()
        else {
            return false;
        };
        // A nested reduction of the spec's term is the kernel's inner loop, not a tile —
        // unless it is only an exponential's argument (a score inside softmax).
        let rest = crate::expo::without_exps(&r.body);
        if reds.iter().any(|o| rest.mentions(&o.sym.smt())) {
            return false;
        }
        let span = ite_nonneg(&r.hi.sub(&r.lo));
        let mut c = ctx.to_vec();
        c.extend([a.entry.clone(), a.trip.clone(), a.k.eq(&Term::int(0))]);
        self.push(
            "trip-count",
            "induction",
            format!(
                "the tiled `{}` loop runs no tile only when the spec's reduction is empty",
                a.name
            ),
            self.value_premises(&c),
            span.eq(&Term::int(0)),
        );
        let mut c = ctx.to_vec();
        c.extend([
            a.entry.clone(),
            a.trip.clone(),
            inner.entry.clone(),
            inner.trip.clone(),
        ]);
        self.push(
            "trip-count",
            "induction",
            format!(
                "the tiled `{}` loop runs (tiles × tile length) = once per term of the spec's reduction",
                a.name
            ),
            self.value_premises(&c),
            a.k.mul(&inner.k).eq(&span),
        );
        let k_spec = r.lo.add(&a.t.mul(&inner.k)).add(&inner.t);
        let body = r.body.replace(&r.k.smt(), &k_spec);
        for (case, summand) in self.picks(&inner.t, &inner.summand) {
            let mut c = ctx.to_vec();
            c.extend([a.iter_guard.clone(), inner.iter_guard.clone(), case]);
            c.push(r.k.eq(&k_spec));
            self.equal(
                c,
                summand,
                body.clone(),
                reds,
                format!(
                    "step of `{}`: tile t, element u adds the spec's term lo + t·(tile length) + u",
                    a.name
                ),
                true,
            );
        }
        true
    }

    /// `summand` case by case on the iteration `t` of a loop with a constant trip count, when
    /// it picks among several accumulators by `t` (a local array read at the counter): one case
    /// per iteration, the choice resolved; else one case.
    fn picks(&self, t: &Term, summand: &Term) -> Vec<(Term, Term)> {
        let name = t.smt();
        let accs = self
            .events
            .accs
            .iter()
            .filter(|a| summand.mentions(&a.sym.smt()))
            .count();
        // A local array read at the counter is a chain of `ite (= t u)`.
        let chain = summand.smt_shared().contains(&format!("(= {name} "));
        match self.events.constant_trips.get(&name) {
            Some(&k) if (accs >= 2 || chain) && k <= 256 && summand.mentions(&name) => (0..k)
                .map(|u| {
                    let u = Term::int(u);
                    (t.eq(&u), summand.replace(&name, &u))
                })
                .collect(),
            _ => vec![(Term::tt(), summand.clone())],
        }
    }

    /// A tiled reduction whose tile is unrolled: the loop `a` adds, per iteration, `B ≥ 2`
    /// terms written out, each with accumulators of its own (`Σ_{j<B} E(s_j)` of an unrolled
    /// `for j`). Then `Σ_{t<K} Σ_{u<B} e_u(t) = Σ_{k∈[lo,hi)} body(k)` when `K·B = hi − lo` and
    /// `e_u(t) = body(lo + t·B + u)` for every `u`. Pushes those obligations and returns true,
    /// or returns false when the summand is not of that shape.
    fn split_unrolled(&mut self, ctx: &[Term], a: &exec::Acc, r: &Red, reds: &[Red]) -> bool {
        if a.op != AccOp::Sum {
            return false;
        }
        let mut terms = vec![];
        flatten_sum(&a.summand, &mut terms);
        let owned: Vec<Vec<String>> = terms
            .iter()
            .map(|t| {
                self.events
                    .accs
                    .iter()
                    .filter(|x| t.mentions(&x.sym.smt()))
                    .map(|x| x.sym.smt())
                    .collect()
            })
            .collect();
        let distinct = owned.iter().all(|o| !o.is_empty())
            && owned
                .iter()
                .enumerate()
                .all(|(i, o)| owned[..i].iter().all(|p| p.iter().all(|x| !o.contains(x))));
        if terms.len() < 2 || !distinct {
            return false;
        }
        let b = Term::int(terms.len() as i128);
        let span = ite_nonneg(&r.hi.sub(&r.lo));
        let mut c = ctx.to_vec();
        c.extend([a.entry.clone(), a.trip.clone()]);
        self.push(
            "trip-count",
            "induction",
            format!(
                "the `{}` loop runs (tiles × {} unrolled terms) = once per term of the spec's reduction",
                a.name,
                terms.len()
            ),
            self.value_premises(&c),
            a.k.mul(&b).eq(&span),
        );
        for (u, term) in terms.into_iter().enumerate() {
            let k_spec = r.lo.add(&a.t.mul(&b)).add(&Term::int(u as i128));
            let body = r.body.replace(&r.k.smt(), &k_spec);
            let mut c = ctx.to_vec();
            c.push(a.iter_guard.clone());
            c.push(r.k.eq(&k_spec));
            self.equal(
                c,
                term,
                body,
                reds,
                format!(
                    "step of `{}`: tile t, unrolled term {u} adds the spec's term lo + t·(tile length) + {u}",
                    a.name
                ),
                true,
            );
        }
        true
    }

    fn coverage(&mut self) -> Result<(), String> {
        let mut senc = SpecEnc::new(self.kernel, self.launch, self.spec);
        for eq in &self.spec.equations {
            let buf = senc.buffer(&eq.buffer)?;
            let vars = SpecEnc::index_vars(eq)?;
            let syms: Vec<Term> = vars
                .iter()
                .map(|v| crate::term::sym(format!("ix_{}", crate::encode::clean(v)), Sort::Int))
                .collect();
            let binding: Vec<(String, Term)> =
                vars.iter().cloned().zip(syms.iter().cloned()).collect();
            let inst = senc.instance(eq, &binding)?;
            let target = senc.flatten(&eq.buffer, &syms)?;
            let mut why = vec![];
            let mut found = None;
            for s in self.events.stores.iter().filter(|s| s.buf == buf) {
                match witness(self.launch, s, &target) {
                    Ok(w) => {
                        found = Some(w);
                        break;
                    }
                    Err(e) => why.push(e),
                }
            }
            let stores: Vec<&StoreEv> =
                self.events.stores.iter().filter(|s| s.buf == buf).collect();
            if found.is_none() && stores.len() > 1 {
                // A vector store (four scalar stores side by side): one virtual loop.
                let u = crate::term::sym(format!("cov_u_{}", eq.buffer), Sort::Int);
                match merge_stores(&stores, u).and_then(|m| witness(self.launch, &m, &target)) {
                    Ok(w) => found = Some(w),
                    Err(e) => why.push(format!("its stores as one loop: {e}")),
                }
            }
            let Some(w) = found else {
                return Err(format!(
                    "coverage of `{}`: {}",
                    eq.buffer,
                    if why.is_empty() {
                        "no thread writes it".into()
                    } else {
                        why.join("; ")
                    }
                ));
            };
            let mut premises = self.base.clone();
            premises.extend(self.events.defs.iter().cloned());
            premises.push(inst.domain.clone());
            for r in &w.radices {
                let what = format!(
                    "`{}`: the witness decomposition's radix holds: {}",
                    eq.buffer,
                    r.smt()
                );
                self.push("coverage", "smt", what, premises.clone(), r.clone());
            }
            let what = format!(
                "`{}`: every element of the domain is at or past the store's offset",
                eq.buffer
            );
            self.push(
                "coverage",
                "smt",
                what,
                premises.clone(),
                Term::int(0).le(&w.base),
            );
            premises.extend(w.defs);
            let what = format!(
                "`{}`: every element of the spec's domain is written (witness thread and iteration in the launch)",
                eq.buffer
            );
            self.push("coverage", "smt", what, premises, w.goal);
        }
        Ok(())
    }
}

/// The row-major indices of `addr` in a buffer `name` of extents `dims` (outermost first), and
/// the conditions that make them its decomposition: each inner index within its extent, the
/// outermost non-negative.
fn row_major(name: &str, addr: &Term, dims: &[Term]) -> Result<(Vec<Term>, Vec<Term>), String> {
    let mut rest = Poly::of(addr).ok_or("an address with an overflowing coefficient")?;
    let mut idx = vec![];
    let mut conds = vec![];
    for extent in dims.iter().skip(1).rev() {
        let c = Poly::of(extent).ok_or("a shape extent with an overflowing coefficient")?;
        let (q, r) = rest.divmod_monomial(&c).ok_or_else(|| {
            format!("the extents of `{name}` must be single products of parameters")
        })?;
        let r = r.to_term();
        conds.push(Term::int(0).le(&r).and(&r.lt(extent)));
        idx.push(r);
        rest = q;
    }
    let first = rest.to_term();
    conds.push(Term::int(0).le(&first));
    idx.push(first);
    idx.reverse();
    Ok((idx, conds))
}

/// Pairs (accumulator, symbol) at the same place of `a` and `b`: walking both while their
/// operators agree, a symbol of `b` against a subterm of `a` with one accumulator of `accs`.
fn align(a: &Term, b: &Term, accs: &[Term], out: &mut Vec<(Term, Term)>) {
    if b.as_sym().is_some() {
        let found: Vec<&Term> = accs.iter().filter(|x| a.mentions(&x.smt())).collect();
        if let [one] = found.as_slice() {
            out.push(((*one).clone(), b.clone()));
        }
        return;
    }
    if let (Some((x, xs)), Some((y, ys))) = (a.as_app(), b.as_app()) {
        if x == y && xs.len() == ys.len() {
            for (p, q) in xs.iter().zip(ys) {
                align(p, q, accs, out);
            }
        }
    }
}

/// The terms of a sum, left to right.
fn flatten_sum(t: &Term, out: &mut Vec<Term>) {
    match t.as_app() {
        Some((warpsafe_terms::Op::Add, [a, b])) => {
            flatten_sum(a, out);
            flatten_sum(b, out);
        }
        _ => out.push(t.clone()),
    }
}

/// The accumulator's value after its loop: its initial value combined with the spec's `red`.
fn combine(a: &exec::Acc, red: &Term) -> Term {
    match a.op {
        AccOp::Sum => a.init.add(red),
        AccOp::Prod => a.init.mul(red),
    }
}

fn ite_nonneg(x: &Term) -> Term {
    Term::ite(&Term::int(0).le(x), x, &Term::int(0))
}

/// `a = b`, promoting integers to reals when the sorts differ.
fn same_value(a: &Term, b: &Term) -> Term {
    if a.sort() == b.sort() {
        a.eq(b)
    } else {
        a.to_real().eq(&b.to_real())
    }
}
