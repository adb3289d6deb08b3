//! Polynomial identity testing by evaluation over a large prime field (Schwartz–Zippel).
//!
//! Two polynomials with rational coefficients that differ (over ℚ) differ at a point drawn
//! uniformly from 𝔽ₚⁿ except with probability at most `d / p`, `d` the total degree of their
//! difference, as long as `p` does not divide every coefficient of that difference (cleared of
//! denominators). We draw `p` at random among the primes in [2⁶¹, 2⁶²) (there are more than
//! 2⁵⁵ of them, so a coefficient of `h` bits is divisible by one with probability at most
//! `⌊h / 61⌋ / 2⁵⁵`, none below 61 bits) and evaluate at `k` points, so a wrong "equal" has probability at most
//! `(d/p)^k + ⌊h / 61⌋ / 2⁵⁵` per element ([`Fingerprint::error_log2`]). A difference mod `p`
//! is certain: equal polynomials agree mod `p` everywhere their denominators are invertible.
//!
//! [`sweep`] evaluates every node of a [`Store`] in one pass in id order (operands come
//! before the nodes that use them), so the cost is linear in the store and the memory one
//! word per node. Only the polynomial fragment is evaluated: `+ − ×`, negation, rational
//! constants and division by a constant; a term with anything else (`exp`, `max`, division
//! by a term, comparisons, machine-integer operations, infinities) is [`NOT_POLY`], and its
//! equality is left to the normal forms.

use crate::fxhash::FxHasher;
use crate::store::Store;
use crate::term::{Node, TermId};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use std::hash::Hasher;

/// The value of a node outside the polynomial fragment.
pub const NOT_POLY: u64 = u64::MAX;

/// log₂ of a lower bound on the number of primes in [2⁶¹, 2⁶²): by Rosser and Schoenfeld,
/// x / ln x < π(x) < 1.25506 · x / ln x, so π(2⁶²) − π(2⁶¹) > 2⁶¹ · (2/(62 ln 2) −
/// 1.25506/(61 ln 2)) > 2⁶¹ · 0.0165 > 2⁵⁵.
const PRIMES_LOG2: f64 = 55.0;

/// A prime field 𝔽ₚ with 2⁶¹ ≤ p < 2⁶², in Montgomery form (R = 2⁶⁴).
#[derive(Clone, Copy, Debug)]
pub struct Field {
    p: u64,
    /// −p⁻¹ mod 2⁶⁴.
    pinv: u64,
    /// R² mod p.
    r2: u64,
}

impl Field {
    /// The field of a prime drawn from `seed`: odd numbers in [2⁶¹, 2⁶²) are drawn until one
    /// is prime, so every prime of the range is equally likely.
    pub fn random(seed: u64) -> Field {
        let mut g = Mix(seed ^ 0x9e37_79b9_7f4a_7c15);
        loop {
            let c = (g.next() >> 3) | (1 << 61) | 1;
            if is_prime(c) {
                return Field::new(c);
            }
        }
    }

    /// The field of the odd prime `p` (2⁶¹ ≤ p < 2⁶², not checked).
    pub fn new(p: u64) -> Field {
        // Newton's iteration for p⁻¹ mod 2⁶⁴ (p odd): each step doubles the correct bits.
        let mut inv: u64 = 1;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
        }
        let r = ((1u128 << 64) % p as u128) as u64;
        let r2 = ((r as u128 * r as u128) % p as u128) as u64;
        Field {
            p,
            pinv: inv.wrapping_neg(),
            r2,
        }
    }

    /// The prime.
    pub fn prime(&self) -> u64 {
        self.p
    }

    fn redc(&self, t: u128) -> u64 {
        let m = (t as u64).wrapping_mul(self.pinv);
        let s = ((t + m as u128 * self.p as u128) >> 64) as u64;
        if s >= self.p {
            s - self.p
        } else {
            s
        }
    }

    /// `x` (reduced, `< p`) in Montgomery form.
    fn enter(&self, x: u64) -> u64 {
        self.redc(x as u128 * self.r2 as u128)
    }

    fn mul(&self, a: u64, b: u64) -> u64 {
        self.redc(a as u128 * b as u128)
    }

    fn add(&self, a: u64, b: u64) -> u64 {
        let s = a + b;
        if s >= self.p {
            s - self.p
        } else {
            s
        }
    }

    fn neg(&self, a: u64) -> u64 {
        if a == 0 {
            0
        } else {
            self.p - a
        }
    }

    fn pow(&self, mut a: u64, mut e: u64) -> u64 {
        let mut r = self.enter(1);
        while e > 0 {
            if e & 1 == 1 {
                r = self.mul(r, a);
            }
            a = self.mul(a, a);
            e >>= 1;
        }
        r
    }

    /// The inverse of a non-zero element (Fermat).
    fn inv(&self, a: u64) -> u64 {
        self.pow(a, self.p - 2)
    }

    /// An integer mod p, in Montgomery form.
    fn int(&self, n: &BigInt) -> u64 {
        let r = (n.abs() % BigInt::from(self.p)).to_u64().unwrap_or(0);
        let x = self.enter(r);
        if n.is_negative() {
            self.neg(x)
        } else {
            x
        }
    }
}

