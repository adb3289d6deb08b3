//! Canonical 0/1 conditions: what a branch on input data tests, written so that the same
//! condition spelled differently (`c >= 0 && c < 16`, `!(c < 0 || c > 15)`, nested `if`s) is the
//! same term, and a merge `cond ? new : old` meets the other kernel's.
//!
//! Negations are pushed to the comparisons (De Morgan; C's `a && b` and `a || b`, computed as
//! selects, become conjunctions and disjunctions); a comparison of integers with a constant is
//! `x <= k`, `k <= x` or `x == k` (`x < k` is `x <= k - 1`, `!(x <= k)` is `k + 1 <= x`);
//! conjunctions and disjunctions are flattened, deduplicated and ordered by a hash of their
//! shape (names, constants, operators), which does not depend on the order terms were built.
//! Every rewrite is an identity on the values the terms can take (integers for the integer
//! rules), so a condition built here means what the program's did.

use warpsafe_algebra::{rat_to_i128, Cmp, FxHashMap, IntOp, Node, Store, TermId};

/// Deepest nesting rewritten (deeper parts are kept as they are).
const MAX_DEPTH: u32 = 32;

/// Most nodes one rewrite visits (the rest is kept as it is): conditions are small, and a merge
/// must not walk a long chain of earlier merges again.
const MAX_NODES: u32 = 512;

/// One rewrite's memo and budget.
#[derive(Default)]
struct Walk {
    memo: FxHashMap<(TermId, bool), TermId>,
    visited: u32,
}

/// Depth of the shape hash (deeper parts hash alike; ties keep build order).
const SHAPE_DEPTH: u32 = 6;

/// `c` in canonical form.
pub(crate) fn canonical(store: &mut Store, c: TermId) -> TermId {
    canon(store, &mut Walk::default(), c, true, 0)
}

/// `!c` in canonical form.
pub(crate) fn negation(store: &mut Store, c: TermId) -> TermId {
    canon(store, &mut Walk::default(), c, false, 0)
}

/// The conjunction of `items`, flattened and ordered.
pub(crate) fn conj(store: &mut Store, items: &[TermId]) -> TermId {
    junction(store, items, true)
}

/// True when `c`'s negation is not simply `!c`: an order comparison, an equality of integers, a
/// conjunction or a disjunction (whose canonical negations are rewritten terms).
pub(crate) fn has_rewritten_negation(store: &Store, c: TermId) -> bool {
    match *store.node(c) {
        Node::And(..) | Node::Or(..) => true,
        Node::Cmp(Cmp::Lt | Cmp::Le, ..) => true,
        Node::Cmp(_, a, b) => integer(store, a) && integer(store, b),
        _ => false,
    }
}

/// A hash of `t`'s shape down to [`SHAPE_DEPTH`]: operators, constants and symbol names, never
/// term ids, so two stores that built the same term give it the same hash.
pub(crate) fn shape(store: &Store, t: TermId) -> u64 {
    shape_in(store, t, 0)
}

fn shape_in(store: &Store, t: TermId, depth: u32) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = warpsafe_algebra::FxHasher::default();
    let node = store.node(t);
    std::mem::discriminant(node).hash(&mut h);
    match *node {
        Node::Const(_) => {
            if let Some(q) = store.as_const(t) {
                q.numer().hash(&mut h);
                q.denom().hash(&mut h);
            }
        }
        Node::Sym(s) => {
            let info = store.sym(s);
            info.name.hash(&mut h);
            info.index.hash(&mut h);
        }
        Node::Inf(s) => s.hash(&mut h),
        Node::Opaque(n) => n.hash(&mut h),
        Node::Fn(f, _) => f.hash(&mut h),
        Node::Fn2(f, ..) => f.hash(&mut h),
        Node::Cmp(op, ..) => op.hash(&mut h),
        Node::Int(op, bits, signed, ..) => (op, bits, signed).hash(&mut h),
        _ => {}
    }
    if depth < SHAPE_DEPTH {
        for &k in node.children().iter() {
            shape_in(store, k, depth + 1).hash(&mut h);
        }
    }
    h.finish()
}

/// True when `t` always denotes an integer: a machine-integer operation or an integer constant.
fn integer(store: &Store, t: TermId) -> bool {
    match store.node(t) {
        Node::Int(..) => true,
        Node::Const(_) => store.as_const(t).is_some_and(|q| q.is_integer()),
        _ => false,
    }
}

