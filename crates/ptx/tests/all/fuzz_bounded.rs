//! Bounded fuzzing of the PTX parser, printer and lowering: a fixed number of deterministic mutations of the seed corpus
//! (`fuzz/src/ptx.rs` names it), none of which may panic, overflow the stack or hang.
//! `WARPSAFE_FUZZ_EXECS` and `WARPSAFE_FUZZ_SEED` change the run; see `fuzz/README.md`.

#[path = "../../../../fuzz/bounded/driver.rs"]
mod driver;
#[path = "../../../../fuzz/src/ptx.rs"]
mod entry;

#[test]
fn bounded_fuzz() {
    driver::run(&driver::Target {
        name: "ptx",
        seeds: entry::SEEDS,
        extensions: entry::EXTENSIONS,
        dictionary: entry::DICTIONARY,
        execs: 10000,
        entry: entry::run,
    });
}

/// Found by the fuzzer: text without `.version` or `.target` parsed to a module that printed
/// as `.version ` / `.target `, which does not parse back.
#[test]
fn version_and_target_are_required() {
    for (text, missing) in [
        ("", "`.version`"),
        ("// only a comment\n", "`.version`"),
        (".target sm_90\n.address_size 64\n", "`.version`"),
        (".version 9", "`.target`"),
        (".version 9.5\n.address_size 64\n", "`.target`"),
    ] {
        let e = warpsafe_ptx::parse(text).expect_err(text);
        assert!(
            e.message.contains(&format!("missing {missing}")),
            "{text:?}: {e}"
        );
    }
    assert!(warpsafe_ptx::parse(".version 9.5\n.target sm_90\n").is_ok());
}

/// Found by the fuzzer (one million executions): `.reg` among a variable's attributes parsed,
/// then printed as a `.reg` parameter, which does not parse back.
#[test]
fn reg_is_not_a_variable_attribute() {
    let text =
        ".version 9\n.target s\n.entry n(.param .u64 b)\n{\n.shared .align 4 .b8 .reg _[];\n}\n";
    let e = warpsafe_ptx::parse(text).expect_err("`.reg` attribute");
    assert!(
        e.message.contains("`.reg` in a variable declaration"),
        "{e}"
    );
    assert_eq!((e.line, e.column), (5, 22));
    let param = ".version 9\n.target s\n.func f(.reg .b32 .reg x)\n{\nret;\n}\n";
    assert!(warpsafe_ptx::parse(param).is_err());
    let ok = ".version 9\n.target s\n.func f(.reg .b32 x)\n{\nret;\n}\n";
    let m = warpsafe_ptx::parse(ok).expect("a register parameter");
    assert_eq!(warpsafe_ptx::parse(&m.to_string()).expect("reparses"), m);
}

/// Found by the fuzzer: `.reg .pred %p<655362>;` took four seconds to lower, and a few such
/// lines would take minutes and gigabytes; a function declares at most 2^18 registers.
#[test]
fn huge_register_declarations_are_refused_quickly() {
    let ranges: String = (0..100)
        .map(|i| format!(".reg .b32 %r{i}_<1000000>;\n"))
        .collect();
    for regs in [".reg .pred %p<655362>;\n".to_string(), ranges] {
        let text = format!(
            ".version 9.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{{\n{regs}ret;\n}}\n"
        );
        let m = warpsafe_ptx::parse(&text).expect("parses");
        let start = std::time::Instant::now();
        let e = warpsafe_ptx::lower(&m, None).expect_err("too many registers");
        assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
        assert!(
            e.message.contains("more than the 262144 warpsafe lowers"),
            "{e}"
        );
    }
    let fine = ".version 9.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<50000>;\nret;\n}\n";
    let m = warpsafe_ptx::parse(fine).expect("parses");
    assert!(warpsafe_ptx::lower(&m, None).is_ok());
}