/// The splitmix64 generator.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    ((a as u128 * b as u128) % m as u128) as u64
}

fn pow_mod(mut a: u64, mut e: u64, m: u64) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod(r, a, m);
        }
        a = mul_mod(a, a, m);
        e >>= 1;
    }
    r
}

/// Miller–Rabin with the first twelve primes as bases: exact for every 64-bit number.
pub fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for b in BASES {
        if n % b == 0 {
            return n == b;
        }
    }
    let (mut d, mut s) = (n - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    'bases: for b in BASES {
        let mut x = pow_mod(b, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// A random point of 𝔽ₚⁿ: each input symbol's value is drawn from the point's seed and the
/// symbol's name and index, so two stores that number their symbols differently agree on it.
#[derive(Clone, Copy, Debug)]
struct Point {
    seed: u64,
}

impl Point {
    fn value(&self, f: &Field, name: &str, index: Option<u64>) -> u64 {
        let mut h = FxHasher::default();
        h.write(name.as_bytes());
        h.write_u64(index.map_or(u64::MAX, |i| i));
        let mut g = Mix(self.seed ^ h.finish().rotate_left(17));
        g.next();
        // Rejection keeps the value uniform in [0, p).
        loop {
            let v = g.next() >> 2;
            if v < f.p {
                return f.enter(v);
            }
        }
    }
}

/// The value of every node of `store` at `point` in Montgomery form, [`NOT_POLY`] for nodes
/// outside the polynomial fragment (or with a constant whose denominator `p` divides).
fn sweep(store: &Store, f: &Field, point: Point) -> Vec<u64> {
    let consts: Vec<u64> = (0..store.const_count())
        .map(|c| {
            let q = store.constant_value(crate::term::ConstId(c as u32));
            let d = f.int(q.denom());
            if d == 0 {
                NOT_POLY
            } else {
                f.mul(f.int(q.numer()), f.inv(d))
            }
        })
        .collect();
    let mut v: Vec<u64> = Vec::with_capacity(store.len());
    for i in 0..store.len() {
        let x = match *store.node(TermId(i as u32)) {
            Node::Const(c) => consts[c.0 as usize],
            Node::Sym(s) => {
                let info = store.sym(s);
                point.value(f, &info.name, info.index)
            }
            Node::Add(a, b) => both(&v, a, b, |x, y| f.add(x, y)),
            Node::Sub(a, b) => both(&v, a, b, |x, y| f.add(x, f.neg(y))),
            Node::Mul(a, b) => both(&v, a, b, |x, y| f.mul(x, y)),
            Node::Neg(a) => match v[a.0 as usize] {
                NOT_POLY => NOT_POLY,
                x => f.neg(x),
            },
            Node::Div(a, b) if store.as_const(b).is_some() => {
                match (v[a.0 as usize], v[b.0 as usize]) {
                    (NOT_POLY, _) | (_, NOT_POLY) | (_, 0) => NOT_POLY,
                    (x, y) => f.mul(x, f.inv(y)),
                }
            }
            _ => NOT_POLY,
        };
        v.push(x);
    }
    v
}

fn both(v: &[u64], a: TermId, b: TermId, op: impl Fn(u64, u64) -> u64) -> u64 {
    match (v[a.0 as usize], v[b.0 as usize]) {
        (NOT_POLY, _) | (_, NOT_POLY) => NOT_POLY,
        (x, y) => op(x, y),
    }
}

/// Bounds of a node's polynomial, for the error of [`Fingerprint`]s: its total degree and, with
/// the polynomial written `P / D` (integer coefficients, integer `D`), log₂ of bounds on the
/// sum of `|coefficients of P|` and on `D`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Size {
    /// Total degree (saturating).
    pub degree: u32,
    /// log₂ of the bound on the coefficients' absolute sum.
    pub height: f32,
    /// log₂ of the bound on the denominator.
    pub denom: f32,
}

/// [`Size`] of each root of `store` (meaningful where [`sweep`] gives a value); 12 bytes per
/// node of the store while it runs.
pub fn sizes(store: &Store, roots: &[TermId]) -> Vec<Size> {
    let all = all_sizes(store);
    roots.iter().map(|r| all[r.0 as usize]).collect()
}

fn all_sizes(store: &Store) -> Vec<Size> {
    let bits = |n: &BigInt| n.bits() as f32;
    let mut s: Vec<Size> = Vec::with_capacity(store.len());
    for i in 0..store.len() {
        let z = match *store.node(TermId(i as u32)) {
            Node::Const(c) => {
                let q = store.constant_value(c);
                Size {
                    degree: 0,
                    height: bits(q.numer()),
                    denom: bits(q.denom()),
                }
            }
            Node::Sym(_) => Size::SYMBOL,
            Node::Add(a, b) | Node::Sub(a, b) => Size::of_sum(s[a.0 as usize], s[b.0 as usize]),
            Node::Mul(a, b) => Size::of_product(s[a.0 as usize], s[b.0 as usize]),
            Node::Neg(a) => s[a.0 as usize],
            Node::Div(a, b) => Size::of_quotient(s[a.0 as usize], s[b.0 as usize]),
            _ => Size::default(),
        };
        s.push(z);
    }
    s
}

/// One point of a [`Tester`]'s field for evaluating polynomial values as a program computes
/// them, one operation at a time, with no terms built: the values agree with what
/// [`Tester::values`] gives for the terms of the same computation at the same point (input
/// symbols are drawn the same way). Values are field elements in Montgomery form.
#[derive(Clone, Copy, Debug)]
pub struct PointEval {
    field: Field,
    point: Point,
}

impl PointEval {
    /// The value of the input symbol `name[index]` (or scalar `name`).
    pub fn symbol(&self, name: &str, index: Option<u64>) -> u64 {
        self.point.value(&self.field, name, index)
    }

    /// The value of a rational constant and its [`Size`]; `None` when `p` divides its
    /// denominator.
    pub fn rational(&self, q: &num_rational::BigRational) -> Option<(u64, Size)> {
        let d = self.field.int(q.denom());
        if d == 0 {
            return None;
        }
        let size = Size {
            degree: 0,
            height: q.numer().bits() as f32,
            denom: q.denom().bits() as f32,
        };
        Some((
            self.field.mul(self.field.int(q.numer()), self.field.inv(d)),
            size,
        ))
    }

    /// The value of a finite float (an exact binary fraction) and its [`Size`]; `None` for
    /// infinities and NaN, which are no field elements.
    pub fn float(&self, v: f64) -> Option<(u64, Size)> {
        if !v.is_finite() {
            return None;
        }
        let q = num_rational::BigRational::from_float(v)?;
        self.rational(&q)
    }

    /// `a + b`.
    pub fn add(&self, a: u64, b: u64) -> u64 {
        self.field.add(a, b)
    }

    /// `a − b`.
    pub fn sub(&self, a: u64, b: u64) -> u64 {
        self.field.add(a, self.field.neg(b))
    }

    /// `a · b`.
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        self.field.mul(a, b)
    }

    /// `−a`.
    pub fn neg(&self, a: u64) -> u64 {
        self.field.neg(a)
    }

    /// `a⁻¹`, `None` for zero.
    pub fn inv(&self, a: u64) -> Option<u64> {
        (a != 0).then(|| self.field.inv(a))
    }
}

