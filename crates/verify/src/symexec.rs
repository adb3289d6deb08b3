//! Symbolic execution of one of the two threads over the structured IR: path conditions,
//! `ite` merges, fresh values for every memory read, barrier epochs, loop summaries. The
//! result is a log of accesses, synchronisation events and arithmetic hazards from which the
//! property checkers build their queries.

use crate::eval::{as_bool, eval, opaque_of, Hooks, SVal};
use crate::launch::Launch;
use crate::loops::{self, closed_form, no_wrap, IvKind};
use crate::term::{Sort, SymKind, Term};
use crate::Property;
use std::collections::{HashMap, HashSet};
use warpsafe_ir::{
    Block, BlockVoteKind, Builtin, Category, Expr, ExprKind, Kernel, MemRef, ParamId, ScalarType,
    Span, Stmt, StmtKind, VarId, VoteKind,
};

/// One memory access by the thread.
#[derive(Clone, Debug)]
pub struct Access {
    /// The memory.
    pub mem: MemRef,
    /// Row-major element index (`u64`), for comparing addresses.
    pub flat: Term,
    /// The access is within the memory's bounds.
    pub inb: Term,
    /// Every signed index is non-negative (the part of `inb` that no length can satisfy).
    pub nonneg: Term,
    /// A write (stores and atomics).
    pub write: bool,
    /// An atomic read-modify-write.
    pub atomic: bool,
    /// Path condition.
    pub pc: Term,
    /// Block barriers executed before it (`u64`).
    pub epoch: Term,
    /// Full-mask warp syncs executed before it (`u64`).
    pub wepoch: Term,
    /// Grid barriers executed before it (`u64`): accesses of different blocks are ordered
    /// when these differ.
    pub gepoch: Term,
    /// Source position.
    pub span: Span,
    /// The enclosing loops, outermost first: their numbers and iteration symbols.
    pub iters: Vec<(usize, Term)>,
    /// How many loops the thread had entered before it: two accesses that agree on this and
    /// on `iters` lie in one stretch of code without loops, in one iteration.
    pub region: usize,
    /// For a plain store of an integer or boolean whose value is defined on every path: the
    /// value (the race check tolerates two writes of one value, unless `strict_races`).
    pub stored: Option<Term>,
    /// For a load of an integer or boolean, or an atomic whose result is used: the value it
    /// returned (a fresh symbol), which the equal-reads refinement of the divergence check
    /// and the atomic-counter facts relate across threads.
    pub value: Option<Term>,
}

/// What kind of collective a synchronisation event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncKind {
    /// `__syncthreads()`.
    Block,
    /// A warp collective with a constant lane mask.
    Warp(u32),
    /// `this_grid().sync()`: a barrier of every thread of the launch.
    Grid,
}

/// A barrier or warp collective reached by the thread.
#[derive(Clone, Debug)]
pub struct SyncEvent {
    /// Which collective.
    pub kind: SyncKind,
    /// Path condition.
    pub pc: Term,
    /// Iteration indices of the enclosing loops that contain synchronisation.
    pub iters: Vec<Term>,
    /// Source position.
    pub span: Span,
}

/// An arithmetic hazard: under `pc`, `cond` is a finding.
#[derive(Clone, Debug)]
pub struct Hazard {
    /// `overflow` or `div-by-zero`.
    pub cat: Category,
    /// The bad condition.
    pub cond: Term,
    /// Path condition.
    pub pc: Term,
    /// Source position.
    pub span: Span,
    /// What goes wrong.
    pub what: String,
    /// The names of `cond`'s free symbols.
    pub syms: Vec<String>,
    /// `¬(pc ∧ cond)`: the hazard does not happen.
    pub absent: Term,
}

impl Hazard {
    /// Under `pc`, `cond` is a finding of category `cat`.
    pub fn new(cat: Category, cond: Term, pc: Term, span: Span, what: String) -> Hazard {
        let syms = cond
            .free_syms()
            .iter()
            .filter_map(|s| s.as_sym().map(|x| x.name.clone()))
            .collect();
        let absent = pc.and(&cond).not();
        Hazard {
            cat,
            cond,
            pc,
            span,
            what,
            syms,
            absent,
        }
    }
}

/// A construct the verifier cannot summarise soundly for some properties.
#[derive(Clone, Debug)]
pub struct Unsupported {
    /// The properties affected.
    pub props: Vec<Property>,
    /// Why.
    pub reason: String,
    /// Where.
    pub span: Span,
}

/// Everything one thread did.
#[derive(Clone, Debug, Default)]
pub struct ThreadLog {
    /// Memory accesses, in program order.
    pub accesses: Vec<Access>,
    /// Barriers and warp collectives, in program order.
    pub syncs: Vec<SyncEvent>,
    /// Arithmetic hazards.
    pub hazards: Vec<Hazard>,
    /// Assertions, the kernel's (category `assert`) and those the lowering states about
    /// memory (category `oob`): under `pc`, `cond` is a failing one.
    pub asserts: Vec<Hazard>,
    /// `__assume`d facts (as implications from their path conditions).
    pub assumes: Vec<Term>,
    /// Constructs the summaries cannot handle.
    pub unsupported: Vec<Unsupported>,
    /// For each loop: reaching it implies leaving it after its exit iteration (assumed only
    /// by divergence queries, which presuppose termination).
    pub exits: Vec<Term>,
    /// Exit iterations of synchronising loops whose exit conditions read only launch-wide
    /// values and `blockIdx` (in creation order, the same in both threads): every thread of a
    /// block leaves them at the same iteration.
    pub uniform_exits: Vec<Term>,
    /// Iteration and exit symbols of loops whose summary may admit iterations no execution
    /// reaches (a `break`, a condition on havocked state, one not monotone in the
    /// iteration): a model's value for them may not be a real iteration.
    pub inexact_iters: std::collections::HashSet<String>,
    /// Warp votes and barrier reductions outside loops, in creation order (the same in both
    /// threads): two threads that reach the same one together get the same value.
    pub votes: Vec<VoteFact>,
    /// Loops whose iterations execute different numbers of barriers (or of full-mask warp
    /// syncs), in creation order (the same in both threads): their epochs count from sums
    /// the pair facts of [`EpochSum`] relate.
    pub epoch_sums: Vec<EpochSum>,
}

/// A loop whose iterations execute different numbers of syncs of one kind (barriers or
/// full-mask warp syncs; a nested loop whose trip count changes, as in bitonic sort): the
/// count before iteration `k` is the symbol `before`, before the exit iteration `kx` the
/// symbol `total`. A thread's epoch in iteration `k` is `e0 + before + r` with `r` its count
/// since the iteration began (at most `per_iteration`). What the real sums obey, that two
/// threads of one block execute the same syncs (the divergence check's business), is stated
/// as pair facts by the verifier; every real execution satisfies them, so a query that
/// finds no model finds no execution.
#[derive(Clone, Debug)]
pub struct EpochSum {
    /// Where the loop is.
    pub span: Span,
    /// Iteration symbols of the enclosing synchronising loops.
    pub outer: Vec<Term>,
    /// The symbolic iteration.
    pub k: Term,
    /// The exit iteration.
    pub kx: Term,
    /// Syncs of iteration `k`.
    pub per_iteration: Term,
    /// Syncs before iteration `k`.
    pub before: Term,
    /// Syncs before the exit iteration.
    pub total: Term,
}

