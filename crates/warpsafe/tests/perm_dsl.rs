//! `#[perm(...)]` permission annotations on `#[kernel]`s, checked by `warpsafe-perm`
//! (`check_attributes`) against the kernels' IR: the right rotation and the in-place
//! Kogge–Stone scan verify, broken twins are rejected at the right line of this file, a
//! malformed formula is an error pointing into its attribute, and the annotations change
//! neither the IR nor the generated CUDA.

use warpsafe::ir::{Kernel, Stmt, StmtKind};
use warpsafe::prelude::*;
use warpsafe_perm::{check_attributes, PermError, Report, Verdict};

/// This file: the text the kernels' IR spans and annotation offsets point into.
const SOURCE: &str = include_str!("perm_dsl.rs");

/// Right rotation by one within a block (`examples/perm/rotate.cu`): each thread reads its
/// left neighbour into a local, waits at the barrier, then writes its own cell. `n` is the
/// block size, so the header's `requires n == blockDim.x` holds by construction.
#[kernel]
#[perm(kernel_requires = "Perm(a[0..blockDim.x], 1)")]
#[perm(
    kernel_ensures = "Perm(a[0..blockDim.x], 1) && forall i in 0..blockDim.x: a[i] == old(a[(i + blockDim.x - 1) % blockDim.x])"
)]
#[perm(
    thread_requires = "Perm(a[(tid + blockDim.x - 1) % blockDim.x], 1)",
    thread_ensures = "Perm(a[tid], 1) && a[tid] == old(a[(tid + n - 1) % n])"
)]
fn rotate(a: &mut [i32]) {
    let tid = thread_idx().x;
    let n = block_dim().x;
    let v = a[(tid + n - 1) % n];
    #[perm(barrier_ensures = "Perm(a[tid], 1)")]
    sync_threads();
    a[tid] = v;
}

/// `rotate` without annotations.
#[kernel]
fn rotate_plain(a: &mut [i32]) {
    let tid = thread_idx().x;
    let n = block_dim().x;
    let v = a[(tid + n - 1) % n];
    sync_threads();
    a[tid] = v;
}

/// Broken twin (wrong barrier specification): each thread keeps a neighbour's cell after the
/// barrier, so its write of its own cell is not covered.
#[kernel]
#[perm(kernel_requires = "Perm(a[0..blockDim.x], 1)")]
#[perm(thread_requires = "Perm(a[(tid + blockDim.x - 1) % blockDim.x], 1)")]
#[perm(thread_ensures = "Perm(a[tid], 1)")]
fn rotate_bad_barrier_spec(a: &mut [i32]) {
    let tid = thread_idx().x;
    let n = block_dim().x;
    let v = a[(tid + n - 1) % n];
    #[perm(barrier_ensures = "Perm(a[(tid + 1) % blockDim.x], 1)")]
    sync_threads();
    a[tid] = v; // MARK bad-spec write
}

/// Broken twin (write without permission): the thread writes its own cell before the
/// barrier, while it holds only its neighbour's.
#[kernel]
#[perm(kernel_requires = "Perm(a[0..blockDim.x], 1)")]
#[perm(thread_requires = "Perm(a[(tid + blockDim.x - 1) % blockDim.x], 1)")]
#[perm(thread_ensures = "Perm(a[tid], 1)")]
fn rotate_write_no_perm(a: &mut [i32]) {
    let tid = thread_idx().x;
    let n = block_dim().x;
    let v = a[(tid + n - 1) % n];
    a[tid] = 0; // MARK unpermitted write
    #[perm(barrier_ensures = "Perm(a[tid], 1)")]
    sync_threads();
    a[tid] = v;
}

/// A malformed formula (an unbalanced bracket).
#[kernel]
#[perm(thread_requires = "Perm(a[tid], 1)")]
fn rotate_malformed(a: &mut [i32]) {
    let tid = thread_idx().x;
    let v = a[tid];
    #[perm(barrier_ensures = "Perm(a[tid, 1)")] // MARK malformed
    sync_threads();
    a[tid] = v;
}

/// Kogge–Stone inclusive scan in place (`examples/perm/kogge_stone.cu`): the permissions
/// change every iteration (read shares before the first barrier, the own cell after the
/// second), and the loop invariant gives them back at the loop head.
#[kernel]
#[perm(kernel_requires = "Perm(a[0..blockDim.x], 1)")]
#[perm(kernel_ensures = "Perm(a[0..blockDim.x], 1)")]
#[perm(
    thread_requires = "Perm(a[tid], 1)",
    thread_ensures = "Perm(a[tid], 1)"
)]
fn kogge_stone(a: &mut [i32]) {
    let tid = thread_idx().x as i32;
    let n = block_dim().x as i32;
    let mut offset = 1;
    #[perm(invariant = "offset >= 1 && Perm(a[tid], 1)")]
    while offset < n {
        #[perm(
            barrier_ensures = "Perm(a[tid], read) && (tid >= offset ==> Perm(a[tid - offset], read))"
        )]
        sync_threads();
        let mut v = 0;
        if tid >= offset {
            v = a[tid - offset];
        }
        #[perm(barrier_ensures = "Perm(a[tid], 1)")]
        sync_threads();
        a[tid] = a[tid] + v;
        offset = offset * 2;
    }
}