impl Size {
    /// The size of an input symbol.
    pub const SYMBOL: Size = Size {
        degree: 1,
        height: 0.0,
        denom: 0.0,
    };

    /// The size of `x ± y`.
    pub fn of_sum(x: Size, y: Size) -> Size {
        Size {
            degree: x.degree.max(y.degree),
            height: log2_add((x.height + y.denom) as f64, (y.height + x.denom) as f64) as f32,
            denom: x.denom + y.denom,
        }
    }

    /// The size of `x · y`.
    pub fn of_product(x: Size, y: Size) -> Size {
        Size {
            degree: x.degree.saturating_add(y.degree),
            height: x.height + y.height,
            denom: x.denom + y.denom,
        }
    }

    /// The size of `x / c` for a constant `c` of size `c`.
    pub fn of_quotient(x: Size, c: Size) -> Size {
        Size {
            degree: x.degree,
            height: x.height + c.denom,
            denom: x.denom + c.height,
        }
    }
}

/// Tests many pairs of terms at the same random points of one random prime field.
#[derive(Clone, Debug)]
pub struct Tester {
    field: Field,
    points: Vec<Point>,
    seed: u64,
}

impl Tester {
    /// A field and `points` points (at least one) drawn from `seed`.
    pub fn new(seed: u64, points: u32) -> Tester {
        let mut g = Mix(seed);
        let field = Field::random(g.next());
        let points = (0..points.max(1))
            .map(|_| Point { seed: g.next() })
            .collect();
        Tester {
            field,
            points,
            seed,
        }
    }

