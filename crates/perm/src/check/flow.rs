//! Control flow of the one-thread execution: barriers (uniformity, redistribution, the
//! memory after them), branches around barriers, and loops (invariants, the values a loop
//! may change, loop variables every thread agrees on).

use super::{contains_barrier, Checker, Clause, Obligation, Spec, Stop, R, UNTRACKED};
use crate::arith::sort_of;
use crate::check::Verdict;
use crate::error::PermError;
use crate::syntax::Annotation;
use crate::term::{forall, int_sym, sym, tid, Term, ThreadTerm};
use std::collections::HashMap;
use std::rc::Rc;
use warpsafe_ir::{Expr, Stmt, StmtKind};

impl Checker<'_> {
    /// Executes a block for the executing thread under the path condition `pc`.
    pub(super) fn exec_block(&mut self, block: &[Stmt], pc: &Term) -> R<()> {
        block.iter().try_for_each(|s| self.exec(s, pc))
    }

    /// Attaches each `barrier ensures` to the first barrier, and each `invariant` to the
    /// first loop, that starts after it.
    pub(super) fn anchor(
        &mut self,
        gives: &[&Annotation],
        specs: &[&Annotation],
        invs: &[&Annotation],
    ) -> R<()> {
        let (mut barriers, mut loops) = (vec![], vec![]);
        anchors(&self.k.body, &mut barriers, &mut loops);
        barriers.sort_unstable();
        loops.sort_unstable();
        self.barrier_gives = attach(
            gives,
            &barriers,
            "`barrier requires` must come before a `__syncthreads()`",
        )?;
        self.barrier_specs = attach(
            specs,
            &barriers,
            "`barrier ensures` must come before a `__syncthreads()`",
        )?;
        self.invariants = attach(invs, &loops, "`invariant` must come before a loop")?;
        Ok(())
    }

    /// A `__syncthreads()` under `pc`: (e) every thread or none reaches it; (b) its
    /// specification only redistributes: what the threads receive (`barrier ensures`) is
    /// consistent and was given up by some thread (`barrier requires`; without one, every
    /// thread gives up all it holds and the block's permissions are redistributed); the
    /// facts received follow from the facts every thread gives up. Afterwards the thread
    /// holds what it received and knows the received facts.
    pub(super) fn barrier(&mut self, s: &Stmt, pc: &Term) -> R<()> {
        let line = self.line(s.span);
        self.uniform(
            line,
            "barrier reached by every thread of the block or by none".into(),
            pc,
            &Term::bool(true),
        )?;
        let lookup = |m: &HashMap<u32, Vec<Annotation>>| m.get(&s.span.lo).cloned();
        let gives = lookup(&self.barrier_gives);
        let receives = lookup(&self.barrier_specs).unwrap_or_default();
        let receives: Vec<&Annotation> = receives.iter().collect();
        if let Some(gives) = &gives {
            let gives: Vec<&Annotation> = gives.iter().collect();
            let given = self.resolve_all(&gives, true)?;
            self.holds_here(
                ["barrier"; 2],
                line,
                "before the barrier (given up there)",
                &given,
                pc,
            )?;
        }
        // The memory every thread sees after the barrier: tracked when facts describe it.
        let described = gives.is_some() && has_facts(&receives);
        if described {
            self.name_memory(line);
        } else {
            self.forget_memory("b");
        }
        let spec = self.resolve_all(&receives, true)?;
        match &gives {
            Some(g) => {
                let g: Vec<&Annotation> = g.iter().collect();
                let given = self.resolve_all(&g, true)?;
                self.received_was_given("barrier", line, &spec, &given, pc)?;
                self.pairwise_disjoint("barrier", line, "barrier ensures", &spec, pc)?;
                self.received_facts(line, &spec, &given, pc)?;
            }
            None => {
                self.redistribution("barrier", line, "barrier ensures", &spec, pc)?;
                if !spec.facts.is_empty() {
                    self.note(
                        "barrier",
                        line,
                        "facts of `barrier ensures`".into(),
                        Verdict::Unknown,
                        "facts after a barrier need a `barrier requires` that gives them",
                    );
                }
            }
        }
        self.held = Rc::new(spec.clauses.clone());
        self.held_line = line;
        if described {
            let learnt = spec.facts.iter().map(|f| pc.implies(f));
            self.facts.extend(learnt);
        }
        Ok(())
    }

    /// Names the memory after the barrier at `line`: one shared array per array some thread
    /// may have stored to.
    fn name_memory(&mut self, line: usize) {
        for name in self.stored.clone() {
            let n = self.fresh_name(&format!("m{line}_"));
            let n = format!("{n}_{name}");
            let elem = self.arrays[&name].1;
            self.solver
                .declare(&n, crate::arith::array_sort(sort_of(elem)));
            self.views
                .insert(name, sym(&n, crate::arith::array_sort(sort_of(elem))));
        }
    }

    /// `spec` holds in the executing thread's current state: its permissions are held
    /// (reported as the first check), the array elements its facts read are held and its
    /// facts are true (the second).
    pub(super) fn holds_here(
        &mut self,
        [perm_check, fact_check]: [&'static str; 2],
        line: usize,
        when: &str,
        spec: &Spec,
        pc: &Term,
    ) -> R<()> {
        let mut base = self.context(&tid())?;
        base.push(pc.clone());
        let held = self.held.clone();
        for c in &spec.clauses {
            let (guard, loc) = self.instance(c, &tid(), "i");
            let cov = self.covered(&held, &c.array, &loc, c.share);
            let mut facts = base.clone();
            facts.extend(guard);
            facts.push(cov.not());
            self.decide(
                perm_check,
                line,
                format!("`{}` held {when}", c.text),
                facts,
                "the thread does not hold a permission the annotation claims",
            );
        }
        for (arr, idx, g) in &spec.reads {
            let cov = self.covered(&held, arr, idx, crate::frac::Share::Read);
            let mut facts = base.clone();
            facts.push(g.clone());
            facts.push(cov.not());
            self.decide(
                fact_check,
                line,
                format!("the facts {when} read `{arr}` only where the thread holds permission"),
                facts,
                "the annotation reads a location the thread holds no permission on",
            );
        }
        for f in &spec.facts {
            let mut facts = base.clone();
            facts.push(f.not());
            self.decide(
                fact_check,
                line,
                format!("the facts {when} hold"),
                facts,
                "some thread gets here in a state where the annotation's facts are false",
            );
        }
        Ok(())
    }

    /// (b) Every permission received at the barrier was given up there by some thread: a
    /// share of 1 (or any exact share) needs a thread that gave up 1, a `read` share one that
    /// gave up a positive share (with the pairwise check, the received shares never add up
    /// to more than was given).
    fn received_was_given(
        &mut self,
        check: &'static str,
        line: usize,
        spec: &Spec,
        given: &Spec,
        pc: &Term,
    ) -> R<()> {
        let t1 = int_sym("t1");
        let tq = int_sym("tq");
        let mut base = self.context(&t1)?;
        base.push(pc.for_thread(&t1));
        let tq_here = self.here(&tq, pc)?;
        for c in &spec.clauses {
            let (guard, loc) = self.instance(c, &t1, "g");
            let need = match c.share {
                crate::frac::Share::Read => crate::frac::Share::Read,
                crate::frac::Share::Exact(_) => crate::frac::Share::Exact(crate::frac::Frac::ONE),
            };
            let cov = self
                .covered(&given.clauses, &c.array, &loc, need)
                .for_thread(&tq);
            let mut facts = base.clone();
            facts.extend(guard);
            facts.push(forall(&["tq"], tq_here.implies(&cov.not())));
            self.decide(
                check,
                line,
                format!("`barrier ensures {}` given up by some thread", c.text),
                facts,
                "a thread receives a permission no thread gave up at the barrier",
            );
        }
        Ok(())
    }

    /// (d) at a barrier: the facts received follow from the facts every thread gave up, over
    /// the memory after the barrier (which agrees with each thread's view on what it held),
    /// and read only what is received.
    fn received_facts(&mut self, line: usize, spec: &Spec, given: &Spec, pc: &Term) -> R<()> {
        let mut base = self.context(&tid())?;
        base.push(pc.clone());
        for (arr, idx, g) in &spec.reads {
            let cov = self.covered(&spec.clauses, arr, idx, crate::frac::Share::Read);
            let mut facts = base.clone();
            facts.push(g.clone());
            facts.push(cov.not());
            self.decide(
                "barrier",
                line,
                format!(
                    "`barrier ensures` reads `{arr}` only where the thread receives permission"
                ),
                facts,
                "the barrier specification reads a location the thread receives no permission on",
            );
        }
        if spec.facts.is_empty() {
            return Ok(());
        }
        let tq = int_sym("tq");
        let tq_here = self.here(&tq, pc)?;
        let mut hyps = base;
        for f in &given.facts {
            hyps.push(forall(&["tq"], tq_here.implies(&f.for_thread(&tq))));
        }
        for f in &spec.facts {
            let mut facts = hyps.clone();
            facts.push(f.not());
            self.decide(
                "barrier",
                line,
                "the facts given up by every thread establish `barrier ensures`".into(),
                facts,
                "the facts given up at the barrier do not imply what a thread is told after it",
            );
        }
        Ok(())
    }

    /// Replaces the view of every array some thread may have stored to by an untracked
    /// memory shared by all threads.
    pub(super) fn forget_memory(&mut self, tag: &str) {
        for name in self.stored.clone() {
            let n = self.fresh_name(&format!("{UNTRACKED}m{tag}"));
            let n = format!("{n}_{name}");
            let elem = self.arrays[&name].1;
            self.solver
                .declare(&n, crate::arith::array_sort(sort_of(elem)));
            self.views
                .insert(name, sym(&n, crate::arith::array_sort(sort_of(elem))));
        }
    }

    /// `if (cond) then else`. Without barriers inside, both branches run with their path
    /// conditions. With one, both start from the same permissions and memory and the results
    /// merge under the condition: the barrier's uniformity obligation makes every thread of
    /// the block take the same branch.
    pub(super) fn branch(
        &mut self,
        cond: &Expr,
        then_body: &[Stmt],
        else_body: &[Stmt],
        pc: &Term,
    ) -> R<()> {
        let c = self.eval(cond, pc)?;
        let pt = Term::and_all(vec![pc.clone(), c.clone()]);
        let pe = Term::and_all(vec![pc.clone(), c.not()]);
        if !contains_barrier(then_body) && !contains_barrier(else_body) {
            self.exec_block(then_body, &pt)?;
            return self.exec_block(else_body, &pe);
        }
        let (held0, line0, views0) = (self.held.clone(), self.held_line, self.views.clone());
        let facts0 = self.facts.len();
        self.exec_block(then_body, &pt)?;
        let then_held = std::mem::replace(&mut self.held, held0);
        let then_line = std::mem::replace(&mut self.held_line, line0);
        let then_views = std::mem::replace(&mut self.views, views0);
        let then_facts = self.facts.split_off(facts0);
        self.exec_block(else_body, &pe)?;
        let else_facts = self.facts.split_off(facts0);
        // What a branch learnt (facts received at its barriers) holds only on that branch.
        for (g, learnt) in [(&c, then_facts), (&c.not(), else_facts)] {
            if !learnt.is_empty() {
                self.facts.push(g.implies(&Term::and_all(learnt)));
            }
        }
        let not_c = c.not();
        let mut merged: Vec<Clause> = then_held.iter().map(|cl| guarded(cl, &c)).collect();
        merged.extend(self.held.iter().map(|cl| guarded(cl, &not_c)));
        self.held = Rc::new(merged);
        self.held_line = self.held_line.max(then_line);
        for (name, tv) in then_views {
            let ev = self.views[&name].clone();
            if ev != tv {
                self.views.insert(name, Term::ite(&c, &tv, &ev));
            }
        }
        Ok(())
    }

    /// Obligation (e): `cond` has one value in every thread of the block that satisfies
    /// `assume`. A condition that reads memory relies on race freedom (see
    /// [`Checker::race_dependent_uniformity`]).
    pub(super) fn uniform(
        &mut self,
        line: usize,
        what: String,
        cond: &Term,
        assume: &Term,
    ) -> R<()> {
        if cond.is_thread_dependent() {
            let (t1, t2) = (int_sym("t1"), int_sym("t2"));
            let mut facts = self.pair_context(&t1, &t2, assume)?;
            facts.push((cond.for_thread(&t1).eq(&cond.for_thread(&t2))).not());
            self.decide(
                "uniform",
                line,
                what,
                facts,
                "two threads of one block disagree on it: some reach the barrier and some do not",
            );
        } else {
            self.note("uniform", line, what, Verdict::Verified, "");
        }
        if cond.smt_shared().contains("(select ") {
            self.memory_uniform.push(self.obligations.len() - 1);
        }
        Ok(())
    }

    /// Thread `t` is here: its launch facts, the facts assumed here, and the path condition.
    fn here(&mut self, t: &Term, pc: &Term) -> R<Term> {
        let mut facts = self.context(t)?;
        facts.push(pc.for_thread(t));
        Ok(Term::and_all(facts))
    }

    /// The facts of two distinct threads `t1`, `t2` that both satisfy `assume`.
    pub(super) fn pair_context(&mut self, t1: &Term, t2: &Term, assume: &Term) -> R<Vec<Term>> {
        let mut facts = self.context(t1)?;
        facts.extend(self.context(t2)?);
        facts.push((t1.eq(t2)).not());
        facts.push(assume.for_thread(t1));
        facts.push(assume.for_thread(t2));
        Ok(facts)
    }

    /// True when z3 proves `value` the same in every thread satisfying `pc`.
    pub(super) fn same_in_every_thread(&mut self, value: &Term, pc: &Term) -> R<bool> {
        if !value.is_thread_dependent() {
            return Ok(true);
        }
        let (t1, t2) = (int_sym("t1"), int_sym("t2"));
        let mut facts = self.pair_context(&t1, &t2, pc)?;
        facts.push((value.for_thread(&t1).eq(&value.for_thread(&t2))).not());
        Ok(self.solver.check(&facts) == crate::solver::Sat::Unsat)
    }

    /// Uniformity that reads memory assumes every read is race-free: while an access,
    /// barrier or split obligation is not verified, such a uniformity proof does not count.
    pub(super) fn race_dependent_uniformity(&mut self) {
        let open = self
            .obligations
            .iter()
            .find(|o| {
                matches!(o.check, "access" | "barrier" | "split" | "invariant")
                    && o.verdict != Verdict::Verified
            })
            .map(|o| (o.check, o.line, o.verdict));
        let Some((check, line, verdict)) = open else {
            return;
        };
        for &i in &self.memory_uniform {
            let o: &mut Obligation = &mut self.obligations[i];
            if o.verdict == Verdict::Verified {
                o.verdict = Verdict::Unknown;
                o.reason = Some(format!(
                    "the condition reads memory, and race freedom is not established \
                     ({check} obligation at line {line} is {})",
                    verdict.as_str()
                ));
            }
        }
    }
}

