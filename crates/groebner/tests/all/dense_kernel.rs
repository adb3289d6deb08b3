//! The `gauss_elim` kernel F4 launches: natively, in the checking interpreter and in plain
//! Rust it computes the same elimination step, and `warpsafe verify` proves it for every size.

use warpsafe_groebner::dense::{contract, eliminate_rows_reference};
use warpsafe_groebner::{CpuBackend, DenseBackend, KernelBackend};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random step: matrix entries in `[0, p)`, an echelon pivot row (zero before the pivot
/// column, 1 there) and some rows with a zero factor.
fn random_case(rng: &mut Rng, p: u32, max_rows: u64) -> (Vec<u32>, usize, usize, Vec<u32>, usize) {
    let nrows = rng.below(max_rows) as usize;
    let ncols = 1 + rng.below(40) as usize;
    let pcol = rng.below(ncols as u64) as usize;
    let mut mat: Vec<u32> = (0..nrows * ncols)
        .map(|_| rng.below(u64::from(p)) as u32)
        .collect();
    for r in 0..nrows {
        if rng.below(4) == 0 {
            mat[r * ncols + pcol] = 0;
        }
    }
    let mut piv: Vec<u32> = (0..ncols).map(|_| rng.below(u64::from(p)) as u32).collect();
    piv[..pcol].fill(0);
    piv[pcol] = 1;
    (mat, nrows, ncols, piv, pcol)
}

#[test]
fn native_kernel_matches_plain_rust_and_exact_arithmetic() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for p in [65521u32, 2, 7, 2147483647, 1073741789] {
        for _ in 0..30 {
            let (before, nrows, ncols, piv, pcol) = random_case(&mut rng, p, 300);
            let mut mat = before.clone();
            let mut expect = before.clone();
            eliminate_rows_reference(&mut expect, nrows, ncols, &piv, pcol, p);
            CpuBackend
                .eliminate_rows(&mut mat, nrows, ncols, &piv, pcol, p)
                .expect("native launch");
            assert_eq!(mat, expect, "p = {p}, {nrows}x{ncols}, pivot column {pcol}");
            for r in 0..nrows {
                let f = i128::from(before[r * ncols + pcol]);
                for c in 0..ncols {
                    let want = (i128::from(before[r * ncols + c]) - f * i128::from(piv[c]))
                        .rem_euclid(i128::from(p));
                    assert_eq!(i128::from(mat[r * ncols + c]), want);
                }
            }
        }
    }
}

#[test]
fn interpreter_kernel_matches_native_kernel() {
    let mut rng = Rng(0x0bad_cafe_f00d_1234);
    let checked = KernelBackend::interpreter();
    for p in [65521u32, 3, 2147483647] {
        for _ in 0..6 {
            let (before, nrows, ncols, piv, pcol) = random_case(&mut rng, p, 100);
            let mut native = before.clone();
            let mut interp = before.clone();
            CpuBackend
                .eliminate_rows(&mut native, nrows, ncols, &piv, pcol, p)
                .expect("native launch");
            checked
                .eliminate_rows(&mut interp, nrows, ncols, &piv, pcol, p)
                .expect("interpreter launch without findings");
            assert_eq!(native, interp, "p = {p}, {nrows}x{ncols}");
        }
    }
}

#[test]
fn bad_shapes_are_errors_not_panics() {
    let mut mat = vec![0u32; 6];
    let piv = vec![1u32, 0, 0];
    assert!(CpuBackend
        .eliminate_rows(&mut mat, 3, 3, &piv, 0, 7)
        .is_err());
    assert!(CpuBackend
        .eliminate_rows(&mut mat, 2, 3, &piv, 3, 7)
        .is_err());
}

#[test]
fn the_kernel_f4_launches_is_proved_for_every_size() {
    let k = contract().expect("gauss_elim builds");
    let report = warpsafe_verify::verify(&k, &warpsafe_verify::Config::for_kernel(&k));
    assert!(!report.results.is_empty());
    for r in &report.results {
        assert!(
            matches!(r.verdict, warpsafe_verify::Verdict::Verified),
            "{}: {:?}",
            r.property.name(),
            r.verdict
        );
    }
}