impl EpochSum {
    /// Fewest syncs no real execution reaches, bounding the sums so they never wrap.
    const LIMIT: u128 = 1 << 56;

    /// What one thread's sums obey: none before the first iteration, the iteration's own
    /// before the exit, and all below [`Self::LIMIT`].
    pub fn own_facts(&self) -> Vec<Term> {
        let limit = Term::bv(64, Self::LIMIT);
        let zero = Term::bv(64, 0);
        vec![
            self.before.ult(&limit),
            self.per_iteration.ult(&limit),
            self.total.ult(&limit),
            self.k.eq(&zero).implies(&self.before.eq(&zero)),
            self.k
                .ult(&self.kx)
                .implies(&self.before.add(&self.per_iteration).ule(&self.total)),
        ]
    }

    /// What the sums of two threads of one block (`same_block`) obey in the same iteration
    /// of the enclosing loops: the same iteration has the same sum before it, and a later
    /// iteration (or the exit) comes after all of an earlier one's syncs.
    pub fn pair_facts(&self, other: &EpochSum, same_block: &Term) -> Vec<Term> {
        let mut ctx = same_block.clone();
        for (x, y) in self.outer.iter().zip(&other.outer) {
            ctx = ctx.and(&x.eq(y));
        }
        let mut out = vec![
            ctx.and(&self.k.eq(&other.k))
                .implies(&self.before.eq(&other.before)),
            ctx.and(&self.kx.eq(&other.kx))
                .implies(&self.total.eq(&other.total)),
        ];
        for (x, y) in [(self, other), (other, self)] {
            let after_x = x.before.add(&x.per_iteration);
            out.push(ctx.and(&x.k.ult(&y.k)).implies(&after_x.ule(&y.before)));
            out.push(ctx.and(&x.k.ult(&y.kx)).implies(&after_x.ule(&y.total)));
        }
        out
    }
}

/// The result of a warp vote (before `any`/`all` look at it) or barrier reduction.
#[derive(Clone, Debug)]
pub struct VoteFact {
    /// Where.
    pub span: Span,
    /// Path condition.
    pub pc: Term,
    /// For a warp vote: the lane mask and whether this thread's lane is in it; `None` for
    /// a block-wide barrier reduction.
    pub warp: Option<(Term, Term)>,
    /// The (ballot or reduced) value.
    pub value: Term,
}

struct Frame {
    iter: Option<Term>,
    /// This loop's number (loops are numbered in the order the thread reaches them, the same
    /// in both threads) and its iteration symbol.
    any_iter: (usize, Term),
    brk: Term,
    cont: Term,
    returned: bool,
}

/// How a loop decides to go on.
#[derive(Clone, Copy)]
enum Head<'a> {
    /// No condition (it leaves by `break` or `return`, if at all).
    Always,
    /// A condition evaluated before each iteration.
    Cond(&'a Expr),
    /// Statements, then `if (x) break;` at the top of the body: the iteration goes on when
    /// `x` is false after the statements.
    Guard(&'a [Stmt], &'a Expr),
}

struct Exec<'a> {
    k: &'a Kernel,
    l: &'a Launch,
    t: usize,
    vars: Vec<Option<SVal>>,
    pc: Term,
    epoch: Term,
    wepoch: Term,
    gepoch: Term,
    frames: Vec<Frame>,
    log: ThreadLog,
    n: u32,
    pure: bool,
    loops: usize,
    /// Exact values of affine induction variables at symbolic iterations (see `exact`).
    exact_cache: Vec<((VarId, Term), Term)>,
    /// What this thread last stored in cells of its local arrays at constant indices (a
    /// local whose address is taken, `int r; coords(&r, &c);`, is a one-element array): a
    /// local array is private to the thread, so a load of such a cell reads that value.
    /// Kept like `vars`: merged after an `if`, forgotten around loops that store to it.
    cells: HashMap<(u32, Vec<u128>), SVal>,
    /// Variables whose value here may be undefined on some path (declared without a value, or
    /// computed from such a variable): this engine reads them as 0 or as the value of the
    /// other branch, which a real thread need not, so their values are not compared across
    /// threads (see [`Access::stored`]).
    undef: HashSet<VarId>,
    /// After each sync: its path condition and the epochs it starts, shifted like the
    /// accesses' epochs by relative loops (see [`EpochSum`]).
    marks: Vec<[Term; 3]>,
    /// Global buffers the kernel never writes (no store, no atomic).
    read_only: HashSet<MemRef>,
    /// What this thread read from read-only buffers, by address: memory nothing writes holds
    /// one value per address for the whole launch, so a second read of an index term (a
    /// `__requires(idx[i] == i)` and then `out[idx[i]]`) reads the first read's value.
    ro_reads: Vec<(MemRef, ScalarType, Vec<Term>, SVal)>,
}

/// The most reads of read-only memory a thread remembers ([`Exec::ro_reads`]).
const MAX_RO_READS: usize = 512;

/// The global buffers `k` never stores to or updates atomically.
fn read_only_buffers(k: &Kernel) -> HashSet<MemRef> {
    let mut written = HashSet::new();
    for s in &k.body {
        s.walk(&mut |x| match &x.kind {
            StmtKind::Store { mem, .. } | StmtKind::Atomic { mem, .. } => {
                written.insert(*mem);
            }
            _ => {}
        });
    }
    (0..k.params.len() as u32)
        .map(|p| MemRef::Global(ParamId(p)))
        .filter(|m| !written.contains(m))
        .collect()
}

/// Executes the kernel body as thread `t` (0 or 1) of the launch.
pub fn execute(kernel: &Kernel, launch: &Launch, t: usize) -> ThreadLog {
    let mut e = Exec {
        k: kernel,
        l: launch,
        t,
        vars: vec![None; kernel.vars.len()],
        pc: Term::tt(),
        epoch: Term::bv(64, 0),
        wepoch: Term::bv(64, 0),
        gepoch: Term::bv(64, 0),
        frames: vec![],
        log: ThreadLog::default(),
        n: 0,
        pure: false,
        loops: 0,
        exact_cache: vec![],
        cells: HashMap::new(),
        undef: HashSet::new(),
        marks: vec![],
        read_only: read_only_buffers(kernel),
        ro_reads: vec![],
    };
    e.block(&kernel.body);
    e.log
}

/// The cell a local-array access at constant indices names (`None` for other memory or a
/// computed index).
fn cell_key(mem: MemRef, idx: &[SVal]) -> Option<(u32, Vec<u128>)> {
    let MemRef::Local(a) = mem else {
        return None;
    };
    let at: Option<Vec<u128>> = idx
        .iter()
        .map(|i| i.term().and_then(|t| t.as_bv()))
        .collect();
    Some((a.0, at?))
}

fn has_exit(b: &Block) -> bool {
    let mut found = false;
    for s in b {
        s.walk(&mut |x| {
            if matches!(
                x.kind,
                StmtKind::Return | StmtKind::Break | StmtKind::Continue
            ) {
                found = true
            }
        });
    }
    found
}

