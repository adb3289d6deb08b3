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
    #[error("{file}: {} error(s)", errors.len())]
    Parse {
        /// The file.
        file: String,
        /// Each diagnostic, located.
        errors: Vec<Located>,
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

/// One front-end diagnostic with its place in the file, for JSON error reports.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Located {
    /// What is wrong.
    pub message: String,
    /// 1-based line of the span's start (0 when the error has no place in the file).
    pub line: usize,
    /// 1-based column of the span's start.
    pub column: usize,
    /// Byte offsets of the span in the file.
    pub span: Option<ByteSpan>,
    /// A further note, when the front end gave one.
    pub note: Option<String>,
}

/// A byte range of a source file.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct ByteSpan {
    /// First byte.
    pub lo: u32,
    /// One past the last byte.
    pub hi: u32,
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

/// True when the command line asks for `--format json` or `--format sarif`: errors are then
/// also reported as JSON on stdout, so a script that parses the output always gets JSON.
pub fn json_requested(args: &[String]) -> bool {
    let machine = |v: &str| matches!(v, "json" | "sarif");
    args.iter().enumerate().any(|(i, a)| {
        a.strip_prefix("--format=").is_some_and(machine)
            || (a == "--format" && args.get(i + 1).is_some_and(|v| machine(v)))
    })
}

/// Turns a command result into the process exit code, printing errors to stderr (rendered)
/// and, when `json`, as `{"error": …, "span": …}` on stdout.
pub fn finish(result: Result<u8, CliError>, json: bool) -> ExitCode {
    let e = match result {
        Ok(code) => return ExitCode::from(code),
        Err(e) => e,
    };
    if !matches!(e, CliError::Parse { .. }) {
        eprintln!("error: {e}");
    }
    if json {
        println!("{}", error_json(&e));
    }
    ExitCode::from(USAGE)
}

/// The JSON form of an error: `error` (the message), `span` (the first diagnostic's byte
/// range, or null), and for parse errors `file` and every diagnostic under `errors`.
pub fn error_json(e: &CliError) -> serde_json::Value {
    match e {
        CliError::Parse { file, errors } => serde_json::json!({
            "error": e.to_string(),
            "file": file,
            "span": errors.first().and_then(|d| d.span),
            "errors": errors,
        }),
        CliError::Io { path, .. } => serde_json::json!({
            "error": e.to_string(),
            "file": path,
            "span": null,
        }),
        CliError::Usage(_) => serde_json::json!({ "error": e.to_string(), "span": null }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn json_is_requested_by_either_spelling() {
        assert!(json_requested(&args(&[
            "verify", "k.cu", "--format", "json"
        ])));
        assert!(json_requested(&args(&["verify", "--format=sarif", "k.cu"])));
        assert!(!json_requested(&args(&[
            "verify", "k.cu", "--format", "human"
        ])));
        assert!(!json_requested(&args(&["run", "json"])));
    }

    #[test]
    fn errors_become_json_with_their_spans() {
        let e = CliError::Parse {
            file: "k.cu".into(),
            errors: vec![Located {
                message: "unknown function `f`".into(),
                line: 3,
                column: 5,
                span: Some(ByteSpan { lo: 40, hi: 41 }),
                note: None,
            }],
        };
        let v = error_json(&e);
        assert_eq!(v["error"], "k.cu: 1 error(s)");
        assert_eq!(v["span"]["lo"], 40);
        assert_eq!(v["errors"][0]["line"], 3);
        let u = error_json(&CliError::usage("bad --grid"));
        assert_eq!(u["error"], "bad --grid");
        assert!(u["span"].is_null());
    }
}
