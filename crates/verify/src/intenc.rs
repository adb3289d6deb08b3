//! An exact translation of bit-vector queries into the theory of integers, tried first on
//! queries that multiply two symbolic values: z3 refutes `row·n + c = row'·n + c'` with
//! `c, c' < n` by (non)linear integer reasoning far faster than by bit-blasting multipliers.
//!
//! Every bit-vector term `t` of width `w` becomes an integer expression `E(t)` with
//! `value(t) ≡ E(t) (mod 2^w)`: addition, subtraction, negation and multiplication are the
//! integer ones and need no normalisation. Where a canonical value is needed (comparisons,
//! extensions, division, equality) it is taken exactly: `E` itself when its static interval
//! already lies in the canonical range, one conditional correction when it lies within one
//! period of it, and `mod 2^w` otherwise. The translation is therefore equisatisfiable with the
//! bit-vector query and a model of it is a model of the original; operators it cannot
//! translate exactly make it decline, and the caller falls back to bit-vectors.

use crate::smt::Encoded;
use crate::term::{Node, Op, Sort, Term};
use std::collections::HashMap;
use warpsafe_smt::{Arena, SExpr};

/// An interval of integers, `None` when unknown or too wide for `i128`.
type Iv = Option<(i128, i128)>;

#[derive(Clone, Copy)]
enum X {
    Bool(SExpr),
    Int { e: SExpr, iv: Iv, w: u32 },
}

fn pow2(w: u32) -> Option<i128> {
    (w <= 125).then(|| 1i128 << w)
}

/// `2^w` as a decimal numeral, for any `w`.
fn pow2_text(w: u32) -> String {
    if let Some(p) = pow2(w) {
        return p.to_string();
    }
    // Little-endian decimal digits.
    let mut d: Vec<u8> = vec![1];
    for _ in 0..w {
        let mut carry = 0;
        for x in d.iter_mut() {
            let v = *x * 2 + carry;
            *x = v % 10;
            carry = v / 10;
        }
        if carry > 0 {
            d.push(carry);
        }
    }
    d.iter().rev().map(|x| char::from(b'0' + x)).collect()
}

fn add_iv(a: Iv, b: Iv) -> Iv {
    let ((l1, h1), (l2, h2)) = (a?, b?);
    Some((l1.checked_add(l2)?, h1.checked_add(h2)?))
}

fn sub_iv(a: Iv, b: Iv) -> Iv {
    let ((l1, h1), (l2, h2)) = (a?, b?);
    Some((l1.checked_sub(h2)?, h1.checked_sub(l2)?))
}

fn mul_iv(a: Iv, b: Iv) -> Iv {
    let ((l1, h1), (l2, h2)) = (a?, b?);
    let c = [
        l1.checked_mul(l2)?,
        l1.checked_mul(h2)?,
        h1.checked_mul(l2)?,
        h1.checked_mul(h2)?,
    ];
    Some((*c.iter().min()?, *c.iter().max()?))
}

fn within(iv: Iv, lo: i128, hi: i128) -> bool {
    iv.is_some_and(|(l, h)| lo <= l && h <= hi)
}

struct Tr<'a> {
    ctx: &'a Arena,
    memo: HashMap<usize, X>,
    umemo: HashMap<usize, (SExpr, Iv)>,
    smemo: HashMap<usize, (SExpr, Iv)>,
    refs: HashMap<usize, u32>,
    ranges: HashMap<String, Range>,
    /// Bounds the query asserts on compound terms (see [`asserted_bounds`]).
    bounds: Bounds,
    enc: Encoded,
    /// When set, products of two non-constant values become fresh variables (see
    /// [`encode_linear`]).
    linear: bool,
    products: Vec<Product>,
}

/// A product replaced by a fresh variable: `m = a · b` with `m`'s static interval.
struct Product {
    m: SExpr,
    a: SExpr,
    b: SExpr,
    iv: Iv,
}

