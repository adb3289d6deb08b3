//! Segment summaries: the abstract value of a combination of input elements.

use serde::Serialize;
use std::fmt;

/// The inputs a value combines: `count` indices `start, start + step, …` (empty when
/// `count == 0`). An interval `[a, b]` is `step == 1`; strided sets only arise in the
/// commutative mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Summary {
    /// The first index.
    pub start: u32,
    /// Distance between consecutive indices (1 for intervals and singletons).
    pub step: u32,
    /// How many indices.
    pub count: u32,
}

/// Which operators a combination was checked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Only adjacent segments combine: sound for every associative operator.
    Interval,
    /// Disjoint index sets combine in any order: sound for every commutative associative operator.
    Commutative,
}

/// What combining two summaries found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combined {
    /// The left operand covered the lower indices (the order an associative operator needs).
    InOrder(Summary),
    /// Adjacent, but the operands are written right segment first.
    Swapped(Summary),
    /// Not combinable in this mode.
    Invalid,
}

impl Summary {
    /// The identity: no inputs.
    pub const EMPTY: Summary = Summary {
        start: 0,
        step: 1,
        count: 0,
    };

    /// The single input `k`.
    pub fn single(k: u32) -> Summary {
        Summary {
            start: k,
            step: 1,
            count: 1,
        }
    }

    /// The interval `[a, b]` (empty when `b < a`).
    pub fn interval(a: u32, b: i64) -> Summary {
        if b < a as i64 {
            return Summary::EMPTY;
        }
        Summary {
            start: a,
            step: 1,
            count: (b - a as i64 + 1) as u32,
        }
    }

    /// True for the identity.
    pub fn is_empty(self) -> bool {
        self.count == 0
    }

    /// The last index (for a non-empty summary).
    pub fn last(self) -> u64 {
        self.start as u64 + self.step as u64 * (self.count.saturating_sub(1)) as u64
    }

    /// True when the summary is an interval (or empty or a singleton).
    pub fn is_interval(self) -> bool {
        self.count <= 1 || self.step == 1
    }

    /// `(lo, hi)` of an interval, `None` for the empty one.
    pub fn bounds(self) -> Option<(u32, u32)> {
        (self.count > 0).then(|| (self.start, self.last() as u32))
    }

    /// Combines `self ⊕ other` in `mode`.
    pub fn combine(self, other: Summary, mode: Mode) -> Combined {
        if self.is_empty() {
            return Combined::InOrder(other);
        }
        if other.is_empty() {
            return Combined::InOrder(self);
        }
        match mode {
            Mode::Interval => {
                if !self.is_interval() || !other.is_interval() {
                    return Combined::Invalid;
                }
                if self.last() + 1 == other.start as u64 {
                    Combined::InOrder(Summary::interval(self.start, other.last() as i64))
                } else if other.last() + 1 == self.start as u64 {
                    Combined::Swapped(Summary::interval(other.start, self.last() as i64))
                } else {
                    Combined::Invalid
                }
            }
            Mode::Commutative => {
                match disjoint_union(self, other).or(disjoint_union(other, self)) {
                    Some(s) => Combined::InOrder(s),
                    None => Combined::Invalid,
                }
            }
        }
    }
}

/// `a ∪ b` as one progression when `b` continues `a` or interleaves it exactly (provably
/// disjoint in both cases), with `a` starting first.
fn disjoint_union(a: Summary, b: Summary) -> Option<Summary> {
    if b.start <= a.start {
        return None;
    }
    let gap = b.start - a.start;
    let step_a = if a.count == 1 { None } else { Some(a.step) };
    let step_b = if b.count == 1 { None } else { Some(b.step) };
    let step = match (step_a, step_b) {
        (Some(x), Some(y)) if x != y => return None,
        (Some(x), _) | (None, Some(x)) => x,
        (None, None) => gap,
    };
    let total = a.count.checked_add(b.count)?;
    // b continues a.
    if gap as u64 == step as u64 * a.count as u64 {
        return Some(Summary {
            start: a.start,
            step,
            count: total,
        });
    }
    // b sits halfway between a's elements.
    if step % 2 == 0 && gap == step / 2 && (b.count == a.count || b.count + 1 == a.count) {
        return Some(Summary {
            start: a.start,
            step: step / 2,
            count: total,
        });
    }
    None
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.count, self.step) {
            (0, _) => write!(f, "[]"),
            (_, 1) | (1, _) => write!(f, "[{}, {}]", self.start, self.last()),
            _ => write!(
                f,
                "{{{}, {}, .., {}}}",
                self.start,
                self.start + self.step,
                self.last()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacent_intervals_combine_in_order_only_when_adjacent() {
        let a = Summary::interval(0, 3);
        let b = Summary::interval(4, 7);
        assert_eq!(
            a.combine(b, Mode::Interval),
            Combined::InOrder(Summary::interval(0, 7))
        );
        assert_eq!(
            b.combine(a, Mode::Interval),
            Combined::Swapped(Summary::interval(0, 7))
        );
        assert_eq!(
            a.combine(Summary::interval(5, 7), Mode::Interval),
            Combined::Invalid
        );
        assert_eq!(
            a.combine(Summary::interval(3, 7), Mode::Interval),
            Combined::Invalid
        );
        assert_eq!(
            a.combine(Summary::EMPTY, Mode::Interval),
            Combined::InOrder(a)
        );
    }

    #[test]
    fn commutative_mode_unions_interleaved_progressions() {
        let a = Summary::single(1);
        let b = Summary::single(5);
        let Combined::InOrder(ab) = a.combine(b, Mode::Commutative) else {
            panic!("singletons combine")
        };
        assert_eq!((ab.start, ab.step, ab.count), (1, 4, 2));
        let c = Summary {
            start: 3,
            step: 4,
            count: 2,
        };
        let Combined::InOrder(abc) = ab.combine(c, Mode::Commutative) else {
            panic!("interleaved progressions combine")
        };
        assert_eq!((abc.start, abc.step, abc.count), (1, 2, 4));
        assert_eq!(ab.combine(ab, Mode::Commutative), Combined::Invalid);
        assert_eq!(
            ab.combine(Summary::single(2), Mode::Commutative),
            Combined::Invalid
        );
    }
}
