//! Bounded fuzzing of the permission annotations: a fixed number of deterministic mutations of the seed corpus
//! (`fuzz/src/perm.rs` names it), none of which may panic, overflow the stack or hang.
//! `WARPSAFE_FUZZ_EXECS` and `WARPSAFE_FUZZ_SEED` change the run; see `fuzz/README.md`.

#[path = "../../../../fuzz/bounded/driver.rs"]
mod driver;
#[path = "../../../../fuzz/src/perm.rs"]
mod entry;

#[test]
fn bounded_fuzz() {
    driver::run(&driver::Target {
        name: "perm",
        seeds: entry::SEEDS,
        extensions: entry::EXTENSIONS,
        dictionary: entry::DICTIONARY,
        execs: 20000,
        entry: entry::run,
    });
}

fn formula_err(text: &str) -> String {
    match warpsafe_perm::parse_formula(text, 0) {
        Ok(_) => panic!("parsed: {text:.80}"),
        Err(e) => {
            let s = e.span().expect("a span");
            assert!(s.lo <= s.hi && s.hi as usize <= text.len(), "{e}");
            e.to_string()
        }
    }
}

/// Found by the fuzzer: `Perm(Perm(Perm(…` nearly four thousand deep overflowed the stack.
#[test]
fn deep_nesting_is_an_error() {
    let n = 100_000;
    for text in [
        format!("{}a[0], 1){}", "Perm(".repeat(3718), ", 1)".repeat(3717)),
        format!("{}1{}", "(".repeat(n), ")".repeat(n)),
        format!("{}true", "!".repeat(n)),
        format!("{}1", "-".repeat(n)),
        format!("{}true", "forall i in 0..n: ".repeat(n / 10)),
        format!("{}true", "true ==> ".repeat(n / 10)),
        format!("{}1", "true ? 1 : ".repeat(n / 10)),
        format!("{}1{}", "old(".repeat(n), ")".repeat(n)),
        format!("{}0{}", "a[".repeat(n), "]".repeat(n)),
        vec!["a[0]"; n].join(" + "),
        vec!["true"; n].join(" && "),
    ] {
        let e = formula_err(&text);
        assert!(e.contains("nested too deeply"), "{e}");
    }
    let src = format!(
        "//@ thread requires {}Perm(a[tid], 1){}\n__global__ void k(int* a) {{}}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let e = warpsafe_perm::extract(&src).expect_err("too deep");
    assert!(e.to_string().contains("nested too deeply"), "{e}");
    let legal = format!("{}Perm(a[tid], 1){}", "(".repeat(40), ")".repeat(40));
    assert!(warpsafe_perm::parse_formula(&legal, 0).is_ok());
}

const MAX: &str = "170141183460469231731687303715884105727";

/// `examples/perm/rotate.cu` with `extra` conjoined to its thread precondition.
fn rotate_with(extra: &str) -> warpsafe_perm::Report {
    let src = include_str!("../../../../examples/perm/rotate.cu").replace(
        "//@ thread requires Perm(a[(tid + n - 1) % n], 1)",
        &format!("//@ thread requires Perm(a[(tid + n - 1) % n], 1) && {extra}"),
    );
    assert!(src.contains(extra));
    warpsafe_perm::check(&src).expect("checks")
}

/// Found by fuzzing (issue 16): constant folding overflowed (a panic in debug builds, a
/// wrapped and so wrong constant in release ones). Literals past 128 bits are left to the
/// solver, which computes exactly: `MAX + 1 > 0` holds, `MAX + 1 < 0` does not.
#[test]
fn constant_folding_does_not_overflow() {
    use warpsafe_perm::Verdict;
    let n = "9223372036854775807";
    for (extra, verdict) in [
        (format!("{MAX} + 1 > 0"), Verdict::Verified),
        (format!("{n} * {n} * 4 > 0"), Verdict::Verified),
        (format!("0 - {MAX} - 1 - 1 < 0"), Verdict::Verified),
        (format!("(0 - {MAX} - 1) / (0 - 1) > 0"), Verdict::Verified),
        (format!("(0 - {MAX} - 1) % (0 - 1) == 0"), Verdict::Verified),
        (format!("{MAX} + 1 < 0"), Verdict::Violated),
        (format!("{n} * {n} * 4 == 0"), Verdict::Violated),
    ] {
        let r = rotate_with(&extra);
        assert_eq!(r.verdict, verdict, "{extra}: {r:#?}");
    }
}
