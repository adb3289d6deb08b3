//! The real exponential `E` in obligations (`expf`, `__expf` and the spec's `exp` are one
//! uninterpreted function over the reals, as fast-math compilers read them), and the two laws
//! the online-softmax proofs rest on: `E(a + b) = E(a)·E(b)` and `E(x) > 0`.
//!
//! Both are applied as rewrites before a query reaches the solver: an exponential of a sum is
//! split into a product of exponentials of its atoms ([`split`]), a term is multiplied by
//! `E(m)` by folding `m` into one of its exponentials ([`shift`]), and every exponential a
//! query mentions is asserted positive ([`positive_facts`]). Each rewrite is an equality of
//! real terms, so an obligation stated after it means what it meant before.

use crate::term::{FSym, Sort, Term};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::BTreeMap;
use warpsafe_terms::{Node, Op};

/// The name of the exponential's function symbol.
pub(crate) const EXP: &str = "f_exp";

/// Largest power of one exponential atom that [`split`] writes out as a product.
const MAX_POWER: i64 = 8;

/// `E(arg)`.
pub(crate) fn exp(arg: Term) -> Term {
    crate::term::uf(EXP, vec![arg], Sort::Real, None)
}

/// The argument of `t` when `t` is `E(arg)`.
pub(crate) fn exp_arg(t: &Term) -> Option<&Term> {
    match t.node() {
        Node::Call(f, args) if &*f.name == EXP && args.len() == 1 => Some(&args[0]),
        _ => None,
    }
}

/// A real term as `Σ coefficient · atom + constant`, atoms keyed by their text.
#[derive(Clone, Debug, Default)]
struct Lin {
    atoms: BTreeMap<String, (Term, BigRational)>,
    constant: BigRational,
}

impl Lin {
    fn atom(t: &Term) -> Lin {
        let mut l = Lin::default();
        l.atoms.insert(t.smt(), (t.clone(), BigRational::one()));
        l
    }

    fn add(mut self, o: Lin, k: &BigRational) -> Lin {
        self.constant += &o.constant * k;
        for (key, (t, c)) in o.atoms {
            let e = self
                .atoms
                .entry(key)
                .or_insert_with(|| (t, BigRational::zero()));
            e.1 += c * k;
        }
        self.atoms.retain(|_, (_, c)| !c.is_zero());
        self
    }

    fn of(t: &Term) -> Lin {
        if let Some(r) = constant(t) {
            return Lin {
                constant: r,
                ..Lin::default()
            };
        }
        let one = BigRational::one();
        match t.as_app() {
            Some((Op::Add, [a, b])) => Lin::of(a).add(Lin::of(b), &one),
            Some((Op::Sub, [a, b])) => Lin::of(a).add(Lin::of(b), &-one),
            Some((Op::Neg, [a])) => Lin::default().add(Lin::of(a), &-one),
            Some((Op::Mul, [a, b])) => match (constant(a), constant(b)) {
                (Some(k), _) => Lin::default().add(Lin::of(b), &k),
                (_, Some(k)) => Lin::default().add(Lin::of(a), &k),
                _ => Lin::atom(t),
            },
            _ => Lin::atom(t),
        }
    }

    /// The term, atoms in key order (so equal forms give equal terms).
    fn term(&self) -> Term {
        let mut out: Option<Term> = None;
        for (t, c) in self.atoms.values() {
            let x = scaled(t, c);
            out = Some(match out {
                None => x,
                Some(o) => o.add(&x),
            });
        }
        let k = Term::real(self.constant.clone());
        match out {
            None => k,
            Some(o) if self.constant.is_zero() => o,
            Some(o) => o.add(&k),
        }
    }
}

fn scaled(t: &Term, c: &BigRational) -> Term {
    let t = t.to_real();
    if c.is_one() {
        t
    } else if (-c).is_one() {
        t.neg()
    } else {
        Term::real(c.clone()).mul(&t)
    }
}

/// The value of a numeric constant term.
fn constant(t: &Term) -> Option<BigRational> {
    if let Some(v) = t.as_int() {
        return Some(BigRational::from_integer(BigInt::from(v)));
    }
    if let Some(r) = t.as_real() {
        return Some(r.clone());
    }
    match t.as_app() {
        Some((Op::ToReal, [x])) => constant(x),
        _ => None,
    }
}