impl Tr<'_> {
    fn num(&self, v: i128) -> SExpr {
        if v < 0 {
            self.ctx.list(vec![
                self.ctx.atom("-"),
                self.ctx.atom(v.unsigned_abs().to_string()),
            ])
        } else {
            self.ctx.atom(v.to_string())
        }
    }

    fn p2(&self, w: u32) -> SExpr {
        self.ctx.atom(pow2_text(w))
    }

    fn app(&self, op: &str, args: Vec<SExpr>) -> SExpr {
        let mut v = vec![self.ctx.atom(op)];
        v.extend(args);
        self.ctx.list(v)
    }

    /// Names a non-trivial integer expression.
    fn def(&mut self, e: SExpr) -> SExpr {
        let name = format!("i{}", self.enc.defs.len());
        self.enc.defs.push((name.clone(), self.ctx.int_sort(), e));
        self.ctx.atom(name)
    }

    /// A fresh variable standing for `a · b`.
    fn product(&mut self, a: SExpr, b: SExpr, iv: Iv) -> SExpr {
        let name = format!("m{}", self.products.len());
        self.enc.decls.push((name.clone(), self.ctx.int_sort()));
        let m = self.ctx.atom(name);
        self.products.push(Product { m, a, b, iv });
        m
    }

    /// Facts about the products that hold of the real multiplication: their static bounds,
    /// signs, and — for two products sharing a factor `f`, `m1 = g1·f` and `m2 = g2·f` —
    /// congruence and monotonicity (`g2 ≥ g1 + 1 ∧ f ≥ 0 → m2 − m1 ≥ f`, and the mirrored
    /// cases). These are what refutes `row·n + c = row'·n + c'` with `0 ≤ c, c' < n`.
    fn product_lemmas(&mut self) -> Vec<SExpr> {
        let ctx = self.ctx;
        let zero = self.num(0);
        let one = self.num(1);
        let mut out = vec![];
        let key = |e: SExpr| ctx.display(e).to_string();
        let facts: Vec<(SExpr, SExpr, SExpr, Iv)> = self
            .products
            .iter()
            .map(|p| (p.m, p.a, p.b, p.iv))
            .collect();
        for &(m, a, b, iv) in &facts {
            if let Some((lo, hi)) = iv {
                out.push(self.app("<=", vec![self.num(lo), m]));
                out.push(self.app("<=", vec![m, self.num(hi)]));
            }
            for (g, f) in [(a, b), (b, a)] {
                // g ≥ 0 ∧ f ≥ 0 → m ≥ 0; g ≥ 1 ∧ f ≥ 0 → m ≥ f; g = 0 → m = 0.
                let gf = self.app(">=", vec![g, zero]);
                let ff = self.app(">=", vec![f, zero]);
                let both = self.app("and", vec![gf, ff]);
                out.push(self.app("=>", vec![both, self.app(">=", vec![m, zero])]));
                let g1 = self.app(">=", vec![g, one]);
                let pre = self.app("and", vec![g1, ff]);
                out.push(self.app("=>", vec![pre, self.app(">=", vec![m, f])]));
                let g0 = self.app("=", vec![g, zero]);
                out.push(self.app("=>", vec![g0, self.app("=", vec![m, zero])]));
            }
        }
        for (i, &(m1, a1, b1, _)) in facts.iter().enumerate() {
            for &(m2, a2, b2, _) in &facts[i + 1..] {
                let pairs = [
                    (a1, b1, a2, b2),
                    (a1, b1, b2, a2),
                    (b1, a1, a2, b2),
                    (b1, a1, b2, a2),
                ];
                let Some(&(f, g1, _, g2)) = pairs.iter().find(|p| key(p.0) == key(p.2)) else {
                    continue;
                };
                let same = self.app("=", vec![g1, g2]);
                out.push(self.app("=>", vec![same, self.app("=", vec![m1, m2])]));
                let fpos = self.app(">=", vec![f, zero]);
                let fneg = self.app("<=", vec![f, zero]);
                for (gl, gh, ml, mh) in [(g1, g2, m1, m2), (g2, g1, m2, m1)] {
                    let gap = self.app(">=", vec![self.app("-", vec![gh, gl]), one]);
                    let dm = self.app("-", vec![mh, ml]);
                    let up = self.app("and", vec![gap, fpos]);
                    out.push(self.app("=>", vec![up, self.app(">=", vec![dm, f])]));
                    let down = self.app("and", vec![gap, fneg]);
                    out.push(self.app("=>", vec![down, self.app("<=", vec![dm, f])]));
                }
            }
        }
        out
    }

    /// The canonical unsigned value of an integer known modulo `2^w`.
    fn canon_u(&mut self, e: SExpr, iv: Iv, w: u32) -> (SExpr, Iv) {
        let Some(m) = pow2(w) else {
            if within(iv, 0, i128::MAX) && w >= 127 {
                return (e, iv);
            }
            let r = self.app("mod", vec![e, self.p2(w)]);
            return (self.def(r), None);
        };
        let full = Some((0, m - 1));
        if within(iv, 0, m - 1) {
            return (e, iv);
        }
        if let Some((l, h)) = iv {
            if l == h {
                let v = l.rem_euclid(m);
                return (self.num(v), Some((v, v)));
            }
        }
        let r = if within(iv, -m, m - 1) {
            let neg = self.app("<", vec![e, self.num(0)]);
            let up = self.app("+", vec![e, self.num(m)]);
            self.app("ite", vec![neg, up, e])
        } else if within(iv, 0, 2 * m - 1) {
            let big = self.app(">=", vec![e, self.num(m)]);
            let down = self.app("-", vec![e, self.num(m)]);
            self.app("ite", vec![big, down, e])
        } else {
            self.app("mod", vec![e, self.num(m)])
        };
        (self.def(r), full)
    }

    fn u(&mut self, t: &Term) -> Option<(SExpr, Iv)> {
        if let Some(r) = self.umemo.get(&t.id()) {
            return Some(*r);
        }
        let X::Int { e, iv, w } = self.get(t)? else {
            return None;
        };
        let r = self.canon_u(e, iv, w);
        self.umemo.insert(t.id(), r);
        Some(r)
    }

    fn s(&mut self, t: &Term) -> Option<(SExpr, Iv)> {
        if let Some(r) = self.smemo.get(&t.id()) {
            return Some(*r);
        }
        let X::Int { e, iv, w } = self.get(t)? else {
            return None;
        };
        let half = pow2(w - 1);
        let r = match half {
            Some(h) if within(iv, -h, h - 1) => (e, iv),
            None if within(iv, -(1 << 125), 1 << 125) => (e, iv),
            Some(h) if iv.is_some_and(|(l, hi)| l == hi) => {
                let l = iv.map_or(0, |x| x.0);
                let v = (l + h).rem_euclid(2 * h) - h;
                (self.num(v), Some((v, v)))
            }
            _ => {
                let (u, _) = self.u(t)?;
                let neg = self.app(">=", vec![u, self.p2(w - 1)]);
                let down = self.app("-", vec![u, self.p2(w)]);
                let r = self.app("ite", vec![neg, down, u]);
                (self.def(r), half.map(|h| (-h, h - 1)))
            }
        };
        self.smemo.insert(t.id(), r);
        Some(r)
    }

    fn get(&self, t: &Term) -> Option<X> {
        self.memo.get(&t.id()).copied()
    }

    fn int(&self, t: &Term) -> Option<(SExpr, Iv)> {
        match self.get(t)? {
            X::Int { e, iv, .. } => Some((e, iv)),
            X::Bool(_) => None,
        }
    }

    fn boolx(&self, t: &Term) -> Option<SExpr> {
        match self.get(t)? {
            X::Bool(e) => Some(e),
            X::Int { .. } => None,
        }
    }

    /// Translates one node whose arguments are already translated.
    fn node(&mut self, t: &Term) -> Option<X> {
        let ctx = self.ctx;
        Some(match &*t.0 {
            Node::Bool(b) => X::Bool(if *b { ctx.true_() } else { ctx.false_() }),
            Node::Bv(w, v) => {
                let iv = i128::try_from(*v).ok().map(|x| (x, x));
                let e = ctx.atom(v.to_string());
                X::Int { e, iv, w: *w }
            }
            Node::Int(_) | Node::Real(_) | Node::Call(..) | Node::Forall(..) => return None,
            Node::Sym(s) => match s.sort {
                Sort::Bool => {
                    self.enc.decls.push((s.name.clone(), ctx.bool_sort()));
                    X::Bool(ctx.atom(s.name.clone()))
                }
                Sort::BitVec(w) => {
                    self.enc.decls.push((s.name.clone(), ctx.int_sort()));
                    let x = ctx.atom(s.name.clone());
                    let (lo, hi, iv) = match self.ranges.get(&s.name) {
                        Some(r) if r.w == w => (self.num(r.u.0), self.num(r.u.1), Some(r.u)),
                        _ => (self.num(0), self.p2(w), None),
                    };
                    let hi_op = if iv.is_some() { "<=" } else { "<" };
                    let lo = self.app("<=", vec![lo, x]);
                    let hi = self.app(hi_op, vec![x, hi]);
                    self.enc.asserts.push(lo);
                    self.enc.asserts.push(hi);
                    X::Int {
                        e: x,
                        iv: iv.or_else(|| pow2(w).map(|m| (0, m - 1))),
                        w,
                    }
                }
                _ => return None,
            },
            Node::App(op, args, sort) => {
                let signed = self.bounds.of(t).is_some_and(|b| b.signed && b.integer);
                return self.apply(*op, args, *sort, signed);
            }
        })
    }

    /// Translates `op(args)`; `signed_forms`: add, subtract and multiply the operands' signed
    /// forms (a bound on the signed result is known, and holds of that form).
    fn apply(&mut self, op: Op, args: &[Term], sort: Sort, signed_forms: bool) -> Option<X> {
        let w = sort.width();
        let int = |e, iv| Some(X::Int { e, iv, w });
        let c = |i: usize| args.get(i).and_then(|a| a.as_bv());
        match op {
            Op::Not => Some(X::Bool(self.app("not", vec![self.boolx(&args[0])?]))),
            Op::And | Op::Or => {
                let xs = args
                    .iter()
                    .map(|a| self.boolx(a))
                    .collect::<Option<Vec<_>>>()?;
                Some(X::Bool(
                    self.app(if op == Op::And { "and" } else { "or" }, xs),
                ))
            }
            Op::Ite => {
                let cnd = self.boolx(&args[0])?;
                match (self.get(&args[1])?, self.get(&args[2])?) {
                    (X::Bool(a), X::Bool(b)) => Some(X::Bool(self.app("ite", vec![cnd, a, b]))),
                    (X::Int { e: a, iv: ia, .. }, X::Int { e: b, iv: ib, .. }) => {
                        let iv = ia.zip(ib).map(|(x, y)| (x.0.min(y.0), x.1.max(y.1)));
                        int(self.app("ite", vec![cnd, a, b]), iv)
                    }
                    _ => None,
                }
            }
            Op::Eq => match (self.get(&args[0])?, self.get(&args[1])?) {
                (X::Bool(a), X::Bool(b)) => Some(X::Bool(self.app("=", vec![a, b]))),
                (X::Int { e: a, iv: ia, w }, X::Int { e: b, iv: ib, .. }) => {
                    let close = match (ia, ib, pow2(w)) {
                        (Some(x), Some(y), Some(m)) => {
                            x.1.max(y.1)
                                .checked_sub(x.0.min(y.0))
                                .is_some_and(|d| d < m)
                        }
                        _ => false,
                    };
                    if close {
                        Some(X::Bool(self.app("=", vec![a, b])))
                    } else {
                        let (ua, _) = self.u(&args[0])?;
                        let (ub, _) = self.u(&args[1])?;
                        Some(X::Bool(self.app("=", vec![ua, ub])))
                    }
                }
                _ => None,
            },
            Op::Add | Op::Sub | Op::Mul => {
                // Any representatives modulo 2^w will do; with a bound on the signed result,
                // the signed ones, so that the form is that result.
                let (a, ia) = if signed_forms {
                    self.s(&args[0])?
                } else {
                    self.int(&args[0])?
                };
                let (b, ib) = if signed_forms {
                    self.s(&args[1])?
                } else {
                    self.int(&args[1])?
                };
                let (name, iv) = match op {
                    Op::Add => ("+", add_iv(ia, ib)),
                    Op::Sub => ("-", sub_iv(ia, ib)),
                    _ => ("*", mul_iv(ia, ib)),
                };
                let point = |iv: Iv| iv.is_some_and(|(l, h)| l == h);
                if self.linear && op == Op::Mul && !point(ia) && !point(ib) {
                    return int(self.product(a, b, iv), iv);
                }
                int(self.app(name, vec![a, b]), iv)
            }
            Op::Neg => {
                let (a, ia) = self.int(&args[0])?;
                int(self.app("-", vec![a]), sub_iv(Some((0, 0)), ia))
            }
            Op::BvNot => {
                let (a, ia) = self.int(&args[0])?;
                int(
                    self.app("-", vec![self.num(-1), a]),
                    sub_iv(Some((-1, -1)), ia),
                )
            }
            Op::Udiv | Op::Urem => {
                let d = c(1)?;
                let (ua, ia) = self.u(&args[0])?;
                if d == 0 {
                    return if op == Op::Udiv {
                        let m = pow2(w)?;
                        int(self.num(m - 1), Some((m - 1, m - 1)))
                    } else {
                        int(ua, ia)
                    };
                }
                let d = i128::try_from(d).ok()?;
                if op == Op::Udiv {
                    let iv = ia.map(|(l, h)| (l / d, h / d));
                    int(self.app("div", vec![ua, self.num(d)]), iv)
                } else if within(ia, 0, d - 1) {
                    int(ua, ia)
                } else {
                    int(self.app("mod", vec![ua, self.num(d)]), Some((0, d - 1)))
                }
            }
            Op::Sdiv | Op::Srem => {
                let half = pow2(w - 1)?;
                let d = c(1)?;
                let d = if d >= half as u128 {
                    d as i128 - 2 * half
                } else {
                    d as i128
                };
                if d == 0 {
                    return None;
                }
                let (sa, ia) = self.s(&args[0])?;
                // Truncating division of `sa` by `|d|`.
                let ad = d.abs();
                let nonneg = self.app(">=", vec![sa, self.num(0)]);
                let pos = self.app("div", vec![sa, self.num(ad)]);
                let negsa = self.app("-", vec![sa]);
                let negq = self.app("-", vec![self.app("div", vec![negsa, self.num(ad)])]);
                let q = self.app("ite", vec![nonneg, pos, negq]);
                let q = self.def(q);
                let qiv = ia.map(|(l, h)| (l / ad, h / ad));
                let q = if d < 0 { self.app("-", vec![q]) } else { q };
                if op == Op::Sdiv {
                    int(q, qiv.map(|(l, h)| if d < 0 { (-h, -l) } else { (l, h) }))
                } else {
                    let r = self.app("-", vec![sa, self.app("*", vec![self.num(d), q])]);
                    int(r, Some((-(ad - 1), ad - 1)))
                }
            }
            Op::Shl => {
                let k = c(1)?;
                let (a, ia) = self.int(&args[0])?;
                if k >= w as u128 {
                    return int(self.num(0), Some((0, 0)));
                }
                let f = pow2(k as u32)?;
                int(
                    self.app("*", vec![a, self.num(f)]),
                    mul_iv(ia, Some((f, f))),
                )
            }
            Op::Lshr | Op::Ashr => {
                let k = c(1)?;
                let (a, ia) = if op == Op::Lshr {
                    if k >= w as u128 {
                        return int(self.num(0), Some((0, 0)));
                    }
                    self.u(&args[0])?
                } else {
                    self.s(&args[0])?
                };
                let k = (k as u32).min(w - 1);
                let f = pow2(k)?;
                let iv = ia.map(|(l, h)| (l.div_euclid(f), h.div_euclid(f)));
                int(self.app("div", vec![a, self.num(f)]), iv)
            }
            Op::BvAnd => {
                let (x, m) = match (c(0), c(1)) {
                    (_, Some(m)) => (&args[0], m),
                    (Some(m), _) => (&args[1], m),
                    _ => return None,
                };
                if m == u128::MAX || !(m + 1).is_power_of_two() {
                    return None;
                }
                let k = (m + 1).trailing_zeros();
                let (e, iv) = self.int(x)?;
                let (r, riv) = self.canon_u(e, iv, k);
                int(r, riv)
            }
            Op::Ult | Op::Ule | Op::Slt | Op::Sle => {
                let signed = matches!(op, Op::Slt | Op::Sle);
                let (a, b) = if signed {
                    (self.s(&args[0])?.0, self.s(&args[1])?.0)
                } else {
                    (self.u(&args[0])?.0, self.u(&args[1])?.0)
                };
                let rel = if matches!(op, Op::Ult | Op::Slt) {
                    "<"
                } else {
                    "<="
                };
                Some(X::Bool(self.app(rel, vec![a, b])))
            }
            Op::Extract(hi, lo) => {
                if lo == 0 {
                    let (e, iv) = self.int(&args[0])?;
                    return Some(X::Int { e, iv, w: hi + 1 });
                }
                let (ua, ia) = self.u(&args[0])?;
                let f = pow2(lo)?;
                let iv = ia.map(|(l, h)| (l / f, h / f));
                int(self.app("div", vec![ua, self.num(f)]), iv)
            }
            Op::Zext(_) => {
                let (e, iv) = self.u(&args[0])?;
                int(e, iv)
            }
            Op::Sext(_) => {
                let (e, iv) = self.s(&args[0])?;
                int(e, iv)
            }
            Op::BvOr | Op::BvXor => None,
            // Integer, real and array operators: not in verify's bit-vector queries.
            Op::Div
            | Op::Mod
            | Op::RDiv
            | Op::ToReal
            | Op::ToInt
            | Op::Lt
            | Op::Le
            | Op::Select
            | Op::Store => None,
        }
    }
}

