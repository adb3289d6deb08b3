//! Symbolic execution of one arbitrary thread of a barrier-free kernel over the structured IR.
//!
//! Every thread id, parameter and input element is symbolic; buffer reads are the buffer's
//! initial contents (uninterpreted functions of the address) — the proof shows separately
//! that no read sees a value written earlier. Counted loops (`for (v = a; v < b; v += s)` with
//! loop-invariant `b` and `s`, no `break`/`return` inside) get an iteration symbol `t`: the
//! body runs exactly for the `t ≥ 0` with `a + t·s < b`, so every store inside is one store
//! event with an exact condition. Variables a loop carries must be accumulations
//! (`x = x + e(t)`, `x = x * e(t)`); after the loop such a variable is an opaque symbol whose
//! meaning (`x0 + Σ_{t<K} e(t)`) is recorded for the spec comparison.
//!
//! Barrier-phased kernels: `__syncthreads()` advances the thread's *phase* (how many barriers
//! it has passed, a term over the iteration symbols: a loop with `B` barriers per iteration
//! starts iteration `t` at `phase₀ + t·B`). Shared-memory accesses are recorded with their
//! phase; a shared read is a fresh symbol whose value the proof links to the write it sees
//! ([`staged`](crate)).

use crate::encode::{
    local_bases, slot_count, sort_of, type_range, unsupported, Enc, Encoder, LoadEv, SharedEv,
    Side, Val, Vars,
};
use crate::poly::{canon, Poly};
use crate::term::{Op, Sort, Term};
use std::collections::BTreeSet;
use warpsafe_ir::{Block, MemRef, ParamId, Span, Stmt, StmtKind, VarId};

/// A write to a global buffer.
#[derive(Clone, Debug)]
pub struct StoreEv {
    /// The buffer.
    pub buf: ParamId,
    /// Element index.
    pub addr: Term,
    /// The value written.
    pub value: Term,
    /// When it happens.
    pub guard: Term,
    /// Enclosing loops: (loop id, iteration symbol).
    pub loops: Vec<(usize, Term)>,
    /// Program position.
    pub pos: usize,
    /// Source position.
    pub span: Span,
}

/// How an accumulator combines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccOp {
    /// `x = x + e`.
    Sum,
    /// `x = x * e`.
    Prod,
}

/// What an accumulator symbol means: `init ⊕ e(0) ⊕ … ⊕ e(K−1)`.
#[derive(Clone, Debug)]
pub struct Acc {
    /// The accumulator symbol (the variable's value after the loop).
    pub sym: Term,
    /// The combination.
    pub op: AccOp,
    /// Value before the loop.
    pub init: Term,
    /// The summand at iteration `t`.
    pub summand: Term,
    /// The iteration symbol.
    pub t: Term,
    /// Condition of iteration `t` running (includes `entry`).
    pub iter_guard: Term,
    /// Condition of reaching the loop.
    pub entry: Term,
    /// The trip-count symbol `K`.
    pub k: Term,
    /// Defines `K`: the number of iterations.
    pub trip: Term,
    /// The variable's name (for reports).
    pub name: String,
}

/// A barrier the thread reaches.
#[derive(Clone, Debug)]
pub struct BarrierEv {
    /// When it is reached.
    pub guard: Term,
    /// Source position.
    pub span: Span,
}

/// Everything one thread does, symbolically.
#[derive(Debug, Default)]
pub struct Events {
    /// Reads and writes of shared arrays, in program order.
    pub shared: Vec<SharedEv>,
    /// Barriers.
    pub barriers: Vec<BarrierEv>,
    /// The iteration symbols `t` of every loop (a subset of `iter_syms`).
    pub counters: BTreeSet<String>,
    /// The trip count of each loop (by its iteration symbol) whose start, bound and step are
    /// constants.
    pub constant_trips: std::collections::BTreeMap<String, i128>,
    /// Writes to global buffers.
    pub stores: Vec<StoreEv>,
    /// Reads of global buffers.
    pub loads: Vec<LoadEv>,
    /// Side obligations (no wrap, positive loop steps).
    pub side: Vec<Side>,
    /// Accumulators of loops.
    pub accs: Vec<Acc>,
    /// Symbols that name one loop iteration (renamed for a second instance of the thread).
    pub iter_syms: BTreeSet<String>,
    /// Definitions of the trip-count symbols (`entry → K` is the number of iterations): each
    /// is satisfiable for every value of the other symbols, so assuming them is sound.
    pub defs: Vec<Term>,
}

struct State {
    vars: Vars,
    alive: Term,
    /// Barriers passed so far.
    phase: Term,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            vars: self.vars.clone(),
            alive: self.alive.clone(),
            phase: self.phase.clone(),
        }
    }
}

/// The executor.
pub struct Exec<'k> {
    enc: Encoder<'k>,
    ev: Events,
    next_loop: usize,
}

