//! `warpsafe check-perm`: the permission-annotation checker (`warpsafe-perm`).

use crate::cli::{Format, PermArgs};
use crate::exit::{CliError, CLEAN, FINDINGS, USAGE};
use warpsafe_perm::Verdict;

/// Exit code for a report with an undecided obligation.
const UNKNOWN: u8 = 3;

/// Checks the file's annotations; exit 0 verified, 1 violated, 3 unknown, 2 parse error.
pub fn run(args: &PermArgs) -> Result<u8, CliError> {
    let src = std::fs::read_to_string(&args.file).map_err(|e| CliError::io(&args.file, e))?;
    let file = args.file.display().to_string();
    let report = match warpsafe_perm::check(&src) {
        Ok(r) => r,
        Err(e) => {
            let at = e
                .span()
                .map(|s| warpsafe_ir::SourceFile::new(file.clone(), src.clone()).line(s));
            match at {
                Some(line) if line > 0 => eprintln!("{file}:{line}: error: {e}"),
                _ => eprintln!("{file}: error: {e}"),
            }
            return Ok(USAGE);
        }
    };
    match args.format {
        Format::Json => crate::report::print_json(&report)?,
        Format::Human => {
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
    }
    Ok(match report.verdict {
        Verdict::Verified => CLEAN,
        Verdict::Violated => FINDINGS,
        Verdict::Unknown => UNKNOWN,
    })
}