/// Per-symbol value ranges: unsigned `[lo, hi]` and signed `[lo, hi]`.
#[derive(Clone, Copy)]
struct Range {
    w: u32,
    u: (i128, i128),
    s: (i128, i128),
}

impl Range {
    fn new(w: u32) -> Option<Range> {
        let m = pow2(w)?;
        Some(Range {
            w,
            u: (0, m - 1),
            s: (-m / 2, m / 2 - 1),
        })
    }

    /// Intersects the two views with each other.
    fn settle(&mut self) {
        let half = pow2(self.w - 1).unwrap_or(i128::MAX);
        if self.s.0 >= 0 {
            self.u = (self.u.0.max(self.s.0), self.u.1.min(self.s.1));
        }
        if self.u.1 < half {
            self.s = (self.s.0.max(self.u.0), self.s.1.min(self.u.1));
        }
        if self.s.1 < 0 {
            let m = 2 * half;
            self.u = (self.u.0.max(self.s.0 + m), self.u.1.min(self.s.1 + m));
        }
    }
}

/// Static interval of `t` (unsigned, or signed with `signed`) given symbol ranges.
fn eval_iv(t: &Term, r: &HashMap<String, Range>, signed: bool) -> Option<(i128, i128)> {
    let w = t.width();
    let m = pow2(w)?;
    let half = m / 2;
    let full = if signed {
        (-half, half - 1)
    } else {
        (0, m - 1)
    };
    if signed {
        let u = eval_iv(t, r, false)?;
        if u.1 < half {
            return Some(u);
        }
        let s = match &*t.0 {
            Node::Sym(s) => r.get(&s.name).map(|e| e.s),
            Node::App(Op::Sext(_), a, _) => eval_iv(&a[0], r, true),
            Node::App(op @ (Op::Add | Op::Sub | Op::Mul), a, _) => {
                let x = Some(eval_iv(&a[0], r, true)?);
                let y = Some(eval_iv(&a[1], r, true)?);
                match op {
                    Op::Add => add_iv(x, y),
                    Op::Sub => sub_iv(x, y),
                    _ => mul_iv(x, y),
                }
            }
            _ => None,
        };
        return Some(
            s.filter(|s| within(Some(*s), -half, half - 1))
                .unwrap_or(full),
        );
    }
    let fit = |iv: Iv| iv.filter(|iv| within(Some(*iv), 0, m - 1)).unwrap_or(full);
    let u = |x: &Term| eval_iv(x, r, false);
    Some(match &*t.0 {
        Node::Bv(_, v) => {
            let v = i128::try_from(*v).ok()?;
            (v, v)
        }
        Node::Sym(s) => r.get(&s.name).map_or(full, |e| e.u),
        Node::App(op, a, _) => match op {
            Op::Zext(_) => u(&a[0])?,
            Op::Extract(_, 0) => fit(Some(u(&a[0])?)),
            Op::Add => fit(add_iv(Some(u(&a[0])?), Some(u(&a[1])?))),
            Op::Sub => fit(sub_iv(Some(u(&a[0])?), Some(u(&a[1])?))),
            Op::Mul => fit(mul_iv(Some(u(&a[0])?), Some(u(&a[1])?))),
            Op::Udiv | Op::Urem | Op::Lshr | Op::BvAnd => {
                let x = u(&a[0])?;
                match (op, a[1].as_bv().and_then(|c| i128::try_from(c).ok())) {
                    (Op::Udiv, Some(c)) if c > 0 => (x.0 / c, x.1 / c),
                    (Op::Urem, Some(c)) if c > 0 && x.1 < c => x,
                    (Op::Urem, Some(c)) if c > 0 => (0, c - 1),
                    (Op::Lshr, Some(c)) if c < w as i128 => (x.0 >> c, x.1 >> c),
                    (Op::BvAnd, Some(c)) => (0, x.1.min(c)),
                    _ => full,
                }
            }
            Op::Sext(_) => {
                let s = eval_iv(&a[0], r, true)?;
                if s.0 >= 0 {
                    s
                } else {
                    full
                }
            }
            Op::Sdiv => {
                let s = eval_iv(&a[0], r, true)?;
                match a[1].as_bv().and_then(|c| i128::try_from(c).ok()) {
                    Some(c) if s.0 >= 0 && c > 0 && c < half => (s.0 / c, s.1 / c),
                    _ => full,
                }
            }
            Op::Ite => {
                let (x, y) = (u(&a[1])?, u(&a[2])?);
                (x.0.min(y.0), x.1.max(y.1))
            }
            _ => full,
        },
        _ => full,
    })
}