fn int_const(store: &Store, t: TermId) -> Option<i128> {
    store.as_const(t).and_then(rat_to_i128)
}

/// The known value of `x` where `c` is `c_holds`, if `x` is `c`, its negation (`!c`, or the
/// canonical one) or a 0/1 constant.
fn value_under(store: &mut Store, x: TermId, c: TermId, c_holds: bool) -> Option<bool> {
    if x == c {
        return Some(c_holds);
    }
    if matches!(*store.node(x), Node::Not(y) if y == c) {
        return Some(!c_holds);
    }
    match int_const(store, x) {
        Some(0) => return Some(false),
        Some(1) => return Some(true),
        _ => {}
    }
    if let Node::Cmp(op, a, b) = *store.node(c) {
        if literal(store, op, a, b, false) == x {
            return Some(!c_holds);
        }
    }
    None
}

/// `c` (when `pos`) or `!c`, canonical.
fn canon(store: &mut Store, w: &mut Walk, c: TermId, pos: bool, depth: u32) -> TermId {
    if let Some(&t) = w.memo.get(&(c, pos)) {
        return t;
    }
    w.visited += 1;
    let t = if depth > MAX_DEPTH || w.visited > MAX_NODES {
        if pos {
            c
        } else {
            store.not(c)
        }
    } else {
        rewrite(store, w, c, pos, depth + 1)
    };
    w.memo.insert((c, pos), t);
    t
}

fn rewrite(store: &mut Store, w: &mut Walk, c: TermId, pos: bool, d: u32) -> TermId {
    match *store.node(c) {
        Node::Not(x) => canon(store, w, x, !pos, d),
        Node::Cmp(op, a, b) => literal(store, op, a, b, pos),
        Node::And(a, b) | Node::Int(IntOp::And, 1, _, a, b) => {
            let items = [canon(store, w, a, pos, d), canon(store, w, b, pos, d)];
            junction(store, &items, pos)
        }
        Node::Or(a, b) | Node::Int(IntOp::Or, 1, _, a, b) => {
            let items = [canon(store, w, a, pos, d), canon(store, w, b, pos, d)];
            junction(store, &items, !pos)
        }
        Node::Select(s, a, b) => {
            // `s ? a : b` is `s || b` when `a` is true under `s`, `!s && b` when false; `s && a`
            // when `b` is false under `!s`, `!s || a` when true.
            let (other, s_pos, and) = if let Some(v) = value_under(store, a, s, true) {
                (b, v, !v)
            } else if let Some(v) = value_under(store, b, s, false) {
                (a, !v, !v)
            } else {
                let cs = canon(store, w, s, true, d);
                let ca = canon(store, w, a, true, d);
                let cb = canon(store, w, b, true, d);
                let t = store.select(cs, ca, cb);
                return if pos { t } else { store.not(t) };
            };
            // (s == s_pos) and/or other, negated when !pos (De Morgan).
            let x = canon(store, w, s, s_pos == pos, d);
            let y = canon(store, w, other, pos, d);
            junction(store, &[x, y], and == pos)
        }
        _ => {
            if pos {
                c
            } else {
                store.not(c)
            }
        }
    }
}

/// `a op b` (when `pos`) or its negation, canonical.
fn literal(store: &mut Store, op: Cmp, a: TermId, b: TermId, pos: bool) -> TermId {
    if !(integer(store, a) && integer(store, b)) {
        // Over the reals (floats are reals here), !(a < b) is b <= a and !(a <= b) is b < a.
        return match (op, pos) {
            (Cmp::Lt, false) => store.cmp(Cmp::Le, b, a),
            (Cmp::Le, false) => store.cmp(Cmp::Lt, b, a),
            (op, true) => store.cmp(op, a, b),
            (op, false) => {
                let t = store.cmp(op, a, b);
                store.not(t)
            }
        };
    }
    // Over the integers too; and `a < k` is `a <= k - 1`.
    let (op, a, b) = match (op, pos) {
        (Cmp::Lt, false) => (Cmp::Le, b, a),
        (Cmp::Le, false) => (Cmp::Lt, b, a),
        (Cmp::Eq, false) => (Cmp::Ne, a, b),
        (Cmp::Ne, false) => (Cmp::Eq, a, b),
        (op, true) => (op, a, b),
    };
    let (ka, kb) = (int_const(store, a), int_const(store, b));
    match op {
        Cmp::Lt => match (ka, kb) {
            (None, Some(k)) if k > i64::MIN as i128 => {
                let k1 = store.int((k - 1) as i64);
                store.cmp(Cmp::Le, a, k1)
            }
            (Some(k), None) if k < i64::MAX as i128 => {
                let k1 = store.int((k + 1) as i64);
                store.cmp(Cmp::Le, k1, b)
            }
            _ => store.cmp(Cmp::Lt, a, b),
        },
        Cmp::Le => store.cmp(Cmp::Le, a, b),
        Cmp::Eq | Cmp::Ne => {
            let (a, b) = if ka.is_some() && kb.is_none() {
                (b, a)
            } else {
                (a, b)
            };
            let eq = store.cmp(Cmp::Eq, a, b);
            if op == Cmp::Eq {
                eq
            } else {
                store.not(eq)
            }
        }
    }
}

