//! Annotation extraction and parse errors on whole source files, with spans.

use warpsafe_perm::{extract, AnnotKind, SpecKind};

const ROTATE: &str = include_str!("../../../../examples/perm/rotate.cu");

#[test]
fn rotation_example_annotations_parse() {
    let ex = extract(ROTATE).expect("annotations parse");
    let kinds: Vec<AnnotKind> = ex.annotations.iter().map(|a| a.kind).collect();
    assert!(kinds.contains(&AnnotKind::KernelRequires));
    assert!(kinds.contains(&AnnotKind::ThreadEnsures));
    assert!(kinds.contains(&AnnotKind::BarrierEnsures));
    assert_eq!(ex.frontend_source.len(), ROTATE.len());
    warpsafe_cuda_front::compile(&ex.frontend_source).expect("blanked source compiles");
    for a in &ex.annotations {
        assert!(ROTATE[a.span.range()].starts_with("//@"));
    }
}

#[test]
fn quantified_permission_keeps_its_span() {
    let src = "//@ kernel requires forall i in 0..n: Perm(a[i], 1)\n";
    let ex = extract(src).expect("parses");
    let f = &ex.annotations[0].formula;
    assert!(matches!(f.kind, SpecKind::Forall(..)));
    assert_eq!(&src[f.span.range()], "forall i in 0..n: Perm(a[i], 1)");
}

#[test]
fn malformed_annotations_are_errors_with_spans() {
    let cases = [
        ("//@ thread requires Perm(a[tid] 1)\n", "1"),
        ("//@ barrier ensures Perm(a[tid], 1) &&\n", ""),
        ("//@ invariant forall i 0..n: true\n", "0"),
        ("//@ kernel require Perm(a[0], 1)\n", "kernel"),
    ];
    for (src, at) in cases {
        let err = extract(src).expect_err(src);
        let span = err.span().expect("error has a span");
        assert_eq!(&src[span.range()], at, "{src}: {err}");
    }
}
