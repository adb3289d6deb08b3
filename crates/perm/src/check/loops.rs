//! Loops: the loop head summarised by its invariant (or the entry permissions), values the
//! loop assigns made arbitrary there, and loop variables every thread agrees on inferred
//! by a proof that is retried without the ones that fail.

use super::flow::guarded;
use super::{contains_barrier, Checker, Clause, Spec, R, UNTRACKED};
use crate::arith::sort_of;
use crate::syntax::Annotation;
use crate::term::{sym, thread_sym, Term};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use warpsafe_ir::{Expr, Stmt, StmtKind, VarId};

/// The execution state a loop analysis may have to roll back to.
struct Snapshot {
    env: HashMap<VarId, Term>,
    views: HashMap<String, Term>,
    held: Rc<Vec<Clause>>,
    held_line: usize,
    facts: Vec<Term>,
    stored: BTreeSet<String>,
    accesses: usize,
    obligations: usize,
    memory_uniform: usize,
}

/// What one loop is: its parts and what its body may change.
struct Loop<'s> {
    line: usize,
    cond: &'s Expr,
    body: &'s [Stmt],
    update: &'s [Stmt],
    invariant: Vec<Annotation>,
    /// Variables live before the loop that the body or update assigns.
    mods: Vec<VarId>,
    /// Arrays the body or update stores to.
    stored: BTreeSet<String>,
    barriers: bool,
}