/// A symbol, or a symbol zero-extended (whose value is then the symbol's unsigned value).
fn sym_of(t: &Term) -> Option<(&str, bool)> {
    match &*t.0 {
        Node::Sym(s) => Some((&s.name, false)),
        Node::App(Op::Zext(_), a, _) => a[0].as_sym().map(|s| (s.name.as_str(), true)),
        _ => None,
    }
}

/// Ranges of the bit-vector symbols implied by the top-level conjuncts of the assertions
/// (comparisons of a symbol with a constant or with another symbol), by a few rounds of
/// interval propagation. Every model of the query lies within them.
fn harvest(q: &crate::smt::Query) -> HashMap<String, Range> {
    let mut atoms: Vec<&Term> = vec![];
    let mut stack: Vec<&Term> = q.assertions.iter().collect();
    while let Some(t) = stack.pop() {
        match &*t.0 {
            Node::App(Op::And, xs, _) => stack.extend(xs.iter()),
            Node::App(Op::Ult | Op::Ule | Op::Slt | Op::Sle, _, _) => atoms.push(t),
            _ => {}
        }
    }
    let mut r: HashMap<String, Range> = HashMap::new();
    for _ in 0..3 {
        for a in &atoms {
            let Node::App(op, args, _) = &*a.0 else {
                continue;
            };
            let signed = matches!(op, Op::Slt | Op::Sle);
            let strict = i128::from(matches!(op, Op::Ult | Op::Slt));
            let w = args[0].width();
            let Some(half) = pow2(w - 1) else { continue };
            // Each side's interval in the comparison's interpretation.
            let side = |t: &Term, r: &mut HashMap<String, Range>| -> Option<(i128, i128)> {
                if let Some((name, _)) = sym_of(t) {
                    let inner = match &*t.0 {
                        Node::App(_, a, _) => a[0].width(),
                        _ => t.width(),
                    };
                    if !r.contains_key(name) {
                        r.insert(name.to_string(), Range::new(inner)?);
                    }
                }
                let v = eval_iv(t, r, signed)?;
                let _ = half;
                Some(v)
            };
            let (Some(x), Some(y)) = (side(&args[0], &mut r), side(&args[1], &mut r)) else {
                continue;
            };
            // x <= y - strict
            let new_x = (x.0, x.1.min(y.1 - strict));
            let new_y = (y.0.max(x.0 + strict), y.1);
            for (t, nv) in [(&args[0], new_x), (&args[1], new_y)] {
                let Some((name, zext)) = sym_of(t) else {
                    continue;
                };
                if let Some(e) = r.get_mut(name) {
                    if signed && !zext {
                        e.s = (e.s.0.max(nv.0), e.s.1.min(nv.1));
                    } else {
                        e.u = (e.u.0.max(nv.0), e.u.1.min(nv.1));
                    }
                    e.settle();
                }
            }
        }
    }
    r
}