/// The conjunction (`and`) or disjunction of `items`: flattened, constants folded,
/// deduplicated, ordered by shape.
fn junction(store: &mut Store, items: &[TermId], and: bool) -> TermId {
    let mut flat = Vec::new();
    let mut stack: Vec<TermId> = items.to_vec();
    while let Some(x) = stack.pop() {
        match (*store.node(x), and) {
            (Node::And(p, q), true) | (Node::Or(p, q), false) => {
                stack.push(p);
                stack.push(q);
            }
            _ => match int_const(store, x) {
                // The neutral element drops out; the absorbing one decides.
                Some(v) if (v != 0) == and => {}
                Some(_) => return x,
                None => flat.push(x),
            },
        }
    }
    let mut keyed: Vec<(u64, TermId)> = flat.into_iter().map(|x| (shape(store, x), x)).collect();
    keyed.sort_unstable();
    keyed.dedup_by_key(|k| k.1);
    let mut acc: Option<TermId> = None;
    for (_, x) in keyed {
        acc = Some(match acc {
            None => x,
            Some(a) if and => store.and(a, x),
            Some(a) => store.or(a, x),
        });
    }
    acc.unwrap_or_else(|| store.int(and as i64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int_symbol(s: &mut Store, name: &str) -> TermId {
        let x = s.symbol(name, Some(0), true);
        s.int_op(IntOp::Wrap, 32, true, x, x)
    }

    #[test]
    fn a_range_check_written_three_ways_is_one_term() {
        let mut s = Store::new();
        let p = int_symbol(&mut s, "p");
        let (zero, fifteen, sixteen) = (s.int(0), s.int(15), s.int(16));
        // p >= 0 && p < 16, as C computes `&&`: (0 <= p) ? (p < 16) : (0 <= p).
        let ge0 = s.cmp(Cmp::Le, zero, p);
        let lt16 = s.cmp(Cmp::Lt, p, sixteen);
        let first = s.select(ge0, lt16, ge0);
        // !(p < 0) && !(p > 15): (p < 0) ? !(p < 0) : !(15 < p).
        let lt0 = s.cmp(Cmp::Lt, p, zero);
        let gt15 = s.cmp(Cmp::Lt, fifteen, p);
        let (nlt0, ngt15) = (s.not(lt0), s.not(gt15));
        let second = s.select(lt0, nlt0, ngt15);
        // !(p < 0 || p >= 16): !((p < 0) ? 1 : (16 <= p)).
        let one = s.int(1);
        let ge16 = s.cmp(Cmp::Le, sixteen, p);
        let or = s.select(lt0, one, ge16);
        let third = s.not(or);
        let (a, b, c) = (
            canonical(&mut s, first),
            canonical(&mut s, second),
            canonical(&mut s, third),
        );
        assert_eq!(a, b);
        assert_eq!(a, c);
        // Its negation is the disjunction of the flipped bounds, and back.
        let n = negation(&mut s, first);
        assert!(matches!(s.node(n), Node::Or(..)));
        assert_eq!(negation(&mut s, n), a);
    }

    #[test]
    fn real_comparisons_flip_but_keep_their_strictness() {
        let mut s = Store::new();
        let (x, y) = (s.symbol("x", None, false), s.symbol("y", None, false));
        let lt = s.cmp(Cmp::Lt, x, y);
        let n = negation(&mut s, lt);
        assert_eq!(n, s.cmp(Cmp::Le, y, x));
        let eq = s.cmp(Cmp::Eq, x, y);
        let ne = negation(&mut s, eq);
        assert_eq!(ne, s.not(eq));
        assert!(!has_rewritten_negation(&s, eq));
    }
}
