//! `warpsafe bench intake DIR`: how much of a codebase the frontends read, and what stops the
//! rest, grouped by cause.

use crate::cli::Format;
use crate::exit::CliError;
use crate::source;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::SourceFile;

/// One file's outcome.
struct FileIntake {
    /// Kernels clang's road lowered.
    accepted: usize,
    /// Kernels it could not, each with its first error.
    rejected: Vec<(String, FrontError)>,
    /// The whole file failed (clang missing or failing): its first error.
    failed: Option<FrontError>,
    /// Kernels the subset parser lowered (0 when it rejects the file).
    subset: usize,
    text: SourceFile,
}

/// Runs the intake over every `.cu` under `dir` and prints the table.
pub fn bench(dir: &Path, format: Format, svg: Option<&Path>) -> Result<u8, CliError> {
    if warpsafe_clang_front::find_clang().is_none() {
        return Err(CliError::usage(
            "clang not found; run scripts/setup.sh (or set WARPSAFE_CLANG)",
        ));
    }
    let mut files = vec![];
    walk(dir, &mut files).map_err(|e| CliError::io(dir, e))?;
    files.sort();
    if files.is_empty() {
        return Err(CliError::usage(format!("{}: no .cu files", dir.display())));
    }
    let opts = source::clang_options();
    let start = Instant::now();
    let mut results = vec![];
    let task = crate::progress::Task::bar("bench intake", files.len() as u64);
    for f in &files {
        task.message(f.display().to_string());
        task.inc(1);
        let bytes = std::fs::read(f).map_err(|e| CliError::io(f, e))?;
        let text = warpsafe_clang_front::source_text(&bytes);
        let subset = warpsafe_cuda_front::compile(&text).map_or(0, |m| m.kernels.len());
        let file = SourceFile::new(f.display().to_string(), text);
        let r = match warpsafe_clang_front::compile_file(f, &file.text, &opts) {
            Ok(c) => FileIntake {
                accepted: c.module.kernels.len(),
                rejected: c
                    .rejected
                    .into_iter()
                    .filter_map(|r| Some((r.kernel, r.errors.into_iter().next()?)))
                    .collect(),
                failed: None,
                subset,
                text: file,
            },
            Err(errs) => FileIntake {
                accepted: 0,
                rejected: vec![],
                failed: errs.into_iter().next(),
                subset,
                text: file,
            },
        };
        crate::progress::say(|| {
            format!(
                "{}: {} kernel(s) accepted, {} rejected{}",
                f.display(),
                r.accepted,
                r.rejected.len(),
                if r.failed.is_some() {
                    ", clang failed"
                } else {
                    ""
                }
            )
        });
        results.push(r);
    }
    drop(task);
    let seconds = start.elapsed().as_secs_f64();
    let mut causes: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for r in &results {
        let errs = r.rejected.iter().map(|(_, e)| e).chain(&r.failed);
        for e in errs {
            let entry = causes
                .entry(cause(&e.message))
                .or_insert_with(|| (0, location(&r.text, e)));
            entry.0 += 1;
        }
    }
    let accepted: usize = results.iter().map(|r| r.accepted).sum();
    let rejected: usize = results.iter().map(|r| r.rejected.len()).sum();
    let failed_files = results.iter().filter(|r| r.failed.is_some()).count();
    let clean_files = results
        .iter()
        .filter(|r| r.failed.is_none() && r.rejected.is_empty() && r.accepted > 0)
        .count();
    let subset_files = results.iter().filter(|r| r.subset > 0).count();
    let subset_kernels: usize = results.iter().map(|r| r.subset).sum();
    let mut causes: Vec<(String, usize, String)> =
        causes.into_iter().map(|(c, (n, at))| (c, n, at)).collect();
    causes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    match format {
        Format::Json => {
            let doc = serde_json::json!({
                "dir": dir.display().to_string(),
                "files": files.len(),
                "seconds": seconds,
                "clang": {
                    "files_fully_accepted": clean_files,
                    "files_failed": failed_files,
                    "kernels_accepted": accepted,
                    "kernels_rejected": rejected,
                },
                "subset": { "files_accepted": subset_files, "kernels_accepted": subset_kernels },
                "causes": causes.iter().map(|(c, n, at)| serde_json::json!({
                    "cause": c, "count": n, "example": at,
                })).collect::<Vec<_>>(),
            });
            println!("{doc:#}");
        }
        Format::Human => {
            println!(
                "intake of {}: {} .cu files ({seconds:.1} s)",
                dir.display(),
                files.len()
            );
            println!();
            println!("| frontend | files read whole | kernels accepted | kernels left out | files failed |");
            println!("| --- | ---: | ---: | ---: | ---: |");
            println!(
                "| clang | {clean_files} / {} | {accepted} | {rejected} | {failed_files} |",
                files.len()
            );
            println!(
                "| subset | {subset_files} / {} | {subset_kernels} | | |",
                files.len()
            );
            if !causes.is_empty() {
                println!();
                println!("| count | cause (clang road) | first seen |");
                println!("| ---: | --- | --- |");
                for (c, n, at) in &causes {
                    println!("| {n} | {} | {at} |", c.replace('|', "\\|"));
                }
            }
        }
    }
    if let Some(path) = svg {
        let counts: Vec<(String, f64)> = std::iter::once(("accepted".to_string(), accepted as f64))
            .chain(causes.iter().map(|(c, n, _)| (c.clone(), *n as f64)))
            .collect();
        let title = format!(
            "warpsafe bench intake {}: kernels accepted, and per cause the kernels left out (a file clang failed on counts once)",
            dir.display()
        );
        std::fs::write(
            path,
            crate::html::bar_chart_in(&title, &counts, "kernels", 0),
        )
        .map_err(|e| CliError::io(path, e))?;
    }
    Ok(0)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if dir.is_file() {
        out.push(dir.to_path_buf());
        return Ok(());
    }
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "cu") {
            out.push(p);
        }
    }
    Ok(())
}

/// A message with its quoted names blanked, so that the same construct groups together
/// (`unsupported: member access `.x`` and `… `.w`` are one cause).
fn cause(message: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<char> = None;
    for c in message.chars() {
        match quote {
            Some(q) if c == q => {
                out.push('…');
                out.push(c);
                quote = None;
            }
            Some(_) => {}
            None if c == '`' || c == '\'' => {
                out.push(c);
                quote = Some(c);
            }
            None => out.push(c),
        }
    }
    if quote.is_some() {
        return message.to_string();
    }
    out
}

fn location(file: &SourceFile, e: &FrontError) -> String {
    if e.span.is_dummy() {
        return match &e.note {
            Some(n) => format!("{} ({n})", file.name),
            None => file.name.clone(),
        };
    }
    let (line, _) = file.line_col(e.span.lo);
    format!("{}:{line}", file.name)
}

#[cfg(test)]
mod tests {
    use super::cause;

    #[test]
    fn causes_group_by_construct_not_name() {
        assert_eq!(
            cause("unsupported: member access `.x` (structs)"),
            cause("unsupported: member access `.w` (structs)")
        );
        assert_eq!(
            cause("clang: unknown type name 'foo'"),
            "clang: unknown type name '…'"
        );
        assert_eq!(cause("a `b"), "a `b");
    }
}