/// Runs one thread of the kernel symbolically.
pub fn run(enc: Encoder<'_>) -> Enc<Events> {
    let kernel = enc.kernel;
    let mut ex = Exec {
        enc,
        ev: Events::default(),
        next_loop: 0,
    };
    let mut st = State {
        vars: vec![None; slot_count(kernel)],
        alive: Term::tt(),
        phase: Term::int(0),
    };
    ex.block(&kernel.body, &mut st, &Term::tt())?;
    let mut ev = ex.ev;
    ev.loads = std::mem::take(&mut ex.enc.loads);
    ev.side.append(&mut ex.enc.side);
    ev.shared = std::mem::take(&mut ex.enc.shared);
    for s in &ev.shared {
        if let Some(sym) = &s.sym {
            ev.iter_syms.insert(sym.smt());
        }
    }
    if let Some(span) = ex.enc.infinity {
        if mentions_infinity(&ev) {
            return unsupported(
                span,
                "an infinite float constant used other than as the start of a running maximum",
            );
        }
    }
    Ok(ev)
}

impl Exec<'_> {
    fn block(&mut self, b: &Block, st: &mut State, pc: &Term) -> Enc<()> {
        for s in b {
            self.stmt(s, st, pc)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt, st: &mut State, pc: &Term) -> Enc<()> {
        self.enc.pos += 1;
        self.enc.phase = st.phase.clone();
        let guard = pc.and(&st.alive);
        match &s.kind {
            StmtKind::Let { var, init } => {
                let v = match init {
                    Some(e) => self.enc.expr(e, &st.vars, &guard)?,
                    None => zero(self.enc.kernel.var(*var).ty),
                };
                st.vars[var.0 as usize] = Some(v);
            }
            StmtKind::Assign { var, value } => {
                let v = self.enc.expr(value, &st.vars, &guard)?;
                st.vars[var.0 as usize] = Some(v);
            }
            StmtKind::Store {
                mem,
                indices,
                value,
            } => {
                let p = match mem {
                    MemRef::Global(p) => p,
                    MemRef::Shared(a) => {
                        let v = self.enc.expr(value, &st.vars, &guard)?;
                        self.enc
                            .shared_access(*a, indices, &st.vars, &guard, Some(v.t), s.span)?;
                        return Ok(());
                    }
                    MemRef::Local(a) => {
                        let (slots, i) = self
                            .enc
                            .local_index(*a, indices, &st.vars, &guard, s.span)?;
                        let v = self.enc.expr(value, &st.vars, &guard)?;
                        return local_write(st, &slots, &i, v, s.span);
                    }
                };
                let [i] = indices.as_slice() else {
                    return unsupported(s.span, "a multi-dimensional buffer index");
                };
                let a = self.enc.expr(i, &st.vars, &guard)?;
                let v = self.enc.expr(value, &st.vars, &guard)?;
                self.ev.stores.push(StoreEv {
                    buf: *p,
                    addr: canon(&a.t),
                    value: v.t,
                    guard,
                    loops: self.enc.loops.clone(),
                    pos: self.enc.pos,
                    span: s.span,
                });
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = self.enc.expr(cond, &st.vars, &guard)?.t;
                let mut then_st = st.clone();
                self.block(then_body, &mut then_st, &pc.and(&c))?;
                let mut else_st = st.clone();
                self.block(else_body, &mut else_st, &pc.and(&c.not()))?;
                *st = merge(&c, then_st, else_st);
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                self.for_loop(s, init, cond.as_ref(), update, body, st, pc)?;
            }
            StmtKind::Return => st.alive = Term::bool(false),
            StmtKind::While { .. } | StmtKind::DoWhile { .. } => {
                return unsupported(
                    s.span,
                    "a while loop (only counted for loops are summarised)",
                )
            }
            StmtKind::Break | StmtKind::Continue => {
                return unsupported(
                    s.span,
                    "break/continue (the iteration set would not be exact)",
                )
            }
            StmtKind::SyncThreads => {
                self.ev.barriers.push(BarrierEv {
                    guard,
                    span: s.span,
                });
                st.phase = st.phase.add(&Term::int(1));
            }
            StmtKind::SyncWarp { .. } => {
                return unsupported(s.span, "a warp barrier (`__syncwarp`)")
            }
            StmtKind::SyncGrid => {
                return unsupported(s.span, "a grid barrier (`this_grid().sync()`)")
            }
            StmtKind::Shuffle { .. } => return unsupported(s.span, "a warp shuffle"),
            StmtKind::Vote { .. } | StmtKind::ActiveMask { .. } => {
                return unsupported(s.span, "a warp vote")
            }
            StmtKind::SyncThreadsVote { .. } => {
                return unsupported(s.span, "a barrier (barrier-phased algorithm)")
            }
            StmtKind::Arbitrary { .. } => {
                return unsupported(
                    s.span,
                    "an arbitrary value (clock(), a function without a body): a functional spec is not defined",
                )
            }
            StmtKind::Atomic { .. } => return unsupported(s.span, "an atomic update"),
            StmtKind::Assume(_) | StmtKind::Assert(..) => {
                return unsupported(s.span, "an in-kernel assume/assert")
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn for_loop(
        &mut self,
        s: &Stmt,
        init: &Block,
        cond: Option<&warpsafe_ir::Expr>,
        update: &Block,
        body: &Block,
        st: &mut State,
        pc: &Term,
    ) -> Enc<()> {
        let id = self.next_loop;
        self.next_loop += 1;
        let Some(cond) = cond else {
            return unsupported(s.span, "a loop without a condition");
        };
        let [Stmt {
            kind:
                StmtKind::Assign {
                    var: iv,
                    value: upd,
                },
            ..
        }] = update.as_slice()
        else {
            return unsupported(
                s.span,
                "a loop whose update is not one assignment to its counter",
            );
        };
        let iv = *iv;
        if let Some(bad) = find_jump(body) {
            return unsupported(bad, "break/continue/return inside a loop");
        }
        let per_iteration = barrier_count(body)?;
        let mut assigned = assigned_vars(body);
        assigned.extend(local_slots_stored(self.enc.kernel, body));
        if assigned.contains(&iv) {
            return unsupported(s.span, "the loop counter is assigned in the body");
        }
        self.block(init, st, pc)?;
        let entry = pc.and(&st.alive);
        let Some(v0) = st.vars[iv.0 as usize].clone() else {
            return unsupported(s.span, "a loop counter without an initial value");
        };
        let declared = declared_vars(body);
        let carried: Vec<VarId> = assigned
            .iter()
            .copied()
            .filter(|v| !declared.contains(v))
            .collect();

        // The counter as a placeholder symbol, to read the step and the bound.
        let x = crate::term::sym(format!("v{id}_x"), Sort::Int);
        let ty = self.enc.kernel.var(iv).ty;
        let mut probe = st.vars.clone();
        probe[iv.0 as usize] = Some(Val {
            t: x.clone(),
            iv: type_range(ty),
        });
        for v in &carried {
            probe[v.0 as usize] = None;
        }
        let (side0, loads0) = (self.enc.side.len(), self.enc.loads.len());
        let shared0 = self.enc.shared.len();
        let next = self.enc.expr(upd, &probe, &Term::tt())?;
        let upd_side: Vec<Side> = self.enc.side.drain(side0..).collect();
        let upd_loads: Vec<LoadEv> = self.enc.loads.drain(loads0..).collect();
        let step = match Poly::of(&next.t).and_then(|p| p.add(&Poly::of(&x)?.scale(-1)?)) {
            Some(p) if !p.contains(&x.smt()) => p.to_term(),
            _ => {
                return unsupported(
                    s.span,
                    "a loop counter that does not advance by a loop-invariant step",
                )
            }
        };
        if !upd_loads.is_empty() {
            return unsupported(s.span, "a loop step read from memory");
        }
        let c = self.enc.expr(cond, &probe, &Term::tt())?;
        let cond_side: Vec<Side> = self.enc.side.drain(side0..).collect();
        let cond_loads: Vec<LoadEv> = self.enc.loads.drain(loads0..).collect();
        if self.enc.shared.len() > shared0 {
            return unsupported(s.span, "a loop condition or step read from shared memory");
        }
        let bound = match c.t.as_app() {
            Some((Op::Lt, [a, b])) if *a == x && !b.mentions(&x.smt()) => b.clone(),
            Some((Op::Le, [a, b])) if *a == x && !b.mentions(&x.smt()) => b.add(&Term::int(1)),
            _ => return unsupported(s.span, "a loop condition other than `counter < bound`"),
        };

        let t = crate::term::sym(format!("t{id}"), Sort::Int);
        // A loop with constant start, bound and step runs a known number of times.
        let k = match (v0.t.as_int(), bound.as_int(), step.as_int()) {
            (Some(a), Some(b), Some(s)) if s >= 1 => {
                Term::int(if b > a { (b - a + s - 1) / s } else { 0 })
            }
            _ => crate::term::sym(format!("k{id}"), Sort::Int),
        };
        self.ev.iter_syms.extend([t.smt(), x.smt()]);
        if k.as_int().is_none() {
            self.ev.iter_syms.insert(k.smt());
        }
        self.ev.counters.insert(t.smt());
        let at = |i: &Term| v0.t.add(&i.mul(&step));
        let vt = at(&t);
        let iter_guard = entry.and(&Term::int(0).le(&t)).and(&vt.lt(&bound));
        let trip = Term::int(0).le(&k).and(&bound.le(&at(&k))).and(
            &k.eq(&Term::int(0))
                .or(&at(&k.sub(&Term::int(1))).lt(&bound)),
        );
        // The condition is also evaluated once more, at exit (t = K).
        let tested = entry.and(&Term::int(0).le(&t)).and(
            &t.eq(&Term::int(0))
                .or(&at(&t.sub(&Term::int(1))).lt(&bound)),
        );
        let xname = x.smt();
        if let Some(trips) = k.as_int() {
            // One iteration (`for (j = 0; j < TN; j += 4)` with TN = 4) is no loop at all.
            if trips <= MAX_UNROLL && (trips == 1 || indexes_local_by(body, iv)) {
                return self.unroll(
                    body,
                    st,
                    pc,
                    iv,
                    &v0,
                    &step,
                    trips,
                    [&upd_side, &cond_side],
                    &xname,
                );
            }
            self.ev.constant_trips.insert(t.smt(), trips);
        }
        let at_t = |term: &Term| term.replace(&xname, &vt);
        self.ev.side.push(Side {
            guard: entry.and(&v0.t.lt(&bound)),
            cond: Term::int(1).le(&step),
            what: "the loop counter increases".into(),
            span: s.span,
            defs: false,
        });
        let phases = [
            (upd_side, &iter_guard, "update"),
            (cond_side, &tested, "condition"),
        ];
        for (sides, guard, phase) in phases {
            for sd in sides {
                self.ev.side.push(Side {
                    guard: guard.clone(),
                    cond: at_t(&sd.cond),
                    what: format!("loop {phase}: {}", sd.what),
                    span: sd.span,
                    defs: true,
                });
            }
        }
        let mut frame = self.enc.loops.clone();
        frame.push((id, t.clone()));
        for l in cond_loads {
            self.enc.loads.push(LoadEv {
                addr: at_t(&l.addr),
                guard: tested.clone(),
                loops: frame.clone(),
                ..l
            });
        }

        // The body at iteration t.
        let mut body_st = st.clone();
        let per = Term::int(i128::from(per_iteration));
        body_st.phase = st.phase.add(&t.mul(&per));
        body_st.vars[iv.0 as usize] = Some(Val {
            t: vt.clone(),
            iv: type_range(ty),
        });
        let mut pre = vec![];
        for v in &carried {
            let (ty, _) = self.slot(*v);
            let sym = crate::term::sym(format!("s{id}_{}", v.0), sort_of(ty));
            self.ev.iter_syms.insert(sym.smt());
            body_st.vars[v.0 as usize] = Some(Val {
                t: sym.clone(),
                iv: type_range(ty),
            });
            pre.push(sym);
        }
        let saved = std::mem::replace(&mut self.enc.loops, frame);
        let marks = self.marks();
        self.block(body, &mut body_st, &iter_guard)?;
        self.enc.loops = saved;

        let online =
            self.online_plan(id, &carried, &pre, &body_st, st, &marks, &declared, s.span)?;
        for (v, sym) in carried.iter().zip(&pre) {
            if online.as_ref().is_some_and(|(p, _)| {
                p.max == v.0 as usize || p.rescaled.iter().any(|r| r.0 == v.0 as usize)
            }) {
                continue;
            }
            let (ty, name) = self.slot(*v);
            let Some(new) = body_st.vars[v.0 as usize].clone() else {
                if !self.mentioned_since(&marks, &body_st.vars, sym) {
                    // Not read before the body overwrote it, and untracked after: same below.
                    st.vars[v.0 as usize] = None;
                    continue;
                }
                return unsupported(s.span, format!("loop-carried `{name}` goes out of scope"));
            };
            if new.t == *sym {
                // Not changed by the body after all (another element of a local array).
                continue;
            }
            if !self.mentioned_since(&marks, &body_st.vars, sym) {
                // Overwritten before any read in every iteration (a register tile reloaded
                // each step): its value after the loop is not tracked.
                st.vars[v.0 as usize] = None;
                continue;
            }
            let found = accumulation(&new.t, sym).or_else(|| self.nested(&new.t, sym));
            let Some((op, summand)) = found else {
                return unsupported(
                    s.span,
                    format!(
                        "loop-carried `{}` is not an accumulation `x = x + e` or `x = x * e`, nor an online-softmax update (a running maximum, values rescaled by exp(m_old - m_new))",
                        name
                    ),
                );
            };
            if pre.iter().any(|p| summand.mentions(&p.smt())) {
                return unsupported(
                    s.span,
                    format!("the summand of `{}` depends on a loop-carried value", name),
                );
            }
            let Some(init_val) = st.vars[v.0 as usize].clone() else {
                return unsupported(s.span, format!("`{}` has no value before the loop", name));
            };
            let acc = crate::term::sym(format!("acc{id}_{}", v.0), sort_of(ty));
            self.ev.iter_syms.insert(acc.smt());
            self.ev.accs.push(Acc {
                sym: acc.clone(),
                op,
                init: init_val.t,
                summand,
                t: t.clone(),
                iter_guard: iter_guard.clone(),
                entry: entry.clone(),
                k: k.clone(),
                trip: trip.clone(),
                name: name.clone(),
            });
            st.vars[v.0 as usize] = Some(Val {
                t: acc,
                iv: type_range(ty),
            });
        }
        if let Some((plan, from_neg_inf)) = online {
            let m_after = crate::term::sym(format!("mx{id}"), Sort::Real);
            self.ev.iter_syms.insert(m_after.smt());
            for (orig, sym, summand) in &plan.derived {
                let Some(a) = self.ev.accs.iter().find(|a| a.sym == *orig).cloned() else {
                    continue;
                };
                self.ev.iter_syms.insert(sym.smt());
                self.ev.accs.push(Acc {
                    sym: sym.clone(),
                    summand: summand.clone(),
                    init: Term::int(0).to_real(),
                    name: format!("{}·exp(running maximum)", a.name),
                    ..a
                });
            }
            for (v, init, summand) in plan.rescaled {
                let (_, name) = self.slot(VarId(v as u32));
                let acc = crate::term::sym(format!("acc{id}_{v}"), Sort::Real);
                self.ev.iter_syms.insert(acc.smt());
                self.ev.accs.push(Acc {
                    sym: acc.clone(),
                    op: AccOp::Sum,
                    init,
                    summand,
                    t: t.clone(),
                    iter_guard: iter_guard.clone(),
                    entry: entry.clone(),
                    k: k.clone(),
                    trip: trip.clone(),
                    name: format!("{name}·exp(running maximum)"),
                });
                st.vars[v] = Some(Val {
                    t: acc.rdiv(&crate::expo::exp(m_after.clone())),
                    iv: type_range(warpsafe_ir::ScalarType::F32),
                });
            }
            st.vars[plan.max] = Some(Val {
                t: m_after,
                iv: type_range(warpsafe_ir::ScalarType::F32),
            });
            if from_neg_inf {
                self.ev.side.push(Side {
                    guard: entry.clone(),
                    cond: Term::int(1).le(&k),
                    what: "the loop counter: the loop whose running maximum starts at -INFINITY runs at least once (the maximum is finite after it)".into(),
                    span: s.span,
                    defs: true,
                });
            }
        }
        st.vars[iv.0 as usize] = Some(Val {
            t: at(&k),
            iv: type_range(ty),
        });
        st.phase = st.phase.add(&k.mul(&per));
        self.ev.defs.push(entry.implies(&trip));
        for v in declared {
            st.vars[v.0 as usize] = None;
        }
        Ok(())
    }
}

/// True when an infinity symbol reaches any event (where it would be read as a real).
fn mentions_infinity(ev: &Events) -> bool {
    let m = |t: &Term| crate::encode::INFINITIES.iter().any(|n| t.mentions(n));
    ev.stores
        .iter()
        .any(|e| m(&e.addr) || m(&e.value) || m(&e.guard))
        || ev.loads.iter().any(|e| m(&e.addr) || m(&e.guard))
        || ev
            .shared
            .iter()
            .any(|e| m(&e.addr) || m(&e.guard) || e.value.as_ref().is_some_and(m))
        || ev.side.iter().any(|e| m(&e.cond) || m(&e.guard))
        || ev
            .accs
            .iter()
            .any(|a| m(&a.init) || m(&a.summand) || m(&a.iter_guard) || m(&a.trip))
        || ev.barriers.iter().any(|b| m(&b.guard))
        || ev.defs.iter().any(m)
}

/// Most iterations of a loop unrolled because it writes a local array.
const MAX_UNROLL: i128 = 64;

impl Exec<'_> {
    /// The type and name of variable slot `v` (a variable, or a local array element).
    fn slot(&self, v: VarId) -> (warpsafe_ir::ScalarType, String) {
        let k = self.enc.kernel;
        if let Some(d) = k.vars.get(v.0 as usize) {
            return (d.ty, d.name.clone());
        }
        let bases = local_bases(k);
        let i = bases.iter().rposition(|&b| b <= v.0 as usize).unwrap_or(0);
        match k.locals.get(i) {
            Some(a) => (a.elem, format!("{}[{}]", a.name, v.0 as usize - bases[i])),
            None => (warpsafe_ir::ScalarType::I32, format!("slot {}", v.0)),
        }
    }

    /// The online-softmax summary of the loop `id` ([`crate::online`]) when the carried
    /// variables that are not plain accumulations are a running maximum and variables rescaled
    /// by it, and whether the maximum starts at `−∞`. The maximum's and the rescaled
    /// variables' pre-iteration values must not reach any event of the body (they may be
    /// `−∞`, and their meaning is only that of the summary).
    #[allow(clippy::too_many_arguments)]
    fn online_plan(
        &self,
        id: usize,
        carried: &[VarId],
        pre: &[Term],
        body_st: &State,
        st: &State,
        marks: &[usize; 5],
        declared: &BTreeSet<VarId>,
        span: Span,
    ) -> Enc<Option<(crate::online::Plan, bool)>> {
        let mut vars = vec![];
        let mut slots = vec![];
        for (v, sym) in carried.iter().zip(pre) {
            let Some(new) = body_st.vars[v.0 as usize].clone() else {
                continue;
            };
            if new.t == *sym
                || !self.mentioned_since(marks, &body_st.vars, sym)
                || accumulation(&new.t, sym).is_some()
                || self.ev.accs.iter().any(|a| a.sym == new.t)
            {
                continue;
            }
            let Some(init) = st.vars[v.0 as usize].clone() else {
                continue;
            };
            vars.push(crate::online::Carried {
                pre: sym.clone(),
                new: new.t,
                init: init.t,
                acc: crate::term::sym(format!("acc{id}_{}", v.0), Sort::Real),
            });
            slots.push(v.0 as usize);
        }
        let zero = Term::int(0).to_real();
        let inner: Vec<crate::online::Inner> = self.ev.accs[marks[4]..]
            .iter()
            .filter(|a| a.op == AccOp::Sum && a.init.to_real() == zero)
            .map(|a| crate::online::Inner {
                sym: a.sym.clone(),
                summand: a.summand.clone(),
            })
            .collect();
        let Some(mut plan) = crate::online::plan(&vars, &inner, pre) else {
            return Ok(None);
        };
        let replaced: Vec<String> = plan.derived.iter().map(|d| d.0.smt()).collect();
        for x in std::iter::once(plan.max).chain(plan.rescaled.iter().map(|r| r.0)) {
            let n = vars[x].pre.smt();
            let in_acc = self.ev.accs[marks[4]..]
                .iter()
                .filter(|a| !replaced.contains(&a.sym.smt()))
                .any(|a| {
                    [&a.init, &a.summand, &a.iter_guard, &a.trip]
                        .iter()
                        .any(|t| t.mentions(&n))
                });
            let mut no_accs = *marks;
            no_accs[4] = self.ev.accs.len();
            if in_acc || self.mentioned_since(&no_accs, &vec![], &vars[x].pre) {
                return unsupported(
                    span,
                    "a running maximum or a value rescaled by it is used inside its loop other than to update them",
                );
            }
        }
        // A shifted inner sum means only what the rescaled updates make of it: nothing else
        // may read it (its terms see the old maximum, which may be `−∞`).
        let mut others = body_st.vars.clone();
        for v in declared {
            others[v.0 as usize] = None;
        }
        for &x in std::iter::once(&plan.max).chain(plan.rescaled.iter().map(|r| &r.0)) {
            others[slots[x]] = None;
        }
        for (a, _, _) in &plan.derived {
            if self.mentioned_since(marks, &others, a) {
                return unsupported(
                    span,
                    "an inner sum of an online-softmax update is also used elsewhere in its loop",
                );
            }
        }
        let from_neg_inf = plan.from_neg_inf;
        plan.max = slots[plan.max];
        for r in &mut plan.rescaled {
            r.0 = slots[r.0];
        }
        Ok(Some((plan, from_neg_inf)))
    }

    /// How many events of each kind are recorded so far.
    fn marks(&self) -> [usize; 5] {
        [
            self.ev.stores.len(),
            self.enc.loads.len(),
            self.enc.shared.len(),
            self.enc.side.len(),
            self.ev.accs.len(),
        ]
    }

    /// True when symbol `sym` occurs in a variable of `vars` or in an event recorded since
    /// `marks`.
    fn mentioned_since(&self, marks: &[usize; 5], vars: &Vars, sym: &Term) -> bool {
        let n = sym.smt();
        let m = |t: &Term| t.mentions(&n);
        vars.iter().flatten().any(|v| m(&v.t))
            || self.ev.stores[marks[0]..]
                .iter()
                .any(|e| m(&e.addr) || m(&e.value) || m(&e.guard))
            || self.enc.loads[marks[1]..]
                .iter()
                .any(|e| m(&e.addr) || m(&e.guard))
            || self.enc.shared[marks[2]..]
                .iter()
                .any(|e| m(&e.addr) || m(&e.guard) || e.value.as_ref().is_some_and(m))
            || self.enc.side[marks[3]..]
                .iter()
                .any(|e| m(&e.cond) || m(&e.guard))
            || self.ev.accs[marks[4]..]
                .iter()
                .any(|a| m(&a.init) || m(&a.summand) || m(&a.iter_guard) || m(&a.trip))
    }

    /// A loop with a constant trip count that writes a local array, run iteration by
    /// iteration: each element it touches stays a value of its own.
    #[allow(clippy::too_many_arguments)]
    fn unroll(
        &mut self,
        body: &Block,
        st: &mut State,
        pc: &Term,
        iv: VarId,
        v0: &Val,
        step: &Term,
        trips: i128,
        sides: [&Vec<Side>; 2],
        counter: &str,
    ) -> Enc<()> {
        let ty = self.enc.kernel.var(iv).ty;
        let declared = declared_vars(body);
        for i in 0..=trips {
            let value = v0.t.add(&step.mul(&Term::int(i)));
            for sd in sides.iter().flat_map(|s| s.iter()) {
                self.ev.side.push(Side {
                    guard: pc.and(&st.alive),
                    cond: sd.cond.replace(counter, &value),
                    what: format!("unrolled loop: {}", sd.what),
                    span: sd.span,
                    defs: true,
                });
            }
            st.vars[iv.0 as usize] = Some(Val {
                t: value,
                iv: type_range(ty),
            });
            if i == trips {
                break;
            }
            self.block(body, st, pc)?;
            for v in &declared {
                st.vars[v.0 as usize] = None;
            }
        }
        Ok(())
    }

    /// An inner loop accumulating into the outer loop's variable: after it the variable is
    /// `pre + Σ_inner e`, so the outer loop adds the inner sum started from 0 — recorded as an
    /// accumulator of its own, linked to the spec's inner reduction the same way.
    fn nested(&mut self, new: &Term, pre: &Term) -> Option<(AccOp, Term)> {
        let name = new.smt();
        let inner = self.ev.accs.iter().find(|a| a.sym.smt() == name)?;
        if inner.init != *pre || inner.summand.mentions(&pre.smt()) {
            return None;
        }
        let zero = match (inner.op, pre.sort()) {
            (AccOp::Sum, Sort::Int) => Term::int(0),
            (AccOp::Sum, _) => Term::int(0).to_real(),
            (AccOp::Prod, Sort::Int) => Term::int(1),
            (AccOp::Prod, _) => Term::int(1).to_real(),
        };
        let fresh = Acc {
            sym: crate::term::sym(format!("{name}_from0"), pre.sort()),
            init: zero,
            ..inner.clone()
        };
        let op = fresh.op;
        let sym = fresh.sym.clone();
        self.ev.iter_syms.insert(sym.smt());
        self.ev.accs.push(fresh);
        Some((op, sym))
    }
}

/// `new = pre ⊕ e` with `e` free of `pre`.
fn accumulation(new: &Term, pre: &Term) -> Option<(AccOp, Term)> {
    let name = pre.smt();
    let (op, args) = new.as_app()?;
    let acc_op = match op {
        Op::Add => AccOp::Sum,
        Op::Mul => AccOp::Prod,
        _ => return None,
    };
    match args {
        [a, b] if a == pre && !b.mentions(&name) => Some((acc_op, b.clone())),
        [a, b] if b == pre && !a.mentions(&name) => Some((acc_op, a.clone())),
        _ => None,
    }
}

/// Writes `v` to element `i` of the local array in `slots`: that element when `i` is known,
/// else each element becomes `i == k ? v : old`.
fn local_write(st: &mut State, slots: &[usize], i: &Term, v: Val, span: Span) -> Enc<()> {
    if let Some(k) = i.as_int() {
        let Some(&slot) = usize::try_from(k).ok().and_then(|k| slots.get(k)) else {
            return unsupported(span, "a local array index outside the array");
        };
        st.vars[slot] = Some(v);
        return Ok(());
    }
    for (k, &slot) in slots.iter().enumerate() {
        let Some(old) = st.vars[slot].clone() else {
            return unsupported(
                span,
                "a local array written at a computed index before all its elements are",
            );
        };
        st.vars[slot] = Some(Val {
            t: Term::ite(&i.eq(&Term::int(k as i128)), &v.t, &old.t),
            iv: (v.iv.0.min(old.iv.0), v.iv.1.max(old.iv.1)),
        });
    }
    Ok(())
}

/// True when `b` stores to a local array at an index that reads `v` (a loop over the
/// elements, which is unrolled so that each element stays a value of its own).
fn indexes_local_by(b: &Block, v: VarId) -> bool {
    // The counter and the variables the body computes from it (`idx = i * 4 + j`).
    let mut from = BTreeSet::from([v]);
    let reads = |e: &warpsafe_ir::Expr, set: &BTreeSet<VarId>| {
        let mut hit = false;
        e.walk(&mut |x| hit |= matches!(x.kind, warpsafe_ir::ExprKind::Var(y) if set.contains(&y)));
        hit
    };
    for _ in 0..4 {
        let mut more = vec![];
        walk(b, &mut |s| match &s.kind {
            StmtKind::Let { var, init: Some(e) } | StmtKind::Assign { var, value: e }
                if reads(e, &from) =>
            {
                more.push(*var);
            }
            _ => {}
        });
        let before = from.len();
        from.extend(more);
        if from.len() == before {
            break;
        }
    }
    let mut found = false;
    walk(b, &mut |s| {
        if let StmtKind::Store {
            mem: MemRef::Local(_),
            indices,
            ..
        } = &s.kind
        {
            found |= indices.iter().any(|i| reads(i, &from));
        }
    });
    found
}

/// The variable slots of every local array `b` stores to.
fn local_slots_stored(kernel: &warpsafe_ir::Kernel, b: &Block) -> BTreeSet<VarId> {
    let bases = local_bases(kernel);
    let mut out = BTreeSet::new();
    walk(b, &mut |s| {
        if let StmtKind::Store {
            mem: MemRef::Local(a),
            ..
        } = &s.kind
        {
            let (Some(&base), Some(decl)) =
                (bases.get(a.0 as usize), kernel.locals.get(a.0 as usize))
            else {
                return;
            };
            let n = decl.len().min(crate::encode::MAX_LOCAL_ELEMENTS) as usize;
            out.extend((base..base + n).map(|v| VarId(v as u32)));
        }
    });
    out
}

fn zero(ty: warpsafe_ir::ScalarType) -> Val {
    let t = match sort_of(ty) {
        Sort::Bool => Term::bool(false),
        s => Term::zero(s),
    };
    Val { t, iv: (0, 0) }
}

fn merge(c: &Term, a: State, b: State) -> State {
    let vars = a
        .vars
        .into_iter()
        .zip(b.vars)
        .map(|(x, y)| match (x, y) {
            (Some(x), Some(y)) if x == y => Some(x),
            (Some(x), Some(y)) => Some(Val {
                t: Term::ite(c, &x.t, &y.t),
                iv: (x.iv.0.min(y.iv.0), x.iv.1.max(y.iv.1)),
            }),
            _ => None,
        })
        .collect();
    let phase = if a.phase == b.phase {
        a.phase
    } else {
        Term::ite(c, &a.phase, &b.phase)
    };
    State {
        vars,
        alive: Term::ite(c, &a.alive, &b.alive),
        phase,
    }
}

/// Barriers one execution of `b` passes: the same on every path, else unsupported (the phase
/// of what follows would depend on the path). A loop with barriers inside a loop is outside
/// the shapes (its count would be a product of trip counts).
fn barrier_count(b: &Block) -> Enc<u32> {
    let mut n = 0u32;
    for s in b {
        match &s.kind {
            StmtKind::SyncThreads => n += 1,
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                let (x, y) = (barrier_count(then_body)?, barrier_count(else_body)?);
                if x != y {
                    return unsupported(
                        s.span,
                        "a barrier on one branch of a condition only (the phase depends on the path)",
                    );
                }
                n += x;
            }
            StmtKind::For { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
                if barrier_count(body)? > 0 =>
            {
                return unsupported(s.span, "a loop with barriers inside a loop");
            }
            _ => {}
        }
    }
    Ok(n)
}

fn find_jump(b: &Block) -> Option<Span> {
    for s in b {
        match &s.kind {
            StmtKind::Break | StmtKind::Continue | StmtKind::Return => return Some(s.span),
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                if let Some(sp) = find_jump(then_body).or_else(|| find_jump(else_body)) {
                    return Some(sp);
                }
            }
            _ => {}
        }
    }
    None
}

fn assigned_vars(b: &Block) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    walk(b, &mut |s| match &s.kind {
        StmtKind::Assign { var, .. } | StmtKind::Let { var, .. } => {
            out.insert(*var);
        }
        StmtKind::Shuffle { dst, .. }
        | StmtKind::Vote { dst, .. }
        | StmtKind::ActiveMask { dst }
        | StmtKind::Arbitrary { dst }
        | StmtKind::SyncThreadsVote { dst, .. } => {
            out.insert(*dst);
        }
        StmtKind::Atomic { dst: Some(d), .. } => {
            out.insert(*d);
        }
        _ => {}
    });
    out
}

fn declared_vars(b: &Block) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    walk(b, &mut |s| {
        if let StmtKind::Let { var, .. } = &s.kind {
            out.insert(*var);
        }
    });
    out
}

fn walk(b: &Block, f: &mut dyn FnMut(&Stmt)) {
    for s in b {
        f(s);
        match &s.kind {
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                walk(then_body, f);
                walk(else_body, f);
            }
            StmtKind::For {
                init, update, body, ..
            } => {
                walk(init, f);
                walk(update, f);
                walk(body, f);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => walk(body, f),
            _ => {}
        }
    }
}