    /// The prime.
    pub fn prime(&self) -> u64 {
        self.field.p
    }

    /// The seed everything was drawn from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Points per element.
    pub fn points(&self) -> u32 {
        self.points.len() as u32
    }

    /// Point `k` (`k < points()`) for evaluating values as they are computed.
    pub fn point(&self, k: usize) -> Option<PointEval> {
        self.points.get(k).map(|&point| PointEval {
            field: self.field,
            point,
        })
    }

    /// Per root of `store`: its values at every point, or `None` outside the polynomial
    /// fragment. Memory: one word per node of the store while one point is evaluated.
    pub fn values(&self, store: &Store, roots: &[TermId]) -> Vec<Option<Vec<u64>>> {
        let mut out: Vec<Option<Vec<u64>>> = vec![Some(Vec::new()); roots.len()];
        for &pt in &self.points {
            let v = sweep(store, &self.field, pt);
            for (o, r) in out.iter_mut().zip(roots) {
                match (o.as_mut(), v[r.0 as usize]) {
                    (Some(_), NOT_POLY) => *o = None,
                    (Some(xs), x) => xs.push(x),
                    (None, _) => {}
                }
            }
        }
        out
    }

    /// log₂ of the probability that two different polynomials of sizes `a` and `b` agree at
    /// every point: `(d/p)^k + ⌊h / 61⌋ / 2⁵⁵`, `d` the degree and `h` the bits of the
    /// coefficients of their difference.
    pub fn error_log2(&self, a: Size, b: Size) -> f64 {
        let d = a.degree.max(b.degree).max(1) as f64;
        let h = log2_add((a.height + b.denom) as f64, (b.height + a.denom) as f64);
        let miss = self.points.len() as f64 * (d.log2() - (self.field.p as f64).log2());
        // A non-zero integer below 2^h has at most ⌊h/61⌋ prime factors ≥ 2⁶¹.
        let factors = (h / 61.0).floor();
        let divides = if factors < 1.0 {
            f64::NEG_INFINITY
        } else {
            factors.log2() - PRIMES_LOG2
        };
        log2_add(miss, divides)
    }
}