impl Hooks for Exec<'_> {
    fn var(&mut self, v: VarId, ty: ScalarType) -> SVal {
        match self.vars.get(v.0 as usize).cloned().flatten() {
            Some(x) => x,
            None => SVal::zero(ty),
        }
    }

    fn builtin(&mut self, b: Builtin) -> SVal {
        let th = &self.l.threads[self.t];
        let t = match b {
            Builtin::ThreadIdx(d) => th.tid[d.index()].clone(),
            Builtin::BlockIdx(d) => th.bid[d.index()].clone(),
            Builtin::LaneId => th.linear.bvand(&Term::bv(32, 31)),
            Builtin::WarpSize => Term::bv(32, 32),
            Builtin::BlockDim(d) => self.l.bdim[d.index()].clone(),
            Builtin::GridDim(d) => self.l.gdim[d.index()].clone(),
        };
        SVal::int(t, ScalarType::U32)
    }

    fn load(&mut self, mem: MemRef, idx: Vec<SVal>, ty: ScalarType, pc: &Term, span: Span) -> SVal {
        let logged = self.log.accesses.len();
        let known = cell_key(mem, &idx).and_then(|key| self.cells.get(&key).cloned());
        let at: Option<Vec<Term>> = match self.read_only.contains(&mem) {
            true => idx.iter().map(|i| i.term().cloned()).collect(),
            false => None,
        };
        let seen = at.as_ref().and_then(|at| {
            (self.ro_reads.iter())
                .find(|(m, t, a, _)| *m == mem && *t == ty && a == at)
                .map(|(_, _, _, v)| v.clone())
        });
        if !self.pure {
            self.access(mem, idx, false, false, pc, span);
        }
        let v = match known.or(seen) {
            Some(v) => v,
            None => {
                let v = opaque_of(self, ty);
                if let Some(at) = at.filter(|_| self.ro_reads.len() < MAX_RO_READS) {
                    self.ro_reads.push((mem, ty, at, v.clone()));
                }
                v
            }
        };
        if self.log.accesses.len() > logged {
            if let Some(a) = self.log.accesses.last_mut() {
                a.value = match &v {
                    SVal::Int { t, .. } | SVal::Bool(t) => Some(t.clone()),
                    _ => None,
                };
            }
        }
        v
    }

    fn hazard(&mut self, cat: Category, cond: Term, pc: &Term, span: Span, what: String) {
        if self.pure || cond.as_bool() == Some(false) || pc.as_bool() == Some(false) {
            return;
        }
        self.log
            .hazards
            .push(Hazard::new(cat, cond, pc.clone(), span, what));
    }

    fn fresh(&mut self, s: Sort) -> Term {
        self.sym("v", s, SymKind::Load)
    }
}

