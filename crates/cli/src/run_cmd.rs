//! `warpsafe run`: one kernel in detail, or many in a summary table.

use crate::cli::{BackendChoice, CheckArgs, RunArgs, VerifyFormat as Format};
use crate::exit::{CliError, CLEAN, FINDINGS, UNKNOWN, USAGE};
use crate::fixed::{Fixed, FixedArg, FixedInit, FixedLen};
use crate::report::{self, OutputJson, RunJson};
use crate::summary::Table;
use crate::{diagnostics, inputs, launch, ptx_input, schedules, source};
use serde::Serialize;
use std::collections::BTreeSet;
use std::path::Path;
use warpsafe_exec::{Arg, ByteSize, ExecError, LaunchConfig, Outcome, Program, Severity};
use warpsafe_ir::{Category, Kernel, ParamKind, SourceFile};

/// Runs the command.
pub fn run(args: &RunArgs) -> Result<u8, CliError> {
    let files = source::expand(&args.files)?;
    let single = files.len() == 1 && !args.files[0].is_dir() && !args.check_expect;
    if single {
        one(&files[0], args)
    } else {
        many(&files, args)
    }
}

/// Thread-instructions a launch may execute when `--max-steps` is not given.
pub const DEFAULT_MAX_STEPS: u64 = 1 << 32;

/// Interpreter options from the flags and the kernel's contract.
pub fn options(check: &CheckArgs) -> Result<warpsafe_exec::Options, CliError> {
    let mut deny = vec![];
    for d in &check.deny {
        deny.push(Category::from_name(d).ok_or_else(|| {
            CliError::usage(format!(
                "unknown category `{d}` (race, divergence, oob, uninit, div-by-zero, overflow, assert)"
            ))
        })?);
    }
    let steps = check.max_steps.unwrap_or(DEFAULT_MAX_STEPS);
    Ok(warpsafe_exec::Options {
        lockstep_warps: check.lockstep_warps,
        deny,
        parallel: !check.sequential,
        max_block_instructions: steps,
        max_total_instructions: steps,
        max_memory: Some(memory_limit(check)?),
        ..Default::default()
    })
}

/// The `--max-memory` limit in bytes, or the default share of this machine's memory.
pub fn memory_limit(check: &CheckArgs) -> Result<u64, CliError> {
    let Some(text) = &check.max_memory else {
        return Ok(warpsafe_exec::default_memory_limit());
    };
    match text.parse::<ByteSize>() {
        Ok(ByteSize(0)) => Err(CliError::usage(
            "--max-memory 0: the limit must be more than 0 bytes",
        )),
        Ok(ByteSize(n)) => Ok(n),
        Err(e) => Err(CliError::usage(format!("--max-memory {text}: {e}"))),
    }
}

/// Why a kernel has no outcome.
enum Stop {
    /// Bad usage, unreadable input, or a launch the interpreter refuses (exit 2).
    Error(CliError),
    /// The run reached `--max-steps`: nothing can be said about the kernel (exit 3).
    Unknown {
        /// The launch that ran.
        config: LaunchConfig,
        /// `step limit (N thread-instructions; raise with --max-steps)`.
        reason: String,
        /// What the interpreter saw (which block, or the whole launch).
        detail: String,
    },
}

impl From<CliError> for Stop {
    fn from(e: CliError) -> Stop {
        Stop::Error(e)
    }
}

impl Stop {
    /// The error, or the `unknown: …` line as an error for callers that have no verdicts.
    fn into_error(self) -> CliError {
        match self {
            Stop::Error(e) => e,
            Stop::Unknown { reason, .. } => CliError::usage(format!("unknown: {reason}")),
        }
    }
}

/// An interpreter error for `kernel`, as the CLI reports it.
fn launch_stop(kernel: &Kernel, config: &LaunchConfig, e: ExecError) -> Stop {
    match e {
        ExecError::StepLimit { limit, .. } => Stop::Unknown {
            config: *config,
            reason: format!("step limit ({limit} thread-instructions; raise with --max-steps)"),
            detail: e.to_string(),
        },
        ExecError::MemoryLimit { needed, .. } => Stop::Error(CliError::usage(format!(
            "cannot launch `{}`: {e}; raise the limit with --max-memory (e.g. --max-memory {}G), or shrink the launch",
            kernel.name,
            needed.div_ceil(1 << 30)
        ))),
        e => Stop::Error(CliError::usage(format!(
            "cannot launch `{}`: {e}",
            kernel.name
        ))),
    }
}

