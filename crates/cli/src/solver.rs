//! The SMT solver the proving commands need: checked once, before the command starts, so that
//! a missing z3 is an error (exit 2) and never a verdict.
//!
//! Every engine that talks to a solver (verify, functional, induct, perm) starts the `z3`
//! found on `PATH`; there is no override variable, so neither is there one here.

use crate::cli::{BenchKind, Command, Format};
use crate::exit::CliError;
use std::io::ErrorKind;
use std::process::{Command as Process, Stdio};

/// The message for a missing solver.
pub const MISSING: &str = "z3 not found; run scripts/setup.sh";

/// True when `cmd` decides its answer with z3: `verify`, `prove` (unless launch flags fix one
/// configuration, which the exact symbolic engine decides alone), `check-perm`, `groebner
/// --explain` (it verifies the dense kernel), `bench verify` and `bench suite`. `equiv`, `validate`, `run`, `bench scans` (the interval abstraction
/// alone) and the rest need no solver.
pub fn needed_by(cmd: &Command) -> bool {
    match cmd {
        Command::Verify(_) | Command::CheckPerm(_) => true,
        Command::Groebner(args) => args.explain && args.format == Format::Human,
        Command::Prove(args) => {
            let l = &args.sym.launch;
            let fixed =
                l.grid.is_some() || l.block.is_some() || !l.args.is_empty() || !l.lens.is_empty();
            args.all_sizes || !fixed
        }
        Command::Bench(b) => matches!(b.which, BenchKind::Verify { .. } | BenchKind::Suite { .. }),
        _ => false,
    }
}

/// Ok when `z3` starts; otherwise the usage error that names the fix.
pub fn require_z3() -> Result<(), CliError> {
    check("z3")
}

fn check(program: &str) -> Result<(), CliError> {
    let status = Process::new(program)
        .arg("-version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(CliError::usage(format!(
            "`{program} -version` failed ({s}); run scripts/setup.sh"
        ))),
        Err(e) if e.kind() == ErrorKind::NotFound => Err(CliError::usage(MISSING)),
        Err(e) => Err(CliError::usage(format!(
            "cannot run {program} ({e}); run scripts/setup.sh"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use clap::Parser;

    fn needs(args: &[&str]) -> bool {
        let mut all = vec!["warpsafe"];
        all.extend(args);
        match Cli::try_parse_from(all) {
            Ok(cli) => needed_by(&cli.command),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn the_proving_commands_need_a_solver() {
        assert!(needs(&["verify", "k.cu"]));
        assert!(needs(&["check-perm", "k.cu"]));
        assert!(needs(&["prove", "k.cu", "--spec", "s"]));
        assert!(needs(&["prove", "--all-sizes", "k.cu", "--spec", "s"]));
        assert!(needs(&[
            "prove",
            "--all-sizes",
            "k.cu",
            "--spec",
            "s",
            "--arg",
            "n=3"
        ]));
        assert!(needs(&["bench", "verify"]));
        assert!(needs(&["bench", "suite"]));
        assert!(needs(&["groebner", "s.txt", "--explain"]));
    }

    #[test]
    fn the_others_do_not() {
        assert!(!needs(&["prove", "k.cu", "--spec", "s", "--arg", "n=3"]));
        assert!(!needs(&["prove", "k.cu", "--spec", "s", "--block", "32"]));
        assert!(!needs(&["run", "k.cu"]));
        assert!(!needs(&["equiv", "a.cu", "b.cu"]));
        assert!(!needs(&["validate", "k.cu"]));
        assert!(!needs(&["bench", "equiv"]));
        assert!(!needs(&["bench", "interp"]));
        assert!(!needs(&["bench", "scans"]));
        assert!(!needs(&["groebner", "s.txt"]));
    }

    #[test]
    fn a_missing_program_is_the_setup_message() {
        match check("warpsafe-no-such-solver") {
            Err(CliError::Usage(m)) => assert_eq!(m, MISSING),
            other => panic!("{other:?}"),
        }
    }
}
