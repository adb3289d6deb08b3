//! Deciding equality of two terms: identical ids, then a random point that may refute, then
//! the normal forms that prove, then more random points; what is left is `unknown`.

use crate::eval::{Assignment, Evaluator, Exact};
use crate::fxhash::FxHashMap;
use crate::normal::Normalizer;
use crate::rat::rat_text;
use crate::term::{Node, SymId, TermId};
use crate::Store;
use serde::Serialize;

/// The outcome of comparing two terms.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    /// Proved equal for every input (over the reals).
    Equal,
    /// A concrete input on which the two terms differ.
    Different(Witness),
    /// Neither proved nor refuted.
    Unknown {
        /// Why not.
        reason: String,
    },
}

impl Verdict {
    /// `equal`, `different` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Equal => "equal",
            Verdict::Different(_) => "different",
            Verdict::Unknown { .. } => "unknown",
        }
    }
}

/// One input symbol's value in a counterexample.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SymValue {
    /// The symbol (`x[3]`, `alpha`).
    pub symbol: String,
    /// Buffer or scalar name.
    pub name: String,
    /// Element index for buffer elements.
    pub index: Option<u64>,
    /// The exact value (`-3/8`).
    pub exact: String,
    /// The value as a float.
    pub value: f64,
}

/// A separating input: every symbol the two terms read, and both values there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Witness {
    /// The seed of the [`Assignment`] (all other inputs take their values from it too).
    pub seed: u64,
    /// Values of the symbols the terms depend on.
    pub inputs: Vec<SymValue>,
    /// The left term's value (exact when `exact`).
    pub left: String,
    /// The right term's value.
    pub right: String,
    /// The left value as a float.
    pub left_value: f64,
    /// The right value as a float.
    pub right_value: f64,
    /// True when both values were computed exactly (no transcendental functions).
    pub exact: bool,
}

/// Options of the decision procedure.
#[derive(Clone, Copy, Debug)]
pub struct CheckOptions {
    /// Random points tried in all (the first before normalising).
    pub points: u64,
    /// Relative difference above which float evaluation counts as a refutation.
    pub tolerance: f64,
    /// First seed.
    pub seed: u64,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            points: 4,
            tolerance: 1e-6,
            seed: 1,
        }
    }
}

/// Compares many pairs of terms of one store, sharing normal forms and evaluations.
pub struct Checker<'s> {
    store: &'s Store,
    norm: Normalizer,
    evals: Vec<Option<Evaluator<'s>>>,
    opts: CheckOptions,
}

impl<'s> Checker<'s> {
    /// A checker for terms of `store`.
    pub fn new(store: &'s Store, opts: CheckOptions) -> Checker<'s> {
        let evals = (0..opts.points.max(1)).map(|_| None).collect();
        Checker {
            store,
            norm: Normalizer::new(),
            evals,
            opts,
        }
    }

    /// A checker whose normaliser stops with `interrupt`'s reason when it answers
    /// (see [`Interrupt`](crate::Interrupt)): such elements come out `unknown`.
    pub fn with_interrupt(
        store: &'s Store,
        opts: CheckOptions,
        interrupt: Option<crate::Interrupt>,
    ) -> Checker<'s> {
        let mut c = Checker::new(store, opts);
        c.norm.set_interrupt(interrupt);
        c
    }

    /// The normaliser (for inspecting normal forms).
    pub fn normalizer(&mut self) -> &mut Normalizer {
        &mut self.norm
    }

    /// Decides whether `a` and `b` are equal for all inputs.
    pub fn check(&mut self, a: TermId, b: TermId) -> Verdict {
        if a == b {
            return Verdict::Equal;
        }
        // Random points are cheap (memoised float evaluation); normal forms are not.
        for i in 0..self.evals.len() {
            if let Some(w) = self.refute(i, a, b) {
                return Verdict::Different(w);
            }
        }
        self.prove(a, b)
    }

    /// Tries to prove `a = b` by normal forms only: `equal` or `unknown`.
    pub fn prove(&mut self, a: TermId, b: TermId) -> Verdict {
        if a == b {
            return Verdict::Equal;
        }
        let reason = match (
            self.norm.normalize(self.store, a),
            self.norm.normalize(self.store, b),
        ) {
            (Ok(x), Ok(y)) => {
                if self.norm.same(x, y) {
                    return Verdict::Equal;
                }
                "the normal forms differ but no random input separates the terms".to_string()
            }
            (Err(e), _) | (_, Err(e)) => format!("no normal form: {e}"),
        };
        Verdict::Unknown { reason }
    }