/// Checks the interpreter's memory estimate for a launch before its buffers are built:
/// refuses one over the limit even one block at a time, and says on stderr when the limit
/// makes fewer blocks run at once.
fn memory_fits(
    p: &Program,
    config: &LaunchConfig,
    lens: &[u64],
    opts: &warpsafe_exec::Options,
) -> Result<(), CliError> {
    let Some(limit) = opts.max_memory else {
        return Ok(());
    };
    let est = warpsafe_exec::estimate_memory(p, config, lens, opts);
    match est.blocks_within(limit) {
        None => {
            let e = ExecError::MemoryLimit {
                needed: est.with_blocks(1),
                launch_bytes: est.launch_bytes,
                block_bytes: est.block_bytes,
                limit,
            };
            Err(launch_stop(p.kernel(), config, e).into_error())
        }
        Some(n) if n < est.parallel_blocks => {
            eprintln!(
                "note: `{}`: running {n} block(s) at a time instead of {} to stay under the memory limit of {} ({} per block; raise it with --max-memory)",
                p.kernel().name,
                est.parallel_blocks,
                ByteSize(limit),
                ByteSize(est.block_bytes)
            );
            Ok(())
        }
        Some(_) => Ok(()),
    }
}

/// Runs `kernel` (as lowered PTX when `ptx` is given, which always runs on the interpreter).
fn execute(
    kernel: &Kernel,
    ptx: Option<&Program>,
    args: &RunArgs,
) -> Result<(launch::Launch, Outcome), Stop> {
    let max_bytes = memory_limit(&args.check)?;
    let use_gpu = match args.backend {
        _ if ptx.is_some() => {
            if args.backend == BackendChoice::Cuda {
                return Err(Stop::Error(CliError::usage(
                    "PTX inputs run on the CPU interpreter; drop --backend cuda",
                )));
            }
            false
        }
        BackendChoice::Cpu => false,
        BackendChoice::Cuda => true,
        BackendChoice::Auto => {
            let gpu = warpsafe_cuda::device_available();
            if !gpu {
                eprintln!("note: no CUDA device found; running on the CPU interpreter");
            }
            gpu
        }
    };
    if use_gpu {
        let l = launch::build_within(kernel, &args.launch, max_bytes, &|_, _| Ok(()))?;
        let start = std::time::Instant::now();
        let out = warpsafe_cuda::launch(kernel, &l.config, l.args.clone()).map_err(|e| {
            CliError::usage(format!("cannot launch `{}` on the GPU: {e}", kernel.name))
        })?;
        let stats = warpsafe_exec::Stats {
            seconds: start.elapsed().as_secs_f64(),
            blocks: l.config.num_blocks(),
            threads: l
                .config
                .num_blocks()
                .saturating_mul(l.config.threads_per_block()),
            ..Default::default()
        };
        return Ok((
            l,
            Outcome {
                args: out,
                findings: vec![],
                stats,
            },
        ));
    }
    let opts = options(&args.check)?;
    let compiled;
    let program = match ptx {
        Some(p) => p,
        None => {
            compiled = warpsafe_exec::compile(kernel)
                .map_err(|e| CliError::usage(format!("cannot launch `{}`: {e}", kernel.name)))?;
            &compiled
        }
    };
    let fits = |config: &LaunchConfig, lens: &[u64]| memory_fits(program, config, lens, &opts);
    let l = launch::build_within(kernel, &args.launch, max_bytes, &fits)?;
    let outcome = warpsafe_exec::run_program(program, &l.config, l.args.clone(), &opts)
        .map_err(|e| launch_stop(kernel, &l.config, e))?;
    Ok((l, outcome))
}

/// One kernel to run: the text findings point into, the kernel (its signature for PTX) and,
/// for PTX, the lowered program.
struct Selected {
    file: SourceFile,
    kernel: Kernel,
    ptx: Option<Program>,
}

