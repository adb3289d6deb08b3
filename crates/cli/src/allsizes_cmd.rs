//! `warpsafe prove --all-sizes`: for a kernel in which each output element has one writer, the
//! per-thread proof of [`warpsafe_functional`]; for barrier-phased scans and reductions, the
//! interval abstraction over every block size up to 1024, then an inductive proof for every
//! size. One line per obligation says which method settled it. JSON: the per-thread outcome
//! when it proves the kernel, else the barrier-loop outcome.

use crate::cli::VerifyFormat as Format;
use crate::exit::{CliError, CLEAN, FINDINGS, UNKNOWN};
use crate::report::print_json;
use crate::sarif;
use crate::source;
use serde::Serialize;
use std::path::{Path, PathBuf};
use warpsafe_equiv::Spec;
use warpsafe_induct::{prove_all_sizes, Method, Outcome, Verdict};
use warpsafe_ir::SourceFile;

/// `prove --all-sizes` proves for every launch: a flag that fixes one (or budgets a
/// one-configuration check) would be ignored, so it is refused by name.
pub fn check_flags(sym: &crate::cli::SymArgs) -> Result<(), CliError> {
    let l = &sym.launch;
    let given = [
        ("--grid", l.grid.is_some()),
        ("--block", l.block.is_some()),
        ("--arg", !l.args.is_empty()),
        ("--buf", !l.bufs.is_empty()),
        ("--len", !l.lens.is_empty()),
        ("--init", !l.inits.is_empty()),
        ("--shared-bytes", l.shared_bytes.is_some()),
        ("--lockstep-warps", l.lockstep_warps),
        ("--block0-only", sym.block0_only),
        ("--all-blocks", sym.all_blocks),
        ("--max-memory", sym.max_memory.is_some()),
        ("--timeout", sym.timeout.is_some()),
    ];
    match given.iter().find(|(_, on)| *on) {
        Some((flag, _)) => Err(CliError::usage(format!(
            "prove --all-sizes proves every launch and takes no {flag}: drop --all-sizes to prove \
             one configuration"
        ))),
        None => Ok(()),
    }
}

/// Proves kernel `kernel` (the first when `None`) of `file` race-free and (with a spec) functionally correct for
/// every block size. Without `spec`, `examples/specs/<stem>.spec` next to the kernel's
/// directory is used when it exists. The kernel's `requires` are honoured: a failure at a
/// launch they exclude is no refutation. Exit codes: 0 proved (all sizes or up to the bound),
/// 1 refuted, 3 unknown, 2 usage or parse error (a spec that states nothing included).
pub fn run(
    file: &Path,
    spec: Option<&Path>,
    kernel: Option<&str>,
    format: Format,
) -> Result<u8, CliError> {
    let loaded = source::load(file)?;
    let k = loaded.kernel(kernel)?;
    let spec = match spec {
        Some(p) => Some(read_spec(p)?),
        None => match default_spec(file) {
            Some(p) => Some(read_spec(&p)?),
            None => None,
        },
    };
    if let Some(spec) = &spec {
        let per_thread =
            warpsafe_functional::prove_all_sizes(k, spec, &warpsafe_functional::Options::default());
        if per_thread.verdict == "proved" {
            match format {
                Format::Json => print_json(&Scoped {
                    scope: ALL_SIZES,
                    report: &per_thread,
                })?,
                Format::Sarif => println!("{}", sarif::render_check("prove", &k.name, vec![])),
                Format::Human => crate::equiv_cmd::print_all_sizes(&loaded.file, &per_thread),
            }
            return Ok(CLEAN);
        }
        if format == Format::Human {
            println!(
                "per-thread proof: unknown ({}); trying barrier-loop induction",
                per_thread.reason.as_deref().unwrap_or("no reason")
            );
        }
    }
    let outcome = prove_all_sizes(k, spec.as_ref());
    let scope = match outcome.verdict {
        Verdict::ProvedUpTo { .. } => "bounded",
        _ => ALL_SIZES,
    };
    match format {
        Format::Json => print_json(&Scoped {
            scope,
            report: &outcome,
        })?,
        Format::Sarif => println!(
            "{}",
            sarif::render_check("prove", &k.name, sarif_results(&outcome, &loaded.file))
        ),
        Format::Human => print_human(&outcome, &loaded.file),
    }
    Ok(match outcome.verdict {
        Verdict::ProvedAllSizes { .. } | Verdict::ProvedUpTo { .. } => CLEAN,
        Verdict::Refuted { .. } => FINDINGS,
        Verdict::Unknown { .. } => UNKNOWN,
    })
}

