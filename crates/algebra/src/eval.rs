//! Evaluation of terms at concrete points: exact rationals where every operation is rational,
//! `f64` otherwise. Points come from a seeded [`Assignment`] keyed by symbol *names*, so the
//! same input gets the same value in every store.

use crate::fxhash::FxHashMap;
use crate::rat::{rat_func2, rat_int, rat_rint, rat_to_f64, rat_to_i128};
use crate::store::eval_int_op;
use crate::term::{Node, SymInfo, TermId};
use crate::Store;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

/// A deterministic pseudo-random value for every input symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// The seed; different seeds give independent points.
    pub seed: u64,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed bit that marks a wide point; bits 32..63 then hold the length its integers reach.
const WIDE: u64 = 1 << 63;

/// Largest length a wide seed can carry (31 bits).
const MAX_WIDE_LEN: u64 = (1 << 31) - 1;

/// The seed bit that marks a narrow point (with [`WIDE`] clear); bits 32..39 then hold its
/// shape: the level in bits 0..2, bit 3 set for a concentrated point. Ordinary seeds stay
/// below 2^62.
const NARROW: u64 = 1 << 62;

/// Binary exponents of the narrow levels 1..=4: spreads of `2^-4`, `2^-7`, `2^-10`, `2^-14`,
/// about `10^-1` to `10^-4`. Powers of two, so that a concentrated value `c + r·2^-e` is
/// exact in `f32` (at most 19 significant bits) and the interpreter reads the very point the
/// terms were evaluated at.
const NARROW_EXPONENTS: [u32; 4] = [4, 7, 10, 14];

/// How the reals of a narrow point are drawn ([`Assignment::narrow`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Narrow {
    /// Every real is its ordinary value times `2^-e`.
    Scaled,
    /// Every real of a buffer is a centre `c` (one per buffer name, `|c|` in `[1/8, 3]`)
    /// plus its ordinary value times `2^-e`.
    Concentrated,
}

impl Assignment {
    /// The point numbered `seed`.
    pub fn new(seed: u64) -> Assignment {
        Assignment { seed }
    }

    /// Point `n` of the wide points for buffers of `len` elements: integer symbols mostly
    /// take values in `[0, len)`, so that data used as an index can name any element (the
    /// small values of ordinary points only reach the first nine). The length lives in the
    /// seed, so the seed alone still names the point. `n` below 2^32; `len` is capped at 2^31 - 1.
    pub fn wide(len: u64, n: u32) -> Assignment {
        Assignment {
            seed: WIDE | (len.min(MAX_WIDE_LEN) << 32) | n as u64,
        }
    }

    /// The length a wide point's integers reach; `None` for an ordinary point.
    pub fn wide_len(&self) -> Option<u64> {
        (self.seed & WIDE != 0).then_some((self.seed >> 32) & MAX_WIDE_LEN)
    }

    /// Point `n` of the narrow points of `shape` at `level` (1 to 4, clamped): reals spread
    /// over about `10^-level` of their ordinary range, scaled towards zero or concentrated
    /// around a centre, so that terms which differ only by something small beside that spread
    /// (a dropped `epsilon` of a normalisation) differ by far more than float rounding.
    /// Integers are drawn as at ordinary points. The shape lives in the seed, so the seed
    /// alone still names the point. `n` below 2^32.
    pub fn narrow(shape: Narrow, level: u32, n: u32) -> Assignment {
        let level = level.clamp(1, NARROW_EXPONENTS.len() as u32) as u64;
        let conc = matches!(shape, Narrow::Concentrated) as u64;
        Assignment {
            seed: NARROW | ((level | conc << 3) << 32) | n as u64,
        }
    }

    /// The shape of a narrow point and the binary exponent of its spread; `None` for an
    /// ordinary or a wide point.
    pub fn narrow_shape(&self) -> Option<(Narrow, u32)> {
        if self.seed & WIDE != 0 || self.seed & NARROW == 0 {
            return None;
        }
        let bits = (self.seed >> 32) & 0xff;
        let level = (bits & 7).clamp(1, NARROW_EXPONENTS.len() as u64) as usize;
        let shape = if bits & 8 != 0 {
            Narrow::Concentrated
        } else {
            Narrow::Scaled
        };
        Some((shape, NARROW_EXPONENTS[level - 1]))
    }

    fn draw(&self, info: &SymInfo) -> u64 {
        let mut h = mix(self.seed ^ 0x5eed);
        for b in info.name.bytes() {
            h = mix(h ^ b as u64);
        }
        mix(h ^ info.index.map_or(u64::MAX, |i| i.wrapping_mul(0x1000_0001)))
    }