/// The kernels of `path` that `args` select, each as source or as PTX.
fn select(path: &Path, args: &RunArgs, all: bool) -> Result<Vec<Selected>, CliError> {
    let name = args.select.kernel.as_deref();
    if ptx_input::is_ptx(path) {
        let p = ptx_input::load_ptx(path, name)?;
        return Ok(vec![Selected {
            file: p.file,
            kernel: p.program.kernel().clone(),
            ptx: Some(p.program),
        }]);
    }
    let loaded = source::load(path)?;
    let kernels: Vec<&Kernel> = match (all, name) {
        (true, None) => loaded.module.kernels.iter().collect(),
        (true, Some(n)) => loaded.module.kernel(n).into_iter().collect(),
        (false, _) => vec![loaded.kernel(name)?],
    };
    kernels
        .into_iter()
        .map(|k| {
            if args.via_ptx {
                let p = ptx_input::via_ptx(&loaded.file.name, k)?;
                Ok(Selected {
                    file: p.file,
                    kernel: k.clone(),
                    ptx: Some(p.program),
                })
            } else {
                Ok(Selected {
                    file: loaded.file.clone(),
                    kernel: k.clone(),
                    ptx: None,
                })
            }
        })
        .collect()
}

fn error_categories(o: &Outcome) -> BTreeSet<Category> {
    o.findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.category)
        .collect()
}

fn one(path: &Path, args: &RunArgs) -> Result<u8, CliError> {
    let selected = select(path, args, false)?;
    let Some(sel) = selected.first() else {
        return Err(CliError::usage(format!("{}: no kernel", path.display())));
    };
    let (loaded, kernel) = (sel, &sel.kernel);
    let (l, outcome) = match execute(kernel, sel.ptx.as_ref(), args) {
        Ok(done) => done,
        Err(Stop::Error(e)) => return Err(e),
        Err(Stop::Unknown {
            config,
            reason,
            detail,
        }) => {
            if let Some(path) = &args.html {
                let section =
                    crate::html::run_stopped(&loaded.file, kernel, &config, &reason, &detail);
                write_html(path, &loaded.file.name, section)?;
            }
            print_unknown(
                &loaded.file.name,
                kernel,
                &config,
                &reason,
                &detail,
                args.format,
            );
            return Ok(UNKNOWN);
        }
    };
    let sched = if args.check.schedules > 0 {
        let opts = options(&args.check)?;
        Some(schedules::check(
            kernel,
            sel.ptx.as_ref(),
            &l.config,
            &l.args,
            &opts,
            &outcome,
            args.check.schedules,
        )?)
    } else {
        None
    };
    let differs = sched.as_ref().is_some_and(|s| s.difference.is_some());
    let code = if error_categories(&outcome).is_empty() && !differs {
        CLEAN
    } else {
        FINDINGS
    };
    let outputs = write_outputs(kernel, &outcome, args.out.as_deref())?;
    if let Some(path) = &args.html {
        let findings: Vec<report::FindingJson> = outcome
            .findings
            .iter()
            .map(|f| report::finding(&loaded.file, f))
            .collect();
        let view = crate::html::RunView {
            config: &l.config,
            before: &l.args,
            outcome: &outcome,
            findings: &findings,
            schedules: sched.as_ref(),
        };
        let section = crate::html::run_section(&loaded.file, kernel, &view);
        write_html(path, &loaded.file.name, section)?;
    }
    match args.format {
        Format::Json => {
            let fixed = fixed_by_flags(kernel, &args.launch, &l);
            let json = RunJson {
                file: &loaded.file.name,
                kernel: &kernel.name,
                grid: l.config.grid,
                block: l.config.block,
                findings: outcome
                    .findings
                    .iter()
                    .map(|f| report::finding(&loaded.file, f))
                    .collect(),
                stats: &outcome.stats,
                outputs,
                schedules: sched,
                exit_code: code,
            };
            println!(
                "{}",
                to_json(&report::WithFixed {
                    fixed: &fixed,
                    report: &json
                })
            );
        }
        Format::Sarif => println!(
            "{}",
            crate::sarif::render_run(&loaded.file, &kernel.name, &outcome.findings)
        ),
        Format::Human => {
            let s = &outcome.stats;
            println!(
                "{}: kernel `{}`, grid {:?} x block {:?} ({} threads): {} thread-instructions in {:.3} s",
                loaded.file.name, kernel.name, l.config.grid, l.config.block, s.threads,
                s.thread_instructions, s.seconds
            );
            for f in &outcome.findings {
                diagnostics::finding(&loaded.file, f);
            }
            println!("{}", findings_line(&outcome));
            if let Some(s) = &sched {
                match &s.difference {
                    None => println!(
                        "{} random schedule(s): outputs identical to the default schedule",
                        s.schedules
                    ),
                    Some(d) => println!("schedule-dependent output: {d}"),
                }
            }
            for o in &outputs {
                let preview = preview(&outcome, kernel, &o.name);
                match &o.path {
                    Some(p) => {
                        println!("output {} ({} x {}) written to {p}", o.name, o.elem, o.len)
                    }
                    None => println!("output {} ({} x {}): {preview}", o.name, o.elem, o.len),
                }
            }
        }
    }
    Ok(code)
}

