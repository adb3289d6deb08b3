//! The dense elimination step is pluggable: a replacement backend is the one F4 calls, and the
//! basis does not depend on it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use warpsafe_groebner::dense::eliminate_rows_reference;
use warpsafe_groebner::{groebner, katsura, Algorithm, DenseBackend, Options};

#[derive(Default)]
struct Counting(AtomicUsize);

impl DenseBackend for Counting {
    fn name(&self) -> &str {
        "counting"
    }

    fn eliminate_rows(
        &self,
        mat: &mut [u32],
        nrows: usize,
        ncols: usize,
        pivot_row: &[u32],
        pivot_col: usize,
        p: u32,
    ) {
        self.0.fetch_add(1, Ordering::Relaxed);
        eliminate_rows_reference(mat, nrows, ncols, pivot_row, pivot_col, p);
    }
}

#[test]
fn f4_uses_the_configured_dense_backend() {
    let sys = katsura(6);
    let backend = Arc::new(Counting::default());
    let opts = Options {
        dense: backend.clone(),
        ..Options::default()
    };
    let b = groebner(&sys, Algorithm::F4, &opts).expect("f4");
    assert!(backend.0.load(Ordering::Relaxed) > 0);
    let cpu = groebner(&sys, Algorithm::F4, &Options::default()).expect("f4");
    assert_eq!(b.polys, cpu.polys);
    let single = Options {
        threads: Some(1),
        ..Options::default()
    };
    assert_eq!(
        groebner(&sys, Algorithm::F4, &single).expect("f4").polys,
        cpu.polys
    );
}
