//! The annotation checker: symbolic execution of one arbitrary thread, and the
//! obligations (a) access coverage, (b) barrier redistribution, (c) split/combine,
//! (d) functional postconditions, loop invariants and (e) barrier uniformity, each decided
//! by z3. Submodules: `exec` (statements and expressions), `flow` (barriers, branches,
//! loops), `perms` (permission arithmetic over threads), `spec` (resolving annotations).
//!
//! Scope (everything else is reported `unknown`): one 1-D block; `if`s, `for`/`while`
//! loops, barriers the block reaches uniformly, no `return`/`break`/`continue`, no
//! atomics/shuffles, one-dimensional global or shared arrays.

use crate::arith::{in_type, sort_of};
use crate::error::PermError;
use crate::extract::extract;
use crate::frac::{Frac, Share};
use crate::solver::{Sat, Solver};
use crate::syntax::{AnnotKind, Annotation};
use crate::term::{forall, in_range, int_sym, sym, thread_sym, tid, Sort, Term, ThreadTerm};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::time::Duration;
use warpsafe_ir::{Kernel, MemRef, ParamKind, ScalarType, SourceFile, Span, Stmt, StmtKind, VarId};

mod exec;
mod flow;
mod loops;
mod perms;
mod spec;

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
    /// Which check: `"access"`, `"barrier"`, `"split"`, `"functional"`, `"invariant"`,
    /// `"uniform"`, or `"fragment"` (a construct the checker does not support: unknown).
    pub check: &'static str,
    /// The 1-based source line it is about (0 when it has none).
    pub line: usize,
    /// What is claimed.
    pub what: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Why it is violated or unknown.
    pub reason: Option<String>,
    /// For a violated obligation: the threads, launch and values z3 found
    /// (`tid = 3, blockDim.x = 4, n = 4`).
    pub counterexample: Option<String>,
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
    check_named(source, None)
}

