//! The range of values an integer term can take, and what it is a multiple of, under the
//! comparisons a path condition asserts: enough to show that an address computed from input
//! data stays inside its buffer (`d[i] & 7`, or `x[j]` under `if (j >= 0 && j < n)`).
//!
//! Ranges are over the integers the terms denote (integer input symbols are wrapped into
//! their type when read, so `wrap` bounds them); a term this module cannot bound has no range,
//! and the caller must not assume anything of it.

use warpsafe_algebra::{rat_to_i128, Cmp, FxHashMap, IntOp, Node, Store, TermId};

/// A closed interval `[lo, hi]`.
pub(crate) type Range = (i128, i128);

/// Deepest term walked (index terms are small; a deeper one is left unbounded).
const MAX_DEPTH: u32 = 64;

/// Bounds the guard of a path asserts, per term: `j < 64` bounds `j` above by 63.
#[derive(Default)]
pub(crate) struct Facts {
    bounds: FxHashMap<TermId, Range>,
}

impl Facts {
    /// What `guard` (a 0/1 term, true on the path) asserts of its comparisons with constants.
    pub(crate) fn of(store: &Store, guard: Option<TermId>) -> Facts {
        let mut f = Facts::default();
        if let Some(g) = guard {
            f.assume(store, g, true, 0);
        }
        f.through_wraps(store);
        f
    }

    /// A bound on `wrap(x)` bounds `x` when `x` cannot have wrapped into it: an unsigned
    /// check `(unsigned)j < 64` (how compilers test `j >= 0 && j < 64`) bounds a `j` of the
    /// same width, signed or not, since a negative `j` reads as at least `2^(bits-1)`.
    fn through_wraps(&mut self, store: &Store) {
        let found: Vec<(TermId, Range)> = self.bounds.iter().map(|(&t, &r)| (t, r)).collect();
        for (t, (lo, hi)) in found {
            let Node::Int(IntOp::Wrap, bits, signed, x, _) = *store.node(t) else {
                continue;
            };
            let ty = type_range(bits, signed);
            let (lo, hi) = (lo.max(ty.0), hi.min(ty.1));
            let half = 1i128 << (bits.min(126) - 1);
            // Values of `x` that `wrap` keeps as they are, and those that read alike in both
            // signednesses of the width.
            let safe = if signed {
                ty
            } else if hi < half {
                (-half, ty.1)
            } else {
                ty
            };
            let Some(r) = range(store, x, &Facts::default()) else {
                continue;
            };
            if inside(r, safe) && (signed || hi < half || r.0 >= 0) {
                let e = self.bounds.entry(x).or_insert((i128::MIN, i128::MAX));
                *e = (e.0.max(lo), e.1.min(hi));
            }
        }
    }

    /// Records what `c` being `holds` says.
    fn assume(&mut self, store: &Store, c: TermId, holds: bool, depth: u32) {
        if depth > MAX_DEPTH {
            return;
        }
        match *store.node(c) {
            Node::Not(x) => self.assume(store, x, !holds, depth + 1),
            Node::And(a, b) | Node::Int(IntOp::And, 1, _, a, b) if holds => {
                self.assume(store, a, true, depth + 1);
                self.assume(store, b, true, depth + 1);
            }
            Node::Or(a, b) | Node::Int(IntOp::Or, 1, _, a, b) if !holds => {
                self.assume(store, a, false, depth + 1);
                self.assume(store, b, false, depth + 1);
            }
            // `a && b` as C computes it is `a ? b : a` (or `a ? b : 0`, or `!a ? … `), `a || b`
            // is `a ? a : b`: when one side of the select cannot give `holds`, the other
            // side's condition holds too.
            Node::Select(c, a, b) => {
                let value_under = |x: TermId, c_holds: bool| -> Option<bool> {
                    if x == c {
                        return Some(c_holds);
                    }
                    if matches!(*store.node(x), Node::Not(y) if y == c) {
                        return Some(!c_holds);
                    }
                    constant(store, x).and_then(|v| match v {
                        0 => Some(false),
                        1 => Some(true),
                        _ => None,
                    })
                };
                if value_under(a, true).is_some_and(|v| v != holds) {
                    self.assume(store, c, false, depth + 1);
                    self.assume(store, b, holds, depth + 1);
                } else if value_under(b, false).is_some_and(|v| v != holds) {
                    self.assume(store, c, true, depth + 1);
                    self.assume(store, a, holds, depth + 1);
                }
            }
            Node::Cmp(op, a, b) => self.compare(store, op, a, b, holds),
            _ => {}
        }
    }