/// A hash of `t`'s structure from its children's (`hashes`, by id): equal terms hash equally.
fn structural_hash(t: &Term, hashes: &HashMap<usize, u64>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut s = std::collections::hash_map::DefaultHasher::new();
    match &*t.0 {
        Node::Bool(b) => (0u8, b).hash(&mut s),
        Node::Bv(w, v) => (1u8, w, v).hash(&mut s),
        Node::Sym(x) => (2u8, &x.name).hash(&mut s),
        Node::App(op, args, sort) => {
            (3u8, op, sort).hash(&mut s);
            for a in args {
                hashes.get(&a.id()).copied().unwrap_or(0).hash(&mut s);
            }
        }
        Node::Int(_) | Node::Real(_) | Node::Call(..) | Node::Forall(..) => {
            (4u8, t.id()).hash(&mut s)
        }
    }
    s.finish()
}

/// Constant bounds on compound terms, keyed by the term's text (two threads evaluate the same
/// expression into distinct but equal terms), with the operator and width as a cheap filter.
#[derive(Default)]
struct Bounds {
    by_shape: HashMap<(String, u32), Vec<(String, Bound)>>,
}

/// A bound `lo ≤ x ≤ hi` on a term's value (`signed` or unsigned), or, with `integer`, on
/// its integer form itself (the exact, unwrapped result of its additions and products).
#[derive(Clone, Copy)]
struct Bound {
    signed: bool,
    integer: bool,
    lo: i128,
    hi: i128,
}