/// What `--arg`, `--buf` and `--len` fixed in the launch that ran, in the shape the symbolic
/// commands report (`"fixed"` in JSON): each named scalar's value, each named buffer's length
/// as built, and the constant contents `--buf NAME=zeros|ones` gave. Read from the launch,
/// not from the flags again, so a file or pipe given to `--buf` is not read twice.
fn fixed_by_flags(kernel: &Kernel, flags: &crate::cli::LaunchArgs, l: &launch::Launch) -> Fixed {
    let arg_of = |item: &str| {
        let name = item.split_once('=')?.0.trim();
        let id = kernel.param_named(name)?;
        Some((name.to_string(), l.args.get(id.0 as usize)?))
    };
    let mut fixed = Fixed::default();
    for item in &flags.args {
        if let Some((name, Arg::Scalar(value))) = arg_of(item) {
            fixed.args.push(FixedArg {
                name,
                value: *value,
                from: format!("--arg {item}"),
            });
        }
    }
    let items =
        (flags.lens.iter().map(|i| ("len", i))).chain(flags.bufs.iter().map(|i| ("buf", i)));
    for (flag, item) in items {
        let Some((name, Arg::Buffer(b))) = arg_of(item) else {
            continue;
        };
        let from = format!("--{flag} {item}");
        let spec = item
            .split_once('=')
            .map(|(_, t)| t.trim())
            .unwrap_or_default();
        let constant = match inputs::parse_spec(spec).map(|s| s.fill) {
            Ok(inputs::Fill::Zeros) if flag == "buf" => Some("0"),
            Ok(inputs::Fill::Ones) if flag == "buf" => Some("1"),
            _ => None,
        };
        if let Some(value) = constant {
            fixed.inits.push(FixedInit {
                name: name.clone(),
                value: value.into(),
                from: from.clone(),
            });
        }
        fixed.lens.push(FixedLen {
            name,
            len: b.data.len() as u64,
            from,
        });
    }
    fixed
}

/// `--html`: one run's report over its source.
fn write_html(path: &Path, file_name: &str, section: crate::html::Section) -> Result<(), CliError> {
    let page = crate::html::Page {
        title: format!("warpsafe run {file_name}"),
        subtitle: "one launch in the checking interpreter: what it saw, not a proof".into(),
        sections: vec![section],
    };
    crate::html::write(path, &page)
}

/// The report of a run that reached its step limit.
#[derive(Serialize)]
struct UnknownJson<'a> {
    file: &'a str,
    kernel: &'a str,
    grid: [u32; 3],
    block: [u32; 3],
    verdict: &'static str,
    reason: &'a str,
    detail: &'a str,
    exit_code: u8,
}

fn print_unknown(
    file: &str,
    kernel: &Kernel,
    config: &LaunchConfig,
    reason: &str,
    detail: &str,
    format: Format,
) {
    match format {
        Format::Sarif => {
            let result = crate::sarif::at_line(
                file,
                0,
                "step-limit",
                "note",
                format!("kernel `{}`: unknown: {reason} ({detail})", kernel.name),
            );
            println!(
                "{}",
                crate::sarif::render_check("run", &kernel.name, vec![result])
            );
        }
        Format::Json => println!(
            "{}",
            to_json(&UnknownJson {
                file,
                kernel: &kernel.name,
                grid: config.grid,
                block: config.block,
                verdict: "unknown",
                reason,
                detail,
                exit_code: UNKNOWN,
            })
        ),
        Format::Human => {
            println!(
                "{file}: kernel `{}`, grid {:?} x block {:?}: unknown: {reason}",
                kernel.name, config.grid, config.block
            );
            println!("  {detail}");
        }
    }
}

fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

fn findings_line(o: &Outcome) -> String {
    if o.findings.is_empty() {
        return "no findings".into();
    }
    let errors = o
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = o.findings.len() - errors;
    let kinds: Vec<&str> = error_categories(o).iter().map(|c| c.name()).collect();
    format!(
        "{errors} finding(s){}{}",
        if kinds.is_empty() {
            String::new()
        } else {
            format!(": {}", kinds.join(", "))
        },
        if warnings > 0 {
            format!(" and {warnings} warning(s)")
        } else {
            String::new()
        }
    )
}

