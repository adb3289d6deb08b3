//! The fitter: generalises recorded loop-head states into a candidate invariant. Its output
//! is a hypothesis for the SMT proof, never a result by itself.

use super::template::{candidates, Template};
use crate::machine::{HeadSnapshot, Val};
use crate::summary::Summary;
use serde::Serialize;

/// Which row of a two-dimensional shared array the invariant describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Selector {
    /// A one-dimensional array.
    Whole,
    /// A fixed row.
    Row(i64),
    /// The row named by a uniform loop-carried variable (a double-buffer index).
    RowVar(u32),
}

/// The fitted shape of one shared array at a loop head.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ArrayFit {
    /// The shared array.
    pub array: u32,
    /// Which cells the template speaks of.
    pub selector: Selector,
    /// Their summaries.
    pub template: Template,
}

/// A bound on the loop variable `v` relative to the block size `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// `2v <= N`.
    HalfN,
    /// `v <= N`.
    N,
    /// `v < 2N`.
    TwiceN,
}

/// One shared array's recorded cells at one loop head, at block size `n`.
#[derive(Clone, Debug)]
pub struct Observation<'a> {
    /// The block size.
    pub n: i64,
    /// The snapshot.
    pub head: &'a HeadSnapshot,
}

/// Extents of a shared array as recorded: (rows, row length) with row length `n`.
pub type Shape = (i64, i64);

fn same(expected: Summary, got: Val) -> bool {
    let got = match got {
        Val::Data(s) => s,
        Val::Int(0) => Summary::EMPTY,
        _ => return false,
    };
    expected.count == got.count
        && (expected.count == 0
            || (expected.start == got.start && (expected.count == 1 || expected.step == got.step)))
}

/// Fits array `array` (of `rows` rows of `N` cells) over the observations, with `v` the
/// loop variable and `carried` the loop-carried variables that may select a row.
pub fn fit_array(
    obs: &[Observation],
    array: u32,
    rows: i64,
    v: u32,
    carried: &[u32],
) -> Option<ArrayFit> {
    let mut selectors = vec![];
    if rows == 1 {
        selectors.push(Selector::Whole);
    } else {
        for &p in carried {
            if p != v
                && obs
                    .iter()
                    .all(|o| o.head.uniform[p as usize].is_some_and(|x| (0..rows).contains(&x)))
            {
                selectors.push(Selector::RowVar(p));
            }
        }
        selectors.extend((0..rows).map(Selector::Row));
    }
    for &selector in &selectors {
        for template in candidates() {
            if obs.iter().all(|o| fits(o, array, selector, template, v)) {
                return Some(ArrayFit {
                    array,
                    selector,
                    template,
                });
            }
        }
    }
    None
}

fn fits(o: &Observation, array: u32, selector: Selector, t: Template, v: u32) -> bool {
    let Some(cells) = o.head.shared.get(array as usize) else {
        return false;
    };
    let Some(vv) = o.head.uniform.get(v as usize).copied().flatten() else {
        return false;
    };
    let row = match selector {
        Selector::Whole => 0,
        Selector::Row(r) => r,
        Selector::RowVar(p) => match o.head.uniform[p as usize] {
            Some(r) => r,
            None => return false,
        },
    };
    let mut constrained = 0;
    for c in 0..o.n {
        if let Some(s) = t.eval(c, vv, o.n) {
            constrained += 1;
            let idx = (row * o.n + c) as usize;
            if !cells.get(idx).is_some_and(|&cell| same(s, cell)) {
                return false;
            }
        }
    }
    constrained > 0
}

/// The strongest bound on the loop variable that every observation meets, with whether it
/// is always zero or a power of two.
pub fn fit_bound(obs: &[(i64, i64)]) -> Option<(Bound, bool)> {
    let pow2 = obs
        .iter()
        .all(|&(v, _)| v == 0 || (v > 0 && v & (v - 1) == 0));
    [Bound::HalfN, Bound::N, Bound::TwiceN]
        .into_iter()
        .find(|b| {
            obs.iter().all(|&(v, n)| match b {
                Bound::HalfN => 2 * v <= n,
                Bound::N => v <= n,
                Bound::TwiceN => v < 2 * n,
            })
        })
        .map(|b| (b, pow2))
}

/// The values a uniform variable took at the heads, when there are few (at most four).
pub fn fit_values(obs: &[Observation], var: u32) -> Option<Vec<i64>> {
    let mut vals = vec![];
    for o in obs {
        let x = o.head.uniform.get(var as usize).copied().flatten()?;
        if !vals.contains(&x) {
            vals.push(x);
        }
    }
    (vals.len() <= 4).then_some(vals)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(v: i64, cells: Vec<Val>) -> HeadSnapshot {
        HeadSnapshot {
            loop_index: 0,
            uniform: vec![Some(v)],
            shared: vec![cells],
        }
    }

    fn ks_cells(n: i64, d: i64) -> Vec<Val> {
        (0..n)
            .map(|c| Val::Data(Summary::interval((c - d + 1).max(0) as u32, c)))
            .collect()
    }

    #[test]
    fn fits_the_kogge_stone_history() {
        let heads: Vec<(i64, HeadSnapshot)> = [(4, 1), (4, 2), (4, 4), (8, 1), (8, 8)]
            .into_iter()
            .map(|(n, d)| (n, head(d, ks_cells(n, d))))
            .collect();
        let obs: Vec<Observation> = heads
            .iter()
            .map(|(n, h)| Observation { n: *n, head: h })
            .collect();
        let f = fit_array(&obs, 0, 1, 0, &[]).expect("fits");
        assert_eq!(f.template, Template::Prefix { a: 1, b: 1 });
        assert_eq!(fit_bound(&[(1, 4), (4, 4), (8, 8)]), Some((Bound::N, true)));
    }

    #[test]
    fn a_history_outside_the_templates_does_not_fit() {
        // Cell c holds [c, c + 1]: no template describes it.
        let cells: Vec<Val> = (0..8u32)
            .map(|c| Val::Data(Summary::interval(c, c as i64 + 1)))
            .collect();
        let h = head(1, cells);
        let obs = [Observation { n: 8, head: &h }];
        assert_eq!(fit_array(&obs, 0, 1, 0, &[]), None);
        let opaque = head(2, vec![Val::Opaque; 8]);
        let obs = [Observation {
            n: 8,
            head: &opaque,
        }];
        assert_eq!(fit_array(&obs, 0, 1, 0, &[]), None);
    }
}
