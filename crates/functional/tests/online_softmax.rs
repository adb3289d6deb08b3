//! Online softmax for every size: a running maximum from `-INFINITY` and sums rescaled by
//! `exp(m_old - m_new)` are proved against the softmax spec for every row length; the twins
//! that drop the rescale, or misuse the maximum, are never proved.

use std::path::Path;
use warpsafe_equiv::Spec;
use warpsafe_functional::{prove_all_sizes, Options, Outcome};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).expect(rel)
}

fn prove(src: &str, spec: &str) -> Outcome {
    let module = warpsafe_cuda_front::compile(src).expect("parses");
    let spec = Spec::parse(spec).expect("spec parses");
    prove_all_sizes(&module.kernels[0], &spec, &Options::default())
}

fn show(o: &Outcome) -> String {
    let mut s = format!("{} {:?}\n", o.verdict, o.reason);
    for ob in &o.obligations {
        s.push_str(&format!(
            "  {} {} {} {:?} {:.2}s\n",
            ob.verdict, ob.kind, ob.what, ob.reason, ob.seconds
        ));
    }
    s
}

fn z3() -> bool {
    let ok = warpsafe_smt::available();
    if !ok {
        eprintln!("z3 not found: skipped");
    }
    ok
}

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
