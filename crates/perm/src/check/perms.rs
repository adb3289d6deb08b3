//! Permission arithmetic over threads: which clause covers a location, and the
//! redistribution checks (pairwise consistency, ownership by the block).

use super::{Checker, Clause, Spec, Verdict, R};
use crate::frac::{Frac, Share};
use crate::term::{in_range, int_sym, linear_in, tid, Sort, Term, ThreadTerm};
use warpsafe_terms::Op;

impl Checker<'_> {
    /// (b)/(c) without a statement of what is given up: the clauses are consistent across
    /// threads and lie within what the block owns.
    pub(super) fn redistribution(
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
    pub(super) fn pairwise_disjoint(
        &mut self,
        check: &'static str,
        line: usize,
        label: &str,
        spec: &Spec,
        pc: &Term,
    ) -> R<()> {
        let t1 = int_sym("t1");
        let t2 = int_sym("t2");
        let base = self.pair_context(&t1, &t2, pc)?;
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
                facts.push(l1.eq(&l2));
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
        let mut asm = self.context(&tid())?;
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
                let (g1, l1) = self.instance(a, &tid(), "x");
                let (g2, l2) = self.instance(b, &tid(), "y");
                let mut facts = asm.clone();
                facts.extend(g1);
                facts.extend(g2);
                facts.push(l1.eq(&l2));
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
            let (g1, l1) = self.instance(c, &tid(), "x");
            let (g2, l2) = self.instance(c, &tid(), "y");
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
            facts.push(b1.eq(&b2).not());
            facts.push(l1.eq(&l2));
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
    pub(super) fn within_block(
        &mut self,
        check: &'static str,
        line: usize,
        label: &str,
        spec: &Spec,
        pc: &Term,
    ) -> R<()> {
        let kreq = self.kreq.clone();
        let mut asm = self.context(&tid())?;
        asm.push(pc.clone());
        let cs = &spec.clauses;
        for c in cs {
            let (g, loc) = self.instance(c, &tid(), "z");
            let kc: Vec<Clause> = kreq
                .clauses
                .iter()
                .filter(|k| is_write_share(k.share))
                .cloned()
                .collect();
            let cov = self.covered(&kc, &c.array, &loc, Share::Read);
            let mut facts = asm.clone();
            facts.extend(g);
            facts.push(cov.not());
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
    pub(super) fn instance(&mut self, c: &Clause, t: &Term, tag: &str) -> (Vec<Term>, Term) {
        let mut guard = vec![c.guard.for_thread(t)];
        let mut loc = c.idx.for_thread(t);
        if let Some((v, lo, hi)) = &c.bound {
            let n = self.fresh_name(&format!("{tag}_b"));
            self.solver.declare(&n, Sort::Int);
            let nv = int_sym(&n);
            guard = vec![c.guard.for_thread(t).replace(v, &nv)];
            guard.push(in_range(&nv, &lo.for_thread(t), &hi.for_thread(t)));
            loc = loc.replace(v, &nv);
        }
        (guard, loc)
    }

    /// The condition under which the executing thread's `clauses` give at least `need` on
    /// `array[loc]` (a single clause; quantified clauses by solving for the bound variable).
    pub(super) fn covered(
        &mut self,
        clauses: &[Clause],
        array: &str,
        loc: &Term,
        need: Share,
    ) -> Term {
        let mut alts = vec![];
        for c in clauses {
            if c.array != array || !covers_share(c.share, need) {
                continue;
            }
            match &c.bound {
                None => alts.push(Term::and_all(vec![c.guard.clone(), c.idx.eq(loc)])),
                Some((v, lo, hi)) => {
                    let Some((coef, rest)) = linear_in(&c.idx, v) else {
                        continue;
                    };
                    let j = match coef {
                        1 => loc.sub(&rest),
                        -1 => rest.sub(loc),
                        _ => continue,
                    };
                    alts.push(Term::and_all(vec![
                        c.guard.replace(v, &j),
                        in_range(&j, lo, hi),
                        c.idx.replace(v, &j).eq(loc),
                    ]));
                }
            }
        }
        Term::or_all(alts)
    }
}

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

/// The fresh bound variable of an instance (the first argument of its range condition).
fn bound_value(guard: &[Term]) -> Option<Term> {
    let (Op::And, args) = guard.get(1)?.as_app()? else {
        return None;
    };
    match args.first()?.as_app()? {
        (Op::Le, xs) => xs.get(1).cloned(),
        _ => None,
    }
}
