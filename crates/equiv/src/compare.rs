//! Element-wise comparison of expected and actual terms, in parallel chunks (each with its
//! own normaliser over the shared store).

use crate::budget::Budget;
use crate::replay::{Replay, TOLERANCE};
use crate::report::{tensors, Counterexample};
use rayon::prelude::*;
use std::sync::Arc;
use warpsafe_algebra::{
    Assignment, CheckOptions, Checker, FxHashMap, Narrow, Store, TermId, Verdict, Witness,
};

/// One element to compare.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pair {
    /// Index of the output in the report.
    pub output: usize,
    /// Element index.
    pub index: u64,
    /// The reference's (spec's) term.
    pub expected: TermId,
    /// The kernel's term.
    pub actual: TermId,
}

pub(crate) struct Compared {
    /// Per pair: 0 equal, 1 different, 2 unknown.
    pub verdicts: Vec<u8>,
    /// The first different pair (confirmed by the replay), its witness and the replay.
    pub first_different: Option<(usize, Witness, Replay)>,
    /// The first unknown pair and its reason.
    pub first_unknown: Option<(usize, String)>,
    /// A symbolic difference the concrete replay did not reproduce: (pair, why).
    pub unconfirmed: Option<(usize, String)>,
}

/// What the concrete replay says about a symbolic difference.
pub(crate) enum Confirm {
    /// The interpreter computes different values too.
    Yes(Replay),
    /// It does not (or could not run): the reason.
    No(String),
}

/// How the comparison treats the pairs.
pub(crate) struct CompareOptions<'a> {
    /// Random points per element.
    pub points: u64,
    /// The check's budgets.
    pub budget: &'a Arc<Budget>,
    /// `Some(reason)`: the symbolic outputs are not final (a run stopped early), so normal
    /// forms prove nothing; only replayed differences count.
    pub incomplete: Option<String>,
}

/// Most symbolic differences replayed before the rest are left `unknown`.
const MAX_REPLAYED: usize = 16;

/// Wide points in all (integers spread over a buffer's length), shared among the lengths.
const WIDE_POINTS: u64 = 8;

/// Most distinct buffer lengths that get wide points (the largest ones).
const MAX_WIDE_LENGTHS: usize = 4;

/// Narrow points drawn per shape and level ([`Assignment::narrow`]: 2 shapes, 4 levels).
const NARROW_PER_LEVEL: u32 = 2;

/// Most narrow points replayed for one pair (the ones where the terms differ most).
const NARROW_REPLAYS_PER_PAIR: usize = 2;

/// Most narrow points replayed in all, over every pair tried.
const MAX_NARROW_REPLAYS: usize = 4;

/// Most pairs whose narrow points are evaluated.
const MAX_NARROW_PAIRS: usize = 4;

/// The narrow points at which `p`'s terms differ by more than the replay's [`TOLERANCE`]
/// (relative, as [`crate::replay::differ`] measures it), the largest differences first, at
/// most [`NARROW_REPLAYS_PER_PAIR`]. At the ordinary points (reals `k/8` in [-3, 3]) a
/// difference that is small beside the inputs' spread, a normalisation's dropped `epsilon`
/// (1e-5 against a variance near 1), stays inside float noise and no replay can show it; with
/// the reals scaled to about 10^-k of that range, or concentrated around a centre (`c +
/// 10^-k·r`: a row of nearly equal values), it dominates. The terms are evaluated exactly
/// where every operation is rational (in `f64` past a square root), which is cheap beside a
/// replay; only the best points are replayed.
fn narrow_witnesses(store: &Store, p: &Pair) -> Vec<Witness> {
    let mut found: Vec<(f64, Witness)> = Vec::new();
    for shape in [Narrow::Scaled, Narrow::Concentrated] {
        for level in 1..=4 {
            for n in 0..NARROW_PER_LEVEL {
                let opts = CheckOptions {
                    points: 1,
                    tolerance: TOLERANCE,
                    seed: Assignment::narrow(shape, level, n).seed,
                };
                let Some(w) = Checker::new(store, opts).refute(0, p.expected, p.actual) else {
                    continue;
                };
                let (a, b) = (w.left_value, w.right_value);
                let rel = (a - b).abs() / a.abs().max(b.abs()).max(1.0);
                found.push((if rel.is_nan() { f64::INFINITY } else { rel }, w));
            }
        }
    }
    found.sort_by(|x, y| y.0.total_cmp(&x.0));
    found
        .into_iter()
        .take(NARROW_REPLAYS_PER_PAIR)
        .map(|(_, w)| w)
        .collect()
}

