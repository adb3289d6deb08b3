//! Turning a normal form back into a term (for tests of idempotence and for display).

use crate::normal::{Atom, Head, Normalizer};
use crate::poly::{FracId, PolyId};
use crate::term::{Func, IntOp, TermId};
use crate::Store;

impl Normalizer {
    /// A term of `store` denoting the normal form `f` (which must come from terms of `store`).
    pub fn rebuild(&self, f: FracId, store: &mut Store) -> TermId {
        let q = self.frac(f);
        let num = self.rebuild_poly(q.num, store);
        if q.den == 1 {
            return num;
        }
        let den = self.rebuild_poly(q.den, store);
        store.div(num, den)
    }

    fn rebuild_poly(&self, p: PolyId, store: &mut Store) -> TermId {
        let poly = self.poly(p);
        let mut acc = store.int(0);
        for (m, c) in poly.iter() {
            let mut t = store.constant(c.clone());
            for &(a, k) in &m.vars {
                let base = self.rebuild_atom(a, store);
                let mut pw = store.int(1);
                for _ in 0..k.unsigned_abs() {
                    pw = store.mul(pw, base);
                }
                t = if k < 0 {
                    store.div(t, pw)
                } else {
                    store.mul(t, pw)
                };
            }
            if m.exp != 0 {
                let e = self.rebuild_poly(m.exp, store);
                let ex = store.func(Func::Exp, e);
                t = store.mul(t, ex);
            }
            acc = store.add(acc, t);
        }
        acc
    }

    fn rebuild_atom(&self, a: u32, store: &mut Store) -> TermId {
        match &*self.atom(a) {
            Atom::Sym(s) => store.sym_term(*s),
            Atom::Special(t) => *t,
            Atom::App(head, args) => {
                let xs: Vec<TermId> = args.iter().map(|&f| self.rebuild(f, store)).collect();
                match *head {
                    Head::Fn(f) => store.func(f, xs[0]),
                    Head::Fn2(g) => store.func2(g, xs[0], xs[1]),
                    Head::ExpFrac => store.func(Func::Exp, xs[0]),
                    Head::Max | Head::Min => {
                        let mut acc = xs[0];
                        for &x in &xs[1..] {
                            acc = if *head == Head::Max {
                                store.max(acc, x)
                            } else {
                                store.min(acc, x)
                            };
                        }
                        acc
                    }
                    Head::Pow => store.pow(xs[0], xs[1]),
                    Head::Cmp(op) => {
                        let z = store.int(0);
                        store.cmp(op, xs[0], z)
                    }
                    Head::Not => store.not(xs[0]),
                    Head::And => store.and(xs[0], xs[xs.len() - 1]),
                    Head::Or => store.or(xs[0], xs[xs.len() - 1]),
                    Head::Select => store.select(xs[0], xs[1], xs[2]),
                    Head::Int(op, bits, signed) => {
                        let b = if op == IntOp::Wrap { xs[0] } else { xs[1] };
                        store.int_op(op, bits, signed, xs[0], b)
                    }
                }
            }
        }
    }
}
