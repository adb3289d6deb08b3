//! The dense elimination step is pluggable: a replacement backend is the one F4 calls, and the
//! basis does not depend on it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use warpsafe_groebner::dense::eliminate_rows_reference;
use warpsafe_groebner::{
    cyclic, groebner, katsura, Algorithm, DenseBackend, DenseError, KernelBackend, Options,
};

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
    ) -> Result<(), DenseError> {
        self.0.fetch_add(1, Ordering::Relaxed);
        eliminate_rows_reference(mat, nrows, ncols, pivot_row, pivot_col, p);
        Ok(())
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

#[test]
fn f4_gives_the_same_basis_with_the_kernel_in_the_interpreter() {
    for sys in [cyclic(4), katsura(4)] {
        let opts = Options {
            dense: Arc::new(KernelBackend::interpreter()),
            ..Options::default()
        };
        let checked = groebner(&sys, Algorithm::F4, &opts).expect("f4");
        let native = groebner(&sys, Algorithm::F4, &Options::default()).expect("f4");
        assert_eq!(checked.polys, native.polys);
    }
}

#[test]
fn a_failing_backend_is_an_error() {
    struct Broken;
    impl DenseBackend for Broken {
        fn name(&self) -> &str {
            "broken"
        }
        fn eliminate_rows(
            &self,
            _: &mut [u32],
            _: usize,
            _: usize,
            _: &[u32],
            _: usize,
            _: u32,
        ) -> Result<(), DenseError> {
            Err(DenseError {
                backend: "broken".into(),
                message: "no device".into(),
            })
        }
    }
    let opts = Options {
        dense: Arc::new(Broken),
        ..Options::default()
    };
    let e = groebner(&katsura(5), Algorithm::F4, &opts).expect_err("the backend fails");
    assert!(e.to_string().contains("no device"), "{e}");
}
