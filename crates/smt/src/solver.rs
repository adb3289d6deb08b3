//! Which solver program answers: z3 (the default) or cvc5. Both are driven through SMT-LIB;
//! what differs (command lines, version flags, z3-only commands) is decided here and in
//! [`crate::dialect`].

use std::fmt;
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::sync::OnceLock;
use std::time::Duration;

/// A solver warpsafe can drive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Solver {
    /// z3 (`z3 -smt2 -in`).
    #[default]
    Z3,
    /// cvc5 (`cvc5 --lang smt2 --incremental`).
    Cvc5,
}

impl Solver {
    /// Both solvers, the default first.
    pub const ALL: [Solver; 2] = [Solver::Z3, Solver::Cvc5];

    /// The solver's name as the CLI spells it (`z3`, `cvc5`).
    pub fn name(self) -> &'static str {
        match self {
            Solver::Z3 => "z3",
            Solver::Cvc5 => "cvc5",
        }
    }

    /// The other solver (the one a second opinion asks).
    pub fn other(self) -> Solver {
        match self {
            Solver::Z3 => Solver::Cvc5,
            Solver::Cvc5 => Solver::Z3,
        }
    }

    /// The program to start: `$WARPSAFE_Z3` / `$WARPSAFE_CVC5` when set, else the name
    /// (found on `PATH`).
    pub fn program(self) -> String {
        let var = match self {
            Solver::Z3 => "WARPSAFE_Z3",
            Solver::Cvc5 => "WARPSAFE_CVC5",
        };
        std::env::var(var)
            .ok()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| self.name().to_string())
    }

    /// The command line of an interactive process (models on; limits come per check).
    pub(crate) fn interactive_args(self) -> Vec<String> {
        let args: &[&str] = match self {
            Solver::Z3 => &["-smt2", "-in"],
            Solver::Cvc5 => &["--lang", "smt2", "--incremental", "--produce-models"],
        };
        args.iter().map(|s| s.to_string()).collect()
    }

    /// The command line of a one-shot run reading a script on stdin: a soft limit per check
    /// of `timeout`, and a hard limit of `hard` for the whole run.
    pub(crate) fn oneshot_args(self, timeout: Duration, hard: Duration) -> Vec<String> {
        let ms = crate::process::millis(timeout);
        match self {
            Solver::Z3 => vec![
                "-smt2".into(),
                "-in".into(),
                format!("-t:{ms}"),
                format!("-T:{}", hard.as_secs().max(1)),
            ],
            Solver::Cvc5 => {
                let mut a = self.interactive_args();
                a.push(format!("--tlimit-per={ms}"));
                a.push(format!("--tlimit={}", crate::process::millis(hard)));
                a
            }
        }
    }

    /// The solver's version line (`Z3 version 4.8.12 - 64 bit`, `This is cvc5 version
    /// 1.0.3`), or `None` when it does not run; asked once per process.
    pub fn version(self) -> Option<&'static str> {
        static Z3: OnceLock<Option<String>> = OnceLock::new();
        static CVC5: OnceLock<Option<String>> = OnceLock::new();
        let (cell, flag) = match self {
            Solver::Z3 => (&Z3, "-version"),
            Solver::Cvc5 => (&CVC5, "--version"),
        };
        cell.get_or_init(|| {
            let out = Command::new(self.program())
                .arg(flag)
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .output()
                .ok()
                .filter(|o| o.status.success())?;
            let text = String::from_utf8_lossy(&out.stdout);
            let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
            Some(line.to_string())
        })
        .as_deref()
    }

    /// Ok when the solver runs; otherwise what to do about it (`cvc5 is not installed;
    /// apt-get install cvc5`).
    pub fn installed(self) -> Result<&'static str, String> {
        self.version().ok_or_else(|| {
            let program = self.program();
            if program == self.name() {
                format!(
                    "{0} is not installed; apt-get install {0} (or run scripts/setup.sh)",
                    self.name()
                )
            } else {
                format!(
                    "{} is not installed: `{program} --version` does not run",
                    self.name()
                )
            }
        })
    }
}

impl fmt::Display for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Solver {
    type Err = String;

    fn from_str(s: &str) -> Result<Solver, String> {
        Solver::ALL
            .into_iter()
            .find(|x| x.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown solver `{s}` (expected z3 or cvc5)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_each_has_an_other() {
        for s in Solver::ALL {
            assert_eq!(s.name().parse::<Solver>(), Ok(s));
            assert_eq!(s.other().other(), s);
            assert_ne!(s.other(), s);
        }
        assert_eq!("CVC5".parse::<Solver>(), Ok(Solver::Cvc5));
        assert!("yices".parse::<Solver>().is_err());
    }

    #[test]
    fn command_lines_carry_the_limits() {
        let t = Duration::from_millis(1500);
        let z3 = Solver::Z3.oneshot_args(t, Duration::from_secs(5));
        assert!(z3.contains(&"-t:1500".to_string()) && z3.contains(&"-T:5".to_string()));
        let cvc5 = Solver::Cvc5.oneshot_args(t, Duration::from_secs(5));
        assert!(cvc5.contains(&"--tlimit-per=1500".to_string()), "{cvc5:?}");
        assert!(cvc5.contains(&"--tlimit=5000".to_string()), "{cvc5:?}");
        assert!(cvc5.contains(&"--produce-models".to_string()));
    }
}
