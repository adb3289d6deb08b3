//! Bounded fuzzing of the spec language: a fixed number of deterministic mutations of the seed corpus
//! (`fuzz/src/spec.rs` names it), none of which may panic, overflow the stack or hang.
//! `WARPSAFE_FUZZ_EXECS` and `WARPSAFE_FUZZ_SEED` change the run; see `fuzz/README.md`.

#[path = "../../../../fuzz/bounded/driver.rs"]
mod driver;
#[path = "../../../../fuzz/src/spec.rs"]
mod entry;

#[test]
fn bounded_fuzz() {
    driver::run(&driver::Target {
        name: "spec",
        seeds: entry::SEEDS,
        extensions: entry::EXTENSIONS,
        dictionary: entry::DICTIONARY,
        execs: 20000,
        entry: entry::run,
    });
}

fn parse_err(text: &str) -> warpsafe_equiv::SpecError {
    match warpsafe_equiv::Spec::parse(text) {
        Ok(_) => panic!("parsed: {text:.80}"),
        Err(e) => {
            assert!(e.span.lo <= e.span.hi && e.span.hi <= text.len(), "{e}");
            e
        }
    }
}

/// Found by the fuzzer: `c[i] = (((…` ten thousand deep overflowed the stack.
#[test]
fn deep_nesting_is_an_error() {
    let n = 100_000;
    for text in [
        format!("c[i] = {}1{} for i < n", "(".repeat(n), ")".repeat(n)),
        format!("c[i] = {}1 for i < n", "-".repeat(n)),
        format!("c[{}0{}] = 1", "x[".repeat(n), "]".repeat(n)),
        format!("c[0] = {}x[0]{}", "sum(k < 2, ".repeat(n), ")".repeat(n)),
        format!("c[0] = {}", vec!["x[0]"; n].join(" + ")),
        format!("c[0] = {}", vec!["x[0]"; n].join(" * ")),
    ] {
        let e = parse_err(&text);
        assert!(e.message.contains("nested too deeply"), "{e}");
    }
    let legal = format!("c[i] = {}x[i]{} for i < n", "(".repeat(60), ")".repeat(60));
    assert!(warpsafe_equiv::Spec::parse(&legal).is_ok());
}

/// An exponent that would make an exact rational of unbounded size is rejected when parsed,
/// not expanded when the spec is evaluated.
#[test]
fn huge_and_malformed_numbers_are_errors() {
    let e = parse_err("y[0] = 1e2147483647 * x[0]");
    assert!(e.message.contains("exponent beyond 1000"), "{e}");
    assert_eq!((e.span.lo, e.span.hi), (7, 19));
    assert!(parse_err("y[0] = 1e-99999999999")
        .message
        .contains("exponent"));
    assert!(parse_err("y[0] = 1.2.3")
        .message
        .contains("malformed number"));
    assert!(parse_err("y[0] = 2e").message.contains("missing exponent"));
    assert!(warpsafe_equiv::Spec::parse("y[0] = 1e300 * x[0] + 2.5e-3f + .5").is_ok());
}

/// Found by the fuzzer: a decimal of 200 000 digits took seconds to convert to an exact
/// rational, once per kernel the spec was checked against.
#[test]
fn numbers_of_too_many_digits_are_errors() {
    let long = format!("0.{}1", "0".repeat(200_000));
    let text = format!("y[i] = {long} * x[i] for i < n");
    let e = parse_err(&text);
    assert!(e.message.contains("more than 10000 digits"), "{e}");
    assert_eq!((e.span.lo, e.span.hi), (7, 7 + long.len()));
    let ok = format!("y[i] = 0.{}1 * x[i] for i < n", "0".repeat(9_990));
    assert!(warpsafe_equiv::Spec::parse(&ok).is_ok());
}

/// Found by the fuzzer once specs were evaluated: `max(j < 8, max(j < 8, …))` thirty deep is
/// 8^30 evaluation steps; the run's budget stops it with an error at the reduction.
#[test]
fn nested_reductions_stop_at_the_step_budget() {
    let src = "//--blockDim=4 --gridDim=1\n//@ arg n = 4\n//@ len(x) = n\n//@ len(y) = n\n\
               __global__ void k(int n, const float* x, float* y) { y[threadIdx.x] = x[0]; }";
    let k = warpsafe_equiv::kernel_from_source(src, None).expect("kernel");
    let text = format!(
        "y[i] = {}x[j % 4]{} for i < n",
        "max(j < 8, ".repeat(30),
        ")".repeat(30)
    );
    let spec = warpsafe_equiv::Spec::parse(&text).expect("parses");
    let cfg = warpsafe_equiv::ExecConfig {
        max_block_instructions: 1 << 14,
        ..warpsafe_equiv::ExecConfig::default()
    };
    match warpsafe_equiv::prove_spec(&k, &spec, &cfg) {
        Err(warpsafe_equiv::EquivError::Spec(e)) => {
            assert!(
                e.message.contains("more than 16384 evaluation steps"),
                "{e}"
            );
            assert!(text[e.span.lo..e.span.hi].starts_with("max(j < 8, "), "{e}");
        }
        other => panic!("{other:?}"),
    }
}
