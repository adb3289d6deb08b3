//! Times F4's dense step (back substitution on a random echelon block) through the
//! `gauss_elim` kernel on the native backend against the same body written as plain Rust over
//! row slices, single-threaded, median of 7: the cost of launching the kernel natively.
//!
//! `cargo run --release -p warpsafe-groebner --example dense_kernel`

use rayon::prelude::*;
use std::time::{Duration, Instant};
use warpsafe_groebner::{CpuBackend, DenseBackend};

const P: u32 = 65521;

/// The kernel's body for one row, as plain Rust on a row slice.
fn row_step(row: &mut [u32], pivot_row: &[u32], pcol: usize, p: u64) {
    let factor = u64::from(row[pcol]);
    if factor == 0 {
        return;
    }
    for (x, &v) in row[pcol..].iter_mut().zip(&pivot_row[pcol..]) {
        let prod = factor * u64::from(v) % p;
        let s = u64::from(*x) + p - prod;
        *x = (if s >= p { s - p } else { s }) as u32;
    }
}

struct PlainRust;

impl DenseBackend for PlainRust {
    fn name(&self) -> &str {
        "plain"
    }

    fn eliminate_rows(
        &self,
        mat: &mut [u32],
        nrows: usize,
        ncols: usize,
        pivot_row: &[u32],
        pivot_col: usize,
        p: u32,
    ) -> Result<(), warpsafe_groebner::DenseError> {
        mat[..nrows * ncols]
            .par_chunks_mut(ncols)
            .with_min_len(64)
            .for_each(|row| row_step(row, pivot_row, pivot_col, u64::from(p)));
        Ok(())
    }
}

/// A monic echelon block as F4 hands it over: row `t` leads at column `t * w / k` (so it is zero
/// at the earlier leads), with random entries after its lead, later leads included.
fn echelon(k: usize, w: usize, seed: u64) -> (Vec<u32>, Vec<usize>) {
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let leads: Vec<usize> = (0..k).map(|t| t * w / k).collect();
    let mut mat = vec![0u32; k * w];
    for t in 0..k {
        mat[t * w + leads[t]] = 1;
        for c in leads[t] + 1..w {
            mat[t * w + c] = (next() % u64::from(P)) as u32;
        }
    }
    (mat, leads)
}

fn median(backend: &dyn DenseBackend, k: usize, w: usize) -> (Duration, Vec<u32>) {
    let (mat0, leads) = echelon(k, w, 7);
    let mut times = vec![];
    let mut out = vec![];
    for _ in 0..7 {
        let mut mat = mat0.clone();
        let t = Instant::now();
        backend
            .back_substitute(&mut mat, k, w, &leads, P)
            .expect("dense step");
        times.push(t.elapsed());
        out = mat;
    }
    times.sort();
    (times[times.len() / 2], out)
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    pool.install(|| {
        println!("shape       kernel (native)  plain Rust  ratio");
        for (k, w) in [(126, 1093), (62, 363), (400, 2000), (1000, 4000)] {
            let (a, ra) = median(&CpuBackend, k, w);
            let (b, rb) = median(&PlainRust, k, w);
            assert_eq!(ra, rb);
            println!(
                "{k:>4}x{w:<6} {:>12.3} ms {:>8.3} ms  {:.2}",
                a.as_secs_f64() * 1e3,
                b.as_secs_f64() * 1e3,
                a.as_secs_f64() / b.as_secs_f64()
            );
        }
    });
}