/// Tries the narrow points of the pairs `ks` (the first [`MAX_NARROW_PAIRS`]), replaying at
/// most `*replays_left` of them: the first pair and point the replay confirms.
fn narrow_search(
    store: &Store,
    pairs: &[Pair],
    ks: impl Iterator<Item = usize>,
    budget: &Budget,
    replays_left: &mut usize,
    confirm: &mut dyn FnMut(&Pair, &Witness) -> Confirm,
) -> Option<(usize, Witness, Replay)> {
    for k in ks.take(MAX_NARROW_PAIRS) {
        if *replays_left == 0 || budget.check().is_some() {
            return None;
        }
        for w in narrow_witnesses(store, &pairs[k]) {
            if *replays_left == 0 {
                return None;
            }
            *replays_left -= 1;
            if let Confirm::Yes(r) = confirm(&pairs[k], &w) {
                return Some((k, w, r));
            }
        }
    }
    None
}

/// The rounds of random points, as checker options: the ordinary points (integers in
/// [-8, 8]), then, when the terms read integer inputs, wide points for each buffer length
/// above 8 ([`Assignment::wide`]), so that data used as an index reaches every element of the
/// buffers it may index: a gather wrong only from index 32 up, a histogram wrong only in a
/// high bin. The lengths are those of the input buffers the store reads (one past the
/// highest element index of each) and of the outputs compared.
fn rounds(store: &Store, pairs: &[Pair], ordinary: CheckOptions) -> Vec<CheckOptions> {
    let mut out = vec![ordinary];
    if !store.syms().iter().any(|s| s.integer) {
        return out;
    }
    let mut extent: FxHashMap<&str, u64> = FxHashMap::default();
    for s in store.syms() {
        if let Some(i) = s.index {
            let e = extent.entry(s.name.as_str()).or_default();
            *e = (*e).max(i.saturating_add(1));
        }
    }
    let mut outputs: FxHashMap<usize, u64> = FxHashMap::default();
    for p in pairs {
        let e = outputs.entry(p.output).or_default();
        *e = (*e).max(p.index.saturating_add(1));
    }
    let mut lengths: Vec<u64> = extent
        .into_values()
        .chain(outputs.into_values())
        .filter(|&l| l > 8)
        .collect();
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    lengths.dedup();
    lengths.truncate(MAX_WIDE_LENGTHS);
    if lengths.is_empty() {
        return out;
    }
    let each = (WIDE_POINTS / lengths.len() as u64).max(2);
    out.extend(lengths.into_iter().map(|len| CheckOptions {
        points: each,
        seed: Assignment::wide(len, 1).seed,
        ..ordinary
    }));
    out
}

