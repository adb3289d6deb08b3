//! Exit codes and the CLI's error type, decided in one place.

use std::process::ExitCode;

/// Nothing found (warnings allowed).
pub const CLEAN: u8 = 0;
/// At least one finding.
pub const FINDINGS: u8 = 1;
/// Bad usage, unreadable input, or a kernel that does not parse.
pub const USAGE: u8 = 2;
/// Something could not be decided: `unknown` (a step limit, a timeout, an unsupported
/// construct) or `possible` (an unconfirmed counterexample).
pub const UNKNOWN: u8 = 3;
/// `prove`: the all-sizes proof failed and the spec was proved for the stated configuration
/// only (a CI script can tell it from 0, every size).
pub const PROVED_FOR_CONFIGURATION: u8 = 4;

/// An error that stops a command before it produces a report.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Wrong flags or values.
    #[error("{0}")]
    Usage(String),
    /// A source file failed to parse; the diagnostics were already rendered to stderr.
    #[error("{file}: {count} error(s)")]
    Parse {
        /// The file.
        file: String,
        /// How many diagnostics were printed.
        count: usize,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The path involved.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
}

impl CliError {
    /// A usage error from any message.
    pub fn usage(msg: impl Into<String>) -> CliError {
        CliError::Usage(msg.into())
    }

    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, source: std::io::Error) -> CliError {
        CliError::Io {
            path: path.display().to_string(),
            source,
        }
    }
}

/// Turns a command result into the process exit code, printing errors to stderr.
pub fn finish(result: Result<u8, CliError>) -> ExitCode {
    match result {
        Ok(code) => ExitCode::from(code),
        Err(CliError::Parse { .. }) => ExitCode::from(USAGE),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(USAGE)
        }
    }
}