/// [`check`] for the kernel called `name` (the first kernel when `None`).
pub fn check_named(source: &str, name: Option<&str>) -> Result<Report, PermError> {
    let ex = extract(source)?;
    let module = warpsafe_cuda_front::compile(&ex.frontend_source).map_err(|errs| {
        let (message, span) = errs
            .first()
            .map(|e| (e.message.clone(), e.span))
            .unwrap_or_else(|| ("the frontend rejected the source".to_string(), Span::DUMMY));
        PermError::Frontend { message, span }
    })?;
    let kernel = match name {
        None => module.kernels.first().ok_or(PermError::NoKernel)?,
        Some(n) => module.kernel(n).ok_or_else(|| PermError::NoKernelNamed {
            name: n.to_string(),
            have: module
                .kernels
                .iter()
                .map(|k| k.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })?,
    };
    if module.kernels.len() > 1 {
        // A kernel's annotations are those after the kernel before it, up to its own end (the
        // last kernel's run to the end of the file).
        let mut ends: Vec<u32> = module.kernels.iter().map(|k| k.span.hi).collect();
        ends.sort_unstable();
        let from = ends.iter().copied().filter(|&e| e < kernel.span.lo).max();
        let to = (ends.last() != Some(&kernel.span.hi)).then_some(kernel.span.hi);
        let mine: Vec<Annotation> = ex
            .annotations
            .iter()
            .filter(|a| from.is_none_or(|f| a.span.lo > f) && to.is_none_or(|t| a.span.lo < t))
            .cloned()
            .collect();
        return check_kernel(kernel, source, &mine);
    }
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
                check: "fragment",
                line,
                what: "the kernel is in the supported fragment".into(),
                verdict: Verdict::Unknown,
                reason: Some(why),
                counterexample: None,
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
    /// The constants a counterexample shows: threads, launch, parameters, uniform loop
    /// variables.
    shown: Vec<String>,
    /// The condition under which the thread has not returned yet.
    alive: Term,
    /// How many loops the execution is inside.
    loop_depth: usize,
    /// The `thread ensures` annotations, checked wherever the thread ends.
    thread_ensures: Vec<Annotation>,
}

/// Marker in the names of values the model does not track exactly.
const UNTRACKED: &str = "u__";

impl<'a> Checker<'a> {
    fn new(k: &'a Kernel, file: &'a SourceFile) -> Checker<'a> {
        let mut solver = Solver::new(Duration::from_secs(10));
        for v in ["tid", "t1", "t2", "tq", "bdx", "bix", "gdx"] {
            solver.declare(v, Sort::Int);
        }
        let mut shown: Vec<String> = ["tid", "t1", "t2", "bdx", "gdx", "bix"]
            .map(String::from)
            .to_vec();
        let mut arrays = HashMap::new();
        let mut views = HashMap::new();
        for (i, p) in k.params.iter().enumerate() {
            match p.kind {
                ParamKind::Scalar(t) => {
                    solver.declare(&format!("p_{}", p.name), sort_of(t));
                    shown.push(format!("p_{}", p.name));
                }
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
            let s = crate::arith::array_sort(sort_of(*elem));
            for pre in ["old_", "fin_"] {
                solver.declare(&format!("{pre}{name}"), s);
            }
            views.insert(name.clone(), sym(&format!("old_{name}"), s));
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
            shown,
            alive: Term::bool(true),
            loop_depth: 0,
            thread_ensures: vec![],
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
        thread_sym(&n, sort)
    }

    /// Facts about the launch, and the facts assumed at this point, for thread `t`.
    fn context(&mut self, t: &Term) -> R<Vec<Term>> {
        let mut out = self.assumptions(t)?;
        out.extend(self.facts.iter().map(|f| f.for_thread(t)));
        Ok(out)
    }

    /// Facts about the launch for thread `t`.
    fn assumptions(&mut self, t: &Term) -> R<Vec<Term>> {
        let bdx = int_sym("bdx");
        let mut out = vec![
            Term::int(1).le(&bdx),
            bdx.le(&Term::int(1024)),
            in_range(t, &Term::int(0), &bdx),
            in_range(&int_sym("bix"), &Term::int(0), &int_sym("gdx")),
            int_sym("gdx").le(&Term::int(i128::from(i32::MAX))),
        ];
        for p in &self.k.params {
            if let ParamKind::Scalar(ty) = p.kind {
                out.push(in_type(&sym(&format!("p_{}", p.name), sort_of(ty)), ty));
            }
        }
        let reqs = self.k.contract.requires.clone();
        let saved = std::mem::take(&mut self.accesses);
        for r in &reqs {
            let v = self.eval(r, &Term::bool(true))?;
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
        let (sat, model) = self.solver.check_with_model(&facts, &self.shown);
        let untracked = facts.iter().any(|f| f.smt_shared().contains(UNTRACKED));
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
        let counterexample = (verdict == Verdict::Violated).then(|| describe(&model));
        self.obligations.push(Obligation {
            check,
            line,
            what,
            verdict,
            reason,
            counterexample,
        });
    }

    fn note(&mut self, check: &'static str, line: usize, what: String, verdict: Verdict, r: &str) {
        self.obligations.push(Obligation {
            check,
            line,
            what,
            verdict,
            reason: (verdict != Verdict::Verified).then(|| r.to_string()),
            counterexample: None,
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
        let tid = tid();
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
        // `requires(...)` at the top of a `#[kernel]`'s body is a precondition, assumed
        // for every check (the header's `//@ requires` already is).
        for s in k
            .body
            .iter()
            .take_while(|s| matches!(s.kind, StmtKind::Assume(_)))
        {
            if let StmtKind::Assume(e) = &s.kind {
                let v = self.eval(e, &Term::bool(true))?;
                self.facts.push(v);
            }
        }
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
            &Term::bool(true),
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
            ["split"; 2],
            treq_line,
            "at launch (`thread requires`)",
            &treq_spec,
            &Term::bool(true),
        )?;
        self.facts.extend(treq.facts.iter().cloned());
        // Symbolic execution of one thread; barriers and loops check as they go.
        self.held = Rc::new(treq.clauses.clone());
        self.held_line = treq_line;
        self.thread_ensures = lines(AnnotKind::ThreadEnsures)
            .into_iter()
            .cloned()
            .collect();
        self.exec_block(&k.body, &Term::bool(true))?;
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
            facts.push(cov.not());
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
        // Postconditions: the thread's where it ends (here, for threads that did not
        // return; at each `return` for those that did).
        let tens_annots = lines(AnnotKind::ThreadEnsures);
        let tens = self.resolve_all(&tens_annots, true)?;
        let alive = self.alive.clone();
        self.thread_exit(&alive)?;
        // Kernel postcondition: permissions come from the kernel precondition; facts from
        // every thread's postcondition over the final memory.
        let kens_annots = lines(AnnotKind::KernelEnsures);
        let kens_line = kens_annots.first().map_or(0, |a| self.line(a.span));
        for (name, (_, elem)) in self.arrays.clone() {
            let s = crate::arith::array_sort(sort_of(elem));
            self.views
                .insert(name.clone(), sym(&format!("fin_{name}"), s));
        }
        self.final_mem = true;
        let kens = self.resolve_all(&kens_annots, true)?;
        // (c) the threads' postconditions combine into the kernel's: each permission of
        // `kernel ensures` is one thread's `thread ensures` permission.
        let tq = int_sym("tq");
        let tq_in_block = Term::and_all(self.assumptions(&tq)?);
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
            facts.push(forall(&["tq"], tq_in_block.implies(&cov.not())));
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
            let tq = int_sym("tq");
            let mut hyps = asm.clone();
            let tq_asm = Term::and_all(self.assumptions(&tq)?);
            for f in &tens_fin.facts {
                let body = tq_asm.implies(&f.for_thread(&tq));
                hyps.push(forall(&["tq"], body));
            }
            for f in &kens.facts {
                let mut facts = hyps.clone();
                facts.push(f.not());
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

    /// (c)/(d) at a point where the thread ends under `pc`: it holds its `thread ensures`
    /// permissions, the facts read only what it holds, and they are true.
    fn thread_exit(&mut self, pc: &Term) -> R<()> {
        let annots = self.thread_ensures.clone();
        let refs: Vec<&Annotation> = annots.iter().collect();
        let line = annots.first().map_or(0, |a| self.line(a.span));
        let tens = self.resolve_all(&refs, true)?;
        self.holds_here(
            ["split", "functional"],
            line,
            "where the thread ends (`thread ensures`)",
            &tens,
            pc,
        )
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

/// A model as the user reads it: `tid = 3, blockDim.x = 4, n = 4, offset = 2`.
fn describe(model: &[(String, String)]) -> String {
    let parts: Vec<String> = model
        .iter()
        .map(|(name, value)| {
            let shown = match name.as_str() {
                "bdx" => "blockDim.x".to_string(),
                "bix" => "blockIdx.x".to_string(),
                "gdx" => "gridDim.x".to_string(),
                n if n.starts_with("p_") => n[2..].to_string(),
                n if n.starts_with("h_") => n[2..]
                    .trim_end_matches(|c: char| c.is_ascii_digit())
                    .trim_end_matches('_')
                    .to_string(),
                n => n.to_string(),
            };
            let value = value
                .strip_prefix("(- ")
                .and_then(|v| v.strip_suffix(')'))
                .map_or_else(|| value.clone(), |v| format!("-{v}"));
            format!("{shown} = {value}")
        })
        .collect();
    if parts.is_empty() {
        "any launch".to_string()
    } else {
        parts.join(", ")
    }
}