/// The clause, applying only where `g` holds.
pub(super) fn guarded(cl: &Clause, g: &Term) -> Clause {
    let mut cl = cl.clone();
    cl.guard = Term::and_all(vec![g.clone(), cl.guard]);
    cl
}

/// True when some annotation states a fact, not only permissions.
fn has_facts(annots: &[&Annotation]) -> bool {
    fn facts(f: &crate::syntax::SpecExpr) -> bool {
        use crate::syntax::{SpecKind, SpecOp};
        match &f.kind {
            SpecKind::Perm(..) => false,
            SpecKind::Binary(SpecOp::And, a, b) => facts(a) || facts(b),
            SpecKind::Binary(SpecOp::Implies, _, b) => facts(b),
            SpecKind::Forall(_, _, _, b) => facts(b),
            _ => true,
        }
    }
    annots.iter().any(|a| facts(&a.formula))
}

/// Each annotation keyed by the first of `starts` after it.
fn attach(
    annots: &[&Annotation],
    starts: &[u32],
    misplaced: &str,
) -> R<HashMap<u32, Vec<Annotation>>> {
    let mut out: HashMap<u32, Vec<Annotation>> = HashMap::new();
    for a in annots {
        let Some(&at) = starts.iter().find(|&&lo| lo >= a.span.hi) else {
            return Err(Stop::Error(PermError::annotation(a.span, misplaced)));
        };
        out.entry(at).or_default().push((*a).clone());
    }
    Ok(out)
}

/// Start offsets of the barriers and of the loops in `block`, in any nesting.
fn anchors(block: &[Stmt], barriers: &mut Vec<u32>, loops: &mut Vec<u32>) {
    for s in block {
        match &s.kind {
            StmtKind::SyncThreads => barriers.push(s.span.lo),
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                anchors(then_body, barriers, loops);
                anchors(else_body, barriers, loops);
            }
            StmtKind::For {
                init, update, body, ..
            } => {
                loops.push(s.span.lo);
                for b in [init, update, body] {
                    anchors(b, barriers, loops);
                }
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                loops.push(s.span.lo);
                anchors(body, barriers, loops);
            }
            _ => {}
        }
    }
}
