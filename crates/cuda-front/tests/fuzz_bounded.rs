//! Bounded fuzzing of the CUDA-C frontend: a fixed number of deterministic mutations of the seed corpus
//! (`fuzz/src/cuda.rs` names it), none of which may panic, overflow the stack or hang.
//! `WARPSAFE_FUZZ_EXECS` and `WARPSAFE_FUZZ_SEED` change the run; see `fuzz/README.md`.

#[path = "../../../fuzz/bounded/driver.rs"]
mod driver;
#[path = "../../../fuzz/src/cuda.rs"]
mod entry;

#[test]
fn bounded_fuzz() {
    driver::run(&driver::Target {
        name: "cuda",
        seeds: entry::SEEDS,
        extensions: entry::EXTENSIONS,
        dictionary: entry::DICTIONARY,
        execs: 8000,
        entry: entry::run,
    });
}

/// Runs `compile` on `src` and checks it answers within a few seconds (the inputs below took
/// 20 seconds or more before the fix, and a fraction of a second after).
fn compiles_quickly(src: &str) -> bool {
    let start = std::time::Instant::now();
    let ok = warpsafe_cuda_front::compile(src).is_ok();
    let took = start.elapsed();
    assert!(took.as_secs() < 5, "took {took:?}");
    ok
}

/// Each line checked every enclosing `#if`: 100 000 nested groups took 19 s.
#[test]
fn deeply_nested_conditionals_are_linear() {
    let n = 100_000;
    let src = format!(
        "{}__global__ void k(int* a) {{ a[0] = 1; }}\n{}",
        "#if 1\n".repeat(n),
        "#endif\n".repeat(n)
    );
    assert!(compiles_quickly(&src));
    let src = format!("{}#else\n#endif\n", "#if 1\n#elif 0\n".repeat(n / 2));
    assert!(!compiles_quickly(&src));
}

/// Each header expression copied the macro table and the kernel (with every `requires` so far):
/// 5000 macros and 5000 `//@ requires` lines took 21 s.
#[test]
fn many_header_lines_and_macros_are_linear() {
    let mut src = String::new();
    for i in 0..5000 {
        src.push_str(&format!("#define N{i} {i}\n"));
    }
    for i in 0..5000 {
        src.push_str(&format!("//@ requires n >= N{i} - {i}\n"));
    }
    src.push_str("__global__ void k(int* a, int n) {\n");
    for i in 0..2000 {
        src.push_str(&format!("    int v{i} = n + {i};\n"));
    }
    src.push_str("    a[0] = v0;\n}\n");
    assert!(compiles_quickly(&src));
}

/// An unterminated comment or literal was reported as an "unexpected character" quoting the
/// whole rest of the file (found by the fuzzer, whose outcome signatures blew up on them).
#[test]
fn unterminated_comments_and_literals_point_at_their_start() {
    let body = "__global__ void k(int* a) {\n    a[0] = 1;\n}\n";
    for (src, message, marker) in [
        (
            format!("{body}/* never closed\n{body}"),
            "unterminated `/*` comment",
            "/*",
        ),
        (
            format!("{body}\"never closed\n{body}"),
            "unterminated string literal",
            "\"",
        ),
        (
            format!("{body}'x\n{body}"),
            "unterminated character literal",
            "'",
        ),
        (
            format!("{body}#define F(x) x @ x\n"),
            "unexpected character `@`",
            "@",
        ),
        (
            format!("//@ requires n > 0 $\n{body}"),
            "unexpected character `$`",
            "$",
        ),
    ] {
        let errors = warpsafe_cuda_front::compile(&src).expect_err(&src);
        let e = &errors[0];
        assert_eq!(e.message, message, "{src}");
        assert_eq!(Some(e.span.lo as usize), src.find(marker), "{src}");
        assert!(e.span.hi - e.span.lo <= 2, "{src}");
    }
}