/// `kogge_stone` without annotations.
#[kernel]
fn kogge_stone_plain(a: &mut [i32]) {
    let tid = thread_idx().x as i32;
    let n = block_dim().x as i32;
    let mut offset = 1;
    while offset < n {
        sync_threads();
        let mut v = 0;
        if tid >= offset {
            v = a[tid - offset];
        }
        sync_threads();
        a[tid] = a[tid] + v;
        offset = offset * 2;
    }
}

/// Checks a kernel's annotations against its IR, over this file.
fn check(ir: &Kernel, permissions: &[(&str, &str, usize)]) -> Result<Report, PermError> {
    check_attributes(ir, SOURCE, permissions)
}

/// The 1-based line of this file that carries `// MARK {mark}`.
fn marked_line(mark: &str) -> usize {
    let tag = format!("// MARK {mark}");
    let lines: Vec<usize> = SOURCE
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_end().ends_with(&tag))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(lines.len(), 1, "one line is marked `{tag}`");
    lines[0]
}

/// The 1-based line of byte offset `at` in this file.
fn line_of(at: usize) -> usize {
    SOURCE[..at].matches('\n').count() + 1
}

/// The obligations a report does not verify, for assertion messages.
fn failures(r: &Report) -> Vec<String> {
    r.obligations
        .iter()
        .filter(|o| o.verdict != Verdict::Verified)
        .map(|o| format!("{} line {}: {} ({:?})", o.check, o.line, o.what, o.reason))
        .collect()
}

/// The IR printed, with the kernel's name replaced by `K`.
fn printed(k: &Kernel) -> String {
    k.to_string().replace(&k.name, "K")
}

/// Every statement of `body`, nested ones included, in order.
fn all_stmts(body: &[Stmt]) -> Vec<&Stmt> {
    let mut out = vec![];
    for s in body {
        out.push(s);
        match &s.kind {
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                out.extend(all_stmts(then_body));
                out.extend(all_stmts(else_body));
            }
            StmtKind::For {
                init, update, body, ..
            } => {
                out.extend(all_stmts(init));
                out.extend(all_stmts(body));
                out.extend(all_stmts(update));
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                out.extend(all_stmts(body))
            }
            _ => {}
        }
    }
    out
}

#[test]
fn source_is_this_file() {
    assert!(rotate::source_file().ends_with("perm_dsl.rs"));
}

#[test]
fn permissions_lists_the_annotations_with_offsets_into_this_file() {
    let ps = rotate::permissions();
    let kinds: Vec<&str> = ps.iter().map(|p| p.0).collect();
    assert_eq!(
        kinds,
        [
            "kernel requires",
            "kernel ensures",
            "thread requires",
            "thread ensures",
            "barrier ensures"
        ]
    );
    assert_eq!(ps[0].1, "Perm(a[0..blockDim.x], 1)");
    for (module, ps) in [
        ("rotate", rotate::permissions()),
        ("kogge_stone", kogge_stone::permissions()),
        ("rotate_malformed", rotate_malformed::permissions()),
    ] {
        for (kind, formula, at) in ps {
            assert_eq!(
                &SOURCE[*at..*at + formula.len()],
                *formula,
                "{module}: `{kind}` offset"
            );
            assert_eq!(&SOURCE[*at - 1..*at], "\"", "{module}: inside the literal");
        }
    }
    assert!(rotate_plain::permissions().is_empty());
    let kinds: Vec<&str> = kogge_stone::permissions().iter().map(|p| p.0).collect();
    assert_eq!(
        kinds,
        [
            "kernel requires",
            "kernel ensures",
            "thread requires",
            "thread ensures",
            "invariant",
            "barrier ensures",
            "barrier ensures"
        ]
    );
}

#[test]
fn rotate_verifies() {
    let r = check(rotate::ir(), rotate::permissions()).expect("annotations parse");
    assert_eq!(r.verdict, Verdict::Verified, "{:#?}", failures(&r));
    assert_eq!(r.kernel, "rotate");
}

#[test]
fn rotate_with_a_wrong_barrier_spec_is_rejected_at_the_write() {
    let r = check(
        rotate_bad_barrier_spec::ir(),
        rotate_bad_barrier_spec::permissions(),
    )
    .expect("annotations parse");
    assert_eq!(r.verdict, Verdict::Violated);
    let line = marked_line("bad-spec write");
    assert!(
        r.obligations
            .iter()
            .any(|o| o.verdict == Verdict::Violated && o.check == "access" && o.line == line),
        "expected `access` violated at line {line}: {:#?}",
        failures(&r)
    );
}

