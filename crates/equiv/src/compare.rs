//! Element-wise comparison of expected and actual terms, in parallel chunks (each with its
//! own normaliser over the shared store).

use crate::report::{tensors, Counterexample};
use rayon::prelude::*;
use warpsafe_algebra::{CheckOptions, Checker, Store, TermId, Verdict, Witness};

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
    /// The first different pair and its witness.
    pub first_different: Option<(usize, Witness)>,
    /// The first unknown pair and its reason.
    pub first_unknown: Option<(usize, String)>,
}

pub(crate) fn compare_elements(store: &Store, pairs: &[Pair], points: u64) -> Compared {
    let chunk = pairs
        .len()
        .div_ceil(rayon::current_num_threads() * 2)
        .max(16);
    let opts = CheckOptions {
        points: points.max(1),
        ..CheckOptions::default()
    };
    // Pass 1: random points for every element in floats (cheap, memoised per chunk).
    let flagged: Vec<Option<usize>> = pairs
        .par_chunks(chunk)
        .map(|ps| {
            let mut c = Checker::new(store, opts);
            ps.iter()
                .map(|p| c.float_differs(p.expected, p.actual))
                .collect::<Vec<_>>()
        })
        .flatten()
        .collect();
    // The first flagged element, confirmed (exactly where possible) with a witness.
    let mut first: Option<(usize, Witness)> = None;
    let mut c = Checker::new(store, opts);
    for (k, f) in flagged.iter().enumerate() {
        if let Some(i) = f {
            if let Some(w) = c.refute(*i, pairs[k].expected, pairs[k].actual) {
                first = Some((k, w));
                break;
            }
        }
    }
    let any_different = first.is_some();
    // Pass 2: normal forms, only when nothing differs (otherwise the verdict is settled).
    let idx: Vec<usize> = (0..pairs.len()).collect();
    let parts: Vec<Vec<Verdict>> = idx
        .par_chunks(chunk)
        .map(|ks| {
            let mut c = Checker::new(store, opts);
            ks.iter()
                .map(|&k| {
                    let p = &pairs[k];
                    if p.expected == p.actual {
                        Verdict::Equal
                    } else if any_different {
                        if flagged[k].is_some() {
                            Verdict::Different(placeholder())
                        } else {
                            Verdict::Unknown {
                                reason: "not proved: another element already differs".into(),
                            }
                        }
                    } else {
                        c.prove(p.expected, p.actual)
                    }
                })
                .collect()
        })
        .collect();
    let mut out = Compared {
        verdicts: Vec::with_capacity(pairs.len()),
        first_different: None,
        first_unknown: None,
    };
    for (k, v) in parts.into_iter().flatten().enumerate() {
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

pub(crate) fn counterexample(store: &Store, buffer: &str, p: &Pair, w: Witness) -> Counterexample {
    Counterexample {
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
