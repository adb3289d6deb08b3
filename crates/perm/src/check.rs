//! The annotation checker: symbolic execution of one arbitrary thread between barriers,
//! and the obligations (a) access coverage, (b) barrier redistribution, (c) split/combine,
//! (d) functional postconditions and (e) barrier uniformity, each decided by z3.
//!
//! Scope (everything else is reported `unknown`): one 1-D block; a kernel body of
//! straight-line code with `if`s, `__syncthreads()` only at the top level, no loops, no
//! `return`, no atomics/shuffles, one-dimensional global or shared arrays.

use crate::arith::{c_div, c_rem, convert, in_type, sort_of, wrap};
use crate::error::PermError;
use crate::extract::extract;
use crate::frac::{Frac, Share};
use crate::solver::{Sat, Solver};
use crate::syntax::{AnnotKind, Annotation, SpecExpr, SpecIndex, SpecKind, SpecOp};
use crate::term::{linear_in, Sort, Term};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::time::Duration;

mod flow;
use warpsafe_ir::{
    BinOp, Builtin, Dim, Expr, ExprKind, Kernel, LogicOp, MemRef, ParamKind, ScalarType,
    SourceFile, Span, Stmt, StmtKind, UnOp, Value, VarId,
};

/// The outcome of one obligation, or of a whole check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Proved.
    Verified,
    /// Refuted: z3 found threads and sizes where it fails.
    Violated,
    /// Not decided (unsupported construct, solver gave up, or an imprecise model).
    Unknown,
}

impl Verdict {
    /// `"verified"`, `"violated"` or `"unknown"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Violated => "violated",
            Verdict::Unknown => "unknown",
        }
    }
}

/// One proof obligation and its verdict.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Obligation {
    /// Which check: `"access"`, `"barrier"`, `"split"`, `"functional"` or `"uniform"`.
    pub check: &'static str,
    /// The 1-based source line it is about (0 when it has none).
    pub line: usize,
    /// What is claimed.
    pub what: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Why it is violated or unknown.
    pub reason: Option<String>,
}

/// The result of checking a file's first kernel.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    /// The kernel checked.
    pub kernel: String,
    /// How the obligations are decided: `"annotation"` (z3, from the annotations, for one
    /// arbitrary thread or two, and every block size).
    pub method: &'static str,
    /// Verified only when every obligation is verified; violated when any is violated.
    pub verdict: Verdict,
    /// Every obligation, in the order generated.
    pub obligations: Vec<Obligation>,
    /// What the verdicts assume about the launch and the language.
    pub assumptions: Vec<&'static str>,
}

/// The model's assumptions, reported with every verdict.
pub const ASSUMPTIONS: [&str; 5] = [
    "one-dimensional thread block (blockDim.y == blockDim.z == 1), 1 <= blockDim.x <= 1024",
    "distinct pointer parameters do not alias",
    "each block holds its `kernel requires` (several blocks must be given disjoint global memory)",
    "integers are mathematical: no signed overflow or division by zero (checked by `warpsafe verify`); floats are reals",
    "accesses are in bounds (checked by `warpsafe verify`)",
];

impl Report {
    fn new(kernel: String, obligations: Vec<Obligation>) -> Report {
        let verdict = if obligations.iter().any(|o| o.verdict == Verdict::Violated) {
            Verdict::Violated
        } else if obligations.is_empty()
            || obligations.iter().any(|o| o.verdict != Verdict::Verified)
        {
            Verdict::Unknown
        } else {
            Verdict::Verified
        };
        Report {
            kernel,
            method: "annotation",
            verdict,
            obligations,
            assumptions: ASSUMPTIONS.to_vec(),
        }
    }
}

/// Checks the permission annotations of the first kernel in `source`.
///
/// Malformed annotations and sources the frontend rejects are errors; everything the
/// checker cannot decide is an `unknown` obligation with its reason.
pub fn check(source: &str) -> Result<Report, PermError> {
    let ex = extract(source)?;
    let module = warpsafe_cuda_front::compile(&ex.frontend_source).map_err(|errs| {
        let (message, span) = errs
            .first()
            .map(|e| (e.message.clone(), e.span))
            .unwrap_or_else(|| ("the frontend rejected the source".to_string(), Span::DUMMY));
        PermError::Frontend { message, span }
    })?;
    let kernel = module.kernels.first().ok_or(PermError::NoKernel)?;
    check_kernel(kernel, source, &ex.annotations)
}

/// Checks `annotations` against a kernel already in IR (a `#[kernel]`'s, say): `source` is
/// the text the kernel's and the annotations' spans point into; barrier specifications and
/// loop invariants apply to the first barrier or loop that starts after them.
pub fn check_kernel(
    kernel: &Kernel,
    source: &str,
    annotations: &[Annotation],
) -> Result<Report, PermError> {
    let file = SourceFile::new("input", source);
    let mut ck = Checker::new(kernel, &file);
    let obligations = match ck.run(annotations) {
        Ok(()) => std::mem::take(&mut ck.obligations),
        Err(Stop::Error(e)) => return Err(e),
        Err(Stop::Unsupported(line, why)) => {
            let mut obs = std::mem::take(&mut ck.obligations);
            obs.push(Obligation {
                check: "uniform",
                line,
                what: "the kernel is in the supported fragment".into(),
                verdict: Verdict::Unknown,
                reason: Some(why),
            });
            obs
        }
    };
    Ok(Report::new(kernel.name.clone(), obligations))
}

/// Checks annotations written as `(keywords, formula, byte offset of the formula in
/// source)` triples, the form a `#[kernel]`'s `#[perm(...)]` attributes take, against the
/// kernel's IR. A malformed formula is an error with its span in `source`.
pub fn check_attributes(
    kernel: &Kernel,
    source: &str,
    attributes: &[(&str, &str, usize)],
) -> Result<Report, PermError> {
    let annotations = attributes
        .iter()
        .map(|(kind, text, at)| crate::extract::annotation(kind, text, *at))
        .collect::<Result<Vec<_>, _>>()?;
    check_kernel(kernel, source, &annotations)
}

enum Stop {
    Error(PermError),
    Unsupported(usize, String),
}