    /// The centre of buffer (or scalar) `name` at a concentrated point: `±j/8`, `j` in 1..=24.
    fn centre(&self, name: &str) -> BigRational {
        let mut h = mix(self.seed ^ 0xce47);
        for b in name.bytes() {
            h = mix(h ^ b as u64);
        }
        let j = (h % 24) as i64 + 1;
        let j = if (h >> 32) & 1 == 0 { j } else { -j };
        BigRational::new(BigInt::from(j), BigInt::from(8))
    }

    /// The exact value of a symbol: integers in [-8, 8], reals `k/8` in [-3, 3]. At a wide
    /// point of length `L` an integer is, by its draw, uniform in `[0, L)` (3 in 4), an edge
    /// of that range (`-1`, `0`, `1`, `L/2`, `L-1`, `L`: 1 in 8) or small as above (1 in 8).
    /// At a narrow point of spread `2^-e` a real is `k/8 · 2^-e` (scaled) or
    /// `c + k/8 · 2^-e` with `c` the centre of its buffer (concentrated).
    pub fn value(&self, info: &SymInfo) -> BigRational {
        let r = self.draw(info);
        if info.integer {
            let small = (r % 17) as i64 - 8;
            match self.wide_len() {
                Some(len) if len > 0 => {
                    let l = len as i64;
                    let pick = r >> 40;
                    rat_int(match r % 8 {
                        0 => small,
                        1 => [-1, 0, 1, l / 2, l - 1, l][(pick % 6) as usize],
                        _ => (pick % len) as i64,
                    })
                }
                _ => rat_int(small),
            }
        } else {
            let k = (r % 49) as i64 - 24;
            match self.narrow_shape() {
                None => BigRational::new(BigInt::from(k), BigInt::from(8)),
                Some((shape, e)) => {
                    let q = BigRational::new(BigInt::from(k), BigInt::from(8u64 << e));
                    match shape {
                        Narrow::Scaled => q,
                        Narrow::Concentrated => self.centre(&info.name) + q,
                    }
                }
            }
        }
    }
}

/// An exact value: a rational, an infinity or NaN.
#[derive(Clone, Debug, PartialEq)]
pub enum Exact {
    /// A rational number.
    Rat(BigRational),
    /// `+∞` (true) or `−∞`.
    Inf(bool),
    /// Not a number.
    NaN,
}

impl Exact {
    /// The nearest `f64`.
    pub fn to_f64(&self) -> f64 {
        match self {
            Exact::Rat(q) => rat_to_f64(q),
            Exact::Inf(true) => f64::INFINITY,
            Exact::Inf(false) => f64::NEG_INFINITY,
            Exact::NaN => f64::NAN,
        }
    }
}

/// Evaluates terms of one store at one point, memoising shared subterms across calls.
pub struct Evaluator<'s> {
    store: &'s Store,
    point: Assignment,
    exact: FxHashMap<TermId, Option<Exact>>,
    float: Vec<f64>,
    float_done: Vec<bool>,
}