impl Bounds {
    fn shape(t: &Term) -> Option<(String, u32)> {
        match &*t.0 {
            Node::App(op, args, _) => {
                let arg = args.last().map_or(Sort::Bool, Term::sort);
                Some((op.smt_name(arg), t.width()))
            }
            _ => None,
        }
    }

    /// The bound stated on a term equal to `t`, if any.
    fn of(&self, t: &Term) -> Option<Bound> {
        let list = self.by_shape.get(&Self::shape(t)?)?;
        let text = t.to_string();
        list.iter().find(|(s, _)| *s == text).map(|(_, b)| *b)
    }
}

/// True when an integer form with interval `iv` is the `w`-bit value it stands for, read
/// `signed` or not.
fn in_interpretation(iv: Iv, w: u32, signed: bool) -> bool {
    match (iv, pow2(w)) {
        (Some((l, h)), Some(m)) if signed => l >= -(m / 2) && h < m / 2,
        (Some((l, h)), Some(m)) => l >= 0 && h < m,
        _ => false,
    }
}

/// The conjuncts the query asserts at top level (through nested conjunctions), by id.
fn top_conjuncts(q: &crate::smt::Query) -> std::collections::HashSet<usize> {
    let mut out = std::collections::HashSet::new();
    let mut stack: Vec<&Term> = q.assertions.iter().collect();
    while let Some(t) = stack.pop() {
        if !out.insert(t.id()) {
            continue;
        }
        if let Node::App(Op::And, xs, _) = &*t.0 {
            stack.extend(xs.iter());
        }
    }
    out
}

/// From a refinement fact `¬(c₁ ∧ … ∧ (E <ₛ lo ∨ hi <ₛ E))` whose other conjuncts the query
/// asserts (a hazard at a place the query reaches): `lo ≤ₛ E ≤ₛ hi`, as two atoms.
fn hazard_bounds(fact: &Term, top: &std::collections::HashSet<usize>) -> Vec<Term> {
    let Node::App(Op::Not, a, _) = &*fact.0 else {
        return vec![];
    };
    let parts: Vec<Term> = match &*a[0].0 {
        Node::App(Op::And, xs, _) => xs.clone(),
        _ => vec![a[0].clone()],
    };
    let mut out = vec![];
    let mut rest_asserted = true;
    for p in &parts {
        match &*p.0 {
            Node::App(Op::Or, xs, _) if xs.len() == 2 => match (&*xs[0].0, &*xs[1].0) {
                (Node::App(Op::Slt, l, _), Node::App(Op::Slt, h, _))
                    if l[1].as_bv().is_some() && h[0].as_bv().is_some() && l[0].same(&h[1]) =>
                {
                    out.push(l[1].sle(&l[0]));
                    out.push(h[1].sle(&h[0]));
                }
                _ => rest_asserted &= top.contains(&p.id()),
            },
            _ => rest_asserted &= top.contains(&p.id()),
        }
    }
    if rest_asserted {
        out
    } else {
        vec![]
    }
}

