//! `warpsafe check-perm`: the permission-annotation checker (`warpsafe-perm`).

use crate::cli::{Format, PermArgs};
use crate::exit::{CliError, CLEAN, FINDINGS, UNKNOWN, USAGE};
use warpsafe_perm::Verdict;

/// Checks each file's annotations; exit 2 if any file does not parse, else 1 if any is
/// violated, else 3 if any is unknown, else 0.
pub fn run(args: &PermArgs) -> Result<u8, CliError> {
    let mut reports = vec![];
    let mut rows = vec![];
    let mut parse_error = false;
    let mut failed = vec![];
    for path in &args.files {
        let started = std::time::Instant::now();
        let report = check_file(path, args.kernel.as_deref())?;
        let seconds = started.elapsed().as_secs_f64();
        match report {
            Err(e) => {
                if args.files.len() == 1 {
                    return Err(e);
                }
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
                reports.push(r);
            }
        }
    }
    if args.format == Format::Json {
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