impl<'s> Evaluator<'s> {
    /// An evaluator for `store` at `point`.
    pub fn new(store: &'s Store, point: Assignment) -> Evaluator<'s> {
        Evaluator {
            store,
            point,
            exact: FxHashMap::default(),
            float: vec![0.0; store.len()],
            float_done: vec![false; store.len()],
        }
    }

    /// The point evaluated at.
    pub fn point(&self) -> Assignment {
        self.point
    }

    /// The exact value of `t`, or `None` when it needs a transcendental function (or an
    /// opaque value).
    pub fn exact(&mut self, t: TermId) -> Option<Exact> {
        let mut stack = vec![t];
        while let Some(&x) = stack.last() {
            if self.exact.contains_key(&x) {
                stack.pop();
                continue;
            }
            let node = self.store.node(x);
            let kids = node.children();
            let before = stack.len();
            for &k in kids.iter() {
                if !self.exact.contains_key(&k) {
                    stack.push(k);
                }
            }
            if stack.len() > before {
                continue;
            }
            let vals: Option<Vec<Exact>> = kids.iter().map(|k| self.exact[k].clone()).collect();
            let v = vals.and_then(|v| self.exact_node(node, &v));
            self.exact.insert(x, v);
            stack.pop();
        }
        self.exact[&t].clone()
    }

    /// True when evaluating `t` exactly (after [`Evaluator::exact`] on `t`) divides by zero
    /// or produces a NaN somewhere (`0 · inf`, `inf − inf`): over the reals the term is
    /// undefined at this point, so the point separates nothing, whatever IEEE rules (`max`
    /// dropping a NaN) make of the result.
    pub fn undefined(&mut self, t: TermId) -> bool {
        let mut seen = FxHashMap::default();
        let mut stack = vec![t];
        while let Some(x) = stack.pop() {
            if seen.insert(x, ()).is_some() {
                continue;
            }
            if matches!(self.exact.get(&x), Some(Some(Exact::NaN))) {
                return true;
            }
            let node = self.store.node(x);
            let kids = node.children();
            if matches!(node, Node::Div(..)) {
                let zero = kids
                    .get(1)
                    .and_then(|d| self.exact.get(d))
                    .is_some_and(|v| matches!(v, Some(Exact::Rat(q)) if q.is_zero()));
                if zero {
                    return true;
                }
            }
            stack.extend(kids.iter().copied());
        }
        false
    }

    fn exact_node(&self, node: &Node, v: &[Exact]) -> Option<Exact> {
        use Exact::*;
        let r = |q: BigRational| Some(Rat(q));
        let b = |x: bool| Some(Rat(rat_int(x as i64)));
        let truth = |e: &Exact| match e {
            Rat(q) => Some(!q.is_zero()),
            Inf(_) | NaN => Some(true),
        };
        Some(match node {
            Node::Const(c) => Rat(self.store.constant_value(*c).clone()),
            Node::Inf(s) => Inf(*s),
            Node::NaN => NaN,
            Node::Sym(s) => Rat(self.point.value(self.store.sym(*s))),
            Node::Opaque(_) => return None,
            Node::Add(..) | Node::Sub(..) | Node::Mul(..) | Node::Div(..) => {
                let (x, y) = (v[0].to_f64(), v[1].to_f64());
                match (&v[0], &v[1]) {
                    (Rat(p), Rat(q)) => match node {
                        Node::Add(..) => Rat(p + q),
                        Node::Sub(..) => Rat(p - q),
                        Node::Mul(..) => Rat(p * q),
                        _ if q.is_zero() => {
                            if p.is_zero() {
                                NaN
                            } else {
                                Inf(p.is_positive())
                            }
                        }
                        _ => Rat(p / q),
                    },
                    _ => {
                        let f = match node {
                            Node::Add(..) => x + y,
                            Node::Sub(..) => x - y,
                            Node::Mul(..) => x * y,
                            _ => x / y,
                        };
                        from_special(f)?
                    }
                }
            }
            Node::Neg(_) => match &v[0] {
                Rat(q) => Rat(-q),
                Inf(s) => Inf(!s),
                NaN => NaN,
            },
            Node::Fn(f, _) => match (&v[0], f.is_rational()) {
                (Rat(q), true) => Rat(match f {
                    crate::Func::Abs => q.abs(),
                    crate::Func::Floor => q.floor(),
                    crate::Func::Ceil => q.ceil(),
                    crate::Func::Round => q.round(),
                    crate::Func::Rint => rat_rint(q),
                    _ => q.trunc(),
                }),
                _ => return None,
            },
            Node::Fn2(g, ..) => match (&v[0], &v[1]) {
                (NaN, _) | (_, NaN) if *g != crate::Func2::Copysign => NaN,
                (Rat(p), Rat(q)) if g.is_rational() => match rat_func2(*g, p, q) {
                    Some(r) => Rat(r),
                    None if q.is_zero() => NaN,
                    None => return None,
                },
                _ => return None,
            },
            Node::Pow(..) => match (&v[0], &v[1]) {
                (Rat(p), Rat(q)) => {
                    let n = rat_to_i128(q)?;
                    if n.abs() > 64 || (p.is_zero() && n < 0) {
                        return None;
                    }
                    Rat(num_traits::pow::Pow::pow(p, n as i32))
                }
                _ => return None,
            },
            Node::Max(..) | Node::Min(..) => {
                let is_max = matches!(node, Node::Max(..));
                match (&v[0], &v[1]) {
                    (NaN, o) | (o, NaN) => o.clone(),
                    _ => {
                        let a_ge = cmp_exact(&v[0], &v[1])? != std::cmp::Ordering::Less;
                        if a_ge == is_max {
                            v[0].clone()
                        } else {
                            v[1].clone()
                        }
                    }
                }
            }
            Node::Cmp(op, ..) => match cmp_exact(&v[0], &v[1]) {
                Some(o) => return b(op.holds(o)),
                None => return b(*op == crate::Cmp::Ne),
            },
            Node::Not(_) => return b(!truth(&v[0])?),
            Node::And(..) => return b(truth(&v[0])? && truth(&v[1])?),
            Node::Or(..) => return b(truth(&v[0])? || truth(&v[1])?),
            Node::Select(..) => {
                if truth(&v[0])? {
                    v[1].clone()
                } else {
                    v[2].clone()
                }
            }
            Node::Int(op, bits, signed, ..) => {
                let x = match &v[0] {
                    Rat(q) => rat_to_i128(q)?,
                    _ => return None,
                };
                let y = match &v[1] {
                    Rat(q) => rat_to_i128(q)?,
                    _ => return None,
                };
                return r(BigRational::from_integer(BigInt::from(eval_int_op(
                    *op, *bits, *signed, x, y,
                )?)));
            }
        })
    }

    /// The `f64` value of `t` (NaN where undefined).
    pub fn float(&mut self, t: TermId) -> f64 {
        if self.float_done.get(t.0 as usize).copied().unwrap_or(false) {
            return self.float[t.0 as usize];
        }
        let mut stack = vec![t];
        while let Some(&x) = stack.last() {
            let xi = x.0 as usize;
            if self.float_done[xi] {
                stack.pop();
                continue;
            }
            let node = self.store.node(x);
            let kids = node.children();
            let before = stack.len();
            for &k in kids.iter() {
                if !self.float_done[k.0 as usize] {
                    stack.push(k);
                }
            }
            if stack.len() > before {
                continue;
            }
            let mut v = [0.0f64; 3];
            for (slot, k) in v.iter_mut().zip(kids.iter()) {
                *slot = self.float[k.0 as usize];
            }
            let f = self.float_node(node, &v);
            self.float[xi] = f;
            self.float_done[xi] = true;
            stack.pop();
        }
        self.float[t.0 as usize]
    }

    fn float_node(&self, node: &Node, v: &[f64]) -> f64 {
        let b = |x: bool| x as u8 as f64;
        match node {
            Node::Const(c) => rat_to_f64(self.store.constant_value(*c)),
            Node::Inf(s) => {
                if *s {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                }
            }
            Node::NaN | Node::Opaque(_) => f64::NAN,
            Node::Sym(s) => rat_to_f64(&self.point.value(self.store.sym(*s))),
            Node::Add(..) => v[0] + v[1],
            Node::Sub(..) => v[0] - v[1],
            Node::Mul(..) => v[0] * v[1],
            Node::Div(..) => v[0] / v[1],
            Node::Neg(_) => -v[0],
            Node::Fn(f, _) => f.eval_f64(v[0]),
            Node::Fn2(g, ..) => g.eval_f64(v[0], v[1]),
            Node::Pow(..) => v[0].powf(v[1]),
            Node::Max(..) => v[0].max(v[1]),
            Node::Min(..) => v[0].min(v[1]),
            Node::Cmp(op, ..) => match v[0].partial_cmp(&v[1]) {
                Some(o) => b(op.holds(o)),
                None => b(*op == crate::Cmp::Ne),
            },
            Node::Not(_) => b(v[0] == 0.0),
            Node::And(..) => b(v[0] != 0.0 && v[1] != 0.0),
            Node::Or(..) => b(v[0] != 0.0 || v[1] != 0.0),
            Node::Select(..) => {
                if v[0] != 0.0 {
                    v[1]
                } else {
                    v[2]
                }
            }
            Node::Int(op, bits, signed, ..) => {
                if v[0].fract() != 0.0 || v[1].fract() != 0.0 || !v[0].is_finite() {
                    return f64::NAN;
                }
                eval_int_op(*op, *bits, *signed, v[0] as i128, v[1] as i128)
                    .map_or(f64::NAN, |r| r as f64)
            }
        }
    }
}

fn from_special(f: f64) -> Option<Exact> {
    if f.is_nan() {
        Some(Exact::NaN)
    } else if f.is_infinite() {
        Some(Exact::Inf(f > 0.0))
    } else {
        None
    }
}

fn cmp_exact(a: &Exact, b: &Exact) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering::*;
    use Exact::*;
    match (a, b) {
        (Rat(p), Rat(q)) => Some(p.cmp(q)),
        (Inf(x), Inf(y)) => Some(x.cmp(y)),
        (Inf(x), Rat(_)) => Some(if *x { Greater } else { Less }),
        (Rat(_), Inf(y)) => Some(if *y { Less } else { Greater }),
        _ => None,
    }
}