/// Compares every pair: random points flag differences, the concrete replay (`confirm`)
/// decides whether a flagged one is a real difference, normal forms prove the rest equal.
pub(crate) fn compare_elements(
    store: &Store,
    pairs: &[Pair],
    o: &CompareOptions,
    confirm: &mut dyn FnMut(&Pair, &Witness) -> Confirm,
) -> Compared {
    let chunk = pairs
        .len()
        .div_ceil(rayon::current_num_threads() * 2)
        .max(16);
    let opts = CheckOptions {
        points: o.points.max(1),
        ..CheckOptions::default()
    };
    let budget = o.budget;
    let rounds = rounds(store, pairs, opts);
    let checkers = || -> Vec<Checker> { rounds.iter().map(|r| Checker::new(store, *r)).collect() };
    // Pass 1: random points for every element in floats (cheap, memoised per chunk), round
    // after round until one separates the pair: Some((round, point)).
    // `Err(reason)`: not looked at (a budget ran out).
    let flagged: Vec<Result<Option<(usize, usize)>, String>> = pairs
        .par_chunks(chunk)
        .map(|ps| {
            let mut cs = checkers();
            ps.iter()
                .map(|p| match budget.check() {
                    Some(spent) => Err(spent.text()),
                    None => Ok(cs
                        .iter_mut()
                        .enumerate()
                        .find_map(|(r, c)| c.float_differs(p.expected, p.actual).map(|i| (r, i)))),
                })
                .collect::<Vec<_>>()
        })
        .flatten()
        .collect();
    // Flagged elements, confirmed exactly where possible, then replayed concretely.
    let mut first: Option<(usize, Witness, Replay)> = None;
    let mut unconfirmed: Option<(usize, String)> = None;
    let mut refuted: Vec<Option<String>> = vec![None; pairs.len()];
    let mut replayed = 0;
    let mut cs = checkers();
    for (k, f) in flagged.iter().enumerate() {
        let Ok(Some((r, i))) = f else { continue };
        if budget.check().is_some() {
            break;
        }
        let Some(w) = cs[*r].refute(*i, pairs[k].expected, pairs[k].actual) else {
            continue;
        };
        if replayed >= MAX_REPLAYED {
            refuted[k] = Some(
                "a symbolic difference, not replayed (earlier ones were not reproduced)".into(),
            );
            continue;
        }
        replayed += 1;
        match confirm(&pairs[k], &w) {
            Confirm::Yes(r) => {
                first = Some((k, w, r));
                break;
            }
            Confirm::No(why) => {
                if unconfirmed.is_none() {
                    unconfirmed = Some((k, why.clone()));
                }
                refuted[k] = Some(why);
            }
        }
    }
    // Symbolic differences the replay did not reproduce at ordinary points: try narrow ones.
    let mut narrow_left = MAX_NARROW_REPLAYS;
    if first.is_none() {
        let ks = (0..pairs.len()).filter(|&k| refuted[k].is_some());
        first = narrow_search(store, pairs, ks, budget, &mut narrow_left, confirm);
        if let Some((k, ..)) = &first {
            refuted[*k] = None;
        }
    }
    let any_different = first.is_some();
    let interrupt = budget.interrupt();
    // Pass 2: normal forms, only when nothing differs (otherwise the verdict is settled).
    let idx: Vec<usize> = (0..pairs.len()).collect();
    let parts: Vec<Vec<Verdict>> = idx
        .par_chunks(chunk)
        .map(|ks| {
            let mut c = Checker::with_interrupt(store, opts, interrupt.clone());
            ks.iter()
                .map(|&k| {
                    let p = &pairs[k];
                    let unknown = |reason: String| Verdict::Unknown { reason };
                    if first.as_ref().is_some_and(|f| f.0 == k) {
                        return Verdict::Different(placeholder());
                    }
                    if let Err(why) = &flagged[k] {
                        return unknown(why.clone());
                    }
                    if let Some(why) = &refuted[k] {
                        return unknown(why.clone());
                    }
                    if let Some(why) = &o.incomplete {
                        return unknown(why.clone());
                    }
                    if p.expected == p.actual {
                        return Verdict::Equal;
                    }
                    if any_different {
                        return unknown("not proved: another element already differs".into());
                    }
                    if let Some(spent) = budget.check() {
                        return unknown(spent.text());
                    }
                    c.prove(p.expected, p.actual)
                })
                .collect()
        })
        .collect();
    let mut verdicts: Vec<Verdict> = parts.into_iter().flatten().collect();
    // Normal forms that differ where no ordinary point separates the terms (or separates them
    // beyond float noise): narrow points may.
    if first.is_none() {
        let ks = (0..pairs.len()).filter(|&k| {
            matches!(verdicts[k], Verdict::Unknown { .. })
                && flagged[k].is_ok()
                && refuted[k].is_none()
        });
        first = narrow_search(store, pairs, ks, budget, &mut narrow_left, confirm);
        if let Some((k, ..)) = &first {
            verdicts[*k] = Verdict::Different(placeholder());
        }
    }
    let mut out = Compared {
        verdicts: Vec::with_capacity(pairs.len()),
        first_different: None,
        first_unknown: None,
        unconfirmed,
    };
    for (k, v) in verdicts.into_iter().enumerate() {
        out.verdicts.push(match v {
            Verdict::Equal => 0,
            Verdict::Different(_) => 1,
            Verdict::Unknown { reason } => {
                if out.first_unknown.is_none() {
                    out.first_unknown = Some((k, reason));
                }
                2
            }
        });
    }
    out.first_different = first;
    out
}

/// Stands for a witness not built (only the first difference gets one).
fn placeholder() -> Witness {
    Witness {
        seed: 0,
        inputs: Vec::new(),
        left: String::new(),
        right: String::new(),
        left_value: 0.0,
        right_value: 0.0,
        exact: false,
    }
}

pub(crate) fn counterexample(
    store: &Store,
    buffer: &str,
    p: &Pair,
    w: Witness,
    replay: Replay,
) -> Counterexample {
    Counterexample {
        replay: Some(replay),
        buffer: buffer.to_string(),
        index: p.index,
        expected: w.left,
        actual: w.right,
        expected_term: store.show(p.expected),
        actual_term: store.show(p.actual),
        inputs: tensors(&w.inputs),
        seed: w.seed,
        exact: w.exact,
    }
}
