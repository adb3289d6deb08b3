//! `warpsafe check-perm`: the permission-annotation checker (`warpsafe-perm`).

use crate::cli::{PermArgs, VerifyFormat as Format};
use crate::exit::{CliError, CLEAN, FINDINGS, UNKNOWN, USAGE};
use warpsafe_perm::Verdict;

/// Checks each file's annotations; exit 2 if any file does not parse, else 1 if any is
/// violated, else 3 if any is unknown, else 0.
pub fn run(args: &PermArgs) -> Result<u8, CliError> {
    let mut reports = vec![];
    let mut rows = vec![];
    let mut parse_error = false;
    let mut failed = vec![];
    let mut failed_results = vec![];
    let mut files_ok = vec![];
    for path in &args.files {
        let started = std::time::Instant::now();
        let report = check_file(path, args.kernel.as_deref())?;
        let seconds = started.elapsed().as_secs_f64();
        match report {
            Err(e) => {
                if args.files.len() == 1 {
                    return Err(e);
                }
                failed_results.push(error_result(path, &e));
                failed.push(crate::exit::error_json(&e));
                parse_error = true;
                rows.push((
                    path.display().to_string(),
                    "error".to_string(),
                    0,
                    0,
                    0,
                    seconds,
                ));
            }
            Ok(r) => {
                let count = |v: Verdict| r.obligations.iter().filter(|o| o.verdict == v).count();
                rows.push((
                    path.display().to_string(),
                    r.verdict.as_str().to_string(),
                    count(Verdict::Verified),
                    count(Verdict::Violated),
                    count(Verdict::Unknown),
                    seconds,
                ));
                if args.format == Format::Human {
                    print_human(&path.display().to_string(), &r);
                }
                files_ok.push(path.display().to_string());
                reports.push(r);
            }
        }
    }
    if args.format == Format::Sarif {
        let results = files_ok
            .iter()
            .zip(&reports)
            .flat_map(|(file, r)| results(file, r))
            .chain(failed_results)
            .collect();
        let subject = match args.files.as_slice() {
            [one] => one.display().to_string(),
            _ => format!("{} files", args.files.len()),
        };
        println!(
            "{}",
            crate::sarif::render_check("check-perm", &subject, results)
        );
    } else if args.format == Format::Json {
        match reports.as_slice() {
            [one] if args.files.len() == 1 => crate::report::print_json(one)?,
            all => {
                // Files that do not parse appear as `{"error": …, "file": …, "span": …}`.
                let mut items: Vec<serde_json::Value> = vec![];
                for r in all {
                    items.push(serde_json::to_value(r).map_err(|e| {
                        CliError::usage(format!("cannot serialise the report: {e}"))
                    })?);
                }
                items.extend(failed);
                crate::report::print_json(&items)?
            }
        }
    } else if args.files.len() > 1 {
        println!();
        println!(
            "{:<48} {:<9} {:>8} {:>8} {:>7} {:>8}",
            "file", "verdict", "verified", "violated", "unknown", "seconds"
        );
        for (file, verdict, ok, bad, open, secs) in &rows {
            println!("{file:<48} {verdict:<9} {ok:>8} {bad:>8} {open:>7} {secs:>8.2}");
        }
    }
    let any = |v: Verdict| reports.iter().any(|r| r.verdict == v);
    Ok(if parse_error {
        USAGE
    } else if any(Verdict::Violated) {
        FINDINGS
    } else if any(Verdict::Unknown) {
        UNKNOWN
    } else {
        CLEAN
    })
}

/// One SARIF result per obligation that is not verified: violated `error` (with its
/// counterexample), unknown `note` (with its reason), at the obligation's line of `file`.
fn results(file: &str, r: &warpsafe_perm::Report) -> Vec<serde_json::Value> {
    let mut out: Vec<serde_json::Value> = r
        .obligations
        .iter()
        .filter(|o| o.verdict != Verdict::Verified)
        .map(|o| {
            let (level, word) = match o.verdict {
                Verdict::Violated => ("error", "violated"),
                _ => ("note", "unknown"),
            };
            let mut text = format!("{} {word} (kernel `{}`): {}", o.check, r.kernel, o.what);
            if let Some(why) = &o.reason {
                text.push_str(&format!("; {why}"));
            }
            if let Some(c) = &o.counterexample {
                text.push_str(&format!("; counterexample: {c}"));
            }
            crate::sarif::at_line(file, o.line, "permission", level, text)
        })
        .collect();
    // A kernel with no obligation at all is unknown (nothing was shown): say so.
    if r.obligations.is_empty() && r.verdict == Verdict::Unknown {
        out.push(crate::sarif::at_line(
            file,
            0,
            "permission",
            "note",
            format!("kernel `{}`: no permission obligation to check", r.kernel),
        ));
    }
    out
}

/// The result of a file that does not parse (several files: the others are still checked).
fn error_result(path: &std::path::Path, e: &CliError) -> serde_json::Value {
    let line = match e {
        CliError::Parse { errors, .. } => errors.first().map_or(0, |l| l.line),
        _ => 0,
    };
    let file = path.display().to_string();
    crate::sarif::at_line(&file, line, "error", "error", e.to_string())
}

/// The report of one file, or (after printing it) why its annotations or code do not parse.
fn check_file(
    path: &std::path::Path,
    kernel: Option<&str>,
) -> Result<Result<warpsafe_perm::Report, CliError>, CliError> {
    let src = std::fs::read_to_string(path).map_err(|e| CliError::io(path, e))?;
    let file = path.display().to_string();
    match warpsafe_perm::check_named(&src, kernel) {
        Ok(r) => Ok(Ok(r)),
        Err(e) => {
            let text = warpsafe_ir::SourceFile::new(file.clone(), src.clone());
            let span = e.span().filter(|s| !s.is_dummy());
            let (line, column) = span.map_or((0, 0), |s| text.line_col(s.lo));
            if line > 0 {
                eprintln!("{file}:{line}: error: {e}");
            } else {
                eprintln!("{file}: error: {e}");
            }
            Ok(Err(CliError::Parse {
                file,
                errors: vec![crate::exit::Located {
                    message: e.to_string(),
                    line,
                    column,
                    span: span.map(|s| crate::exit::ByteSpan { lo: s.lo, hi: s.hi }),
                    note: None,
                }],
            }))
        }
    }
}

/// One report as a table of obligations.
fn print_human(file: &str, report: &warpsafe_perm::Report) {
    println!("{file}: kernel `{}`", report.kernel);
    println!(
        "{:<11} {:<10} {:>5}  {:<9} what",
        "check", "method", "line", "verdict"
    );
    for o in &report.obligations {
        println!(
            "{:<11} {:<10} {:>5}  {:<9} {}",
            o.check,
            "annotation",
            o.line,
            o.verdict.as_str(),
            o.what
        );
        if let Some(r) = &o.reason {
            println!("{:<11} {:<10} {:>5}  {:<9}   -> {r}", "", "", "", "");
        }
        if let Some(c) = &o.counterexample {
            println!(
                "{:<11} {:<10} {:>5}  {:<9}   -> counterexample: {c}",
                "", "", "", ""
            );
        }
    }
    println!(
        "method annotation: each obligation is proved by z3 from the annotations, for one \
         arbitrary thread (two for redistribution and uniformity) and every block size"
    );
    println!("verdict: {}", report.verdict.as_str());
    println!("assuming:");
    for a in &report.assumptions {
        println!("  - {a}");
    }
}
