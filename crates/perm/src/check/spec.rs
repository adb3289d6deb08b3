//! Resolving annotations: formulas to permission clauses, facts and the array elements
//! they read, against the executing thread's state.

use super::{Checker, Clause, Spec, R};
use crate::arith::{c_div, c_rem};
use crate::error::PermError;
use crate::frac::{Frac, Share};
use crate::syntax::{Annotation, SpecExpr, SpecIndex, SpecKind, SpecOp};
use crate::term::{forall, in_range, int_sym, sym, tid, Sort, Term};
use std::collections::HashMap;
use std::rc::Rc;
use warpsafe_ir::{ParamKind, Span, VarId};

impl Checker<'_> {
    pub(super) fn resolve_all(&mut self, annots: &[&Annotation], locals: bool) -> R<Spec> {
        let mut spec = Spec::default();
        for a in annots {
            self.resolve(&a.formula, &Term::bool(true), None, locals, &mut spec)?;
        }
        Ok(spec)
    }

    pub(super) fn file_text(&self, span: Span) -> String {
        self.file
            .text
            .get(span.range())
            .unwrap_or_default()
            .to_string()
    }

    pub(super) fn resolve(
        &mut self,
        f: &SpecExpr,
        guard: &Term,
        bound: Option<&(Rc<str>, Term, Term)>,
        locals: bool,
        spec: &mut Spec,
    ) -> R<()> {
        let mut binds = HashMap::new();
        if let Some((v, _, _)) = bound {
            binds.insert(v.to_string(), int_sym(v));
        }
        self.resolve_in(f, guard, bound, locals, spec, &mut binds)
    }

    pub(super) fn resolve_in(
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
            let mut fact = guard.implies(&fact);
            if let Some((v, lo, hi)) = bound {
                fact = forall(&[&**v], (in_range(&int_sym(v), lo, hi)).implies(&fact));
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
                let g = Term::and_all(vec![guard.clone(), ct]);
                self.resolve_in(body, &g, bound, locals, spec, binds)
            }
            SpecKind::Forall(v, lo, hi, body) if bound.is_none() => {
                let lo = self.spec_term(lo, locals, binds, &mut spec.reads, guard)?;
                let hi = self.spec_term(hi, locals, binds, &mut spec.reads, guard)?;
                let n: Rc<str> = self.fresh_name(&format!("q_{v}_")).into();
                self.solver.declare(&n, Sort::Int);
                let prev = binds.insert(v.clone(), int_sym(&n));
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
                let text = self.file_text(f.span);
                // Every index but the last is one element; the last may be a range.
                let Some((last, outer)) = idx.split_last() else {
                    return Err(PermError::annotation(loc.span, "expected an index").into());
                };
                let mut prefix = vec![];
                for i in outer {
                    let SpecIndex::At(e) = i else {
                        return self.unsupported(loc.span, "only the last index may be a range");
                    };
                    prefix.push(self.spec_term(e, locals, binds, &mut spec.reads, guard)?);
                }
                match last {
                    SpecIndex::At(e) => {
                        let t = self.spec_term(e, locals, binds, &mut spec.reads, guard)?;
                        prefix.push(t);
                        let idx = self.flatten(name, prefix, loc.span)?;
                        spec.clauses.push(Clause {
                            array: name.clone(),
                            guard: guard.clone(),
                            bound: bound.cloned(),
                            idx,
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
                        prefix.push(int_sym(&n));
                        let idx = self.flatten(name, prefix, loc.span)?;
                        spec.clauses.push(Clause {
                            array: name.clone(),
                            guard: guard.clone(),
                            bound: Some((n.as_str().into(), lo, hi)),
                            idx,
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

    pub(super) fn share(&self, amount: &SpecExpr) -> R<Share> {
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
    pub(super) fn spec_term(
        &mut self,
        e: &SpecExpr,
        locals: bool,
        binds: &HashMap<String, Term>,
        reads: &mut Vec<(String, Term, Term)>,
        guard: &Term,
    ) -> R<Term> {
        self.spec_term_at(e, locals, binds, reads, guard, false)
    }

    pub(super) fn spec_term_at(
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
            SpecKind::Int(v) => Term::int(*v),
            SpecKind::Bool(b) => Term::bool(*b),
            SpecKind::Ident(n) => {
                if let Some(t) = binds.get(n) {
                    t.clone()
                } else if n == "tid" {
                    tid()
                } else if self
                    .k
                    .params
                    .iter()
                    .any(|p| &p.name == n && matches!(p.kind, ParamKind::Scalar(_)))
                {
                    let sort = self
                        .k
                        .params
                        .iter()
                        .find_map(|p| match p.kind {
                            ParamKind::Scalar(t) if &p.name == n => Some(crate::arith::sort_of(t)),
                            _ => None,
                        })
                        .unwrap_or(Sort::Int);
                    sym(&format!("p_{n}"), sort)
                } else if let Some(t) = self.local_named(n).filter(|_| locals) {
                    t
                } else {
                    return Err(PermError::annotation(e.span, format!("unknown name `{n}`")).into());
                }
            }
            SpecKind::Member(a, b) => match (a.as_str(), b.as_str()) {
                ("threadIdx", "x") => tid(),
                ("blockDim", "x") => int_sym("bdx"),
                ("blockIdx", "x") => int_sym("bix"),
                ("gridDim", "x") => int_sym("gdx"),
                _ => return self.unsupported(e.span, "only the x dimension is supported"),
            },
            SpecKind::Not(a) => (go(self, a, reads)?).not(),
            SpecKind::Neg(a) => go(self, a, reads)?.neg(),
            SpecKind::Cond(c, a, b) => {
                let c = go(self, c, reads)?;
                let a = go(self, a, reads)?;
                Term::ite(&c, &a, &go(self, b, reads)?)
            }
            SpecKind::Binary(op, a, b) => {
                let a = go(self, a, reads)?;
                let b = go(self, b, reads)?;
                match op {
                    SpecOp::Implies => a.implies(&b),
                    SpecOp::Or => Term::or_all(vec![a, b]),
                    SpecOp::And => Term::and_all(vec![a, b]),
                    SpecOp::Eq => a.eq(&b),
                    SpecOp::Ne => a.eq(&b).not(),
                    SpecOp::Lt => a.lt(&b),
                    SpecOp::Le => a.le(&b),
                    SpecOp::Gt => b.lt(&a),
                    SpecOp::Ge => b.le(&a),
                    SpecOp::Add => a.add(&b),
                    SpecOp::Sub => a.sub(&b),
                    SpecOp::Mul => a.mul(&b),
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
                let mut parts = vec![];
                for i in idx {
                    let SpecIndex::At(i) = i else {
                        return self.unsupported(e.span, "a range is only allowed inside `Perm`");
                    };
                    parts.push(go(self, i, reads)?);
                }
                let i = self.flatten(name, parts, e.span)?;
                if old {
                    {
                        let elem = self
                            .arrays
                            .get(name)
                            .map_or(Sort::Int, |a| crate::arith::sort_of(a.1));
                        sym(&format!("old_{name}"), crate::arith::array_sort(elem)).select(&i)
                    }
                } else if self.final_mem {
                    (self.views[name].clone()).select(&i)
                } else {
                    if binds.values().any(|b| i.smt_shared().contains(&b.smt())) {
                        return self.unsupported(
                            e.span,
                            "array elements under `forall` are only supported in `kernel ensures`",
                        );
                    }
                    reads.push((name.clone(), i.clone(), guard.clone()));
                    (self.views[name].clone()).select(&i)
                }
            }
            SpecKind::Old(a) => self.spec_term_at(a, locals, binds, reads, guard, true)?,
            SpecKind::Perm(..) | SpecKind::Forall(..) => {
                return self.unsupported(e.span, "permissions or `forall` inside a term");
            }
        })
    }

    pub(super) fn local_named(&self, n: &str) -> Option<Term> {
        (0..self.k.vars.len())
            .rev()
            .map(|i| VarId(i as u32))
            .find(|v| self.k.var(*v).name == n && self.env.contains_key(v))
            .and_then(|v| self.env.get(&v).cloned())
    }
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
