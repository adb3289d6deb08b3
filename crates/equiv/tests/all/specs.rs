//! Spec proofs for example kernels, refuted wrong specs, and spec errors with spans.

use std::path::Path;
use warpsafe_equiv::{kernel_from_source, prove_spec, BlockSel, EquivError, ExecConfig, Spec};

fn file(p: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples")
            .join(p),
    )
    .expect("example file")
}

fn prove(kernel: &str, spec: &str) -> warpsafe_equiv::SpecReport {
    let k = kernel_from_source(&file(kernel), None).expect("kernel");
    let spec = Spec::parse(&file(spec)).expect("spec parses");
    let cfg = ExecConfig {
        blocks: BlockSel::All,
        ..ExecConfig::default()
    };
    prove_spec(&k, &spec, &cfg).expect("runs")
}

#[test]
fn saxpy_meets_its_spec() {
    assert_eq!(
        prove("kernels/saxpy.cu", "equiv/specs/saxpy.spec").verdict,
        "equal"
    );
    let r = prove("kernels/saxpy.cu", "equiv/specs/saxpy_wrong.spec");
    assert_eq!(r.verdict, "different");
    assert!(r.counterexample.is_some());
}

#[test]
fn vector_add_meets_its_spec() {
    assert_eq!(
        prove("kernels/vector_add.cu", "equiv/specs/vector_add.spec").verdict,
        "equal"
    );
    assert_eq!(
        prove("kernels/vector_add.cu", "equiv/specs/vector_add_wrong.spec").verdict,
        "different"
    );
}

#[test]
fn matrix_mul_meets_its_spec() {
    assert_eq!(
        prove("kernels/matrix_mul.cu", "equiv/specs/matrix_mul.spec").verdict,
        "equal"
    );
    assert_eq!(
        prove("kernels/matrix_mul_tiled.cu", "equiv/specs/matrix_mul.spec").verdict,
        "equal"
    );
    assert_eq!(
        prove("kernels/matrix_mul.cu", "equiv/specs/matrix_mul_wrong.spec").verdict,
        "different"
    );
}

#[test]
fn family_specs() {
    assert_eq!(
        prove(
            "equiv/reduce/reduce3_sequential.cu",
            "equiv/specs/reduce.spec"
        )
        .verdict,
        "equal"
    );
    assert_eq!(
        prove(
            "equiv/softmax/softmax_online.cu",
            "equiv/specs/softmax.spec"
        )
        .verdict,
        "equal"
    );
}

#[test]
fn a_buggy_kernel_reports_its_finding() {
    let r = prove(
        "kernels/vector_add_bug_oob.cu",
        "equiv/specs/vector_add.spec",
    );
    assert_eq!(r.verdict, "oob");
}

#[test]
fn bad_specs_are_span_errors() {
    for (text, at) in [
        ("y[i] = a * x[i] + for i < n", 18),
        ("y[i] = a $ x[i]", 9),
        ("y[i] = sum(j < i, x[j]", 22),
    ] {
        let e = Spec::parse(text).expect_err(text);
        assert_eq!(e.span.lo, at, "{text}: {e}");
    }
    let k = kernel_from_source(&file("kernels/saxpy.cu"), None).expect("kernel");
    for text in [
        "z[i] = x[i] for i < n",
        "y[i] = q * x[i] for i < n",
        "y[i] = x[i + n] for i < n",
        "x[i] = y[i] for i < n",
    ] {
        let spec = Spec::parse(text).expect("parses");
        match prove_spec(&k, &spec, &ExecConfig::default()) {
            Err(EquivError::Spec(e)) => assert!(e.span.hi <= text.len(), "{text}: {e}"),
            other => panic!("{text}: {other:?}"),
        }
    }
}