/// Reads and parses the spec `p` (a file, or the spec text itself when no such file exists
/// and it contains `=`). A spec that states no property (empty, comments only, or only
/// `shape` declarations) is a usage error: proving it would prove nothing.
pub(crate) fn read_spec(p: &Path) -> Result<Spec, CliError> {
    let (text, place) = match std::fs::read_to_string(p) {
        Ok(t) => (t, p.display().to_string()),
        Err(_) if p.to_string_lossy().contains('=') => {
            (p.to_string_lossy().into_owned(), "--spec".to_string())
        }
        Err(e) => return Err(CliError::io(p, e)),
    };
    let spec = Spec::parse(&text).map_err(|e| {
        let before = text.get(..e.span.lo).unwrap_or(text.as_str());
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        CliError::usage(format!("{place}:{line}:{column}: spec: {}", e.message))
    })?;
    if spec.equations.is_empty() {
        let has = if spec.shapes.is_empty() {
            "it is empty or holds only comments"
        } else {
            "it holds only `shape` declarations"
        };
        return Err(CliError::usage(format!(
            "{place}:1:1: the spec states no property ({has}), so there is nothing to prove; \
             state each output element, e.g. `y[i] = a * x[i] + y[i] for i < n`"
        )));
    }
    Ok(spec)
}

/// The `scope` of a report that claims every size.
pub(crate) const ALL_SIZES: &str = "all-sizes";

/// A JSON report with the scope of its claim: `all-sizes`, `bounded` (every block size up to
/// the bound) or `configuration` (one launch).
#[derive(Serialize)]
pub(crate) struct Scoped<'a, T: Serialize> {
    /// What the verdict covers.
    pub scope: &'static str,
    /// The report itself, its fields inlined.
    #[serde(flatten)]
    pub report: &'a T,
}

fn default_spec(file: &Path) -> Option<PathBuf> {
    let stem = file.file_stem()?;
    let dir = file.parent()?.parent()?;
    let p = dir.join("specs").join(stem).with_extension("spec");
    p.exists().then_some(p)
}

fn method(m: Method) -> &'static str {
    match m {
        Method::Induction => "induction",
        Method::Abstraction => "abstraction",
        Method::Bounded => "bounded",
    }
}

/// SARIF results of the barrier-loop outcome: a refutation at its place, an unknown, or a
/// proof up to a bound only; every obligation that does not hold.
fn sarif_results(o: &Outcome, file: &SourceFile) -> Vec<serde_json::Value> {
    let mut results = vec![];
    match &o.verdict {
        Verdict::Refuted {
            size, reason, span, ..
        } => results.push(sarif::refuted(
            file,
            format!("`{}` is wrong at block size {size}: {reason}", o.kernel),
            *span,
        )),
        Verdict::Unknown { reason } => results.push(sarif::undecided(
            file,
            "unknown",
            format!(
                "`{}` could not be proved for every size: {reason}",
                o.kernel
            ),
            None,
        )),
        Verdict::ProvedUpTo {
            bound, why_not_all, ..
        } => results.push(sarif::undecided(
            file,
            "not-every-size",
            format!(
                "`{}` proved for block sizes up to {bound} only: {why_not_all}",
                o.kernel
            ),
            None,
        )),
        Verdict::ProvedAllSizes { .. } => {}
    }
    let refuted = matches!(o.verdict, Verdict::Refuted { .. });
    for ob in (o.obligations.iter()).filter(|ob| !refuted && ob.holds == Some(false)) {
        results.push(sarif::refuted(
            file,
            format!("obligation {} fails: {}", ob.name, ob.detail),
            None,
        ));
    }
    results
}

fn print_human(o: &Outcome, file: &SourceFile) {
    println!("{}: {}", o.kernel, o.short());
    if !o.assumptions.is_empty() {
        println!("  assuming:");
        for a in &o.assumptions {
            println!("    {a}");
        }
    }
    if let Verdict::Refuted {
        span: Some(span), ..
    } = &o.verdict
    {
        let line = file.line(*span);
        println!("  at {}:{line}: {}", file.name, file.line_text(line).trim());
    }
    if !o.operators.is_empty() {
        println!("  operators: {}", o.operators);
    }
    if let Verdict::ProvedUpTo { why_not_all, .. } = &o.verdict {
        println!("  not proved for all sizes: {why_not_all}");
    }
    if let Verdict::Refuted {
        counterexample: Some(c),
        ..
    } = &o.verdict
    {
        println!(
            "  counterexample: blockDim.x = {}, gridDim.x = {}, n = {}: {}",
            c.block, c.grid, c.n, c.message
        );
        for (name, vals) in &c.inputs {
            let shown: Vec<String> = vals.iter().take(16).map(|v| v.to_string()).collect();
            let more = if vals.len() > 16 { ", …" } else { "" };
            println!("    {name} = [{}{more}]", shown.join(", "));
        }
    }
    println!(
        "  {:<12} {:<7} {:>7}  obligation",
        "method", "result", "seconds"
    );
    for ob in &o.obligations {
        let r = match ob.holds {
            Some(true) => "✓",
            Some(false) => "✗",
            None => "?",
        };
        println!(
            "  {:<12} {:<7} {:>7.2}  {} — {}",
            method(ob.method),
            r,
            ob.seconds,
            ob.name,
            ob.detail
        );
    }
    println!("  total {:.2} s", o.seconds);
}