/// Constant bounds the query's top-level conjuncts state on compound terms (`lo ≤ₛ t`,
/// `t ≤ₛ hi` and their unsigned forms): the no-wrap facts of loop summaries bound the exact
/// value of an induction variable this way, the launch bounds global thread indices, and the
/// absence of a signed overflow at a place the query reaches bounds the exact result.
fn asserted_bounds(q: &crate::smt::Query) -> Bounds {
    let mut out: HashMap<usize, (bool, i128, i128)> = HashMap::new();
    let mut terms: HashMap<usize, &Term> = HashMap::new();
    let top = top_conjuncts(q);
    let derived: Vec<Term> = q
        .refine
        .iter()
        .flat_map(|f| hazard_bounds(f, &top))
        .collect();
    let mut stack: Vec<&Term> = q.assertions.iter().chain(&derived).collect();
    while let Some(t) = stack.pop() {
        let Node::App(op, xs, _) = &*t.0 else {
            continue;
        };
        if *op == Op::And {
            stack.extend(xs.iter());
            continue;
        }
        if !matches!(op, Op::Sle | Op::Ule) || xs.len() != 2 {
            continue;
        }
        let signed = *op == Op::Sle;
        let w = xs[0].width();
        let value = |c: u128| -> Option<i128> {
            if signed && w <= 128 && w > 0 && (c >> (w - 1)) & 1 == 1 {
                Some((c | !((1u128 << w.min(127)) - 1)) as i128)
            } else {
                i128::try_from(c).ok()
            }
        };
        let (term, lo, hi) = match (xs[0].as_bv(), xs[1].as_bv()) {
            (Some(c), None) => (&xs[1], value(c), None),
            (None, Some(c)) => (&xs[0], None, value(c)),
            _ => continue,
        };
        if !matches!(&*term.0, Node::App(..)) {
            continue;
        }
        terms.insert(term.id(), term);
        let e = out
            .entry(term.id())
            .or_insert((signed, i128::MIN, i128::MAX));
        if e.0 != signed {
            continue;
        }
        if let Some(l) = lo {
            e.1 = e.1.max(l);
        }
        if let Some(h) = hi {
            e.2 = e.2.min(h);
        }
    }
    // In the order of the terms' text, not of the map: `Bounds::of` takes the first bound
    // stated on an equal term, and the query must read the same on every run (its text keys
    // the solver cache).
    let mut found: Vec<(String, &Term, (bool, i128, i128))> = out
        .into_iter()
        .filter_map(|(id, range)| terms.get(&id).map(|t| (t.to_string(), *t, range)))
        .collect();
    found.sort_by(|a, b| (&a.0, a.2).cmp(&(&b.0, b.2)));
    let mut b = Bounds::default();
    for (text, t, range) in found {
        let (signed, lo, hi) = range;
        let bound = Bound {
            signed,
            integer: false,
            lo,
            hi,
        };
        if let Some(shape) = Bounds::shape(t) {
            b.by_shape.entry(shape).or_default().push((text, bound));
        }
        // A 64-bit sum of products of extended 32-bit values is exact: its bound bounds the
        // integer form of the same expression computed in 32 bits.
        if let Some(narrow) = narrow_exact(t, signed) {
            if let Some(shape) = Bounds::shape(&narrow) {
                let bound = Bound {
                    integer: true,
                    lo: lo.max(0),
                    ..bound
                };
                b.by_shape
                    .entry(shape)
                    .or_default()
                    .push((narrow.to_string(), bound));
            }
        }
    }
    b
}

/// For a 64-bit term made of `+` and `·` over values of at most 32 bits, zero-extended (or,
/// `signed`, sign-extended), with at most one product per summand (so it cannot wrap): the
/// same expression over the narrow values.
fn narrow_exact(t: &Term, signed: bool) -> Option<Term> {
    let leaf = |t: &Term| -> Option<Term> {
        match &*t.0 {
            Node::App(Op::Zext(_), a, _) if !signed && a[0].width() == 32 => Some(a[0].clone()),
            Node::App(Op::Sext(_), a, _) if signed && a[0].width() == 32 => Some(a[0].clone()),
            _ => None,
        }
    };
    let summand = |t: &Term| -> Option<Term> {
        match &*t.0 {
            Node::App(Op::Mul, a, _) => Some(leaf(&a[0])?.mul(&leaf(&a[1])?)),
            _ => leaf(t),
        }
    };
    if t.width() != 64 {
        return None;
    }
    match &*t.0 {
        Node::App(Op::Add, a, _) => Some(summand(&a[0])?.add(&summand(&a[1])?)),
        _ => summand(t).filter(|n| matches!(&*n.0, Node::App(..))),
    }
}

/// The interval `iv` of a `w`-bit term's integer form, narrowed by an asserted bound: one on
/// the integer form always, one on the term's value when the form is that value (its
/// interval lies in the interpretation's range).
fn narrowed(iv: Iv, w: u32, b: Bound) -> Iv {
    let (Some((l, h)), Some(m)) = (iv, pow2(w)) else {
        return iv;
    };
    let exact = if b.signed {
        l >= -(m / 2) && h < m / 2
    } else {
        l >= 0 && h < m
    };
    if !exact && !b.integer {
        return iv;
    }
    let (nl, nh) = (l.max(b.lo), h.min(b.hi));
    if nl > nh {
        iv
    } else {
        Some((nl, nh))
    }
}

/// True when some term of the query multiplies two non-constant bit-vectors.
pub fn nonlinear(q: &crate::smt::Query) -> bool {
    let mut found = false;
    products(q, &mut |_| {
        found = true;
        false
    });
    found
}

/// Calls `f` with the factors of each product of two non-constant bit-vectors in the query
/// (each shared subterm once), until `f` returns false.
pub fn products(q: &crate::smt::Query, f: &mut dyn FnMut(&[Term]) -> bool) {
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<&Term> = q.assertions.iter().chain(&q.refine).collect();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.id()) {
            continue;
        }
        if let Node::App(op, args, _) = &*t.0 {
            if *op == Op::Mul && args.iter().all(|a| a.as_bv().is_none()) && !f(args) {
                return;
            }
            stack.extend(args.iter());
        }
    }
}

/// The integer translation of `q` with its refinement facts asserted up front (a model of both
/// is what the bit-vector path reports too), or `None` when some operator has no exact
/// translation.
pub fn encode(ctx: &Arena, q: &crate::smt::Query) -> Option<Encoded> {
    translate(ctx, q, false)
}

/// A linear over-approximation of the integer translation of `q`: every product of two
/// non-constant values is a fresh variable constrained only by facts true of multiplication
/// (bounds, signs, congruence, monotonicity in a shared factor). Every model of `q` extends to
/// a model of this query, so `unsat` here proves `q` unsatisfiable; `sat` proves nothing and
/// its model must not be reported. Linear arithmetic refutes the usual "distinct rows of a
/// row-major matrix do not overlap" queries in milliseconds where nonlinear arithmetic and
/// bit-blasting can take seconds.
pub fn encode_linear(ctx: &Arena, q: &crate::smt::Query) -> Option<Encoded> {
    translate(ctx, q, true)
}

