//! Candidate shapes of a shared cell's summary at a barrier-loop head, as functions of the
//! cell index `c`, the loop variable `v` and the block size `N`; each has a concrete
//! evaluator (for fitting) and an SMT encoding (for the proof).

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

    /// The SMT encoding over 32-bit vectors `c`, `v`, `n`: (is the cell constrained, start,
    /// step, count).
    pub fn smt(self, c: &str, v: &str, n: &str) -> [String; 4] {
        let zero = "#x00000000";
        let one = "#x00000001";
        let max0 = |e: String| format!("(ite (bvslt {e} {zero}) {zero} {e})");
        let konst = |x: i64| format!("(_ bv{} 32)", x.rem_euclid(1 << 32));
        let av = |a: i64| format!("(bvmul {} {v})", konst(a));
        let inside = format!("(and (bvsle {zero} {c}) (bvslt {c} {n}))");
        let lowbit = format!("(bvand (bvadd {c} {one}) (bvneg (bvadd {c} {one})))");
        // An interval [lo, c]: count = max(0, c - lo + 1).
        let iv = |lo: String, hi: String| {
            let cnt = max0(format!("(bvadd (bvsub {hi} {lo}) {one})"));
            [lo, one.to_string(), cnt]
        };
        let (cond, [start, step, count]) = match self {
            Template::Prefix { a, b } => {
                let lo = max0(format!("(bvadd (bvsub {c} {}) {})", av(a), konst(b)));
                (inside, iv(lo, c.to_string()))
            }
            Template::Strided { a } => {
                let m = format!("(ite (bvslt {} {one}) {one} {})", av(a), av(a));
                let count = format!("(bvudiv (bvsub (bvadd (bvsub {n} {c}) {m}) {one}) {m})");
                (
                    format!("(and {inside} (bvslt {c} {m}))"),
                    [c.to_string(), m, count],
                )
            }
            Template::LowbitPrefix { a } => {
                let lb = format!("(ite (bvult {lowbit} {}) {lowbit} {})", av(a), av(a));
                let lo = format!("(bvsub (bvadd {c} {one}) {lb})");
                (inside, iv(lo, c.to_string()))
            }
            Template::DownSweep { a } => {
                let m = format!("(ite (bvslt {} {one}) {one} {})", av(a), av(a));
                let top = format!("(= (bvand (bvadd {c} {one}) (bvsub {m} {one})) {zero})");
                let [l1, s1, c1] = iv(zero.to_string(), format!("(bvsub {c} {m})"));
                let [l2, s2, c2] = iv(format!("(bvsub (bvadd {c} {one}) {lowbit})"), c.to_string());
                (
                    inside,
                    [
                        format!("(ite {top} {l1} {l2})"),
                        format!("(ite {top} {s1} {s2})"),
                        format!("(ite {top} {c1} {c2})"),
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
}