impl From<PermError> for Stop {
    fn from(e: PermError) -> Stop {
        Stop::Error(e)
    }
}

type R<T> = Result<T, Stop>;

/// One permission clause: `guard ==> Perm(array[idx], share)`, for every `bound` value in
/// its range when quantified.
#[derive(Clone, Debug)]
struct Clause {
    array: String,
    guard: Term,
    bound: Option<(Rc<str>, Term, Term)>,
    idx: Term,
    share: Share,
    text: String,
}

/// A resolved annotation: its permission clauses and its functional facts.
#[derive(Clone, Debug, Default)]
struct Spec {
    clauses: Vec<Clause>,
    facts: Vec<Term>,
    /// Array elements (not under `old`) the facts read.
    reads: Vec<(String, Term, Term)>,
}

struct Access {
    write: bool,
    array: String,
    idx: Term,
    pc: Term,
    line: usize,
    text: String,
    /// The permissions held where it happens, and since which line.
    held: Rc<Vec<Clause>>,
    held_line: usize,
    /// The facts assumed where it happens (loop invariants and conditions).
    facts: Vec<Term>,
}

struct Checker<'a> {
    k: &'a Kernel,
    file: &'a SourceFile,
    solver: Solver,
    obligations: Vec<Obligation>,
    fresh: usize,
    env: HashMap<VarId, Term>,
    views: HashMap<String, Term>,
    arrays: HashMap<String, (MemRef, ScalarType)>,
    stored: BTreeSet<String>,
    accesses: Vec<Access>,
    /// True while resolving against the final memory (kernel-level postconditions).
    final_mem: bool,
    /// What the executing thread holds now, and the line that gave it.
    held: Rc<Vec<Clause>>,
    held_line: usize,
    /// Facts assumed at this point of the execution (invariants, loop conditions).
    facts: Vec<Term>,
    /// The block's permissions (`kernel requires`).
    kreq: Spec,
    /// `barrier ensures` annotations by the start of the barrier they apply to.
    barrier_specs: HashMap<u32, Vec<Annotation>>,
    /// `barrier requires` annotations by the start of the barrier they apply to.
    barrier_gives: HashMap<u32, Vec<Annotation>>,
    /// `invariant` annotations by the start of the loop they apply to.
    invariants: HashMap<u32, Vec<Annotation>>,
    /// Uniformity obligations that read memory: sound only once race freedom is proved.
    memory_uniform: Vec<usize>,
}

/// Marker in the names of values the model does not track exactly.
const UNTRACKED: &str = "u__";

fn is_write_share(s: Share) -> bool {
    s == Share::Exact(Frac::ONE)
}

fn covers_share(have: Share, need: Share) -> bool {
    match (have, need) {
        (Share::Exact(h), Share::Exact(n)) => h >= n && h.is_positive(),
        (Share::Exact(h), Share::Read) => h.is_positive(),
        (Share::Read, Share::Read) => true,
        (Share::Read, Share::Exact(_)) => false,
    }
}

