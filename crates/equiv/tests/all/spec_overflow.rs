//! Spec arithmetic never overflows: values beyond 128 bits are exact constants, and an index,
//! bound or extent out of range is a spec error pointing at its text (found by fuzzing,
//! issue 16; each used to panic in debug builds and wrap in release ones).

use std::path::Path;
use warpsafe_equiv::{kernel_from_source, prove_spec, EquivError, ExecConfig, Spec, SpecReport};

const MAX: &str = "170141183460469231731687303715884105727";

fn kernel(name: &str) -> warpsafe_ir::Kernel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/kernels")
        .join(name);
    let src = std::fs::read_to_string(path).expect("example kernel");
    kernel_from_source(&src, None).expect("kernel")
}

fn prove(k: &warpsafe_ir::Kernel, spec: &str) -> Result<SpecReport, EquivError> {
    let spec = Spec::parse(spec).expect("spec parses");
    prove_spec(k, &spec, &ExecConfig::default())
}

/// The spec error of `spec`, with the text its span points at.
fn spec_err(k: &warpsafe_ir::Kernel, spec: &str) -> (String, String) {
    match prove(k, spec) {
        Err(EquivError::Spec(e)) => {
            assert!(e.span.lo <= e.span.hi && e.span.hi <= spec.len(), "{e}");
            (e.message, spec[e.span.lo..e.span.hi].to_string())
        }
        other => panic!("expected a spec error for `{spec}`, got {other:?}"),
    }
}

#[test]
fn values_past_128_bits_are_exact_not_wrapped() {
    let k = kernel("saxpy.cu");
    for spec in [
        format!("y[i] = {MAX} + 1 for i < n"),
        format!("y[i] = -{MAX} - 2 for i < n"),
        format!("y[i] = -(-{MAX} - 1) for i < n"),
        format!("y[i] = (-{MAX} - 1) / -1 for i < n"),
        format!("y[i] = {MAX} * {MAX} * 4 for i < n"),
    ] {
        let r = prove(&k, &spec).expect("evaluates");
        assert_eq!(r.verdict, "different", "{spec}");
        let c = r.counterexample.expect("a counterexample");
        assert!(c.expected.len() > 30, "{spec}: expected {}", c.expected);
    }
    // Exact: 2^127 - 2^127 is 0 (wrapping would have said -2^128 + …), so y = 0 is not y.
    let r = prove(
        &k,
        &format!("y[i] = ({MAX} + 1) - {MAX} - 1 + y[i] for i < n"),
    )
    .unwrap();
    assert_eq!(r.verdict, "different");
    let r = prove(
        &k,
        &format!("y[i] = ({MAX} + 1 - {MAX}) * a * x[i] + y[i] for i < n"),
    );
    assert_eq!(r.expect("evaluates").verdict, "equal");
    // `%` of integers past 128 bits, and `MIN % -1`, are exact.
    let r = prove(
        &k,
        &format!("y[i] = ((({MAX} + 1) * 2) % 3 + (-{MAX} - 1) % -1) * a * x[i] + y[i] for i < n"),
    );
    assert_eq!(r.expect("evaluates").verdict, "equal");
}

#[test]
fn an_index_past_128_bits_is_an_error_not_element_zero() {
    let k = kernel("saxpy.cu");
    let n = "9223372036854775807";
    let (msg, at) = spec_err(&k, &format!("y[0] = x[{n}*{n}*4]"));
    assert!(msg.contains("out of range"), "{msg}");
    assert_eq!(at, format!("{n}*{n}*4"));
    let (msg, at) = spec_err(&k, &format!("y[{MAX} + 1] = 0"));
    assert!(msg.contains("out of range"), "{msg}");
    assert_eq!(at, format!("{MAX} + 1"));
    let (msg, _) = spec_err(&k, &format!("y[i] = x[i - {MAX} - 2] for i < n"));
    assert!(msg.contains("out of range"), "{msg}");
}

#[test]
fn huge_ranges_are_errors() {
    let k = kernel("saxpy.cu");
    let (msg, at) = spec_err(&k, &format!("y[i] = x[i] for i <= {MAX}"));
    assert!(msg.contains("range bound"), "{msg}");
    assert_eq!(at, MAX);
    let (msg, _) = spec_err(&k, &format!("y[i] = x[i] for -{MAX} <= i < {MAX}"));
    assert!(msg.contains("too many elements"), "{msg}");
    let (msg, at) = spec_err(&k, &format!("y[0] = sum(-{MAX} <= i < {MAX}, x[0])"));
    assert!(msg.contains("range too large"), "{msg}");
    assert_eq!(at, MAX);
    let (msg, _) = spec_err(&k, "y[i] = x[i] for i < 18446744073709551616");
    assert!(msg.contains("too many elements"), "{msg}");
    let (msg, _) = spec_err(&k, "y[0] = sum(i <= 18446744073709551615, x[0])");
    assert!(msg.contains("range too large"), "{msg}");
}

#[test]
fn nested_reductions_have_a_step_budget() {
    let k = kernel("saxpy.cu");
    let spec = Spec::parse("y[0] = sum(i < 65536, sum(j < 65536, 1))").unwrap();
    let cfg = ExecConfig {
        max_block_instructions: 1 << 16,
        ..ExecConfig::default()
    };
    match prove_spec(&k, &spec, &cfg) {
        Err(EquivError::Spec(e)) => {
            assert!(
                e.message.contains("more than 65536 evaluation steps"),
                "{e}"
            );
            assert_eq!((e.span.lo, e.span.hi), (22, 39));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn constants_have_a_size_limit() {
    let k = kernel("saxpy.cu");
    let (msg, at) = spec_err(&k, "y[0] = prod(i < 65536, 1e300)");
    assert!(msg.contains("constant of more than 65536 bits"), "{msg}");
    assert_eq!(at, "prod(i < 65536, 1e300)");
}

#[test]
fn shape_extents_are_not_truncated() {
    let k = kernel("matrix_mul.cu");
    let spec = "shape A[n][n]\nshape B[n][n]\nshape C[18446744073709551616][n]\n\
                C[i][j] = sum(k < n, A[i][k] * B[k][j]) for i < n, j < n";
    let (msg, at) = spec_err(&k, spec);
    assert!(msg.contains("extent 18446744073709551616 of `C`"), "{msg}");
    assert_eq!(at, "18446744073709551616");
    let (msg, at) = spec_err(&k, &spec.replace("18446744073709551616", "-1"));
    assert!(msg.contains("extent -1 of `C`"), "{msg}");
    assert_eq!(at, "-1");
    // Extents whose product passes 128 bits: an element past the end, not a wrapped one.
    let u = u64::MAX;
    let spec = format!("shape C[{u}][{u}][{u}]\nC[1][1][0] = 0");
    let (msg, _) = spec_err(&k, &spec);
    assert!(msg.contains("past the end of `C`"), "{msg}");
    let spec = format!("shape C[n][n]\nC[i][j] = A[i * n + j] for {MAX} <= i < n, j < n");
    assert!(prove(&k, &spec).is_ok());
}