impl Checker<'_> {
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            env: self.env.clone(),
            views: self.views.clone(),
            held: self.held.clone(),
            held_line: self.held_line,
            facts: self.facts.clone(),
            stored: self.stored.clone(),
            accesses: self.accesses.len(),
            obligations: self.obligations.len(),
            memory_uniform: self.memory_uniform.len(),
        }
    }

    fn restore(&mut self, s: Snapshot) {
        self.env = s.env;
        self.views = s.views;
        self.held = s.held;
        self.held_line = s.held_line;
        self.facts = s.facts;
        self.stored = s.stored;
        self.accesses.truncate(s.accesses);
        self.obligations.truncate(s.obligations);
        self.memory_uniform.truncate(s.memory_uniform);
    }

    /// A `for`/`while` loop (after its `init`). The loop head is summarised by its
    /// `invariant` (permissions the thread keeps, facts), or, without one, by the
    /// permissions held on entry; every variable the loop assigns is replaced by an
    /// arbitrary value there. A loop with a barrier must be uniform: it is reached by all
    /// threads or none, its condition is the same in every thread, and the variables it
    /// assigns are inferred uniform when z3 proves them equal across threads on entry and
    /// after an iteration (otherwise they are per-thread and the proof retried).
    pub(super) fn exec_loop(
        &mut self,
        s: &Stmt,
        cond: Option<&Expr>,
        body: &[Stmt],
        update: &[Stmt],
        pc: &Term,
    ) -> R<()> {
        let Some(cond) = cond else {
            return self.unsupported(s.span, "loops without a condition are not supported yet");
        };
        let mut assigned_vars = BTreeSet::new();
        let mut stored = BTreeSet::new();
        for b in [body, update] {
            self.effects(b, &mut assigned_vars, &mut stored);
        }
        let lp = Loop {
            line: self.line(s.span),
            cond,
            body,
            update,
            invariant: self.invariants.get(&s.span.lo).cloned().unwrap_or_default(),
            mods: assigned_vars
                .into_iter()
                .filter(|v| self.env.contains_key(v))
                .collect(),
            stored,
            barriers: contains_barrier(body) || contains_barrier(update),
        };
        if lp.barriers {
            self.uniform(
                lp.line,
                "loop with barriers reached by every thread of the block or by none".into(),
                pc,
                &Term::bool(true),
            )?;
        }
        let mut uniform: BTreeSet<VarId> = if lp.barriers {
            lp.mods.iter().copied().collect()
        } else {
            BTreeSet::new()
        };
        loop {
            let snap = self.snapshot();
            self.loop_depth += 1;
            let pass = self.loop_pass(&lp, &uniform, pc);
            self.loop_depth -= 1;
            let not_uniform = pass?;
            if not_uniform.is_empty() {
                return Ok(());
            }
            self.restore(snap);
            for v in not_uniform {
                uniform.remove(&v);
            }
        }
    }

    /// The variables of `candidates` whose current values z3 does not prove the same in
    /// every thread satisfying `pc`.
    fn not_uniform(&mut self, candidates: &BTreeSet<VarId>, pc: &Term) -> R<Vec<VarId>> {
        let mut out = vec![];
        for v in candidates {
            let value = self.env[v].clone();
            if !self.same_in_every_thread(&value, pc)? {
                out.push(*v);
            }
        }
        Ok(out)
    }

    /// One analysis of a loop with the variables in `uniform` taken to be the same in every
    /// thread; returns those that are not (then nothing it concluded counts).
    fn loop_pass(&mut self, lp: &Loop, uniform: &BTreeSet<VarId>, pc: &Term) -> R<Vec<VarId>> {
        let invariant: Vec<&Annotation> = lp.invariant.iter().collect();
        let tracked = !invariant.is_empty();
        let not_uniform = self.not_uniform(uniform, pc)?;
        if !not_uniform.is_empty() {
            return Ok(not_uniform);
        }
        let entry_spec = if tracked {
            Some(self.resolve_all(&invariant, true)?)
        } else {
            None
        };
        let entry_held = self.held.clone();
        let (entry_env, entry_views) = (self.env.clone(), self.views.clone());
        // The head of an arbitrary iteration.
        for v in &lp.mods {
            let var = self.k.var(*v);
            let sort = sort_of(var.ty);
            let prefix = if tracked { "h_" } else { UNTRACKED };
            let n = self.fresh_name(&format!("{prefix}{}_", var.name));
            let value = if uniform.contains(v) {
                self.solver.declare(&n, sort);
                self.shown.push(n.clone());
                sym(&n, sort)
            } else {
                self.solver.declare_thread(&n, sort);
                thread_sym(&n, sort)
            };
            self.env.insert(*v, value);
        }
        self.stored.extend(lp.stored.iter().cloned());
        if lp.barriers {
            self.forget_memory("h");
        } else {
            let saved = std::mem::replace(&mut self.stored, lp.stored.clone());
            self.forget_memory("h");
            self.stored = saved;
        }
        let head_spec = if tracked {
            Some(self.resolve_all(&invariant, true)?)
        } else {
            None
        };
        let head_perms = head_spec.as_ref().filter(|s| !s.clauses.is_empty());
        if let (Some(entry), Some(_)) = (&entry_spec, head_perms) {
            self.holds_here(["invariant"; 2], lp.line, "on entry", entry, pc)?;
        } else if let Some(entry) = &entry_spec {
            self.holds_here(
                ["invariant"; 2],
                lp.line,
                "on entry",
                &facts_only(entry),
                pc,
            )?;
        }
        if let Some(spec) = head_perms {
            self.held = Rc::new(spec.clauses.clone());
            self.held_line = lp.line;
        }
        if let Some(spec) = &head_spec {
            let assumed = spec.facts.iter().map(|f| pc.implies(f));
            self.facts.extend(assumed);
        }
        let head_facts = self.facts.len();
        let (head_env, head_views) = (self.env.clone(), self.views.clone());
        let (head_held, head_line) = (self.held.clone(), self.held_line);
        let c = self.eval(lp.cond, pc)?;
        if lp.barriers {
            self.uniform(
                lp.line,
                "loop condition the same in every thread".into(),
                &c,
                pc,
            )?;
        }
        self.facts.push(pc.implies(&c));
        self.exec_block(lp.body, pc)?;
        self.exec_block(lp.update, pc)?;
        // The back edge: the invariant (or the entry permissions) again, uniform variables
        // still uniform.
        if tracked {
            let spec = self.resolve_all(&invariant, true)?;
            let spec = if head_perms.is_some() {
                spec
            } else {
                facts_only(&spec)
            };
            self.holds_here(["invariant"; 2], lp.line, "after an iteration", &spec, pc)?;
        }
        if head_perms.is_none() && !Rc::ptr_eq(&self.held, &entry_held) {
            let entry = Spec {
                clauses: entry_held.as_ref().clone(),
                ..Spec::default()
            };
            self.holds_here(["invariant"; 2], lp.line, "after an iteration", &entry, pc)?;
        }
        let not_uniform = self.not_uniform(uniform, pc)?;
        if !not_uniform.is_empty() {
            return Ok(not_uniform);
        }
        // The exit: the head of the last iteration, with the condition false.
        // A thread for which `pc` is false never ran the loop: it keeps its values.
        self.facts.truncate(head_facts);
        self.facts.push(pc.implies(&c.not()));
        let always = *pc == Term::bool(true);
        let merge = |head: Term, entry: Option<&Term>| match entry {
            Some(e) if !always && *e != head => Term::ite(pc, &head, e),
            _ => head,
        };
        self.env = head_env
            .into_iter()
            .map(|(v, t)| {
                let t = merge(t, entry_env.get(&v));
                (v, t)
            })
            .collect();
        self.views = head_views
            .into_iter()
            .map(|(n, t)| {
                let t = merge(t, entry_views.get(&n));
                (n, t)
            })
            .collect();
        if always || Rc::ptr_eq(&head_held, &entry_held) {
            self.held = head_held;
        } else {
            let mut merged: Vec<Clause> = head_held.iter().map(|cl| guarded(cl, pc)).collect();
            let not_pc = pc.not();
            merged.extend(entry_held.iter().map(|cl| guarded(cl, &not_pc)));
            self.held = Rc::new(merged);
        }
        self.held_line = head_line;
        Ok(vec![])
    }

    /// The variables `block` assigns and the arrays it stores to.
    fn effects(&self, block: &[Stmt], vars: &mut BTreeSet<VarId>, arrays: &mut BTreeSet<String>) {
        for s in block {
            match &s.kind {
                StmtKind::Let { var, .. } | StmtKind::Assign { var, .. } => {
                    vars.insert(*var);
                }
                StmtKind::Store { mem, .. } => {
                    arrays.insert(self.k.mem_name(*mem).to_string());
                }
                StmtKind::If {
                    then_body,
                    else_body,
                    ..
                } => {
                    self.effects(then_body, vars, arrays);
                    self.effects(else_body, vars, arrays);
                }
                StmtKind::For {
                    init, update, body, ..
                } => {
                    for b in [init, update, body] {
                        self.effects(b, vars, arrays);
                    }
                }
                StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                    self.effects(body, vars, arrays);
                }
                _ => {}
            }
        }
    }
}

/// The facts of a summary, without its permissions.
fn facts_only(spec: &Spec) -> Spec {
    Spec {
        clauses: vec![],
        ..spec.clone()
    }
}