/// `E(arg + m)` with the sum put in normal form, and whether `m` cancelled an atom of `arg`.
fn exp_plus(arg: &Term, m: &Term) -> (Term, bool) {
    let a = Lin::of(arg);
    let before = a.atoms.len();
    let sum = a.add(Lin::of(m), &BigRational::one());
    let cancelled = sum.atoms.len() < before + Lin::of(m).atoms.len();
    (exp(sum.term()), cancelled)
}

/// `t · E(m)` as a term in which `E(m)` is folded into exponentials of `t` (`E(s − m)·E(m)` is
/// `E(s)`), or `None` when some summand has no exponential factor to take it. The flag says
/// whether every fold cancelled an atom (the product is then free of `m` where `t`'s
/// exponentials held `−m`).
pub(crate) fn shift(t: &Term, m: &Term) -> Option<(Term, bool)> {
    if constant(t).is_some_and(|c| c.is_zero()) {
        return Some((t.to_real(), true));
    }
    if let Some(arg) = exp_arg(t) {
        return Some(exp_plus(arg, m));
    }
    match t.as_app()? {
        (Op::Add, [a, b]) | (Op::Sub, [a, b]) => {
            let (x, cx) = shift(a, m)?;
            let (y, cy) = shift(b, m)?;
            let r = if matches!(t.as_app(), Some((Op::Add, _))) {
                x.add(&y)
            } else {
                x.sub(&y)
            };
            Some((r, cx && cy))
        }
        (Op::Neg, [a]) => shift(a, m).map(|(x, c)| (x.neg(), c)),
        (Op::Ite, [c, a, b]) => {
            let (x, cx) = shift(a, m)?;
            let (y, cy) = shift(b, m)?;
            Some((Term::ite(c, &x, &y), cx && cy))
        }
        // `(a / E(m)) · E(m)` is `a`.
        (Op::RDiv, [a, b]) if exp_arg(b) == Some(m) => Some((a.clone(), true)),
        (Op::RDiv, [a, b]) => shift(a, m).map(|(x, c)| (x.rdiv(b), c)),
        (Op::Mul, [a, b]) => {
            let left = shift(a, m).map(|(x, c)| (x.mul(b), c));
            let right = shift(b, m).map(|(y, c)| (a.mul(&y), c));
            match (left, right) {
                (Some(l), _) if l.1 => Some(l),
                (_, Some(r)) if r.1 => Some(r),
                (l, r) => l.or(r),
            }
        }
        _ => None,
    }
}

/// `t` with every exponential of a sum written as a product of exponentials of its atoms
/// (`E(a − b + 2c)` is `E(a)·E(c)·E(c) / E(b)`); an exponential whose argument has a
/// coefficient that is not a small integer stays as it is.
pub(crate) fn split(t: &Term) -> Term {
    map(t, &|x: &Term| {
        let arg = exp_arg(x)?;
        let l = Lin::of(arg);
        if l.atoms.len() + usize::from(!l.constant.is_zero()) < 2 {
            return None;
        }
        let mut num: Vec<Term> = vec![];
        let mut den: Vec<Term> = vec![];
        for (a, c) in l.atoms.values() {
            if !c.is_integer() {
                return None;
            }
            let k = c.to_integer().to_i64()?;
            if k.abs() > MAX_POWER {
                return None;
            }
            let e = exp(a.to_real());
            let side = if k > 0 { &mut num } else { &mut den };
            side.extend(std::iter::repeat_n(e, k.unsigned_abs() as usize));
        }
        if !l.constant.is_zero() {
            num.push(exp(Term::real(l.constant.clone())));
        }
        let product = |xs: Vec<Term>| xs.into_iter().reduce(|a, b| a.mul(&b));
        let n = product(num).unwrap_or_else(|| Term::real(BigRational::one()));
        Some(match product(den) {
            Some(d) => n.rdiv(&d),
            None => n,
        })
    })
}

/// `t` with every exponential replaced by 1 (what `t` mentions outside exponentials).
pub(crate) fn without_exps(t: &Term) -> Term {
    map(t, &|x: &Term| {
        exp_arg(x).map(|_| Term::real(BigRational::one()))
    })
}

/// `x > 0` for every exponential `x` in `terms`.
pub(crate) fn positive_facts<'a>(terms: impl IntoIterator<Item = &'a Term>) -> Vec<Term> {
    let mut seen = BTreeMap::new();
    for t in terms {
        for c in t.calls() {
            if exp_arg(&c).is_some() {
                seen.entry(c.smt()).or_insert(c);
            }
        }
    }
    let zero = Term::real(BigRational::zero());
    seen.into_values().map(|c| zero.lt(&c)).collect()
}

