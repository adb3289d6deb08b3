//! A file with several kernels: `check_named` checks the one asked for, against the
//! annotations written for it (those after the kernel before it), and names the file's kernels
//! when the name is unknown.

use warpsafe_perm::{check, check_named, PermError, Verdict};

const TWO: &str = r#"
//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ thread requires Perm(a[tid], 1)
__global__ void own_cell(float* a, int n) {
    int tid = threadIdx.x;
    a[tid] = 1.0f;
}

//@ requires n == blockDim.x
//@ kernel requires Perm(b[0..n], 1)
//@ thread requires Perm(b[tid], 1)
__global__ void next_cell(float* b, int n) {
    int tid = threadIdx.x;
    if (tid + 1 < n) {
        b[tid + 1] = 2.0f;
    }
}
"#;

#[test]
fn the_named_kernel_is_checked_with_its_own_annotations() {
    let first = check(TWO).expect("checks");
    assert_eq!(first.kernel, "own_cell");
    assert_eq!(first.verdict, Verdict::Verified, "{first:#?}");
    let second = check_named(TWO, Some("next_cell")).expect("checks");
    assert_eq!(second.kernel, "next_cell");
    // Its write to the neighbour's cell is not covered by the permission it holds.
    assert_eq!(second.verdict, Verdict::Violated, "{second:#?}");
    assert!(second
        .obligations
        .iter()
        .any(|o| o.check == "access" && o.verdict == Verdict::Violated));
    // The first kernel's annotations (on `a`) are not the second's.
    assert!(second.obligations.iter().all(|o| !o.what.contains("a[")));
}

#[test]
fn an_unknown_name_lists_the_kernels() {
    let e = check_named(TWO, Some("third")).expect_err("no such kernel");
    assert!(matches!(e, PermError::NoKernelNamed { .. }));
    let text = e.to_string();
    assert!(
        text.contains("own_cell") && text.contains("next_cell"),
        "{text}"
    );
}