    /// The first random point at which `a` and `b` differ in `f64` beyond the tolerance (a
    /// quick filter; [`Checker::refute`] confirms exactly and builds the witness).
    pub fn float_differs(&mut self, a: TermId, b: TermId) -> Option<usize> {
        if a == b {
            return None;
        }
        (0..self.evals.len()).find(|&i| {
            let (store, seed) = (self.store, self.opts.seed + i as u64);
            let ev =
                self.evals[i].get_or_insert_with(|| Evaluator::new(store, Assignment::new(seed)));
            let (x, y) = (ev.float(a), ev.float(b));
            x.is_finite()
                && y.is_finite()
                && (x - y).abs() > self.opts.tolerance * x.abs().max(y.abs()).max(1.0)
        })
    }

    /// Only tries to refute `a = b` at the random points (no proof attempt).
    pub fn refute_only(&mut self, a: TermId, b: TermId) -> Option<Witness> {
        if a == b {
            return None;
        }
        (0..self.evals.len()).find_map(|i| self.refute(i, a, b))
    }

    /// Evaluates both terms at point `i` and returns a witness when they differ: floats first
    /// (fast), confirmed exactly where every operation is rational.
    pub fn refute(&mut self, i: usize, a: TermId, b: TermId) -> Option<Witness> {
        let (store, seed) = (self.store, self.opts.seed + i as u64);
        let ev = self.evals[i].get_or_insert_with(|| Evaluator::new(store, Assignment::new(seed)));
        let (x, y) = (ev.float(a), ev.float(b));
        let float_differs = x.is_finite()
            && y.is_finite()
            && (x - y).abs() > self.opts.tolerance * x.abs().max(y.abs()).max(1.0);
        let float_undecided = !x.is_finite() || !y.is_finite();
        if !float_differs && !float_undecided {
            return None;
        }
        let (left, right, lv, rv, exact) = match (ev.exact(a), ev.exact(b)) {
            _ if ev.undefined(a) || ev.undefined(b) => return None,
            (Some(p), Some(q)) => {
                let differ = match (&p, &q) {
                    (Exact::Rat(u), Exact::Rat(v)) => u != v,
                    (Exact::NaN, _) | (_, Exact::NaN) => false,
                    _ => p != q,
                };
                if !differ {
                    return None;
                }
                (show(&p), show(&q), p.to_f64(), q.to_f64(), true)
            }
            _ if float_differs => (format!("{x:e}"), format!("{y:e}"), x, y, false),
            _ => return None,
        };
        let point = ev.point();
        let inputs = symbols(self.store, &[a, b])
            .into_iter()
            .map(|s| {
                let info = self.store.sym(s);
                let q = point.value(info);
                SymValue {
                    symbol: info.to_string(),
                    name: info.name.clone(),
                    index: info.index,
                    exact: rat_text(&q),
                    value: crate::rat::rat_to_f64(&q),
                }
            })
            .collect();
        Some(Witness {
            seed: point.seed,
            inputs,
            left,
            right,
            left_value: lv,
            right_value: rv,
            exact,
        })
    }
}

fn show(e: &Exact) -> String {
    match e {
        Exact::Rat(q) => rat_text(q),
        Exact::Inf(true) => "inf".into(),
        Exact::Inf(false) => "-inf".into(),
        Exact::NaN => "nan".into(),
    }
}

/// The symbols the terms `roots` depend on, sorted.
pub fn symbols(store: &Store, roots: &[TermId]) -> Vec<SymId> {
    let mut seen: FxHashMap<TermId, ()> = FxHashMap::default();
    let mut stack: Vec<TermId> = roots.to_vec();
    let mut out = Vec::new();
    while let Some(t) = stack.pop() {
        if seen.insert(t, ()).is_some() {
            continue;
        }
        let n = store.node(t);
        if let Node::Sym(s) = n {
            out.push(*s);
        }
        stack.extend(n.children().iter().copied());
    }
    out.sort_unstable();
    out
}

/// Decides `a = b` for two terms of `store` with default options.
pub fn check_equal(store: &Store, a: TermId, b: TermId) -> Verdict {
    Checker::new(store, CheckOptions::default()).check(a, b)
}