    /// Records `a op b` (or its negation) where one side is a constant.
    fn compare(&mut self, store: &Store, op: Cmp, a: TermId, b: TermId, holds: bool) {
        let (ca, cb) = (constant(store, a), constant(store, b));
        // As `x op' c` with the constant on the right.
        let (x, op, c, flipped) = match (ca, cb) {
            (None, Some(c)) => (a, op, c, false),
            (Some(c), None) => (b, op, c, true),
            _ => return,
        };
        // `x < c`, `x <= c`, `x == c`, `x != c` (or `c < x`, … when flipped), then negated.
        let bound = match (op, flipped, holds) {
            (Cmp::Lt, false, true) | (Cmp::Le, true, false) => (i128::MIN, c - 1),
            (Cmp::Le, false, true) | (Cmp::Lt, true, false) => (i128::MIN, c),
            (Cmp::Lt, true, true) | (Cmp::Le, false, false) => (c + 1, i128::MAX),
            (Cmp::Le, true, true) | (Cmp::Lt, false, false) => (c, i128::MAX),
            (Cmp::Eq, _, true) | (Cmp::Ne, _, false) => (c, c),
            _ => return,
        };
        let e = self.bounds.entry(x).or_insert((i128::MIN, i128::MAX));
        *e = (e.0.max(bound.0), e.1.min(bound.1));
    }
}

/// The integer value of a constant term.
fn constant(store: &Store, t: TermId) -> Option<i128> {
    store.as_const(t).and_then(rat_to_i128)
}