fn translate(ctx: &Arena, q: &crate::smt::Query, linear: bool) -> Option<Encoded> {
    let (order, refs) = q.postorder();
    let mut tr = Tr {
        ctx,
        memo: HashMap::new(),
        umemo: HashMap::new(),
        smemo: HashMap::new(),
        refs,
        ranges: harvest(q),
        bounds: asserted_bounds(q),
        enc: Encoded::default(),
        linear,
        products: vec![],
    };
    // Equal subterms built apart (the two threads evaluate the same expressions) translate to
    // one integer term, so that product lemmas see their shared factors.
    let mut hashes: HashMap<usize, u64> = HashMap::new();
    let mut seen: HashMap<u64, Vec<Term>> = HashMap::new();
    for t in &order {
        let h = structural_hash(t, &hashes);
        hashes.insert(t.id(), h);
        let twin = seen
            .get(&h)
            .and_then(|ts| ts.iter().find(|o| o.same(t)))
            .and_then(|o| tr.memo.get(&o.id()).copied());
        if let Some(x) = twin {
            tr.memo.insert(t.id(), x);
            continue;
        }
        seen.entry(h).or_default().push(t.clone());
        let mut x = tr.node(t)?;
        if let (X::Int { iv, w, .. }, Some(b)) = (&mut x, tr.bounds.of(t)) {
            // A bound on the integer form of an operation holds of the form the translation
            // built only when its operands' forms are their values.
            let operands_exact = !b.integer
                || match &*t.0 {
                    Node::App(_, args, _) => args.iter().all(|a| match tr.get(a) {
                        Some(X::Int { iv, w, .. }) => in_interpretation(iv, w, b.signed),
                        _ => false,
                    }),
                    _ => false,
                };
            if operands_exact {
                *iv = narrowed(*iv, *w, b);
            }
        }
        let shared = tr.refs.get(&t.id()).copied().unwrap_or(0) > 1;
        if shared && matches!(&*t.0, Node::App(..)) {
            x = match x {
                X::Bool(e) => {
                    let name = format!("b{}", tr.enc.defs.len());
                    tr.enc.defs.push((name.clone(), ctx.bool_sort(), e));
                    X::Bool(ctx.atom(name))
                }
                X::Int { e, iv, w } => X::Int {
                    e: tr.def(e),
                    iv,
                    w,
                },
            };
        }
        tr.memo.insert(t.id(), x);
    }
    let mut asserts = vec![];
    for a in q.assertions.iter().chain(&q.refine) {
        asserts.push(tr.boolx(a)?);
    }
    let mut watch = vec![];
    for t in &q.watch {
        watch.push(match tr.get(t)? {
            X::Bool(e) => e,
            X::Int { .. } => tr.u(t)?.0,
        });
    }
    let small = match &q.small {
        Some(s) => Some(tr.boolx(s)?),
        None => None,
    };
    let lemmas = tr.product_lemmas();
    let mut enc = tr.enc;
    enc.asserts.extend(lemmas);
    enc.asserts.extend(asserts);
    enc.watch = watch;
    enc.small = small;
    Some(enc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::{Answer, Query, Session};
    use crate::term::SymKind;
    use std::time::Duration;
    use warpsafe_smt::Process;

    /// Decides `query` on `proc` as the pool would (without the cache).
    fn decide(proc: &mut Process, query: &Query) -> std::io::Result<Answer> {
        let ctx = Arena::new();
        let bv = crate::smt::encode(&ctx, query);
        Session::new(&ctx, proc, Duration::from_secs(10))?.check(query, &bv, None)
    }

    fn q(assertions: Vec<Term>, watch: Vec<Term>) -> Query {
        Query {
            name: "t".into(),
            assertions,
            watch,
            small: None,
            refine: vec![],
            cheap: false,
        }
    }

    #[test]
    fn wrapping_products_keep_their_models() {
        // 8-bit x * y == 1 with x, y >= 3: only through wrap-around (e.g. 3 * 171 = 513).
        let x = crate::term::sym("x".into(), Sort::BitVec(8), SymKind::Shared, 0);
        let y = crate::term::sym("y".into(), Sort::BitVec(8), SymKind::Shared, 0);
        let three = Term::bv(8, 3);
        let query = q(
            vec![x.mul(&y).eq(&Term::bv(8, 1)), three.ule(&x), three.ule(&y)],
            vec![x.clone(), y.clone()],
        );
        assert!(nonlinear(&query));
        let Ok(mut s) = Process::start(Duration::from_secs(60)) else {
            return;
        };
        match decide(&mut s, &query) {
            Ok(Answer::Sat(v)) => {
                let (a, b) = (v[0].unwrap_or(0), v[1].unwrap_or(0));
                assert_eq!(a * b % 256, 1, "{a} * {b}");
                assert!(a >= 3 && b >= 3);
            }
            other => panic!("{other:?}"),
        }
        // Signed: x * y == -1 (0xff) with x, y in [1, 100] as signed values has no solution
        // without wrap, and none with it either once the product's bound is stated.
        let hundred = Term::bv(8, 100);
        let one = Term::bv(8, 1);
        let query = q(
            vec![
                x.mul(&y).eq(&Term::bv(8, 0xff)),
                one.sle(&x),
                x.sle(&hundred),
                one.sle(&y),
                y.sle(&hundred),
                x.sext_to(16).mul(&y.sext_to(16)).sle(&Term::bv(16, 127)),
            ],
            vec![],
        );
        assert!(matches!(decide(&mut s, &query), Ok(Answer::Unsat)));
    }

    #[test]
    fn powers_of_two_print_exactly() {
        assert_eq!(pow2_text(10), "1024");
        assert_eq!(pow2_text(128), "340282366920938463463374607431768211456");
        assert_eq!(pow2_text(130), "1361129467683753853853498429727072845824");
    }
}