impl<'a> Checker<'a> {
    fn new(k: &'a Kernel, file: &'a SourceFile) -> Checker<'a> {
        let mut solver = Solver::new(Duration::from_secs(10));
        for v in ["tid", "t1", "t2", "tq", "bdx", "bix"] {
            solver.declare(v, Sort::Int);
        }
        let mut arrays = HashMap::new();
        let mut views = HashMap::new();
        for (i, p) in k.params.iter().enumerate() {
            match p.kind {
                ParamKind::Scalar(t) => solver.declare(&format!("p_{}", p.name), sort_of(t)),
                ParamKind::Buffer { elem, .. } => {
                    let m = MemRef::Global(warpsafe_ir::ParamId(i as u32));
                    arrays.insert(p.name.clone(), (m, elem));
                }
            }
        }
        for (i, a) in k.shared.iter().enumerate() {
            let m = MemRef::Shared(warpsafe_ir::ArrayId(i as u32));
            arrays.insert(a.name.clone(), (m, a.elem));
        }
        for (name, (_, elem)) in &arrays {
            let s = Sort::Array(Box::new(sort_of(*elem)));
            for pre in ["old_", "fin_"] {
                solver.declare(&format!("{pre}{name}"), s.clone());
            }
            views.insert(name.clone(), Term::sym(&format!("old_{name}")));
        }
        Checker {
            k,
            file,
            solver,
            obligations: vec![],
            fresh: 0,
            env: HashMap::new(),
            views,
            arrays,
            stored: BTreeSet::new(),
            accesses: vec![],
            final_mem: false,
            held: Rc::new(vec![]),
            held_line: 0,
            facts: vec![],
            kreq: Spec::default(),
            barrier_specs: HashMap::new(),
            barrier_gives: HashMap::new(),
            invariants: HashMap::new(),
            memory_uniform: vec![],
        }
    }

    fn line(&self, span: Span) -> usize {
        self.file.line(span)
    }

    fn unsupported<T>(&self, span: Span, why: impl Into<String>) -> R<T> {
        Err(Stop::Unsupported(self.line(span), why.into()))
    }

    fn fresh_name(&mut self, base: &str) -> String {
        self.fresh += 1;
        format!("{base}{}", self.fresh)
    }

    /// A value of the executing thread the model does not track.
    fn untracked(&mut self, sort: Sort) -> Term {
        let n = self.fresh_name(&format!("{UNTRACKED}v"));
        self.solver.declare_thread(&n, sort);
        Term::thread_sym(&n)
    }

    /// Facts about the launch, and the facts assumed at this point, for thread `t`.
    fn context(&mut self, t: &Term) -> R<Vec<Term>> {
        let mut out = self.assumptions(t)?;
        out.extend(self.facts.iter().map(|f| f.for_thread(t)));
        Ok(out)
    }

    /// Facts about the launch for thread `t`.
    fn assumptions(&mut self, t: &Term) -> R<Vec<Term>> {
        let bdx = Term::sym("bdx");
        let mut out = vec![
            Term::le(Term::Int(1), bdx.clone()),
            Term::le(bdx.clone(), Term::Int(1024)),
            Term::in_range(t.clone(), Term::Int(0), bdx),
            Term::le(Term::Int(0), Term::sym("bix")),
        ];
        for p in &self.k.params {
            if let ParamKind::Scalar(ty) = p.kind {
                out.push(in_type(&Term::sym(&format!("p_{}", p.name)), ty));
            }
        }
        let reqs = self.k.contract.requires.clone();
        let saved = std::mem::take(&mut self.accesses);
        for r in &reqs {
            let v = self.eval(r, &Term::Bool(true))?;
            out.push(v.for_thread(t));
        }
        self.accesses = saved;
        Ok(out)
    }

    fn decide(
        &mut self,
        check: &'static str,
        line: usize,
        what: String,
        facts: Vec<Term>,
        fail: &str,
    ) {
        let sat = self.solver.check(&facts);
        let untracked = facts.iter().any(|f| f.smt().contains(UNTRACKED));
        let (verdict, reason) = match sat {
            Sat::Unsat => (Verdict::Verified, None),
            Sat::Sat if untracked => (
                Verdict::Unknown,
                Some(format!(
                    "{fail} (possibly spurious: depends on values the checker does not track)"
                )),
            ),
            Sat::Sat => (Verdict::Violated, Some(fail.to_string())),
            Sat::Unknown(r) => (Verdict::Unknown, Some(r)),
        };
        self.obligations.push(Obligation {
            check,
            line,
            what,
            verdict,
            reason,
        });
    }

    fn note(&mut self, check: &'static str, line: usize, what: String, verdict: Verdict, r: &str) {
        self.obligations.push(Obligation {
            check,
            line,
            what,
            verdict,
            reason: (verdict != Verdict::Verified).then(|| r.to_string()),
        });
    }

    fn run(&mut self, annots: &[Annotation]) -> R<()> {
        let k = self.k;
        let lines = |kind: AnnotKind| -> Vec<&Annotation> {
            annots.iter().filter(|a| a.kind == kind).collect()
        };
        if let Some([_, y, z]) = k.contract.block_dim {
            if y != 1 || z != 1 {
                return self.unsupported(k.span, "only one-dimensional blocks are supported");
            }
        }
        self.anchor(
            &lines(AnnotKind::BarrierRequires),
            &lines(AnnotKind::BarrierEnsures),
            &lines(AnnotKind::Invariant),
        )?;
        let tid = Term::Tid;
        let kreq = self.resolve_all(&lines(AnnotKind::KernelRequires), false)?;
        let thread_dep = |c: &Clause| {
            c.idx.is_thread_dependent()
                || c.guard.is_thread_dependent()
                || c.bound
                    .as_ref()
                    .is_some_and(|(_, lo, hi)| lo.is_thread_dependent() || hi.is_thread_dependent())
        };
        if kreq.clauses.iter().any(thread_dep) {
            return self.unsupported(k.span, "`kernel requires` must not mention the thread");
        }
        self.kreq = kreq.clone();
        let treq = self.resolve_all(&lines(AnnotKind::ThreadRequires), false)?;
        let treq_line = lines(AnnotKind::ThreadRequires)
            .first()
            .map_or(0, |a| self.line(a.span));
        // (c) the thread preconditions split the kernel precondition.
        self.redistribution(
            "split",
            treq_line,
            "thread requires",
            &treq,
            &Term::Bool(true),
        )?;
        // The kernel precondition's facts are assumed; the threads' facts must follow from
        // them, read only what the thread holds, and are then assumed for the thread.
        if kreq.facts.iter().any(Term::is_thread_dependent) {
            return self.unsupported(k.span, "`kernel requires` must not mention the thread");
        }
        self.facts.extend(kreq.facts.iter().cloned());
        let treq_spec = Spec {
            clauses: vec![],
            ..treq.clone()
        };
        self.held = Rc::new(treq.clauses.clone());
        self.holds_here(
            "split",
            treq_line,
            "at launch (`thread requires`)",
            &treq_spec,
            &Term::Bool(true),
        )?;
        self.facts.extend(treq.facts.iter().cloned());
        // Symbolic execution of one thread; barriers and loops check as they go.
        self.held = Rc::new(treq.clauses.clone());
        self.held_line = treq_line;
        self.exec_block(&k.body, &Term::Bool(true))?;
        let held: Vec<Clause> = self.held.as_ref().clone();
        // (a) every access is covered by a permission held where it happens.
        let base = self.assumptions(&tid)?;
        for acc in std::mem::take(&mut self.accesses) {
            let need = if acc.write {
                Share::Exact(Frac::ONE)
            } else {
                Share::Read
            };
            let cov = self.covered(&acc.held, &acc.array, &acc.idx, need);
            let mut facts = base.clone();
            facts.extend(acc.facts.iter().cloned());
            facts.push(acc.pc.clone());
            facts.push(Term::negate(cov));
            let what = format!(
                "{} `{}` covered by the permissions held since line {}",
                if acc.write { "write" } else { "read" },
                acc.text,
                acc.held_line
            );
            let fail = if acc.write {
                "some thread writes without holding permission 1 on the location"
            } else {
                "some thread reads without holding a positive permission on the location"
            };
            self.decide("access", acc.line, what, facts, fail);
        }
        let mut asm = base;
        asm.extend(self.facts.iter().cloned());
        // Postconditions.
        let tens_annots = lines(AnnotKind::ThreadEnsures);
        let tens_line = tens_annots.first().map_or(0, |a| self.line(a.span));
        let tens = self.resolve_all(&tens_annots, true)?;
        // (c) what a thread holds at its end it held in its last phase.
        for c in &tens.clauses {
            let (guard, loc) = self.instance(c, &tid, "e");
            let cov = self.covered(&held, &c.array, &loc, c.share);
            let mut facts = asm.clone();
            facts.extend(guard);
            facts.push(Term::negate(cov));
            let what = format!("`thread ensures {}` held in the last phase", c.text);
            self.decide(
                "split",
                tens_line,
                what,
                facts,
                "a thread ends with a permission it does not hold",
            );
        }
        // (d) functional facts of the thread postcondition, in the thread's final view.
        for (arr, idx, pc) in tens.reads.clone() {
            let cov = self.covered(&held, &arr, &idx, Share::Read);
            let mut facts = asm.clone();
            facts.push(pc);
            facts.push(Term::negate(cov));
            self.decide(
                "functional",
                tens_line,
                format!("`thread ensures` reads `{arr}` only where the thread holds permission"),
                facts,
                "the postcondition reads a location the thread holds no permission on",
            );
        }
        for f in &tens.facts {
            let mut facts = asm.clone();
            facts.push(Term::negate(f.clone()));
            self.decide(
                "functional",
                tens_line,
                "the thread's final values establish `thread ensures`".into(),
                facts,
                "some thread ends in a state that violates its postcondition",
            );
        }
        // Kernel postcondition: permissions come from the kernel precondition; facts from
        // every thread's postcondition over the final memory.
        let kens_annots = lines(AnnotKind::KernelEnsures);
        let kens_line = kens_annots.first().map_or(0, |a| self.line(a.span));
        for (name, _) in self.arrays.clone() {
            self.views
                .insert(name.clone(), Term::sym(&format!("fin_{name}")));
        }
        self.final_mem = true;
        let kens = self.resolve_all(&kens_annots, true)?;
        // (c) the threads' postconditions combine into the kernel's: each permission of
        // `kernel ensures` is one thread's `thread ensures` permission.
        let tq = Term::sym("tq");
        let tq_in_block = Term::and(self.assumptions(&tq)?);
        for c in &kens.clauses {
            if thread_dep(c) {
                return self.unsupported(k.span, "`kernel ensures` must not mention the thread");
            }
            let (guard, loc) = self.instance(c, &tid, "k");
            let cov = self
                .covered(&tens.clauses, &c.array, &loc, c.share)
                .for_thread(&tq);
            let mut facts = asm.clone();
            facts.extend(guard);
            facts.push(Term::Forall(
                vec!["tq".into()],
                Box::new(Term::implies(tq_in_block.clone(), Term::negate(cov))),
            ));
            self.decide(
                "split",
                kens_line,
                format!(
                    "`kernel ensures {}` is some thread's `thread ensures` permission",
                    c.text
                ),
                facts,
                "the kernel postcondition claims a permission no thread ends with",
            );
        }
        if !kens.facts.is_empty() {
            let tens_fin = self.resolve_all(&tens_annots, true)?;
            let tq = Term::sym("tq");
            let mut hyps = asm.clone();
            let tq_asm = Term::and(self.assumptions(&tq)?);
            for f in &tens_fin.facts {
                let body = Term::implies(tq_asm.clone(), f.for_thread(&tq));
                hyps.push(Term::Forall(vec!["tq".into()], Box::new(body)));
            }
            for f in &kens.facts {
                let mut facts = hyps.clone();
                facts.push(Term::negate(f.clone()));
                self.decide(
                    "functional",
                    kens_line,
                    "the threads' postconditions establish `kernel ensures`".into(),
                    facts,
                    "the threads' postconditions do not imply the kernel postcondition",
                );
            }
        }
        self.race_dependent_uniformity();
        Ok(())
    }

    /// (b)/(c) without a statement of what is given up: the clauses are consistent across
    /// threads and lie within what the block owns.
    fn redistribution(
        &mut self,
        check: &'static str,
        line: usize,
        label: &str,
        spec: &Spec,
        pc: &Term,
    ) -> R<()> {
        self.pairwise_disjoint(check, line, label, spec, pc)?;
        self.within_block(check, line, label, spec, pc)
    }

    /// Per-location bound: shares of two distinct threads never exceed 1 together (exact
    /// shares pairwise disjoint, `read` never meets `1`), nor do two clauses of one thread.
    fn pairwise_disjoint(
        &mut self,
        check: &'static str,
        line: usize,
        label: &str,
        spec: &Spec,
        pc: &Term,
    ) -> R<()> {
        let t1 = Term::sym("t1");
        let t2 = Term::sym("t2");
        let mut base = self.context(&t1)?;
        base.extend(self.context(&t2)?);
        base.push(pc.for_thread(&t1));
        base.push(pc.for_thread(&t2));
        base.push(Term::negate(Term::eq(t1.clone(), t2.clone())));
        let cs = &spec.clauses;
        for i in 0..cs.len() {
            for j in i..cs.len() {
                let (a, b) = (&cs[i], &cs[j]);
                if a.array != b.array {
                    continue;
                }
                let both_read = !is_write_share(a.share)
                    && !is_write_share(b.share)
                    && (a.share == Share::Read || b.share == Share::Read);
                if both_read {
                    continue;
                }
                let (g1, l1) = self.instance(a, &t1, "x");
                let (g2, l2) = self.instance(b, &t2, "y");
                let mut facts = base.clone();
                facts.extend(g1);
                facts.extend(g2);
                facts.push(Term::eq(l1, l2));
                self.decide(
                    check,
                    line,
                    format!(
                        "`{label} {}` and `{}` of two distinct threads are disjoint",
                        a.text, b.text
                    ),
                    facts,
                    "two threads hold shares of one location that sum to more than 1",
                );
            }
        }
        // Within one thread: two clauses on one location must not exceed 1 together.
        let mut asm = self.context(&Term::Tid)?;
        asm.push(pc.clone());
        for i in 0..cs.len() {
            for j in i + 1..cs.len() {
                let (a, b) = (&cs[i], &cs[j]);
                let fits = match (a.share, b.share) {
                    (Share::Exact(x), Share::Exact(y)) => {
                        x.checked_add(y).is_some_and(|s| s.is_valid())
                    }
                    (Share::Exact(x), Share::Read) | (Share::Read, Share::Exact(x)) => {
                        x < Frac::ONE
                    }
                    (Share::Read, Share::Read) => true,
                };
                if a.array != b.array || fits {
                    continue;
                }
                let (g1, l1) = self.instance(a, &Term::Tid, "x");
                let (g2, l2) = self.instance(b, &Term::Tid, "y");
                let mut facts = asm.clone();
                facts.extend(g1);
                facts.extend(g2);
                facts.push(Term::eq(l1, l2));
                self.decide(
                    check,
                    line,
                    format!("`{}` and `{}` of one thread do not overlap", a.text, b.text),
                    facts,
                    "one thread holds more than 1 of a location",
                );
            }
        }
        // A quantified clause must not name one location twice in one thread.
        for c in cs {
            let twice_fits = match c.share {
                Share::Exact(q) => q.checked_add(q).is_some_and(|s| s.is_valid()),
                Share::Read => true,
            };
            if c.bound.is_none() || twice_fits {
                continue;
            }
            let (g1, l1) = self.instance(c, &Term::Tid, "x");
            let (g2, l2) = self.instance(c, &Term::Tid, "y");
            let (Some(b1), Some(b2)) = (bound_value(&g1), bound_value(&g2)) else {
                self.note(
                    check,
                    line,
                    format!("`{}` names each location once per thread", c.text),
                    Verdict::Unknown,
                    "internal: could not isolate the quantified variable",
                );
                continue;
            };
            let mut facts = asm.clone();
            facts.extend(g1);
            facts.extend(g2);
            facts.push(Term::negate(Term::eq(b1, b2)));
            facts.push(Term::eq(l1, l2));
            self.decide(
                check,
                line,
                format!("`{}` names each location once per thread", c.text),
                facts,
                "one thread holds more than 1 of a location",
            );
        }
        Ok(())
    }

    /// Every clause lies within what the block owns (`kernel requires` clauses of share 1).
    fn within_block(
        &mut self,
        check: &'static str,
        line: usize,
        label: &str,
        spec: &Spec,
        pc: &Term,
    ) -> R<()> {
        let kreq = self.kreq.clone();
        let mut asm = self.context(&Term::Tid)?;
        asm.push(pc.clone());
        let cs = &spec.clauses;
        for c in cs {
            let (g, loc) = self.instance(c, &Term::Tid, "z");
            let kc: Vec<Clause> = kreq
                .clauses
                .iter()
                .filter(|k| is_write_share(k.share))
                .cloned()
                .collect();
            let cov = self.covered(&kc, &c.array, &loc, Share::Read);
            let mut facts = asm.clone();
            facts.extend(g);
            facts.push(Term::negate(cov));
            self.decide(
                check,
                line,
                format!("`{label} {}` within `kernel requires`", c.text),
                facts,
                "a thread holds a permission the block does not own",
            );
        }
        Ok(())
    }

    /// The clause instantiated for thread `t` with a fresh bound variable: its conditions
    /// and its location.
    fn instance(&mut self, c: &Clause, t: &Term, tag: &str) -> (Vec<Term>, Term) {
        let mut guard = vec![c.guard.for_thread(t)];
        let mut loc = c.idx.for_thread(t);
        if let Some((v, lo, hi)) = &c.bound {
            let n = self.fresh_name(&format!("{tag}_b"));
            self.solver.declare(&n, Sort::Int);
            let nv = Term::sym(&n);
            guard = vec![c.guard.for_thread(t).replace_sym(v, &nv)];
            guard.push(Term::in_range(
                nv.clone(),
                lo.for_thread(t),
                hi.for_thread(t),
            ));
            loc = loc.replace_sym(v, &nv);
        }
        (guard, loc)
    }

    /// The condition under which the executing thread's `clauses` give at least `need` on
    /// `array[loc]` (a single clause; quantified clauses by solving for the bound variable).
    fn covered(&mut self, clauses: &[Clause], array: &str, loc: &Term, need: Share) -> Term {
        let mut alts = vec![];
        for c in clauses {
            if c.array != array || !covers_share(c.share, need) {
                continue;
            }
            match &c.bound {
                None => alts.push(Term::and(vec![
                    c.guard.clone(),
                    Term::eq(c.idx.clone(), loc.clone()),
                ])),
                Some((v, lo, hi)) => {
                    let Some((coef, rest)) = linear_in(&c.idx, v) else {
                        continue;
                    };
                    let j = match coef {
                        1 => Term::minus(loc.clone(), rest),
                        -1 => Term::minus(rest, loc.clone()),
                        _ => continue,
                    };
                    alts.push(Term::and(vec![
                        c.guard.replace_sym(v, &j),
                        Term::in_range(j.clone(), lo.clone(), hi.clone()),
                        Term::eq(c.idx.replace_sym(v, &j), loc.clone()),
                    ]));
                }
            }
        }
        Term::or(alts)
    }

    fn resolve_all(&mut self, annots: &[&Annotation], locals: bool) -> R<Spec> {
        let mut spec = Spec::default();
        for a in annots {
            self.resolve(&a.formula, &Term::Bool(true), None, locals, &mut spec)?;
        }
        Ok(spec)
    }

    fn file_text(&self, span: Span) -> String {
        self.file
            .text
            .get(span.range())
            .unwrap_or_default()
            .to_string()
    }

    fn resolve(
        &mut self,
        f: &SpecExpr,
        guard: &Term,
        bound: Option<&(Rc<str>, Term, Term)>,
        locals: bool,
        spec: &mut Spec,
    ) -> R<()> {
        let mut binds = HashMap::new();
        if let Some((v, _, _)) = bound {
            binds.insert(v.to_string(), Term::Sym(v.clone()));
        }
        self.resolve_in(f, guard, bound, locals, spec, &mut binds)
    }

    fn resolve_in(
        &mut self,
        f: &SpecExpr,
        guard: &Term,
        bound: Option<&(Rc<str>, Term, Term)>,
        locals: bool,
        spec: &mut Spec,
        binds: &mut HashMap<String, Term>,
    ) -> R<()> {
        let plain_forall = matches!(f.kind, SpecKind::Forall(..)) && bound.is_none();
        if !has_perm(f) && !plain_forall {
            let fact = self.spec_term(f, locals, binds, &mut spec.reads, guard)?;
            let mut fact = Term::implies(guard.clone(), fact);
            if let Some((v, lo, hi)) = bound {
                fact = Term::Forall(
                    vec![v.clone()],
                    Box::new(Term::implies(
                        Term::in_range(Term::Sym(v.clone()), lo.clone(), hi.clone()),
                        fact,
                    )),
                );
            }
            spec.facts.push(fact);
            return Ok(());
        }
        match &f.kind {
            SpecKind::Binary(SpecOp::And, a, b) => {
                self.resolve_in(a, guard, bound, locals, spec, binds)?;
                self.resolve_in(b, guard, bound, locals, spec, binds)
            }
            SpecKind::Binary(SpecOp::Implies, c, body) => {
                let ct = self.spec_term(c, locals, binds, &mut spec.reads, guard)?;
                let g = Term::and(vec![guard.clone(), ct]);
                self.resolve_in(body, &g, bound, locals, spec, binds)
            }
            SpecKind::Forall(v, lo, hi, body) if bound.is_none() => {
                let lo = self.spec_term(lo, locals, binds, &mut spec.reads, guard)?;
                let hi = self.spec_term(hi, locals, binds, &mut spec.reads, guard)?;
                let n: Rc<str> = self.fresh_name(&format!("q_{v}_")).into();
                self.solver.declare(&n, Sort::Int);
                let prev = binds.insert(v.clone(), Term::Sym(n.clone()));
                let b = (n, lo, hi);
                let r = self.resolve_in(body, guard, Some(&b), locals, spec, binds);
                match prev {
                    Some(p) => binds.insert(v.clone(), p),
                    None => binds.remove(v),
                };
                r
            }
            SpecKind::Perm(loc, amount) => {
                let share = self.share(amount)?;
                let SpecKind::Access(name, idx) = &loc.kind else {
                    return Err(PermError::annotation(loc.span, "expected an array element").into());
                };
                if !self.arrays.contains_key(name) {
                    return Err(PermError::annotation(
                        loc.span,
                        format!("`{name}` is not an array of the kernel"),
                    )
                    .into());
                }
                if idx.len() != 1 {
                    return self
                        .unsupported(loc.span, "multi-dimensional arrays are not supported yet");
                }
                let text = self.file_text(f.span);
                match &idx[0] {
                    SpecIndex::At(e) => {
                        let t = self.spec_term(e, locals, binds, &mut spec.reads, guard)?;
                        spec.clauses.push(Clause {
                            array: name.clone(),
                            guard: guard.clone(),
                            bound: bound.cloned(),
                            idx: t,
                            share,
                            text,
                        });
                    }
                    SpecIndex::Range(lo, hi) => {
                        if bound.is_some() {
                            return self.unsupported(
                                f.span,
                                "a range inside `forall` is not supported yet",
                            );
                        }
                        let lo = self.spec_term(lo, locals, binds, &mut spec.reads, guard)?;
                        let hi = self.spec_term(hi, locals, binds, &mut spec.reads, guard)?;
                        let n = self.fresh_name("r_");
                        self.solver.declare(&n, Sort::Int);
                        spec.clauses.push(Clause {
                            array: name.clone(),
                            guard: guard.clone(),
                            bound: Some((n.as_str().into(), lo, hi)),
                            idx: Term::sym(&n),
                            share,
                            text,
                        });
                    }
                }
                Ok(())
            }
            _ => self.unsupported(
                f.span,
                "permissions under `||`, `!`, `?:` or nested `forall` are not supported yet",
            ),
        }
    }

    fn share(&self, amount: &SpecExpr) -> R<Share> {
        let bad = || -> R<Share> {
            Err(PermError::annotation(
                amount.span,
                "a permission amount is `1`, `p/q` (0 < p/q <= 1) or `read`",
            )
            .into())
        };
        let frac = match &amount.kind {
            SpecKind::Ident(s) if s == "read" => return Ok(Share::Read),
            SpecKind::Int(1) => Frac::new(1, 1),
            SpecKind::Binary(SpecOp::Div, p, q) => match (&p.kind, &q.kind) {
                (SpecKind::Int(p), SpecKind::Int(q)) => {
                    match (i64::try_from(*p), i64::try_from(*q)) {
                        (Ok(p), Ok(q)) => Frac::new(p, q),
                        _ => None,
                    }
                }
                _ => None,
            },
            _ => None,
        };
        match frac {
            Some(q) if q.is_positive() && q.is_valid() => Ok(Share::Exact(q)),
            _ => bad(),
        }
    }

    /// An annotation term: parameters, `tid`, sizes, bound variables, locals (barrier specs
    /// and postconditions), current array elements and `old` elements.
    fn spec_term(
        &mut self,
        e: &SpecExpr,
        locals: bool,
        binds: &HashMap<String, Term>,
        reads: &mut Vec<(String, Term, Term)>,
        guard: &Term,
    ) -> R<Term> {
        self.spec_term_at(e, locals, binds, reads, guard, false)
    }

    fn spec_term_at(
        &mut self,
        e: &SpecExpr,
        locals: bool,
        binds: &HashMap<String, Term>,
        reads: &mut Vec<(String, Term, Term)>,
        guard: &Term,
        old: bool,
    ) -> R<Term> {
        let go = |s: &mut Self, x: &SpecExpr, reads: &mut Vec<(String, Term, Term)>| {
            s.spec_term_at(x, locals, binds, reads, guard, old)
        };
        Ok(match &e.kind {
            SpecKind::Int(v) => Term::Int(*v),
            SpecKind::Bool(b) => Term::Bool(*b),
            SpecKind::Ident(n) => {
                if let Some(t) = binds.get(n) {
                    t.clone()
                } else if n == "tid" {
                    Term::Tid
                } else if self
                    .k
                    .params
                    .iter()
                    .any(|p| &p.name == n && matches!(p.kind, ParamKind::Scalar(_)))
                {
                    Term::sym(&format!("p_{n}"))
                } else if let Some(t) = self.local_named(n).filter(|_| locals) {
                    t
                } else {
                    return Err(PermError::annotation(e.span, format!("unknown name `{n}`")).into());
                }
            }
            SpecKind::Member(a, b) => match (a.as_str(), b.as_str()) {
                ("threadIdx", "x") => Term::Tid,
                ("blockDim", "x") => Term::sym("bdx"),
                ("blockIdx", "x") => Term::sym("bix"),
                _ => return self.unsupported(e.span, "only the x dimension is supported"),
            },
            SpecKind::Not(a) => Term::negate(go(self, a, reads)?),
            SpecKind::Neg(a) => Term::app("-", vec![go(self, a, reads)?]),
            SpecKind::Cond(c, a, b) => {
                let c = go(self, c, reads)?;
                let a = go(self, a, reads)?;
                Term::ite(c, a, go(self, b, reads)?)
            }
            SpecKind::Binary(op, a, b) => {
                let a = go(self, a, reads)?;
                let b = go(self, b, reads)?;
                match op {
                    SpecOp::Implies => Term::implies(a, b),
                    SpecOp::Or => Term::or(vec![a, b]),
                    SpecOp::And => Term::and(vec![a, b]),
                    SpecOp::Eq => Term::eq(a, b),
                    SpecOp::Ne => Term::negate(Term::eq(a, b)),
                    SpecOp::Lt => Term::lt(a, b),
                    SpecOp::Le => Term::le(a, b),
                    SpecOp::Gt => Term::lt(b, a),
                    SpecOp::Ge => Term::le(b, a),
                    SpecOp::Add => Term::plus(a, b),
                    SpecOp::Sub => Term::minus(a, b),
                    SpecOp::Mul => Term::times(a, b),
                    SpecOp::Div => c_div(a, b),
                    SpecOp::Rem => c_rem(a, b),
                }
            }
            SpecKind::Access(name, idx) => {
                if !self.arrays.contains_key(name) {
                    return Err(PermError::annotation(
                        e.span,
                        format!("`{name}` is not an array of the kernel"),
                    )
                    .into());
                }
                let [SpecIndex::At(i)] = idx.as_slice() else {
                    return self.unsupported(e.span, "only one-dimensional elements are supported");
                };
                let i = go(self, i, reads)?;
                if old {
                    Term::select(Term::sym(&format!("old_{name}")), i)
                } else if self.final_mem {
                    Term::select(self.views[name].clone(), i)
                } else {
                    if binds.values().any(|b| i.smt().contains(&b.smt())) {
                        return self.unsupported(
                            e.span,
                            "array elements under `forall` are only supported in `kernel ensures`",
                        );
                    }
                    reads.push((name.clone(), i.clone(), guard.clone()));
                    Term::select(self.views[name].clone(), i)
                }
            }
            SpecKind::Old(a) => self.spec_term_at(a, locals, binds, reads, guard, true)?,
            SpecKind::Perm(..) | SpecKind::Forall(..) => {
                return self.unsupported(e.span, "permissions or `forall` inside a term");
            }
        })
    }

    fn local_named(&self, n: &str) -> Option<Term> {
        (0..self.k.vars.len())
            .rev()
            .map(|i| VarId(i as u32))
            .find(|v| self.k.var(*v).name == n && self.env.contains_key(v))
            .and_then(|v| self.env.get(&v).cloned())
    }

    fn exec(&mut self, s: &Stmt, pc: &Term) -> R<()> {
        match &s.kind {
            StmtKind::Let { var, init } => {
                let v = match init {
                    Some(e) => self.eval(e, pc)?,
                    None => self.untracked(sort_of(self.k.var(*var).ty)),
                };
                let old = self.env.get(var).cloned();
                let v = match old {
                    Some(o) => Term::ite(pc.clone(), v, o),
                    None => v,
                };
                self.env.insert(*var, v);
            }
            StmtKind::Assign { var, value } => {
                let v = self.eval(value, pc)?;
                let old = match self.env.get(var).cloned() {
                    Some(o) => o,
                    None => self.untracked(sort_of(self.k.var(*var).ty)),
                };
                self.env.insert(*var, Term::ite(pc.clone(), v, old));
            }
            StmtKind::Store {
                mem,
                indices,
                value,
            } => {
                let [i] = indices.as_slice() else {
                    return self
                        .unsupported(s.span, "multi-dimensional arrays are not supported yet");
                };
                let (name, _) = self.array_of(*mem, s.span)?;
                let idx = self.eval(i, pc)?;
                let v = self.eval(value, pc)?;
                let text = self.file_text(s.span).trim().to_string();
                self.accesses.push(Access {
                    write: true,
                    array: name.clone(),
                    idx: idx.clone(),
                    pc: pc.clone(),
                    line: self.line(s.span),
                    text,
                    held: self.held.clone(),
                    held_line: self.held_line,
                    facts: self.facts.clone(),
                });
                self.stored.insert(name.clone());
                let view = self.views[&name].clone();
                let new = Term::ite(pc.clone(), Term::store(view.clone(), idx, v), view);
                self.views.insert(name, new);
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => self.branch(cond, then_body, else_body, pc)?,
            StmtKind::SyncThreads => self.barrier(s, pc)?,
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                self.exec_block(init, pc)?;
                self.exec_loop(s, cond.as_ref(), body, update, pc)?;
            }
            StmtKind::While { cond, body } => self.exec_loop(s, Some(cond), body, &[], pc)?,
            StmtKind::Assume(_) | StmtKind::Assert(_) => {}
            StmtKind::DoWhile { .. } => {
                return self.unsupported(s.span, "`do`/`while` loops are not supported yet")
            }
            StmtKind::Return | StmtKind::Break | StmtKind::Continue => {
                return self
                    .unsupported(s.span, "`return`/`break`/`continue` are not supported yet")
            }
            StmtKind::SyncWarp { .. } | StmtKind::Shuffle { .. } | StmtKind::Atomic { .. } => {
                return self
                    .unsupported(s.span, "warp intrinsics and atomics are not supported yet")
            }
        }
        Ok(())
    }

    fn array_of(&self, m: MemRef, span: Span) -> R<(String, ScalarType)> {
        match m {
            MemRef::Local(_) => self.unsupported(span, "local arrays are not supported yet"),
            _ => {
                let name = self.k.mem_name(m).to_string();
                let ty = self.k.elem_type(m);
                if let MemRef::Shared(a) = m {
                    if self.k.shared[a.0 as usize].dims.len() != 1 {
                        return self
                            .unsupported(span, "multi-dimensional arrays are not supported yet");
                    }
                }
                Ok((name, ty))
            }
        }
    }

    /// The value of an IR expression for the executing thread; loads are recorded as
    /// read accesses under `pc`.
    fn eval(&mut self, e: &Expr, pc: &Term) -> R<Term> {
        let ty = e.ty;
        Ok(match &e.kind {
            ExprKind::Const(v) => match *v {
                Value::Bool(b) => Term::Bool(b),
                Value::F32(_) | Value::F64(_) => {
                    let f = v.as_f64();
                    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e18 {
                        Term::real(f as i128, 1)
                    } else {
                        return self.unsupported(
                            e.span,
                            "non-integral float constants are not supported yet",
                        );
                    }
                }
                _ => match v.as_i128() {
                    Some(i) => Term::Int(i),
                    None => return self.unsupported(e.span, "constant"),
                },
            },
            ExprKind::Var(v) => match self.env.get(v).cloned() {
                Some(t) => t,
                None => self.untracked(sort_of(ty)),
            },
            ExprKind::Param(p) => Term::sym(&format!("p_{}", self.k.param(*p).name)),
            ExprKind::Builtin(b) => match b {
                Builtin::ThreadIdx(Dim::X) => Term::Tid,
                Builtin::BlockDim(Dim::X) => Term::sym("bdx"),
                Builtin::BlockIdx(Dim::X) => Term::sym("bix"),
                _ => {
                    return self.unsupported(e.span, "only 1-D blocks are supported (x dimension)")
                }
            },
            ExprKind::Unary(op, a) => {
                let a = self.eval(a, pc)?;
                match op {
                    UnOp::Neg => wrap(Term::app("-", vec![a]), ty),
                    UnOp::Not => Term::negate(a),
                    UnOp::BitNot => {
                        return self.unsupported(e.span, "bitwise operators are not supported yet")
                    }
                }
            }
            ExprKind::Binary(op, a, b) => {
                let float = a.ty.is_float();
                let a = self.eval(a, pc)?;
                let b = self.eval(b, pc)?;
                match op {
                    BinOp::Add => wrap(Term::plus(a, b), ty),
                    BinOp::Sub => wrap(Term::minus(a, b), ty),
                    BinOp::Mul => wrap(Term::times(a, b), ty),
                    BinOp::Div if float => Term::app("/", vec![a, b]),
                    BinOp::Div => wrap(c_div(a, b), ty),
                    BinOp::Rem if !float => wrap(c_rem(a, b), ty),
                    BinOp::Eq => Term::eq(a, b),
                    BinOp::Ne => Term::negate(Term::eq(a, b)),
                    BinOp::Lt => Term::lt(a, b),
                    BinOp::Le => Term::le(a, b),
                    BinOp::Gt => Term::lt(b, a),
                    BinOp::Ge => Term::le(b, a),
                    BinOp::Min => Term::ite(Term::le(a.clone(), b.clone()), a, b),
                    BinOp::Max => Term::ite(Term::le(a.clone(), b.clone()), b, a),
                    _ => {
                        return self.unsupported(e.span, "bitwise operators are not supported yet")
                    }
                }
            }
            // `&&`, `||` and `?:` evaluate their later operands only when needed: loads there
            // happen under the condition that selects them.
            ExprKind::Logical(op, a, b) => {
                let a = self.eval(a, pc)?;
                let when = match op {
                    LogicOp::And => a.clone(),
                    LogicOp::Or => Term::negate(a.clone()),
                };
                let b = self.eval(b, &Term::and(vec![pc.clone(), when]))?;
                match op {
                    LogicOp::And => Term::and(vec![a, b]),
                    LogicOp::Or => Term::or(vec![a, b]),
                }
            }
            ExprKind::Cast(a) => {
                let from = a.ty;
                let a = self.eval(a, pc)?;
                convert(a, from, ty)
            }
            ExprKind::Select(c, a, b) => {
                let c = self.eval(c, pc)?;
                let a = self.eval(a, &Term::and(vec![pc.clone(), c.clone()]))?;
                let b = self.eval(b, &Term::and(vec![pc.clone(), Term::negate(c.clone())]))?;
                Term::ite(c, a, b)
            }
            ExprKind::Load(m, indices) => {
                let [i] = indices.as_slice() else {
                    return self
                        .unsupported(e.span, "multi-dimensional arrays are not supported yet");
                };
                let (name, _) = self.array_of(*m, e.span)?;
                let idx = self.eval(i, pc)?;
                let text = self.file_text(e.span).trim().to_string();
                self.accesses.push(Access {
                    write: false,
                    array: name.clone(),
                    idx: idx.clone(),
                    pc: pc.clone(),
                    line: self.line(e.span),
                    text,
                    held: self.held.clone(),
                    held_line: self.held_line,
                    facts: self.facts.clone(),
                });
                Term::select(self.views[&name].clone(), idx)
            }
            ExprKind::Call(..) | ExprKind::BufferLen(_) => {
                return self.unsupported(
                    e.span,
                    "math calls and buffer lengths are not supported yet",
                )
            }
        })
    }
}

