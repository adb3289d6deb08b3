//! Bounded fuzzing of the polynomial-system format: a fixed number of deterministic mutations of the seed corpus
//! (`fuzz/src/poly.rs` names it), none of which may panic, overflow the stack or hang.
//! `WARPSAFE_FUZZ_EXECS` and `WARPSAFE_FUZZ_SEED` change the run; see `fuzz/README.md`.

#[path = "../../../../fuzz/bounded/driver.rs"]
mod driver;
#[path = "../../../../fuzz/src/poly.rs"]
mod entry;

#[test]
fn bounded_fuzz() {
    driver::run(&driver::Target {
        name: "poly",
        seeds: entry::SEEDS,
        extensions: entry::EXTENSIONS,
        dictionary: entry::DICTIONARY,
        execs: 20000,
        entry: entry::run,
    });
}

/// Found by the fuzzer: `x^2 +(((…` five thousand deep overflowed the stack.
#[test]
fn deep_nesting_is_an_error() {
    for n in [300, 5000, 100_000] {
        let text = format!("x,y\n65521\nx^2 +{}y{}\n", "(".repeat(n), ")".repeat(n));
        let e = warpsafe_groebner::parse_system(&text).expect_err("too deep");
        assert!(e.message.contains("nested too deeply"), "{e}");
        assert_eq!((e.line, e.column), (3, 6 + 256));
    }
    let legal = format!("x,y\n65521\nx^2 +{}y{}\n", "(".repeat(200), ")".repeat(200));
    let s = warpsafe_groebner::parse_system(&legal).expect("200 levels parse");
    assert_eq!(s.polys[0].to_text(&s.vars), "x^2 + y");
}