/// log₂(2^a + 2^b).
pub fn log2_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    if hi == f64::NEG_INFINITY {
        return hi;
    }
    hi + (1.0 + (lo - hi).exp2()).log2()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_are_recognised() {
        let small: Vec<u64> = (0..60).filter(|&n| is_prime(n)).collect();
        assert_eq!(
            small,
            [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59]
        );
        assert!(is_prime((1 << 61) - 1));
        assert!(!is_prime((1 << 61) + 1)); // divisible by 3
        assert!(!is_prime(3_215_031_751)); // a strong pseudoprime to bases 2, 3, 5, 7
        let f = Field::random(7);
        assert!(is_prime(f.prime()) && f.prime() >> 61 == 1);
    }

    #[test]
    fn a_point_evaluated_as_it_is_computed_agrees_with_the_terms() {
        // ((x0 · 1.5 + x1) · x0 − 0.25) / 4 and −x1, as terms and step by step.
        let mut st = Store::new();
        let (x0, x1) = (
            st.symbol("x", Some(0), false),
            st.symbol("x", Some(1), false),
        );
        let (c15, c025, c4) = (st.float(1.5), st.float(0.25), st.float(4.0));
        let a = st.mul(x0, c15);
        let b = st.add(a, x1);
        let c = st.mul(b, x0);
        let d = st.sub(c, c025);
        let e = st.div(d, c4);
        let n = st.neg(x1);
        let tester = Tester::new(42, 2);
        let want = tester.values(&st, &[e, n]);
        for k in 0..2 {
            let ev = tester.point(k).expect("two points");
            let (v0, v1) = (ev.symbol("x", Some(0)), ev.symbol("x", Some(1)));
            let num = |v: f64| ev.float(v).expect("finite").0;
            let c = ev.mul(ev.add(ev.mul(v0, num(1.5)), v1), v0);
            let d = ev.sub(c, num(0.25));
            let e = ev.mul(d, ev.inv(num(4.0)).expect("non-zero"));
            assert_eq!(Some(e), want[0].as_ref().map(|v| v[k]), "point {k}");
            assert_eq!(
                Some(ev.neg(v1)),
                want[1].as_ref().map(|v| v[k]),
                "point {k}"
            );
        }
        assert!(tester.point(2).is_none());
        assert!(tester
            .point(0)
            .and_then(|ev| ev.float(f64::INFINITY))
            .is_none());
        let q = sizes(&st, &[e])[0];
        let s = Size::of_quotient(
            Size::of_sum(
                Size::of_product(
                    Size::of_sum(Size::of_product(Size::SYMBOL, ev_size(1.5)), Size::SYMBOL),
                    Size::SYMBOL,
                ),
                ev_size(0.25),
            ),
            ev_size(4.0),
        );
        assert_eq!(q, s);
    }

    fn ev_size(v: f64) -> Size {
        Tester::new(1, 1)
            .point(0)
            .and_then(|e| e.float(v))
            .expect("finite")
            .1
    }

    #[test]
    fn montgomery_arithmetic_matches_u128() {
        let f = Field::random(3);
        let p = f.prime();
        let mut g = Mix(11);
        for _ in 0..1000 {
            let (a, b) = (g.next() % p, g.next() % p);
            let (x, y) = (f.enter(a), f.enter(b));
            let back = |m: u64| f.redc(m as u128);
            assert_eq!(back(f.mul(x, y)), mul_mod(a, b, p));
            assert_eq!(
                back(f.add(x, y)),
                ((a as u128 + b as u128) % p as u128) as u64
            );
            assert_eq!(back(f.neg(x)), (p - a) % p);
            if a != 0 {
                assert_eq!(back(f.mul(x, f.inv(x))), 1);
            }
        }
        assert_eq!(back_int(&f, -5), p - 5);
    }

    fn back_int(f: &Field, n: i64) -> u64 {
        f.redc(f.int(&BigInt::from(n)) as u128)
    }

    #[test]
    fn identities_hold_and_differences_show() {
        let mut s = Store::new();
        let (x, y) = (s.symbol("x", None, false), s.symbol("y", None, false));
        let sum = s.add(x, y);
        let sq = s.mul(sum, sum);
        let (xx, yy, xy) = (s.mul(x, x), s.mul(y, y), s.mul(x, y));
        let two = s.int(2);
        let half = s.constant(num_rational::BigRational::new(1.into(), 2.into()));
        let xy2 = s.mul(two, xy);
        let t = s.add(xx, xy2);
        let expanded = s.add(t, yy);
        let wrong = s.add(xx, yy);
        // (x + y)^2 / 2 computed as a division and as a product with 1/2.
        let div = s.div(sq, two);
        let halved = s.mul(half, expanded);
        let e = s.func(crate::Func::Exp, x);
        let t = Tester::new(5, 2);
        let v = t.values(&s, &[sq, expanded, wrong, div, halved, e]);
        assert_eq!(v[0], v[1]);
        assert_ne!(v[0], v[2]);
        assert_eq!(v[3], v[4]);
        assert!(v[0].is_some() && v[3].is_some());
        assert_eq!(v[5], None, "exp is outside the polynomial fragment");
        let z = sizes(&s, &[sq, halved]);
        assert_eq!((z[0].degree, z[1].degree), (2, 2));
        let err = t.error_log2(z[0], z[1]);
        assert!(err < -50.0, "error bound 2^{err}");
    }

    #[test]
    fn a_frozen_store_builds_on() {
        let mut s = Store::new();
        let (x, y) = (s.symbol("x", None, false), s.symbol("y", None, false));
        let xy = s.mul(x, y);
        s.freeze();
        assert_eq!(s.mul(x, y), xy, "hash-consing survives freezing");
        let n = s.len();
        let sum = s.add(xy, x);
        assert_eq!(s.len(), n + 1);
        assert_eq!(s.add(xy, x), sum);
    }

    #[test]
    fn stores_numbering_symbols_differently_agree() {
        let mut a = Store::new();
        let (x, y) = (a.symbol("x", Some(1), false), a.symbol("x", Some(2), false));
        let pa = a.mul(x, y);
        let mut b = Store::new();
        let y2 = b.symbol("x", Some(2), false);
        let x2 = b.symbol("x", Some(1), false);
        let pb = b.mul(y2, x2);
        let t = Tester::new(9, 3);
        assert_eq!(t.values(&a, &[pa]), t.values(&b, &[pb]));
    }
}
