//! Gröbner bases over prime fields F_p (p < 2^31): a Buchberger reference and Faugère's F4,
//! whose dense elimination step is the warpsafe `#[kernel]` [`dense::gauss_elim`], run natively
//! on the CPU (or on any warpsafe backend) and proved by `warpsafe verify`.
//!
//! ```
//! use warpsafe_groebner::{groebner, is_groebner_basis, parse_system, Algorithm, Options};
//!
//! let sys = parse_system("x, y\n65521\nx^2 + y^2 - 1,\nx - y\n").unwrap();
//! let basis = groebner(&sys, Algorithm::F4, &Options::default()).unwrap();
//! assert_eq!(basis.to_text(), "x,y\n65521\nx + 65520*y,\ny^2 + 32760\n");
//! assert!(is_groebner_basis(&sys, &basis));
//! ```
//!
//! Layout, one job per module: `field` (F_p arithmetic), `monomial` (hashed exponent vectors),
//! `order`, `poly`, `parse` (the text format, span errors), `pairs` (Gebauer–Möller),
//! `division` and `buchberger` (the reference), `f4` (`symbolic` preprocessing, pivots-first
//! `matrix`, sparse `reduce`), [`dense`] (the elimination kernel and its backends), `interreduce`,
//! `check` ([`is_groebner_basis`], [`is_reduced`]), `systems` ([`cyclic`], [`katsura`]) and
//! `bench` ([`bench_table`]).

#![warn(missing_docs)]

mod bench;
mod buchberger;
mod check;
mod checkmat;
pub mod dense;
mod division;
mod f4;
mod field;
mod interreduce;
mod monomial;
mod order;
mod pairs;
mod parse;
mod poly;
mod system;
mod systems;

pub use bench::{bench_systems, bench_table, render_table, BenchRow};
pub use check::{is_groebner_basis, is_reduced};
pub use dense::{CpuBackend, DenseBackend, DenseError, KernelBackend};
pub use order::Order;
pub use parse::{parse_system, ParseError};
pub use poly::{Poly, Term};
pub use system::{
    Algorithm, Basis, GroebnerError, Options, PhaseTimes, Round, RoundHook, Stats, System,
};
pub use systems::{bundled_systems, cyclic, katsura};

use field::{is_prime, Field};
use monomial::MonoTable;
use poly::HPoly;
use std::time::Instant;

/// Computes the reduced Gröbner basis of `sys` (for `sys.order`) with `algo`.
pub fn groebner(sys: &System, algo: Algorithm, opts: &Options) -> Result<Basis, GroebnerError> {
    if sys.prime >= 1 << 31 || !is_prime(u64::from(sys.prime)) {
        return Err(GroebnerError::BadPrime(sys.prime));
    }
    let n = sys.vars.len();
    for (index, p) in sys.polys.iter().enumerate() {
        if let Some(t) = p.terms.iter().find(|t| t.exps.len() != n) {
            return Err(GroebnerError::BadArity {
                index,
                found: t.exps.len(),
                expected: n,
            });
        }
    }
    match opts.threads {
        None => run(sys, algo, opts),
        Some(k) => rayon::ThreadPoolBuilder::new()
            .num_threads(k.max(1))
            .build()
            .map_err(|e| GroebnerError::ThreadPool(e.to_string()))?
            .install(|| run(sys, algo, opts)),
    }
}

fn run(sys: &System, algo: Algorithm, opts: &Options) -> Result<Basis, GroebnerError> {
    let start = Instant::now();
    let field = Field::new(sys.prime);
    let mut table = MonoTable::new(sys.vars.len(), sys.order);
    let mut input: Vec<HPoly> = sys
        .polys
        .iter()
        .map(|p| HPoly::from_poly(p, &mut table, field))
        .filter(|p| !p.is_zero())
        .collect();
    for p in &mut input {
        p.make_monic(field);
    }
    let mut stats = Stats::default();
    let polys = if input.is_empty() {
        Vec::new()
    } else {
        match algo {
            Algorithm::F4 => f4::f4(input, &mut table, field, opts, &mut stats)?,
            Algorithm::Buchberger => {
                buchberger::buchberger(input, &mut table, field, opts, &mut stats)?
            }
        }
    };
    stats.time.total = start.elapsed();
    Ok(Basis {
        vars: sys.vars.clone(),
        prime: sys.prime,
        order: sys.order,
        polys: polys.iter().map(|p| p.to_poly(&table)).collect(),
        stats,
    })
}