impl Exec<'_> {
    fn sym(&mut self, prefix: &str, s: Sort, kind: SymKind) -> Term {
        self.n += 1;
        crate::term::sym(
            format!("{prefix}{}_{}", self.t + 1, self.n),
            s,
            kind,
            self.t as u8 + 1,
        )
    }

    fn ev(&mut self, e: &Expr) -> SVal {
        let pc = self.pc.clone();
        let l = self.l;
        eval(self, l, e, &pc)
    }

    fn ev_bool(&mut self, e: &Expr) -> Term {
        let v = self.ev(e);
        as_bool(self, v)
    }

    fn set(&mut self, v: VarId, x: SVal) {
        if let Some(slot) = self.vars.get_mut(v.0 as usize) {
            *slot = Some(x);
        }
    }

    fn unsupported(&mut self, props: &[Property], reason: String, span: Span) {
        if !self.pure {
            self.log.unsupported.push(Unsupported {
                props: props.to_vec(),
                reason,
                span,
            });
        }
    }

    fn iters(&self) -> Vec<Term> {
        self.frames.iter().filter_map(|f| f.iter.clone()).collect()
    }

    fn block(&mut self, b: &[Stmt]) {
        for s in b {
            if self.pc.as_bool() == Some(false) {
                return;
            }
            self.stmt(s);
        }
    }

    fn access(
        &mut self,
        mem: MemRef,
        idx: Vec<SVal>,
        write: bool,
        atomic: bool,
        pc: &Term,
        span: Span,
    ) {
        let mut inb = vec![];
        let mut nonneg = vec![];
        let mut flat = Term::bv(64, 0);
        let name = self.k.mem_name(mem).to_string();
        let (dims, dynamic, elem) = match mem {
            MemRef::Global(_) => (vec![], false, self.k.elem_type(mem)),
            MemRef::Shared(a) => {
                let d = &self.k.shared[a.0 as usize];
                (d.dims.clone(), d.dynamic, d.elem)
            }
            MemRef::Local(a) => {
                let d = &self.k.locals[a.0 as usize];
                (d.dims.clone(), d.dynamic, d.elem)
            }
        };
        for (i, v) in idx.iter().enumerate() {
            let (t, signed, wrap) = match v {
                SVal::Int { t, ty, wrap } => (t.clone(), ty.is_signed(), wrap.clone()),
                _ => (self.fresh(Sort::BitVec(64)), false, Term::ff()),
            };
            if wrap.as_bool() != Some(false) {
                self.hazard(
                    Category::Overflow,
                    wrap,
                    pc,
                    span,
                    format!("unsigned arithmetic in an index of `{name}` wraps around"),
                );
            }
            let t64 = t.ext_to(64, signed);
            if signed {
                nonneg.push(Term::bv(t.width(), 0).sle(&t));
            }
            match mem {
                MemRef::Global(p) => {
                    let len = self.l.lens[p.0 as usize]
                        .clone()
                        .unwrap_or_else(|| Term::bv(64, 0));
                    inb.push(t64.ult(&len));
                    flat = t64;
                }
                _ if dynamic => {
                    let cap = self
                        .l
                        .dyn_shared
                        .udiv(&Term::bv(64, elem.size_bytes() as u128));
                    inb.push(t64.ult(&cap));
                    flat = t64;
                }
                _ => {
                    let d = dims.get(i).copied().unwrap_or(1);
                    inb.push(t64.ult(&Term::bv(64, d as u128)));
                    flat = flat.mul(&Term::bv(64, d as u128)).add(&t64);
                }
            }
        }
        let nonneg = Term::and_all(nonneg);
        self.log.accesses.push(Access {
            mem,
            flat,
            inb: nonneg.and(&Term::and_all(inb)),
            nonneg,
            write,
            atomic,
            pc: pc.clone(),
            epoch: self.epoch.clone(),
            wepoch: self.wepoch.clone(),
            gepoch: self.gepoch.clone(),
            span,
            iters: self.frames.iter().map(|f| f.any_iter.clone()).collect(),
            region: self.loops,
            value: None,
            stored: None,
        });
    }

    fn sync(&mut self, kind: SyncKind, span: Span) {
        let ev = SyncEvent {
            kind,
            pc: self.pc.clone(),
            iters: self.iters(),
            span,
        };
        self.log.syncs.push(ev);
    }

    /// Records the sync just executed (see [`Exec::marks`]).
    fn mark(&mut self) {
        if !self.pure {
            let m = [self.pc.clone(), self.epoch.clone(), self.wepoch.clone()];
            self.marks.push(m);
        }
    }

    /// This thread's lane (a `u32`).
    fn lane(&self) -> Term {
        self.l.threads[self.t].linear.bvand(&Term::bv(32, 31))
    }

    /// A warp vote: an unknown ballot whose bit for this lane is this lane's predicate (and
    /// whose bits outside the mask are clear); two lanes of one warp in the same mask that
    /// reach it get the same ballot (pair facts). `all` is the ballot of the negated
    /// predicate being empty.
    fn vote(&mut self, dst: VarId, kind: VoteKind, mask: &Expr, pred: &Expr, span: Span) {
        let m = match self.ev(mask) {
            SVal::Int { t, .. } if t.width() == 32 => t,
            _ => self.sym("mask", Sort::BitVec(32), SymKind::Load),
        };
        let p = self.ev_bool(pred);
        self.warp_sync(mask, span);
        let want = if kind == VoteKind::All { p.not() } else { p };
        let ballot = self.sym("ballot", Sort::BitVec(32), SymKind::Load);
        let zero = Term::bv(32, 0);
        let bit = Term::bv(32, 1).shl(&self.lane());
        let in_mask = m.bvand(&bit).ne(&zero);
        if !self.pure {
            let mine = ballot.bvand(&bit).ne(&zero);
            let outside = ballot.bvand(&m.bvor(&bit).bvnot()).eq(&zero);
            self.log
                .assumes
                .push(self.pc.implies(&mine.eq(&want).and(&outside)));
            if self.frames.is_empty() {
                self.log.votes.push(VoteFact {
                    span,
                    pc: self.pc.clone(),
                    warp: Some((m, in_mask)),
                    value: ballot.clone(),
                });
            }
        }
        let (one32, zero32) = (Term::bv(32, 1), Term::bv(32, 0));
        let v = match kind {
            VoteKind::Ballot => SVal::int(ballot, ScalarType::U32),
            VoteKind::Any => SVal::int(
                Term::ite(&ballot.ne(&zero), &one32, &zero32),
                ScalarType::I32,
            ),
            VoteKind::All => SVal::int(
                Term::ite(&ballot.eq(&zero), &one32, &zero32),
                ScalarType::I32,
            ),
        };
        self.set(dst, v);
    }

    fn warp_sync(&mut self, mask: &Expr, span: Span) {
        match loops::const_mask(mask) {
            Some(m) => {
                self.sync(SyncKind::Warp(m), span);
                if m == u32::MAX {
                    self.wepoch = self.wepoch.add(&Term::bv(64, 1));
                    self.mark();
                }
            }
            None => self.unsupported(
                &[Property::Divergence],
                "warp collective with a data-dependent lane mask".into(),
                span,
            ),
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { var, init } => {
                let ty = self.k.var(*var).ty;
                self.track_defined(*var, init.as_ref());
                let v = match init {
                    Some(e) => self.ev(e),
                    None => SVal::zero(ty),
                };
                self.set(*var, v);
            }
            StmtKind::Assign { var, value } => {
                self.track_defined(*var, Some(value));
                let v = self.ev(value);
                self.set(*var, v);
            }
            StmtKind::Store {
                mem,
                indices,
                value,
            } => {
                let idx: Vec<SVal> = indices.iter().map(|i| self.ev(i)).collect();
                // Not a value read from a variable that may be undefined: the model fixes it
                // (an uninitialised local reads as 0 here), real threads need not agree on it.
                let defined = !self.reads_undefined(value);
                let v = self.ev(value);
                let stored = match &v {
                    SVal::Int { t, .. } | SVal::Bool(t) if defined => Some(t.clone()),
                    _ => None,
                };
                let pc = self.pc.clone();
                if let MemRef::Local(a) = mem {
                    match cell_key(*mem, &idx) {
                        Some(key) => {
                            self.cells.insert(key, v);
                        }
                        None => self.forget_array(a.0),
                    }
                }
                self.access(*mem, idx, true, false, &pc, s.span);
                if let Some(a) = self.log.accesses.last_mut() {
                    a.stored = stored;
                }
            }
            StmtKind::Atomic {
                dst,
                mem,
                indices,
                value,
                compare,
                ..
            } => {
                let idx: Vec<SVal> = indices.iter().map(|i| self.ev(i)).collect();
                self.ev(value);
                if let Some(c) = compare {
                    self.ev(c);
                }
                if let MemRef::Local(a) = mem {
                    self.forget_array(a.0);
                }
                let pc = self.pc.clone();
                self.access(*mem, idx, true, true, &pc, s.span);
                if let Some(d) = dst {
                    let ty = self.k.var(*d).ty;
                    let v = opaque_of(self, ty);
                    if let (Some(a), SVal::Int { t, .. }) = (self.log.accesses.last_mut(), &v) {
                        if !self.pure {
                            a.value = Some(t.clone());
                        }
                    }
                    self.set(*d, v);
                }
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => self.if_(cond, then_body, else_body),
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => self.loop_(init, cond.as_ref(), update, body, false, s.span),
            StmtKind::While { cond, body } => self.loop_(&[], Some(cond), &[], body, false, s.span),
            StmtKind::DoWhile { body, cond } => {
                self.loop_(&[], Some(cond), &[], body, true, s.span)
            }
            StmtKind::Break => {
                if let Some(f) = self.frames.last_mut() {
                    f.brk = f.brk.or(&self.pc);
                }
                self.pc = Term::ff();
            }
            StmtKind::Continue => {
                if let Some(f) = self.frames.last_mut() {
                    f.cont = f.cont.or(&self.pc);
                }
                self.pc = Term::ff();
            }
            StmtKind::Return => {
                for f in &mut self.frames {
                    f.returned = true;
                }
                self.pc = Term::ff();
            }
            StmtKind::SyncThreads => {
                self.sync(SyncKind::Block, s.span);
                self.epoch = self.epoch.add(&Term::bv(64, 1));
                self.mark();
            }
            StmtKind::SyncGrid => {
                // A barrier of the whole grid, so of the block too.
                self.sync(SyncKind::Grid, s.span);
                self.epoch = self.epoch.add(&Term::bv(64, 1));
                self.mark();
                self.gepoch = self.gepoch.add(&Term::bv(64, 1));
            }
            StmtKind::SyncWarp { mask } => {
                self.ev(mask);
                self.warp_sync(mask, s.span);
            }
            StmtKind::Vote {
                dst,
                kind,
                mask,
                pred,
            } => self.vote(*dst, *kind, mask, pred, s.span),
            StmtKind::ActiveMask { dst } => {
                // Sound: an unknown mask that holds at least this thread's own lane.
                let v = self.sym("active", Sort::BitVec(32), SymKind::Load);
                let bit = Term::bv(32, 1).shl(&self.lane());
                if !self.pure {
                    let own = v.bvand(&bit).ne(&Term::bv(32, 0));
                    self.log.assumes.push(self.pc.implies(&own));
                }
                self.set(*dst, SVal::int(v, ScalarType::U32));
            }
            StmtKind::Arbitrary { dst } => {
                // A value nothing is known about: a fresh havoc symbol, so a finding that
                // depends on it is only `possible` unless the interpreter replays it.
                let x = match self.k.var(*dst).ty {
                    ScalarType::Bool => SVal::Bool(self.sym("arb", Sort::Bool, SymKind::Havoc)),
                    t if t.is_int() => {
                        SVal::int(self.sym("arb", Sort::BitVec(t.bits()), SymKind::Havoc), t)
                    }
                    _ => SVal::Opaque,
                };
                self.set(*dst, x);
            }
            StmtKind::SyncThreadsVote { dst, kind, pred } => {
                let p = self.ev_bool(pred);
                self.sync(SyncKind::Block, s.span);
                self.epoch = self.epoch.add(&Term::bv(64, 1));
                self.mark();
                // The same unknown value in every thread of the block (the pair facts say
                // so); each thread knows only what its own predicate implies.
                let v = self.sym("bvote", Sort::BitVec(32), SymKind::Load);
                let (zero, one) = (Term::bv(32, 0), Term::bv(32, 1));
                let fact = match kind {
                    BlockVoteKind::Count => {
                        p.implies(&v.ne(&zero)).and(&v.ule(&Term::bv(32, 1024)))
                    }
                    BlockVoteKind::And => v.ule(&one).and(&v.eq(&one).implies(&p)),
                    BlockVoteKind::Or => v.ule(&one).and(&v.eq(&zero).implies(&p.not())),
                };
                if !self.pure {
                    self.log.assumes.push(self.pc.implies(&fact));
                    if self.frames.is_empty() {
                        self.log.votes.push(VoteFact {
                            span: s.span,
                            pc: self.pc.clone(),
                            warp: None,
                            value: v.clone(),
                        });
                    }
                }
                self.set(*dst, SVal::int(v, ScalarType::I32));
            }
            StmtKind::Shuffle {
                dst,
                mask,
                value,
                lane,
                width,
                ..
            } => {
                for e in [mask, value, lane, width] {
                    self.ev(e);
                }
                self.warp_sync(mask, s.span);
                let ty = self.k.var(*dst).ty;
                let v = opaque_of(self, ty);
                self.set(*dst, v);
            }
            StmtKind::Assume(e) => {
                let c = self.ev_bool(e);
                let pc = self.pc.clone();
                if !self.pure {
                    self.log.assumes.push(pc.implies(&c));
                }
            }
            StmtKind::Assert(e, check) => {
                let c = self.ev_bool(e);
                if !self.pure && self.pc.as_bool() != Some(false) && c.as_bool() != Some(true) {
                    let what = check.failure().to_string();
                    let h = Hazard::new(check.category(), c.not(), self.pc.clone(), s.span, what);
                    self.log.asserts.push(h);
                }
                // A failing device assertion traps: `assert(false)` (the default of a call
                // through a function pointer, say) ends the path, once reported.
                if c.as_bool() == Some(false) {
                    self.pc = Term::ff();
                }
            }
        }
    }

    fn if_(&mut self, cond: &Expr, then_body: &Block, else_body: &Block) {
        let c = self.ev_bool(cond);
        match c.as_bool() {
            Some(true) => return self.block(then_body),
            Some(false) => return self.block(else_body),
            None => {}
        }
        let exits = has_exit(then_body) || has_exit(else_body);
        let (vars0, pc0, e0, w0) = (
            self.vars.clone(),
            self.pc.clone(),
            self.epoch.clone(),
            self.wepoch.clone(),
        );
        let g0 = self.gepoch.clone();
        let cells0 = self.cells.clone();
        let undef0 = self.undef.clone();
        self.pc = pc0.and(&c);
        self.block(then_body);
        let then_undef = std::mem::replace(&mut self.undef, undef0);
        let then_dead = self.pc.as_bool() == Some(false);
        let then_cells = std::mem::replace(&mut self.cells, cells0);
        let then_vars = std::mem::replace(&mut self.vars, vars0);
        let then_pc = std::mem::replace(&mut self.pc, pc0.and(&c.not()));
        let then_e = std::mem::replace(&mut self.epoch, e0);
        let then_w = std::mem::replace(&mut self.wepoch, w0);
        let then_g = std::mem::replace(&mut self.gepoch, g0);
        self.block(else_body);
        // A path that ended (a `return`, a trap) leaves nothing undefined after the `if`.
        let else_dead = self.pc.as_bool() == Some(false);
        match (then_dead, else_dead) {
            (true, _) => {}
            (false, true) => self.undef = then_undef,
            (false, false) => self.undef.extend(then_undef),
        }
        for (i, tv) in then_vars.into_iter().enumerate() {
            let merged = match (tv, self.vars[i].take()) {
                (Some(a), Some(b)) if a.same(&b) => Some(a),
                (Some(a), Some(b)) => Some(SVal::merge(&c, &a, &b)),
                (a, b) => {
                    // Unset on a path that goes on.
                    let unset = match (then_dead, else_dead) {
                        (true, _) => b.is_none(),
                        (false, true) => a.is_none(),
                        (false, false) => true,
                    };
                    if unset && (a.is_some() || b.is_some()) {
                        self.undef.insert(VarId(i as u32));
                    }
                    a.or(b)
                }
            };
            self.vars[i] = merged;
        }
        // A cell known on one side only was stored there and unknown before: unknown after.
        let else_cells = std::mem::take(&mut self.cells);
        self.cells = then_cells
            .into_iter()
            .filter_map(|(key, a)| {
                let b = else_cells.get(&key)?;
                Some((key, if a.same(b) { a } else { SVal::merge(&c, &a, b) }))
            })
            .collect();
        // What a branch learnt on the way (a loop's exit facts, its assumptions) holds after
        // the `if` on that branch's side: keep it, unless neither branch learnt anything.
        let learnt = exits || !then_pc.same(&pc0.and(&c)) || !self.pc.same(&pc0.and(&c.not()));
        self.pc = if learnt { then_pc.or(&self.pc) } else { pc0 };
        self.epoch = Term::ite(&c, &then_e, &self.epoch);
        self.wepoch = Term::ite(&c, &then_w, &self.wepoch);
        self.gepoch = Term::ite(&c, &then_g, &self.gepoch);
    }

    /// Sets every variable the loop modifies to its value at the start of iteration `j`:
    /// closed forms for induction variables, fresh values for the rest.
    fn set_state(&mut self, ivs: &[Iv], others: &[VarId], j: &Term) {
        for iv in ivs {
            let v = match self.exact(iv, j) {
                // The low bits of the exact value: the same term the no-wrap facts bound, so
                // the integer translation knows it needs no wrap-around.
                Some(e) => e.extract(iv.v0.width() - 1, 0),
                None => closed_form(iv.kind, &iv.v0, iv.c.as_ref(), j),
            };
            self.set(iv.var, SVal::int(v, iv.ty));
        }
        for &v in others {
            let ty = self.k.var(v).ty;
            let x = match ty {
                ScalarType::Bool => SVal::Bool(self.sym("h", Sort::Bool, SymKind::Havoc)),
                t if t.is_int() => {
                    SVal::int(self.sym("h", Sort::BitVec(t.bits()), SymKind::Havoc), t)
                }
                _ => SVal::Opaque,
            };
            self.set(v, x);
        }
    }

    /// Whether iteration `j` goes on (the loop condition holds, or the guard does not fire),
    /// evaluated in its state without logging.
    fn cond_at(&mut self, head: Head<'_>, ivs: &[Iv], others: &[VarId], j: &Term) -> Term {
        if let Head::Always = head {
            return Term::tt();
        }
        let saved = self.vars.clone();
        let saved_cells = self.cells.clone();
        let was = std::mem::replace(&mut self.pure, true);
        self.set_state(ivs, others, j);
        let r = match head {
            Head::Cond(c) => self.ev_bool(c),
            Head::Guard(prefix, x) => {
                self.block(prefix);
                self.ev_bool(x).not()
            }
            Head::Always => Term::tt(),
        };
        self.pure = was;
        self.vars = saved;
        self.cells = saved_cells;
        r
    }

    /// Facts every execution reaching iteration `j` satisfies (and, with `exit`, leaving the
    /// loop after `j` iterations).
    /// True when `t` has the same value in every iteration of the loops around it and in every
    /// thread of a block: built from launch-wide values, `blockIdx`, and exit iterations of
    /// synchronising loops whose exit conditions are such values.
    fn iteration_invariant(&self, t: &Term) -> bool {
        t.free_syms().iter().all(|s| match s.as_sym() {
            Some(x) => match x.kind {
                SymKind::Shared | SymKind::Bid => true,
                SymKind::Exit { sync: true } => self
                    .log
                    .uniform_exits
                    .iter()
                    .any(|e| e.as_sym().is_some_and(|y| y.name == x.name)),
                _ => false,
            },
            None => true,
        })
    }

    /// The exact (wide) value of an affine induction variable at iteration `j`, one term per
    /// variable and iteration symbol.
    fn exact(&mut self, iv: &Iv, j: &Term) -> Option<Term> {
        if let Some((_, e)) = self
            .exact_cache
            .iter()
            .find(|((v, k), _)| *v == iv.var && k.same(j))
        {
            return Some(e.clone());
        }
        // The iteration before a symbolic one: one step back from its exact value, whose
        // range the facts state (rather than a product with a wrapping `k - 1`).
        if let crate::term::Node::App(crate::term::Op::Sub, a, _) = &*j.0 {
            if a[1].as_bv() == Some(1) && a[0].as_bv().is_none() {
                let next = self.exact(iv, &a[0])?;
                let c = iv.c.as_ref()?.ext_to(next.width(), iv.c_signed);
                return Some(match iv.kind {
                    IvKind::Add => next.sub(&c),
                    _ => next.add(&c),
                });
            }
        }
        let e = loops::exact_affine(
            iv.kind,
            &iv.v0,
            iv.c.as_ref(),
            j,
            iv.ty.is_signed(),
            iv.c_signed,
        )?;
        if j.as_bv().is_none() {
            self.exact_cache.push(((iv.var, j.clone()), e.clone()));
        }
        Some(e)
    }

    fn reach_facts(
        &mut self,
        cond: Head<'_>,
        ivs: &[Iv],
        others: &[VarId],
        j: &Term,
        do_while: bool,
        exit: bool,
    ) -> Term {
        let mut facts = vec![];
        for iv in ivs {
            if let Some(e) = self.exact(iv, j) {
                facts.push(loops::in_range(&e, iv.v0.width(), iv.ty.is_signed()));
            }
        }
        let first = if do_while { 1 } else { 0 };
        let bounded = ivs
            .iter()
            .filter(|i| i.kind.is_bounded())
            .map(|i| i.v0.width() + 1)
            .max();
        if let Some(w) = bounded {
            for i in first..=w as u128 {
                let ci = self.cond_at(cond, ivs, others, &Term::bv(64, i));
                facts.push(Term::bv(64, i).ult(j).implies(&ci));
            }
        } else if !ivs.is_empty() {
            let prev = j.sub(&Term::bv(64, 1));
            let cp = self.cond_at(cond, ivs, others, &prev);
            facts.push(Term::bv(64, first + 1).ule(j).implies(&cp));
            // With the first iteration's condition too, a condition monotone in the
            // iteration (an affine variable against a bound) holds in every earlier one.
            let c0 = self.cond_at(cond, ivs, others, &Term::bv(64, first));
            facts.push(Term::bv(64, first + 1).ule(j).implies(&c0));
        }
        // Leaving, the failed test and the no-wrap fact already pin the iteration down: the
        // exact values pass the one they meet once.
        if !exit {
            if let Some(f) = self.ne_fact(cond, ivs, others, j, first) {
                facts.push(f);
            }
        }
        if exit {
            let c = self.cond_at(cond, ivs, others, j);
            facts.push(c.not());
            if do_while {
                facts.push(Term::bv(64, 1).ule(j));
            }
        }
        Term::and_all(facts)
    }

    /// For a loop that goes on while an affine induction variable differs from an invariant
    /// value (see [`loops::no_earlier_hit`]): no iteration in `first..j` met that value.
    fn ne_fact(
        &mut self,
        head: Head<'_>,
        ivs: &[Iv],
        others: &[VarId],
        j: &Term,
        first: u128,
    ) -> Option<Term> {
        let Head::Cond(e) = head else { return None };
        let affine: Vec<VarId> = ivs
            .iter()
            .filter(|i| !i.kind.is_bounded())
            .map(|i| i.var)
            .collect();
        let modified: Vec<VarId> = ivs
            .iter()
            .map(|i| i.var)
            .chain(others.iter().copied())
            .collect();
        let (var, bound) = loops::ne_exit(e, &affine, &modified)?;
        let iv = ivs.iter().find(|i| i.var == var)?;
        let w = iv.v0.width();
        let was = std::mem::replace(&mut self.pure, true);
        let mut b = Some(Term::bv(w, 0));
        for (negated, x) in bound {
            b = match (b, self.ev(x)) {
                (Some(acc), SVal::Int { t, .. }) if t.width() == w => {
                    Some(if negated { acc.sub(&t) } else { acc.add(&t) })
                }
                _ => None,
            };
        }
        self.pure = was;
        let b = b?;
        loops::no_earlier_hit(
            iv.kind,
            &iv.v0,
            iv.c.as_ref(),
            &b,
            j,
            first,
            iv.ty.is_signed(),
            iv.c_signed,
        )
    }

    /// True when the loop's reach facts admit exactly the iterations executions reach: no
    /// early exit, a condition that reads no havocked or loaded value, and either only
    /// geometric induction variables (the facts unroll every iteration that matters) or a
    /// condition monotone in the iteration.
    fn exact_summary(
        &mut self,
        head: Head<'_>,
        info: &loops::LoopInfo,
        ivs: &[Iv],
        others: &[VarId],
        k: &Term,
    ) -> bool {
        if info.has_break || info.has_return {
            return false;
        }
        let c = self.cond_at(head, ivs, others, k);
        let clean = c.free_syms().iter().all(|s| {
            !matches!(
                s.as_sym().map(|x| x.kind),
                Some(SymKind::Havoc | SymKind::Load)
            )
        });
        let affine: Vec<VarId> = ivs
            .iter()
            .filter(|i| !i.kind.is_bounded())
            .map(|i| i.var)
            .collect();
        let monotone = match head {
            Head::Always => true,
            Head::Cond(e) | Head::Guard(_, e) => {
                affine.is_empty()
                    || loops::monotone_cmp(e, &affine, &info.modified)
                    || self.ne_fact(head, ivs, others, k, 0).is_some()
            }
        };
        clean && monotone
    }

    fn loop_(
        &mut self,
        init: &[Stmt],
        cond: Option<&Expr>,
        update: &[Stmt],
        body: &[Stmt],
        do_while: bool,
        span: Span,
    ) {
        self.block(init);
        // Cells the loop stores to hold a value of some earlier iteration at any point of it,
        // and of some iteration after it.
        let mut stored = HashSet::new();
        for s in body.iter().chain(update) {
            s.walk(&mut |s| {
                if let StmtKind::Store {
                    mem: MemRef::Local(a),
                    ..
                }
                | StmtKind::Atomic {
                    mem: MemRef::Local(a),
                    ..
                } = &s.kind
                {
                    stored.insert(a.0);
                }
            });
        }
        self.forget_cells(&stored);
        let undef0 = self.undef.clone();
        self.loop_after_init(cond, update, body, do_while, span);
        self.undef.extend(undef0);
        self.forget_cells(&stored);
    }

    /// Records whether `var`, given the value of `init` (`None`: no value), may be undefined
    /// on the path being executed: definite assignment, with the paths of an `if` joined by
    /// union and a loop's state after it joined with the state before it.
    fn track_defined(&mut self, var: VarId, init: Option<&Expr>) {
        if init.is_none_or(|e| self.reads_undefined(e)) {
            self.undef.insert(var);
        } else {
            self.undef.remove(&var);
        }
    }

    /// True when `e` reads a variable that may be undefined here.
    fn reads_undefined(&self, e: &Expr) -> bool {
        let mut found = false;
        e.walk(&mut |x| {
            if let ExprKind::Var(v) = x.kind {
                let unset = self.vars.get(v.0 as usize).is_none_or(|x| x.is_none());
                found |= unset || self.undef.contains(&v);
            }
        });
        found
    }

    /// Forgets what the cells of the local array `a` hold.
    fn forget_array(&mut self, a: u32) {
        self.cells.retain(|(x, _), _| *x != a);
    }

    /// Forgets what the cells of the local arrays `arrays` hold.
    fn forget_cells(&mut self, arrays: &HashSet<u32>) {
        if !arrays.is_empty() {
            self.cells.retain(|(a, _), _| !arrays.contains(a));
        }
    }

    /// [`Self::loop_`] once `init` has run.
    fn loop_after_init(
        &mut self,
        cond: Option<&Expr>,
        update: &[Stmt],
        body: &[Stmt],
        do_while: bool,
        span: Span,
    ) {
        if self.pc.as_bool() == Some(false) {
            return;
        }
        let k = self.k;
        let info = loops::analyze(&|v| k.var(v).ty, cond.is_some(), update, body);
        let head = match (cond, info.guard) {
            (Some(c), _) => Head::Cond(c),
            (None, Some(g)) => match &body[g].kind {
                StmtKind::If { cond: x, .. } => Head::Guard(&body[..g], x),
                _ => Head::Always,
            },
            (None, None) => Head::Always,
        };
        let (pc0, e0, w0) = (self.pc.clone(), self.epoch.clone(), self.wepoch.clone());
        let sync = info.has_sync;
        let leaves = info.has_break || info.has_return;
        let epochs_ok = info.barriers.is_some()
            && info.warp_syncs.is_some()
            && !(sync && (leaves || info.has_continue));
        // Syncs inside nested loops: count one iteration's syncs relative to its start, and
        // use the count if it is the same in every iteration (see `shift_epochs`).
        let relative = sync
            && !epochs_ok
            && !leaves
            && !info.has_continue
            && loops::syncs_unconditional(body)
            && loops::syncs_unconditional(update);
        if sync && !epochs_ok && !relative {
            self.unsupported(
                &[Property::Race],
                "a loop with barriers must execute the same number of them in every iteration \
                 (no barriers under conditions, no break/continue/return)"
                    .into(),
                span,
            );
        }
        if sync && leaves {
            self.unsupported(
                &[Property::Divergence],
                "break or return inside a loop containing barriers".into(),
                span,
            );
        }
        // Grid barriers per iteration, when the grid epoch has a closed form in `k`.
        let g0 = self.gepoch.clone();
        let grid_step = match info.grid_barriers {
            Some(g) if epochs_ok => Some(g),
            _ => None,
        };
        if info.has_grid_sync && grid_step.is_none() {
            self.unsupported(
                &[Property::Race],
                "a loop with grid barriers must execute the same number of them in every \
                 iteration, outside conditions and nested loops (no break/continue/return)"
                    .into(),
                span,
            );
        }
        let mut ivs = vec![];
        for iv in &info.ivs {
            let Some(SVal::Int { t: v0, ty, .. }) = self.vars[iv.var.0 as usize].clone() else {
                continue;
            };
            let (c, c_signed) = match &iv.step {
                Some(e) => {
                    let was = std::mem::replace(&mut self.pure, true);
                    let v = self.ev(e);
                    self.pure = was;
                    match v {
                        SVal::Int { t, ty: sty, .. } if t.width() == v0.width() => {
                            (Some(t), sty.is_signed())
                        }
                        _ => continue,
                    }
                }
                None if !iv.addends.is_empty() => match self.wide_step(&iv.addends, &v0) {
                    Some(c) => (Some(c), true),
                    None => continue,
                },
                None => (None, false),
            };
            ivs.push(Iv {
                var: iv.var,
                kind: iv.kind,
                v0,
                c,
                ty,
                c_signed,
            });
        }
        let others: Vec<VarId> = info
            .modified
            .iter()
            .copied()
            .filter(|v| !ivs.iter().any(|i| i.var == *v))
            .collect();

        // One symbolic iteration k.
        let kk = self.sym("k", Sort::BitVec(64), SymKind::Iter { sync });
        let facts = self.reach_facts(head, &ivs, &others, &kk, do_while, false);
        self.set_state(&ivs, &others, &kk);
        self.pc = pc0.and(&facts);
        let ck = match head {
            Head::Cond(c) => self.ev_bool(c),
            _ => Term::tt(),
        };
        let enter = if do_while {
            kk.eq(&Term::bv(64, 0)).or(&ck)
        } else {
            ck
        };
        self.pc = self.pc.and(&enter);
        if sync {
            if epochs_ok {
                let b = info.barriers.unwrap_or(0) as u128;
                let w = info.warp_syncs.unwrap_or(0) as u128;
                self.epoch = e0.add(&kk.mul(&Term::bv(64, b)));
                self.wepoch = w0.add(&kk.mul(&Term::bv(64, w)));
            } else if relative {
                self.epoch = Term::bv(64, 0);
                self.wepoch = Term::bv(64, 0);
            } else {
                self.epoch = self.sym("ep", Sort::BitVec(64), SymKind::Havoc);
                self.wepoch = self.sym("wep", Sort::BitVec(64), SymKind::Havoc);
            }
        }
        if info.has_grid_sync {
            self.gepoch = self.grid_epoch_at(&g0, grid_step, &kk);
        }
        let logged = self.log.accesses.len();
        let marked = self.marks.len();
        self.loops += 1;
        self.frames.push(Frame {
            iter: sync.then(|| kk.clone()),
            any_iter: (self.loops, kk.clone()),
            brk: Term::ff(),
            cont: Term::ff(),
            returned: false,
        });
        self.block(body);
        if let Some(f) = self.frames.last() {
            self.pc = self.pc.or(&f.cont);
        }
        self.block(update);
        // The summary assumes affine induction variables do not wrap in the iterations it
        // reaches: a wrap on the way to the next one is a finding (a wrap in the iteration
        // that leaves, like `i--` of `while (i-- > 0)`, is legal and never used).
        let next = kk.add(&Term::bv(64, 1));
        for iv in &ivs {
            if matches!(iv.kind, IvKind::Add | IvKind::Sub) {
                let ok = no_wrap(
                    iv.kind,
                    &iv.v0,
                    iv.c.as_ref(),
                    &next,
                    iv.ty.is_signed(),
                    iv.c_signed,
                );
                let pc = self.pc.clone();
                let name = self.k.var(iv.var).name.clone();
                self.hazard(
                    Category::Overflow,
                    ok.not(),
                    &pc,
                    span,
                    format!("induction variable `{name}` wraps around"),
                );
            }
        }
        // Per-iteration sync counts of a relative loop, if the same in every iteration;
        // otherwise the counts before the iteration, as symbols (see `EpochSum`).
        let per_iteration = relative
            .then(|| (self.epoch.clone(), self.wepoch.clone()))
            .filter(|(de, dw)| self.iteration_invariant(de) && self.iteration_invariant(dw));
        let varying = (relative && per_iteration.is_none()).then(|| {
            let counts = [self.epoch.clone(), self.wepoch.clone()];
            let before = [
                self.sym("eb", Sort::BitVec(64), SymKind::Havoc),
                self.sym("wb", Sort::BitVec(64), SymKind::Havoc),
            ];
            (counts, before)
        });
        if relative {
            let (base_e, base_w) = match (&per_iteration, &varying) {
                (Some((de, dw)), _) => (e0.add(&kk.mul(de)), w0.add(&kk.mul(dw))),
                (None, Some((_, [be, bw]))) => (e0.add(be), w0.add(bw)),
                (None, None) => (
                    self.sym("ep", Sort::BitVec(64), SymKind::Havoc),
                    self.sym("wep", Sort::BitVec(64), SymKind::Havoc),
                ),
            };
            if let (Some((counts, _)), false) = (&varying, self.pure) {
                // Every sync of an iteration starts an interval within the iteration's own.
                for [pc, e, w] in &self.marks[marked..] {
                    let within = e.ule(&counts[0]).and(&w.ule(&counts[1]));
                    self.log.assumes.push(pc.implies(&within));
                }
            }
            if !self.pure {
                for a in &mut self.log.accesses[logged..] {
                    a.epoch = base_e.add(&a.epoch);
                    a.wepoch = base_w.add(&a.wepoch);
                }
                for [_, e, w] in &mut self.marks[marked..] {
                    *e = base_e.add(e);
                    *w = base_w.add(w);
                }
            }
        }
        let frame = self.frames.pop();
        let returned = frame.as_ref().is_some_and(|f| f.returned);
        if returned {
            for f in &mut self.frames {
                f.returned = true;
            }
        }

        // After the loop: exit iteration K.
        let kx = self.sym("kx", Sort::BitVec(64), SymKind::Exit { sync });
        if !self.pure && !self.exact_summary(head, &info, &ivs, &others, &kk) {
            for t in [&kk, &kx] {
                if let Some(s) = t.as_sym() {
                    self.log.inexact_iters.insert(s.name.clone());
                }
            }
        }
        let mut after = if info.has_break {
            let all: Vec<VarId> = info.modified.clone();
            self.set_state(&[], &all, &kx);
            pc0
        } else {
            let f = self.reach_facts(head, &ivs, &others, &kx, do_while, true);
            let determined = f.free_syms().iter().all(|s| {
                s.same(&kx)
                    || matches!(
                        s.as_sym().map(|x| x.kind),
                        Some(SymKind::Shared | SymKind::Bid)
                    )
            });
            let geometric = !ivs.is_empty() && ivs.iter().all(|i| i.kind.is_bounded());
            if sync && determined && geometric && !self.pure {
                // The exit iteration is a function of the launch: where the loop ends (its
                // condition fails within the iterations the facts unroll), it ends there, in
                // every part of the kernel that counts its barriers.
                let last = ivs.iter().map(|i| i.v0.width() + 1).max().unwrap_or(0) as u128;
                let first = u128::from(do_while);
                let ends = Term::or_all(
                    (first..=last)
                        .map(|j| self.cond_at(head, &ivs, &others, &Term::bv(64, j)).not())
                        .collect::<Vec<_>>(),
                );
                self.log.assumes.push(ends.implies(&f));
                self.log.uniform_exits.push(kx.clone());
            }
            self.set_state(&ivs, &others, &kx);
            if let Head::Guard(prefix, _) = head {
                // The leaving iteration ran its statements before the guard fired.
                self.pc = pc0.and(&f);
                let was = std::mem::replace(&mut self.pure, true);
                self.block(prefix);
                self.pure = was;
            }
            if !self.pure {
                self.log.exits.push(pc0.implies(&f));
            }
            pc0.and(&f)
        };
        if returned {
            let alive = self.sym("alive", Sort::Bool, SymKind::Havoc);
            after = after.and(&alive);
        }
        self.pc = after;
        if sync {
            if epochs_ok {
                let b = info.barriers.unwrap_or(0) as u128;
                let w = info.warp_syncs.unwrap_or(0) as u128;
                self.epoch = e0.add(&kx.mul(&Term::bv(64, b)));
                self.wepoch = w0.add(&kx.mul(&Term::bv(64, w)));
            } else if let Some((de, dw)) = &per_iteration {
                self.epoch = e0.add(&kx.mul(de));
                self.wepoch = w0.add(&kx.mul(dw));
            } else if let Some((counts, before)) = varying {
                let total = [
                    self.sym("et", Sort::BitVec(64), SymKind::Havoc),
                    self.sym("wt", Sort::BitVec(64), SymKind::Havoc),
                ];
                self.epoch = e0.add(&total[0]);
                self.wepoch = w0.add(&total[1]);
                let outer = self.iters();
                for ((per_iteration, before), total) in counts.into_iter().zip(before).zip(total) {
                    let sum = EpochSum {
                        span,
                        outer: outer.clone(),
                        k: kk.clone(),
                        kx: kx.clone(),
                        per_iteration,
                        before,
                        total,
                    };
                    if !self.pure {
                        self.log.assumes.extend(sum.own_facts());
                        self.log.epoch_sums.push(sum);
                    }
                }
            } else {
                self.epoch = self.sym("ep", Sort::BitVec(64), SymKind::Havoc);
                self.wepoch = self.sym("wep", Sort::BitVec(64), SymKind::Havoc);
            }
        } else {
            self.epoch = e0;
            self.wepoch = w0;
        }
        self.gepoch = if info.has_grid_sync {
            self.grid_epoch_at(&g0, grid_step, &kx)
        } else {
            g0
        };
    }

    /// The exact sum of a step's addends (each of `v0`'s width, extended by its own
    /// signedness), in bits enough never to wrap: signed.
    fn wide_step(&mut self, addends: &[(bool, Expr)], v0: &Term) -> Option<Term> {
        let w = v0.width() + 1 + usize::BITS - addends.len().leading_zeros();
        let was = std::mem::replace(&mut self.pure, true);
        let mut sum = Some(Term::bv(w, 0));
        for (negated, e) in addends {
            sum = match (sum, self.ev(e)) {
                (Some(acc), SVal::Int { t, ty, .. }) if t.width() == v0.width() => {
                    let x = t.ext_to(w, ty.is_signed());
                    Some(if *negated { acc.sub(&x) } else { acc.add(&x) })
                }
                _ => None,
            };
        }
        self.pure = was;
        sum
    }

    /// The grid epoch at iteration `j` of a loop entered at grid epoch `g0` that executes
    /// `step` grid barriers per iteration (an unknown value when that is not a constant).
    fn grid_epoch_at(&mut self, g0: &Term, step: Option<u32>, j: &Term) -> Term {
        match step {
            Some(g) => g0.add(&j.mul(&Term::bv(64, g as u128))),
            None => self.sym("gep", Sort::BitVec(64), SymKind::Havoc),
        }
    }
}

/// An induction variable with its entry value and step, ready for closed forms.
struct Iv {
    var: VarId,
    kind: IvKind,
    v0: Term,
    c: Option<Term>,
    ty: ScalarType,
    c_signed: bool,
}