#[test]
fn rotate_writing_without_permission_is_rejected_at_the_write() {
    let r = check(
        rotate_write_no_perm::ir(),
        rotate_write_no_perm::permissions(),
    )
    .expect("annotations parse");
    assert_eq!(r.verdict, Verdict::Violated);
    let line = marked_line("unpermitted write");
    let first = r
        .obligations
        .iter()
        .find(|o| o.verdict == Verdict::Violated)
        .expect("a violated obligation");
    assert_eq!(
        (first.check, first.line),
        ("access", line),
        "{:#?}",
        failures(&r)
    );
}

#[test]
fn a_malformed_formula_is_an_error_inside_its_attribute_string() {
    let err = check(rotate_malformed::ir(), rotate_malformed::permissions())
        .expect_err("an unbalanced bracket does not parse");
    let span = err.span().expect("the error has a span");
    let (_, formula, at) = rotate_malformed::permissions()
        .iter()
        .find(|p| p.0 == "barrier ensures")
        .copied()
        .expect("the barrier annotation");
    assert_eq!(formula, "Perm(a[tid, 1)");
    let (lo, hi) = (span.lo as usize, span.hi as usize);
    assert!(
        at <= lo && lo <= hi && hi <= at + formula.len(),
        "{err}: span {lo}..{hi} is not within the formula at {at}"
    );
    assert_eq!(line_of(lo), marked_line("malformed"));
}

#[test]
fn annotations_do_not_change_the_ir_or_the_generated_cuda() {
    for (annotated, plain) in [
        (rotate::ir(), rotate_plain::ir()),
        (kogge_stone::ir(), kogge_stone_plain::ir()),
    ] {
        assert_eq!(printed(annotated), printed(plain));
        let cuda = |k: &Kernel| {
            warpsafe_cuda::generate(k)
                .expect("codegen")
                .replace(&k.name, "K")
        };
        assert_eq!(cuda(annotated), cuda(plain));
    }
    // The spans of annotated statements start at the statements, not at their attributes.
    for k in [rotate::ir(), kogge_stone::ir()] {
        for s in all_stmts(&k.body) {
            let text = &SOURCE[s.span.range()];
            match &s.kind {
                StmtKind::SyncThreads => assert_eq!(text, "sync_threads()"),
                StmtKind::While { .. } | StmtKind::For { .. } | StmtKind::DoWhile { .. } => {
                    assert!(text.starts_with("while"), "{text}")
                }
                _ => assert!(!text.starts_with('#'), "{text}"),
            }
        }
    }
}

#[test]
fn annotated_kernels_run_as_before() {
    let n = 64;
    let input: Vec<i32> = (0..n).map(|i| i * 3 + 1).collect();
    let mut a = input.clone();
    let mut b = input.clone();
    rotate::launch(&Backend::cpu(), 1, n as u32, &mut a).expect("clean run");
    rotate_plain::launch(&Backend::cpu(), 1, n as u32, &mut b).expect("clean run");
    assert_eq!(a, b);
    assert_eq!(a[0], input[n as usize - 1]);
    assert_eq!(a[5], input[4]);

    let mut a = input.clone();
    kogge_stone::launch(&Backend::cpu(), 1, n as u32, &mut a).expect("clean run");
    let scan: Vec<i32> = input
        .iter()
        .scan(0, |s, x| {
            *s += x;
            Some(*s)
        })
        .collect();
    assert_eq!(a, scan);
}

#[test]
fn kogge_stone_with_a_loop_invariant_verifies() {
    let r = check(kogge_stone::ir(), kogge_stone::permissions()).expect("annotations parse");
    assert_eq!(r.verdict, Verdict::Verified, "{:#?}", failures(&r));
}

/// `rotate` with the block size as a parameter, stated with `requires`: a `requires` at the
/// top of the body is the checker's precondition, like the header's `//@ requires`.
#[kernel]
#[perm(kernel_requires = "Perm(a[0..n], 1)")]
#[perm(
    thread_requires = "Perm(a[(tid + n - 1) % n], 1)",
    thread_ensures = "Perm(a[tid], 1) && a[tid] == old(a[(tid + n - 1) % n])"
)]
fn rotate_n(a: &mut [i32], n: u32) {
    requires(n == block_dim().x);
    let tid = thread_idx().x;
    let v = a[(tid + n - 1) % n];
    #[perm(barrier_ensures = "Perm(a[tid], 1)")]
    sync_threads();
    a[tid] = v;
    assert_kernel(a[tid] == v);
}

#[test]
fn a_requires_at_the_top_is_a_precondition_and_assertions_are_checked() {
    let r = check(rotate_n::ir(), rotate_n::permissions()).expect("checks");
    assert_eq!(r.verdict, Verdict::Verified, "{:#?}", failures(&r));
    assert!(r
        .obligations
        .iter()
        .any(|o| o.check == "functional" && o.what.contains("assert")));
}