fn preview(o: &Outcome, kernel: &Kernel, name: &str) -> String {
    let Some(i) = kernel.param_named(name) else {
        return String::new();
    };
    let Some(Arg::Buffer(b)) = o.args.get(i.0 as usize) else {
        return String::new();
    };
    let shown: Vec<String> = (0..b.data.len().min(8))
        .map(|j| b.get(j).to_string())
        .collect();
    let more = if b.data.len() > 8 { ", …" } else { "" };
    format!("[{}{more}]", shown.join(", "))
}

fn write_outputs(
    kernel: &Kernel,
    o: &Outcome,
    dir: Option<&Path>,
) -> Result<Vec<OutputJson>, CliError> {
    if let Some(d) = dir {
        std::fs::create_dir_all(d).map_err(|e| CliError::io(d, e))?;
    }
    let mut out = vec![];
    for (p, arg) in kernel.params.iter().zip(&o.args) {
        let (ParamKind::Buffer { writable: true, .. }, Arg::Buffer(b)) = (p.kind, arg) else {
            continue;
        };
        let path = match dir {
            Some(d) => {
                let path = d.join(format!("{}.bin", p.name));
                inputs::write_elements(&path, b)?;
                Some(path.display().to_string())
            }
            None => None,
        };
        out.push(OutputJson {
            name: p.name.clone(),
            elem: b.elem,
            len: b.data.len(),
            path,
        });
    }
    Ok(out)
}

/// One row of the multi-file summary.
#[derive(Serialize)]
struct Row {
    file: String,
    kernel: String,
    threads: u64,
    found: Vec<Category>,
    warnings: Vec<Category>,
    expected: Vec<Category>,
    matches: bool,
    seconds: f64,
    error: Option<String>,
    /// Why the run says nothing (`step limit (…)`), when it reached --max-steps.
    unknown: Option<String>,
    /// The row's SARIF results: its findings, its error or its step limit.
    #[serde(skip)]
    sarif: Vec<serde_json::Value>,
}

fn rows_for(path: &Path, args: &RunArgs) -> Vec<Row> {
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let uri = path.display().to_string();
    let failed = |kernel: &str, e: CliError| Row {
        sarif: vec![crate::sarif::at_line(
            &uri,
            0,
            "error",
            "error",
            format!("kernel `{kernel}`: {e}"),
        )],
        file: file.clone(),
        kernel: kernel.into(),
        threads: 0,
        found: vec![],
        warnings: vec![],
        expected: vec![],
        matches: false,
        seconds: 0.0,
        error: Some(e.to_string()),
        unknown: None,
    };
    let selected = match select(path, args, true) {
        Ok(s) => s,
        Err(e) => return vec![failed("-", e)],
    };
    selected
        .iter()
        .map(|s| (&s.file, &s.kernel, s.ptx.as_ref()))
        .map(|(text, k, ptx)| match execute(k, ptx, args) {
            Err(Stop::Unknown { reason, .. }) => Row {
                sarif: vec![crate::sarif::at_line(
                    &text.name,
                    0,
                    "step-limit",
                    "note",
                    format!("kernel `{}`: unknown: {reason}", k.name),
                )],
                error: None,
                unknown: Some(reason),
                ..failed(&k.name, CliError::usage(""))
            },
            Err(e) => failed(&k.name, e.into_error()),
            Ok((_, o)) => {
                let found: Vec<Category> = error_categories(&o).into_iter().collect();
                let warnings: BTreeSet<Category> = o
                    .findings
                    .iter()
                    .filter(|f| f.severity == Severity::Warning)
                    .map(|f| f.category)
                    .collect();
                // Signed overflow is undefined in C and wraps in PTX: not visible there.
                let expected: BTreeSet<Category> = k
                    .contract
                    .expect
                    .iter()
                    .copied()
                    .filter(|c| ptx.is_none() || *c != Category::Overflow)
                    .collect();
                Row {
                    file: file.clone(),
                    kernel: k.name.clone(),
                    threads: o.stats.threads,
                    matches: found.iter().copied().collect::<BTreeSet<_>>() == expected,
                    found,
                    warnings: warnings.into_iter().collect(),
                    expected: expected.into_iter().collect(),
                    seconds: o.stats.seconds,
                    error: None,
                    unknown: None,
                    sarif: crate::sarif::run_results(text, &k.name, &o.findings),
                }
            }
        })
        .collect()
}