/// True when `t` is a product or quotient of exponentials and positive constants (so it is
/// positive).
pub(crate) fn positive(t: &Term) -> bool {
    if exp_arg(t).is_some() {
        return true;
    }
    if let Some(c) = constant(t) {
        return c.is_positive();
    }
    match t.as_app() {
        Some((Op::Mul | Op::RDiv, [a, b])) => positive(a) && positive(b),
        Some((Op::Add, [a, b])) => positive(a) && positive(b),
        _ => false,
    }
}

/// Rewrites `t` bottom-up: `f` replaces a node (its children already rewritten) or keeps it.
fn map(t: &Term, f: &dyn Fn(&Term) -> Option<Term>) -> Term {
    let rebuilt = match t.node() {
        Node::App(op, args, _) => {
            let new: Vec<Term> = args.iter().map(|a| map(a, f)).collect();
            if new.iter().zip(args).all(|(a, b)| a.same(b)) {
                t.clone()
            } else {
                Term::app(*op, &new).unwrap_or_else(|| t.clone())
            }
        }
        Node::Call(s, args) => {
            let new: Vec<Term> = args.iter().map(|a| map(a, f)).collect();
            Term::call(FSym::clone(s), new)
        }
        _ => t.clone(),
    };
    f(&rebuilt).unwrap_or(rebuilt)
}

/// Whether a real term is finite when the symbol `m` is `−∞` and every other symbol finite.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ext {
    NegInf,
    Finite,
    Unknown,
}

fn ext(t: &Term, m: &str) -> Ext {
    if !t.mentions(m) {
        return Ext::Finite;
    }
    if t.as_sym().is_some_and(|s| &*s.name == m) {
        return Ext::NegInf;
    }
    match t.as_app() {
        Some((Op::Ite, [c, a, b])) => {
            let (x, y) = (ext(a, m), ext(b, m));
            match holds(c, m) {
                Some(true) => x,
                Some(false) => y,
                None if x == y => x,
                None => Ext::Unknown,
            }
        }
        _ => Ext::Unknown,
    }
}

/// The truth of a condition when `m` is `−∞`, where it is decided.
fn holds(c: &Term, m: &str) -> Option<bool> {
    match c.as_app()? {
        (Op::Not, [x]) => holds(x, m).map(|b| !b),
        (op @ (Op::Lt | Op::Le), [a, b]) => match (ext(a, m), ext(b, m)) {
            (Ext::NegInf, Ext::Finite) => Some(true),
            (Ext::Finite, Ext::NegInf) => Some(false),
            (Ext::NegInf, Ext::NegInf) => Some(op == Op::Le),
            _ => None,
        },
        _ => None,
    }
}

/// True when `t` is certainly finite where the symbol named `m` is `−∞` (a running maximum
/// grown from `−∞` by comparisons with finite values).
pub(crate) fn finite_from_neg_inf(t: &Term, m: &str) -> bool {
    ext(t, m) == Ext::Finite
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::sym;

    fn r(name: &str) -> Term {
        sym(name, Sort::Real)
    }

    #[test]
    fn shift_cancels_the_running_maximum() {
        let (s, m, mn, v) = (r("s"), r("m"), r("mn"), r("v"));
        let new = s.mul(&exp(m.sub(&mn))).add(&exp(v.sub(&mn)));
        let (t, cancelled) = shift(&new, &mn).expect("shifts");
        assert!(cancelled);
        assert_eq!(t, s.mul(&exp(m.clone())).add(&exp(v)));
        assert!(shift(&s, &mn).is_none());
    }

    #[test]
    fn split_writes_products_and_quotients() {
        let (a, b) = (r("a"), r("b"));
        let t = split(&exp(a.sub(&b)));
        assert_eq!(t, exp(a).rdiv(&exp(b)));
        let c = r("c");
        assert_eq!(split(&exp(c.clone())), exp(c));
    }

    #[test]
    fn a_maximum_grown_from_minus_infinity_is_finite() {
        let (m, v) = (r("m"), r("v"));
        let grown = Term::ite(&v.le(&m), &m, &v);
        assert!(finite_from_neg_inf(&grown, "m"));
        let kept = Term::ite(&m.le(&v), &m, &v);
        assert!(!finite_from_neg_inf(&kept, "m"));
    }
}