/// Every value of a `bits`-bit integer type.
fn type_range(bits: u8, signed: bool) -> Range {
    let bits = bits.min(127) as u32;
    if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

fn inside(r: Range, outer: Range) -> bool {
    r.0 >= outer.0 && r.1 <= outer.1
}

/// The range of `t` under `facts`, if this module can bound it.
pub(crate) fn range(store: &Store, t: TermId, facts: &Facts) -> Option<Range> {
    let mut memo = FxHashMap::default();
    range_in(store, t, facts, &mut memo, 0)
}

fn range_in(
    store: &Store,
    t: TermId,
    facts: &Facts,
    memo: &mut FxHashMap<TermId, Option<Range>>,
    depth: u32,
) -> Option<Range> {
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    let r = if depth > MAX_DEPTH {
        None
    } else {
        let mut sub = |x: TermId| range_in(store, x, facts, memo, depth + 1);
        structural(store, t, &mut sub)
    };
    // A guard's bound holds on the path whatever the term's own shape says.
    let r = match (r, facts.bounds.get(&t)) {
        (Some((lo, hi)), Some(&(a, b))) => Some((lo.max(a), hi.min(b))),
        (None, Some(&(a, b))) if a > i128::MIN && b < i128::MAX => Some((a, b)),
        (r, _) => r,
    };
    memo.insert(t, r);
    r
}

/// The range of `t` from its operands' ranges (`sub`).
fn structural(
    store: &Store,
    t: TermId,
    sub: &mut dyn FnMut(TermId) -> Option<Range>,
) -> Option<Range> {
    match *store.node(t) {
        Node::Const(_) => constant(store, t).map(|c| (c, c)),
        Node::Add(a, b) => {
            let (x, y) = (sub(a)?, sub(b)?);
            Some((x.0.checked_add(y.0)?, x.1.checked_add(y.1)?))
        }
        Node::Sub(a, b) => {
            let (x, y) = (sub(a)?, sub(b)?);
            Some((x.0.checked_sub(y.1)?, x.1.checked_sub(y.0)?))
        }
        Node::Neg(a) => {
            let x = sub(a)?;
            Some((x.1.checked_neg()?, x.0.checked_neg()?))
        }
        Node::Mul(a, b) => {
            let (x, y) = (sub(a)?, sub(b)?);
            let ps = [
                x.0.checked_mul(y.0)?,
                x.0.checked_mul(y.1)?,
                x.1.checked_mul(y.0)?,
                x.1.checked_mul(y.1)?,
            ];
            Some((*ps.iter().min()?, *ps.iter().max()?))
        }
        Node::Max(a, b) => {
            let (x, y) = (sub(a)?, sub(b)?);
            Some((x.0.max(y.0), x.1.max(y.1)))
        }
        Node::Min(a, b) => {
            let (x, y) = (sub(a)?, sub(b)?);
            Some((x.0.min(y.0), x.1.min(y.1)))
        }
        Node::Select(_, a, b) => {
            let (x, y) = (sub(a)?, sub(b)?);
            Some((x.0.min(y.0), x.1.max(y.1)))
        }
        Node::Cmp(..) | Node::Not(_) | Node::And(..) | Node::Or(..) => Some((0, 1)),
        Node::Int(op, bits, signed, a, b) => int_range(op, bits, signed, sub(a), sub(b)),
        _ => None,
    }
}

/// The range of a machine-integer operation from its operands' ranges (`x`, `y`).
fn int_range(
    op: IntOp,
    bits: u8,
    signed: bool,
    x: Option<Range>,
    y: Option<Range>,
) -> Option<Range> {
    let ty = type_range(bits, signed);
    let fits = |r: Option<Range>| r.filter(|&r| inside(r, ty));
    let nonneg = |r: Option<Range>| fits(r).filter(|r| r.0 >= 0);
    let r = match op {
        IntOp::Wrap => fits(x),
        IntOp::And => match (nonneg(x), nonneg(y)) {
            (Some(a), Some(b)) => Some((0, a.1.min(b.1))),
            (Some(a), None) | (None, Some(a)) => Some((0, a.1)),
            (None, None) => None,
        },
        IntOp::Or | IntOp::Xor => match (nonneg(x), nonneg(y)) {
            (Some(a), Some(b)) => {
                let top = a.1.max(b.1).max(1) as u128;
                let mask = u128::MAX >> top.leading_zeros();
                Some((0, mask as i128))
            }
            _ => None,
        },
        IntOp::Rem => match (fits(x), fits(y)) {
            (Some(a), Some(b)) if b.0 > 0 => {
                let m = b.1 - 1;
                if a.0 >= 0 {
                    Some((0, m.min(a.1)))
                } else if signed {
                    Some((-m, m))
                } else {
                    Some((0, m))
                }
            }
            _ => None,
        },
        IntOp::Div => match (nonneg(x), fits(y)) {
            (Some(a), Some(b)) if b.0 > 0 => Some((a.0 / b.1, a.1 / b.0)),
            _ => None,
        },
        IntOp::Shr => match (nonneg(x), fits(y)) {
            (Some(a), Some((s, t))) if s == t && s >= 0 && s < bits as i128 => {
                Some((a.0 >> s, a.1 >> s))
            }
            _ => None,
        },
        IntOp::Shl => match (fits(x), fits(y)) {
            (Some(a), Some((s, t))) if s == t && s >= 0 && s < bits as i128 => {
                Some((a.0.checked_mul(1 << s)?, a.1.checked_mul(1 << s)?))
            }
            _ => None,
        },
    };
    // What does not provably fit the type wraps somewhere in it.
    Some(fits(r).unwrap_or(ty))
}

/// A number `t` is always a multiple of (0 when `t` is always 0): how an address is known to be
/// aligned to its element size.
pub(crate) fn multiple(store: &Store, t: TermId) -> i128 {
    multiple_in(store, t, 0)
}

fn multiple_in(store: &Store, t: TermId, depth: u32) -> i128 {
    if depth > MAX_DEPTH {
        return 1;
    }
    let m = |x: TermId| multiple_in(store, x, depth + 1);
    match *store.node(t) {
        Node::Const(_) => constant(store, t).map_or(1, |c| c.checked_abs().unwrap_or(1)),
        Node::Add(a, b) | Node::Sub(a, b) => gcd(m(a), m(b)),
        Node::Neg(a) => m(a),
        Node::Mul(a, b) => m(a).checked_mul(m(b)).unwrap_or(1),
        Node::Select(_, a, b) => gcd(m(a), m(b)),
        // Wrapping subtracts a multiple of 2^bits; so does a shift out of the type; `x & y`
        // has only bits that both have.
        Node::Int(op, bits, _, a, b) => {
            let modulus = 1i128 << bits.min(126);
            let r = match op {
                IntOp::Wrap => m(a),
                IntOp::Shl => match constant(store, b) {
                    Some(s) if (0..bits as i128).contains(&s) => {
                        m(a).checked_mul(1 << s).unwrap_or(1 << s)
                    }
                    _ => 1,
                },
                IntOp::And => two_power(m(a)).max(two_power(m(b))),
                _ => 1,
            };
            gcd(r, modulus)
        }
        _ => 1,
    }
}

/// The largest power of two dividing `m` (every power for 0: capped at 2^126).
fn two_power(m: i128) -> i128 {
    if m == 0 {
        1 << 126
    } else {
        1 << m.trailing_zeros().min(126)
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrapped_symbol(s: &mut Store, name: &str) -> TermId {
        let x = s.symbol(name, Some(0), true);
        s.int_op(IntOp::Wrap, 32, true, x, x)
    }

    #[test]
    fn a_mask_bounds_an_index_and_scaling_keeps_alignment() {
        let mut s = Store::new();
        let d = wrapped_symbol(&mut s, "d");
        let seven = s.int(7);
        let b = s.int_op(IntOp::And, 32, true, d, seven);
        let four = s.int(4);
        let off = s.mul(b, four);
        assert_eq!(range(&s, off, &Facts::default()), Some((0, 28)));
        assert_eq!(multiple(&s, off) % 4, 0);
        assert_eq!(range(&s, d, &Facts::default()), Some(type_range(32, true)));
    }

    #[test]
    fn an_unsigned_check_bounds_a_signed_index_and_masks_keep_alignment() {
        let mut s = Store::new();
        let j = wrapped_symbol(&mut s, "idx");
        let u = s.int_op(IntOp::Wrap, 32, false, j, j);
        let k = s.int(63);
        let le = s.cmp(Cmp::Le, u, k);
        let four = s.int(4);
        let off = s.mul(j, four);
        assert_eq!(range(&s, off, &Facts::of(&s, Some(le))), Some((0, 252)));
        // A signed check of the same kind does not bound below.
        let signed = s.cmp(Cmp::Le, j, k);
        assert!(range(&s, off, &Facts::of(&s, Some(signed))).is_some_and(|r| r.0 < 0));
        // (d << 2) & 28, NVRTC's form of 4 * (d & 7).
        let two = s.int(2);
        let sh = s.int_op(IntOp::Shl, 32, true, j, two);
        let mask = s.int(28);
        let a = s.int_op(IntOp::And, 32, true, sh, mask);
        assert_eq!(range(&s, a, &Facts::default()), Some((0, 28)));
        assert_eq!(multiple(&s, a) % 4, 0);
        let w = s.int_op(IntOp::Wrap, 64, true, a, a);
        assert_eq!(multiple(&s, w) % 4, 0);
        // Masking an aligned value keeps it aligned; masking any value with an odd mask not.
        let odd = s.int(29);
        let b = s.int_op(IntOp::And, 32, true, sh, odd);
        assert_eq!(multiple(&s, b) % 4, 0);
        let c = s.int_op(IntOp::And, 32, true, j, odd);
        assert_ne!(multiple(&s, c) % 4, 0);
    }

    #[test]
    fn a_guard_bounds_what_it_compares() {
        let mut s = Store::new();
        let j = wrapped_symbol(&mut s, "idx");
        let (zero, n) = (s.int(0), s.int(64));
        let ge = s.cmp(Cmp::Le, zero, j);
        let lt = s.cmp(Cmp::Lt, j, n);
        let g = s.and(ge, lt);
        let four = s.int(4);
        let off = s.mul(j, four);
        assert_eq!(range(&s, off, &Facts::of(&s, Some(g))), Some((0, 252)));
        // Only one side: not bounded below.
        let lo = range(&s, off, &Facts::of(&s, Some(lt))).map(|r| r.0);
        assert!(lo.is_some_and(|lo| lo < 0));
        // `!(j >= 64)` bounds above too.
        let ge64 = s.cmp(Cmp::Le, n, j);
        let not = s.not(ge64);
        let g2 = s.and(ge, not);
        assert_eq!(range(&s, j, &Facts::of(&s, Some(g2))), Some((0, 63)));
    }
}