fn names(c: &[Category]) -> String {
    if c.is_empty() {
        "-".into()
    } else {
        c.iter().map(|c| c.name()).collect::<Vec<_>>().join(",")
    }
}

fn many(files: &[std::path::PathBuf], args: &RunArgs) -> Result<u8, CliError> {
    if args.out.is_some() {
        return Err(CliError::usage("--out needs exactly one file"));
    }
    if args.html.is_some() {
        return Err(CliError::usage("--html needs exactly one file"));
    }
    let rows: Vec<Row> = files.iter().flat_map(|f| rows_for(f, args)).collect();
    let any_error = rows.iter().any(|r| r.error.is_some());
    let any_unknown = rows.iter().any(|r| r.unknown.is_some());
    let code = if any_error {
        USAGE
    } else if args.check_expect {
        if rows.iter().all(|r| r.matches) {
            CLEAN
        } else if rows.iter().any(|r| !r.matches && r.unknown.is_none()) {
            FINDINGS
        } else {
            UNKNOWN
        }
    } else if rows.iter().any(|r| !r.found.is_empty()) {
        FINDINGS
    } else if any_unknown {
        UNKNOWN
    } else {
        CLEAN
    };
    match args.format {
        Format::Json => println!("{}", to_json(&rows)),
        Format::Sarif => {
            let results: Vec<serde_json::Value> = rows.into_iter().flat_map(|r| r.sarif).collect();
            let subject = format!("{} files", files.len());
            println!("{}", crate::sarif::render_check("run", &subject, results));
        }
        Format::Human => {
            let mut t = Table::new(&[
                "file", "kernel", "threads", "found", "warnings", "expected", "ok", "seconds",
            ]);
            for r in &rows {
                let found = match (&r.error, &r.unknown) {
                    (Some(e), _) => format!("error: {e}"),
                    (None, Some(u)) => format!("unknown: {u}"),
                    (None, None) => names(&r.found),
                };
                t.row(vec![
                    r.file.clone(),
                    r.kernel.clone(),
                    r.threads.to_string(),
                    found,
                    names(&r.warnings),
                    names(&r.expected),
                    if r.matches { "✓" } else { "✗" }.into(),
                    format!("{:.3}", r.seconds),
                ]);
            }
            print!("{}", t.render());
            let ok = rows.iter().filter(|r| r.matches).count();
            println!(
                "{ok}/{} kernels behave as their headers declare",
                rows.len()
            );
        }
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_default_to_two_to_the_32_steps_and_a_share_of_memory() {
        let o = options(&CheckArgs::default()).unwrap();
        assert_eq!(o.max_total_instructions, DEFAULT_MAX_STEPS);
        assert_eq!(o.max_block_instructions, DEFAULT_MAX_STEPS);
        assert_eq!(o.max_memory, Some(warpsafe_exec::default_memory_limit()));
    }

    #[test]
    fn limits_come_from_the_flags() {
        let check = CheckArgs {
            max_memory: Some("512M".into()),
            max_steps: Some(1000),
            ..CheckArgs::default()
        };
        let o = options(&check).unwrap();
        assert_eq!(o.max_total_instructions, 1000);
        assert_eq!(o.max_memory, Some(512 << 20));
        let bad = CheckArgs {
            max_memory: Some("-1G".into()),
            ..CheckArgs::default()
        };
        assert!(options(&bad)
            .unwrap_err()
            .to_string()
            .contains("--max-memory -1G"));
    }

    #[test]
    fn a_step_limit_is_unknown_and_other_launch_errors_are_usage() {
        let k = warpsafe_ir::KernelBuilder::new("k").finish();
        let cfg = LaunchConfig::linear(1, 1);
        let stop = launch_stop(
            &k,
            &cfg,
            ExecError::StepLimit {
                block: Some([0, 0, 0]),
                limit: 7,
            },
        );
        let Stop::Unknown { reason, .. } = stop else {
            panic!("a step limit is unknown");
        };
        assert_eq!(
            reason,
            "step limit (7 thread-instructions; raise with --max-steps)"
        );
        let stop = launch_stop(&k, &cfg, ExecError::InvalidLaunch("bad".into()));
        assert!(matches!(stop, Stop::Error(CliError::Usage(_))));
    }
}
