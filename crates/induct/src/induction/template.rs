//! Candidate shapes of a shared cell's summary at a barrier-loop head, as functions of the
//! cell index `c`, the loop variable `v` and the block size `N`; each has a concrete
//! evaluator (for fitting) and a term encoding (for the proof).

use super::term::{bv, T};
use crate::summary::Summary;
use serde::Serialize;

/// A family of cell summaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "shape")]
pub enum Template {
    /// Every cell `c < N`: `[max(0, c - a·v + b), c]` (Kogge–Stone: `a = 1, b = 1`).
    Prefix {
        /// Coefficient of the loop variable.
        a: i64,
        /// Constant.
        b: i64,
    },
    /// Cells `c < m`, `m = max(1, a·v)`: the inputs `c, c + m, c + 2m, … < N` (tree
    /// reduction with sequential addressing).
    Strided {
        /// Coefficient of the loop variable.
        a: i64,
    },
    /// Every cell: `[c + 1 - min(lowbit(c + 1), a·v), c]` (Blelloch up-sweep).
    LowbitPrefix {
        /// Coefficient of the loop variable.
        a: i64,
    },
    /// With `m = max(1, a·v)`: cells with `m | c + 1` hold `[0, c - m]`, the others
    /// `[c + 1 - lowbit(c + 1), c]` (Blelloch down-sweep).
    DownSweep {
        /// Coefficient of the loop variable.
        a: i64,
    },
}

/// Every template tried, most specific first.
pub fn candidates() -> Vec<Template> {
    let mut out = vec![];
    for a in [1, 2] {
        out.push(Template::LowbitPrefix { a });
        out.push(Template::DownSweep { a });
        out.push(Template::Strided { a });
    }
    for a in [0, 1, 2] {
        for b in [0, 1, 2] {
            out.push(Template::Prefix { a, b });
        }
    }
    out
}

fn lowbit(x: i64) -> i64 {
    x & x.wrapping_neg()
}

impl Template {
    /// The summary the template gives cell `c` (`None` where it leaves the cell free).
    pub fn eval(self, c: i64, v: i64, n: i64) -> Option<Summary> {
        if c < 0 || c >= n {
            return None;
        }
        let iv = |lo: i64, hi: i64| {
            if hi < lo {
                Summary::EMPTY
            } else {
                Summary::interval(lo as u32, hi)
            }
        };
        match self {
            Template::Prefix { a, b } => Some(iv((c - a * v + b).max(0), c)),
            Template::Strided { a } => {
                let m = (a * v).max(1);
                (c < m).then(|| {
                    let count = (n - c + m - 1) / m;
                    if count <= 1 {
                        iv(c, c + count - 1)
                    } else {
                        Summary {
                            start: c as u32,
                            step: m as u32,
                            count: count as u32,
                        }
                    }
                })
            }
            Template::LowbitPrefix { a } => Some(iv(c + 1 - lowbit(c + 1).min(a * v), c)),
            Template::DownSweep { a } => {
                let m = (a * v).max(1);
                if (c + 1) % m == 0 {
                    Some(iv(0, c - m))
                } else {
                    Some(iv(c + 1 - lowbit(c + 1), c))
                }
            }
        }
    }