/// The fresh bound variable of an instance (the first argument of its range condition).
fn bound_value(guard: &[Term]) -> Option<Term> {
    match guard.get(1)? {
        Term::App(op, args) if &**op == "and" => match args.first()? {
            Term::App(le, xs) if &**le == "<=" => xs.get(1).cloned(),
            _ => None,
        },
        _ => None,
    }
}

fn contains_barrier(b: &[Stmt]) -> bool {
    b.iter().any(|s| match &s.kind {
        StmtKind::SyncThreads => true,
        StmtKind::If {
            then_body,
            else_body,
            ..
        } => contains_barrier(then_body) || contains_barrier(else_body),
        StmtKind::For {
            init, update, body, ..
        } => contains_barrier(init) || contains_barrier(update) || contains_barrier(body),
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => contains_barrier(body),
        _ => false,
    })
}

fn has_perm(f: &SpecExpr) -> bool {
    match &f.kind {
        SpecKind::Perm(..) => true,
        SpecKind::Not(a) | SpecKind::Neg(a) | SpecKind::Old(a) => has_perm(a),
        SpecKind::Binary(_, a, b) => has_perm(a) || has_perm(b),
        SpecKind::Cond(a, b, c) => has_perm(a) || has_perm(b) || has_perm(c),
        SpecKind::Forall(_, a, b, c) => has_perm(a) || has_perm(b) || has_perm(c),
        _ => false,
    }
}
