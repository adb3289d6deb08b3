//! Bounded fuzzing of the spec language: a fixed number of deterministic mutations of the seed corpus
//! (`fuzz/src/spec.rs` names it), none of which may panic, overflow the stack or hang.
//! `WARPSAFE_FUZZ_EXECS` and `WARPSAFE_FUZZ_SEED` change the run; see `fuzz/README.md`.

#[path = "../../../fuzz/bounded/driver.rs"]
mod driver;
#[path = "../../../fuzz/src/spec.rs"]
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