    /// The encoding over 32-bit vector terms `c`, `v`, `n`: (is the cell constrained,
    /// start, step, count).
    pub fn smt(self, c: &T, v: &T, n: &T) -> [T; 4] {
        let (zero, one) = (bv(0), bv(1));
        let max0 = |e: T| T::ite(&e.slt(&zero), &zero, &e);
        let av = |a: i64| bv(a).mul(v);
        let inside = zero.sle(c).and(&c.slt(n));
        let c1 = c.add(&one);
        let lowbit = c1.bvand(&c1.neg());
        // An interval [lo, hi]: count = max(0, hi - lo + 1).
        let iv = |lo: T, hi: &T| {
            let cnt = max0(hi.sub(&lo).add(&one));
            [lo, one.clone(), cnt]
        };
        // max(1, a·v)
        let at_least_one = |a: i64| T::ite(&av(a).slt(&one), &one, &av(a));
        let (cond, [start, step, count]) = match self {
            Template::Prefix { a, b } => {
                let lo = max0(c.sub(&av(a)).add(&bv(b)));
                (inside, iv(lo, c))
            }
            Template::Strided { a } => {
                let m = at_least_one(a);
                let count = n.sub(c).add(&m).sub(&one).udiv(&m);
                (inside.and(&c.slt(&m)), [c.clone(), m, count])
            }
            Template::LowbitPrefix { a } => {
                let lb = T::ite(&lowbit.ult(&av(a)), &lowbit, &av(a));
                (inside, iv(c1.sub(&lb), c))
            }
            Template::DownSweep { a } => {
                let m = at_least_one(a);
                let top = c1.bvand(&m.sub(&one)).eq(&zero);
                let [l1, s1, k1] = iv(zero.clone(), &c.sub(&m));
                let [l2, s2, k2] = iv(c1.sub(&lowbit), c);
                (
                    inside,
                    [
                        T::ite(&top, &l1, &l2),
                        T::ite(&top, &s1, &s2),
                        T::ite(&top, &k1, &k2),
                    ],
                )
            }
        };
        [cond, start, step, count]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_describe_the_known_invariants() {
        let ks = Template::Prefix { a: 1, b: 1 };
        assert_eq!(ks.eval(5, 4, 8), Some(Summary::interval(2, 5)));
        assert_eq!(ks.eval(1, 4, 8), Some(Summary::interval(0, 1)));
        let up = Template::LowbitPrefix { a: 1 };
        assert_eq!(up.eval(7, 4, 8), Some(Summary::interval(4, 7)));
        assert_eq!(up.eval(5, 4, 8), Some(Summary::interval(4, 5)));
        let down = Template::DownSweep { a: 2 };
        assert_eq!(down.eval(7, 4, 8), Some(Summary::EMPTY));
        assert_eq!(down.eval(3, 0, 8), Some(Summary::interval(0, 2)));
        let red = Template::Strided { a: 2 };
        assert_eq!(
            red.eval(2, 2, 8).map(|s| (s.start, s.step, s.count)),
            Some((2, 4, 2))
        );
        assert_eq!(red.eval(5, 2, 8), None);
    }

    /// The term encoding, evaluated at small cells, sizes and loop values 0 and powers of two
    /// (the down-sweep tests divisibility by a mask), constrains exactly the cells the
    /// concrete template describes and gives them the same summary.
    #[test]
    fn the_encoding_agrees_with_the_concrete_templates() {
        use super::super::term::sym;
        use warpsafe_terms::Value;
        let (c, v, n) = (sym("c"), sym("v"), sym("n"));
        for t in candidates() {
            let enc = t.smt(&c, &v, &n);
            for size in 1..9i64 {
                for loop_v in [0, 1, 2, 4, 8i64] {
                    for cell in 0..size {
                        let env = |s: &super::super::term::ISym| {
                            let x = match &*s.0 {
                                "c" => cell,
                                "v" => loop_v,
                                _ => size,
                            };
                            Some(Value::Bv(32, x as u128))
                        };
                        let got: Vec<u128> = enc
                            .iter()
                            .map(|e| match e.eval(&env) {
                                Some(Value::Bv(_, x)) => x,
                                Some(Value::Bool(b)) => b as u128,
                                _ => u128::MAX,
                            })
                            .collect();
                        let want = t.eval(cell, loop_v, size);
                        assert_eq!(got[0] == 1, want.is_some(), "{t:?} c={cell} v={loop_v}");
                        let Some(w) = want else { continue };
                        assert_eq!(got[3], w.count as u128, "{t:?} c={cell} v={loop_v}");
                        if w.count > 0 {
                            assert_eq!(got[1], w.start as u128, "{t:?} c={cell} v={loop_v}");
                        }
                        if w.count > 1 {
                            assert_eq!(got[2], w.step as u128, "{t:?} c={cell} v={loop_v}");
                        }
                    }
                }
            }
        }
    }
}
