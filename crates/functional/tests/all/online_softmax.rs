//! Online softmax for every size: a running maximum from `-INFINITY` and sums rescaled by
//! `exp(m_old - m_new)` are proved against the softmax spec for every row length; the twins
//! that drop the rescale, or misuse the maximum, are never proved.

use crate::support::{prove_source as prove, read, show, z3};

#[test]
fn online_softmax_row_is_proved_for_every_n() {
    if !z3() {
        return;
    }
    let o = prove(
        &read("examples/equiv/softmax/softmax_online_row.cu"),
        &read("examples/equiv/specs/softmax.spec"),
    );
    println!("{}", show(&o));
    assert_eq!(o.verdict, "proved", "{}", show(&o));
}

#[test]
fn the_twin_without_rescale_is_not_proved() {
    if !z3() {
        return;
    }
    let o = prove(
        &read("examples/equiv/softmax/softmax_online_row_bug_norescale.cu"),
        &read("examples/equiv/specs/softmax.spec"),
    );
    println!("{}", show(&o));
    assert_eq!(o.verdict, "unknown", "{}", show(&o));
}

/// The shipped kernel with `from` replaced by `to`.
fn twin(from: &str, to: &str) -> String {
    let src = read("examples/equiv/softmax/softmax_online_row.cu");
    assert!(src.contains(from), "{from}");
    src.replace(from, to)
}

#[test]
fn planted_bugs_in_the_online_loop_are_not_proved() {
    if !z3() {
        return;
    }
    let spec = read("examples/equiv/specs/softmax.spec");
    let rescale = "s = s * expf(m - mn) + expf(v - mn);";
    for (what, from, to) in [
        (
            "rescale the wrong way",
            rescale,
            "s = s * expf(mn - m) + expf(v - mn);",
        ),
        (
            "terms not shifted",
            rescale,
            "s = s * expf(m - mn) + expf(v);",
        ),
        ("one element short", "i < n; i++) {", "i < n - 1; i++) {"),
        (
            "the maximum dropped at the end",
            "expf(x[row * n + i] - m) / s",
            "expf(x[row * n + i]) / s",
        ),
        (
            "NaN at the first element",
            rescale,
            "s = s * expf(m - mn) + expf(v + m - m - mn);",
        ),
        (
            "-INFINITY stored",
            "y[row * n + i] = expf",
            "y[row * n + i] = -INFINITY + expf",
        ),
    ] {
        let o = prove(&twin(from, to), &spec);
        assert_ne!(o.verdict, "proved", "{what}: {}", show(&o));
        println!("{what}: {:?}", o.reason);
    }
}

#[test]
fn a_maximum_started_at_zero_is_still_softmax() {
    if !z3() {
        return;
    }
    let spec = read("examples/equiv/specs/softmax.spec");
    let o = prove(&twin("float m = -INFINITY;", "float m = 0.0f;"), &spec);
    assert_eq!(o.verdict, "proved", "{}", show(&o));
}
