//! Input systems, options, results and errors of a Gröbner basis computation.

use crate::dense::{CpuBackend, DenseBackend};
use crate::order::Order;
use crate::poly::Poly;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

/// A polynomial system: named variables, a prime characteristic, generators and an order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct System {
    /// Variable names, largest first.
    pub vars: Vec<String>,
    /// The characteristic, a prime below 2^31.
    pub prime: u32,
    /// The generators (each with one exponent per variable).
    pub polys: Vec<Poly>,
    /// The monomial order the basis is computed for.
    pub order: Order,
}

impl System {
    /// Writes the system in the text format read by [`crate::parse_system`].
    pub fn to_text(&self) -> String {
        let mut s = format!("{}\n{}\n", self.vars.join(","), self.prime);
        for (i, p) in self.polys.iter().enumerate() {
            let mut p = p.clone();
            p.sort(self.order);
            s.push_str(&p.to_text(&self.vars));
            s.push_str(if i + 1 < self.polys.len() {
                ",\n"
            } else {
                "\n"
            });
        }
        s
    }
}

/// Which algorithm computes the basis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Faugère's F4 (matrix reduction of many pairs at once).
    #[default]
    F4,
    /// Buchberger's algorithm with Gebauer–Möller criteria and normal selection.
    Buchberger,
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Algorithm::F4 => "f4",
            Algorithm::Buchberger => "buchberger",
        })
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Algorithm, String> {
        match s {
            "f4" | "F4" => Ok(Algorithm::F4),
            "buchberger" => Ok(Algorithm::Buchberger),
            _ => Err(format!(
                "unknown algorithm `{s}` (expected f4 or buchberger)"
            )),
        }
    }
}

/// Tuning knobs of a computation.
#[derive(Clone)]
pub struct Options {
    /// Worker threads (`None`: rayon's global pool; `Some(1)`: single-threaded).
    pub threads: Option<usize>,
    /// The dense elimination step of F4 (CPU kernel by default; a GPU backend can replace it).
    pub dense: Arc<dyn DenseBackend>,
    /// Give up with [`GroebnerError::TimeLimit`] after this long (checked between steps).
    pub time_limit: Option<Duration>,
    /// F4 reduces the rows of a large matrix through random linear combinations of them when
    /// the prime is large enough (above 2^10): most rows reduce to zero, so this is several times
    /// faster, and it misses part of a matrix's result with probability below `k * 2^-60` for
    /// `k` combinations (the seed is fixed: runs are reproducible). `false` reduces every row.
    pub random_combinations: bool,
    /// Called after every F4 round with what it did (`None`: nothing is called). For progress
    /// reports; it cannot change the computation.
    pub on_round: Option<RoundHook>,
}

/// An observer of F4's rounds ([`Options::on_round`]).
pub type RoundHook = Arc<dyn Fn(&Round) + Send + Sync>;

/// What one F4 round did: the pairs of one sugar degree reduced together as one matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// The round's number, from 1.
    pub step: usize,
    /// The sugar degree of the pairs selected.
    pub degree: u32,
    /// Pairs selected.
    pub pairs: usize,
    /// The matrix's rows (reducers and rows to reduce) and columns.
    pub matrix: (usize, usize),
    /// New basis elements (rows that did not reduce to zero).
    pub new: usize,
    /// Pairs still waiting after the round.
    pub pending: usize,
    /// The round's wall-clock time.
    pub time: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: None,
            dense: Arc::new(CpuBackend),
            time_limit: None,
            random_combinations: true,
            on_round: None,
        }
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("threads", &self.threads)
            .field("dense", &self.dense.name())
            .field("time_limit", &self.time_limit)
            .field("random_combinations", &self.random_combinations)
            .field("on_round", &self.on_round.is_some())
            .finish()
    }
}

/// Wall-clock time per phase of a computation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseTimes {
    /// Pair selection and Gebauer–Möller updates.
    pub pairs: Duration,
    /// Symbolic preprocessing and matrix construction (F4) or S-polynomial formation.
    pub symbolic: Duration,
    /// Sparse reduction against known pivots (F4) or polynomial division (Buchberger).
    pub sparse: Duration,
    /// Echelon form of the remaining block, including the dense elimination step.
    pub dense: Duration,
    /// Final inter-reduction.
    pub interreduce: Duration,
    /// The whole computation.
    pub total: Duration,
}

/// Counters describing a computation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Critical pairs kept after the Gebauer–Möller criteria.
    pub pairs_created: usize,
    /// Critical pairs reduced.
    pub pairs_reduced: usize,
    /// Reductions to zero.
    pub zero_reductions: usize,
    /// F4 matrices (or Buchberger S-polynomial reductions).
    pub steps: usize,
    /// Rows over all F4 matrices.
    pub matrix_rows: usize,
    /// Largest F4 matrix, as (rows, columns).
    pub max_matrix: (usize, usize),
    /// Largest dense block handed to the dense elimination step, as (rows, columns).
    pub max_dense: (usize, usize),
    /// Time per phase.
    pub time: PhaseTimes,
}

/// A reduced Gröbner basis: monic, inter-reduced, sorted by increasing leading monomial.
#[derive(Clone, Debug)]
pub struct Basis {
    /// Variable names.
    pub vars: Vec<String>,
    /// The characteristic.
    pub prime: u32,
    /// The order the basis is reduced for.
    pub order: Order,
    /// The basis elements.
    pub polys: Vec<Poly>,
    /// How the basis was computed.
    pub stats: Stats,
}

impl Basis {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.polys.len()
    }

    /// Whether the basis is empty (the zero ideal).
    pub fn is_empty(&self) -> bool {
        self.polys.is_empty()
    }

    /// The basis in the system text format (variables, prime, one element per line), deterministic.
    pub fn to_text(&self) -> String {
        System {
            vars: self.vars.clone(),
            prime: self.prime,
            polys: self.polys.clone(),
            order: self.order,
        }
        .to_text()
    }
}

/// Why a computation could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroebnerError {
    /// The characteristic is not a prime below 2^31.
    #[error("{0} is not a prime below 2^31")]
    BadPrime(u32),
    /// A polynomial's exponent vectors do not match the number of variables.
    #[error("polynomial {index} has a term with {found} exponents, expected {expected}")]
    BadArity {
        /// Index of the polynomial in the system.
        index: usize,
        /// Exponents found.
        found: usize,
        /// Number of variables.
        expected: usize,
    },
    /// A monomial exponent exceeded 65535 during the computation.
    #[error("an exponent exceeded 65535 during the computation")]
    ExponentOverflow,
    /// The computation ran past [`Options::time_limit`].
    #[error("time limit of {0:?} exceeded")]
    TimeLimit(Duration),
    /// The thread pool could not be created.
    #[error("cannot create the thread pool: {0}")]
    ThreadPool(String),
    /// The dense elimination step failed on its backend.
    #[error(transparent)]
    Dense(#[from] crate::dense::DenseError),
}
