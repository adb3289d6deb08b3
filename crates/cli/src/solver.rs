//! The SMT solver the proving commands need: chosen (`--solver`, `--second-opinion`, or
//! `$WARPSAFE_SOLVER`) and checked once, before the command starts, so that a missing solver
//! is an error (exit 2) and never a verdict.
//!
//! Every engine that talks to a solver (verify, functional, induct, perm) starts it through
//! `warpsafe-smt`: z3 (or `$WARPSAFE_Z3`) by default, cvc5 (or `$WARPSAFE_CVC5`) when chosen.

use crate::cli::{BenchKind, Command, SolverArgs, VerifyFormat};
use crate::exit::CliError;
use clap::ValueEnum;
use std::io::ErrorKind;
use std::process::{Command as Process, Stdio};
use warpsafe_smt::Solver;

/// The message for a missing z3.
pub const MISSING: &str = "z3 not found; run scripts/setup.sh";

/// A solver as `--solver` names it.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverName {
    /// z3 (the default).
    Z3,
    /// cvc5.
    Cvc5,
}

impl From<SolverName> for Solver {
    fn from(s: SolverName) -> Solver {
        match s {
            SolverName::Z3 => Solver::Z3,
            SolverName::Cvc5 => Solver::Cvc5,
        }
    }
}

/// Applies `--solver` (else `$WARPSAFE_SOLVER`) and `--second-opinion` to every engine's
/// queries; a `$WARPSAFE_SOLVER` that names no solver is a usage error.
pub fn configure(args: &SolverArgs) -> Result<(), CliError> {
    let chosen = match args.solver {
        Some(s) => Some(Solver::from(s)),
        None => warpsafe_smt::solver_from_env().map_err(CliError::usage)?,
    };
    if let Some(s) = chosen {
        warpsafe_smt::set_solver(s);
    }
    if args.second_opinion {
        warpsafe_smt::set_second_opinion(true);
    }
    Ok(())
}

/// True when `cmd` decides its answer with z3: `verify`, `prove` (unless launch flags fix one
/// configuration, which the exact symbolic engine decides alone), `check-perm`, `groebner
/// --explain` (it verifies the dense kernel), `bench verify` and `bench suite`. `equiv`, `validate`, `run`, `bench scans` (the interval abstraction
/// alone) and the rest need no solver.
pub fn needed_by(cmd: &Command) -> bool {
    match cmd {
        Command::Verify(_) | Command::CheckPerm(_) => true,
        Command::Groebner(args) => args.explain && args.format == VerifyFormat::Human,
        Command::Prove(args) => {
            let l = &args.sym.launch;
            let fixed = l.grid.is_some()
                || l.block.is_some()
                || !l.args.is_empty()
                || !l.lens.is_empty()
                || !l.bufs.is_empty();
            args.all_sizes || !fixed
        }
        Command::Bench(b) => matches!(b.which, BenchKind::Verify { .. } | BenchKind::Suite { .. }),
        _ => false,
    }
}

/// Ok when the chosen solver starts (z3 unless `--solver cvc5`), and the other one too with
/// `--second-opinion`; otherwise the usage error that names the fix.
pub fn require_z3() -> Result<(), CliError> {
    let s = warpsafe_smt::settings();
    require(s.solver, &format!("--solver {}", s.solver))?;
    if s.second_opinion {
        require(s.solver.other(), "--second-opinion")?;
    }
    Ok(())
}

/// Ok when `solver` starts; `why` names the flag that needs it.
fn require(solver: Solver, why: &str) -> Result<(), CliError> {
    if solver == Solver::Z3 {
        return check(&solver.program());
    }
    match solver.installed() {
        Ok(_) => Ok(()),
        Err(_) => Err(CliError::usage(missing(solver, why))),
    }
}

/// `--solver cvc5: cvc5 is not installed; apt-get install cvc5`, with the override variable
/// when one names the program.
fn missing(solver: Solver, why: &str) -> String {
    let mut m = format!("{why}: {solver} is not installed; apt-get install {solver}");
    let program = solver.program();
    if program != solver.name() {
        m.push_str(&format!(
            " (`{program}`, named by $WARPSAFE_{}, does not run)",
            solver.name().to_uppercase()
        ));
    }
    m
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
    fn the_flags_parse_and_a_missing_cvc5_names_the_fix() {
        let cli = Cli::try_parse_from(["warpsafe", "verify", "k.cu", "--solver", "cvc5"]);
        let cli = cli.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cli.solver.solver, Some(SolverName::Cvc5));
        assert!(!cli.solver.second_opinion);
        let cli = Cli::try_parse_from(["warpsafe", "--second-opinion", "bench", "verify"]);
        assert!(cli.unwrap_or_else(|e| panic!("{e}")).solver.second_opinion);
        assert!(Cli::try_parse_from(["warpsafe", "verify", "k.cu", "--solver", "yices"]).is_err());
        assert!(missing(Solver::Cvc5, "--solver cvc5")
            .starts_with("--solver cvc5: cvc5 is not installed; apt-get install cvc5"));
    }

    #[test]
    fn a_missing_program_is_the_setup_message() {
        match check("warpsafe-no-such-solver") {
            Err(CliError::Usage(m)) => assert_eq!(m, MISSING),
            other => panic!("{other:?}"),
        }
    }
}
