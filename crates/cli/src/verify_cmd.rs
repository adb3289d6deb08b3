//! `warpsafe verify`: the parametric verifier's verdicts, as text, JSON or SARIF.

use crate::cli::{Format, VerifyArgs, VerifyFormat};
use crate::exit::{CliError, CLEAN, FINDINGS, UNKNOWN};
use crate::fixed::{self, Fixed};
use crate::progress::{self, Task};
use crate::summary::Table;
use crate::{launch, sarif, source};
use std::time::Duration;
use warpsafe_ir::{BinOp, Expr, ExprKind, Kernel, LengthSpec, ParamKind, SourceFile};
use warpsafe_verify::{Config, Counterexample, DimSpec, Property, Report, Verdict};

fn properties(list: &[String]) -> Result<Vec<Property>, CliError> {
    if list.is_empty() {
        return Ok(Property::ALL.to_vec());
    }
    list.iter()
        .flat_map(|s| s.split(','))
        .map(|p| {
            Property::from_name(p.trim()).ok_or_else(|| {
                CliError::usage(format!(
                    "unknown property `{}` (race, divergence, bounds, overflow, assert, uninit)",
                    p.trim()
                ))
            })
        })
        .collect()
}

fn dim_spec(flag: &Option<String>, header: Option<[u32; 3]>) -> Result<DimSpec, CliError> {
    match flag.as_deref() {
        Some("any") => Ok(DimSpec::Any),
        Some(t) if t.replace(' ', "") == "any,any,any" => Ok(DimSpec::AnyDims),
        Some(t) => launch::parse_dims(t).map(DimSpec::Fixed),
        None => Ok(header.map(DimSpec::Fixed).unwrap_or(DimSpec::Any)),
    }
}

/// Fixed dimensions must be a launch CUDA accepts (at most 1024 threads per block, …) when
/// the command line gives them: a typing mistake is a usage error. A header's dimensions
/// beyond the limits (GPUVerify's test suite writes `--blockDim=[64,64]`) are verified as
/// given, with a note: the verdicts speak for that launch as if a GPU could run it, and a
/// counterexample on it cannot be replayed (the interpreter keeps CUDA's limits).
fn check_dims(block: DimSpec, grid: DimSpec, from_flags: [bool; 2]) -> Result<(), CliError> {
    let fixed = |d: DimSpec| match d {
        DimSpec::Fixed(v) => v,
        _ => [1, 1, 1],
    };
    let launch = |block, grid| warpsafe_exec::LaunchConfig {
        grid,
        block,
        dynamic_shared_bytes: 0,
    };
    let [block_flag, grid_flag] = from_flags;
    let as_typed = launch(
        if block_flag { fixed(block) } else { [1, 1, 1] },
        if grid_flag { fixed(grid) } else { [1, 1, 1] },
    );
    as_typed
        .validate()
        .map_err(|e| CliError::usage(format!("not a launch to verify: {e}")))?;
    if let Err(e) = launch(fixed(block), fixed(grid)).validate() {
        eprintln!("note: {e}; verified as given");
    }
    Ok(())
}

/// Exit code of a report: 0 all verified, 1 any violated, 3 otherwise (possible, unknown).
pub fn exit_code(r: &Report) -> u8 {
    if r.results
        .iter()
        .any(|p| matches!(p.verdict, Verdict::Violated(_)))
    {
        FINDINGS
    } else if r
        .results
        .iter()
        .all(|p| matches!(p.verdict, Verdict::Verified))
    {
        CLEAN
    } else {
        UNKNOWN
    }
}

/// A kernel to verify, with the text its spans point into; or why it has none.
struct Target {
    file: SourceFile,
    kernel: Result<Kernel, Unliftable>,
}

/// A kernel the PTX road cannot verify, and why.
struct Unliftable {
    name: String,
    reason: String,
    span: Option<warpsafe_ir::Span>,
}

/// The kernels of the source as written (every one, or the one `--kernel` names).
fn source_targets(args: &VerifyArgs) -> Result<(String, Vec<Target>), CliError> {
    let loaded = source::load(&args.file)?;
    let kernels: Vec<&Kernel> = match args.select.kernel.as_deref() {
        Some(name) => vec![loaded.kernel(Some(name))?],
        None => loaded.module.kernels.iter().collect(),
    };
    if kernels.is_empty() {
        return Err(CliError::usage(format!(
            "{}: no __global__ kernel",
            loaded.file.name
        )));
    }
    let name = loaded.file.name.clone();
    let targets = if args.via_ptx {
        kernels
            .into_iter()
            .map(|k| match crate::ptx_input::via_ptx(&name, k) {
                Ok(p) => lifted(p),
                Err(e) => Target {
                    file: loaded.file.clone(),
                    kernel: Err(Unliftable {
                        name: k.name.clone(),
                        reason: e.to_string(),
                        span: Some(k.span),
                    }),
                },
            })
            .collect()
    } else {
        kernels
            .into_iter()
            .map(|k| Target {
                file: loaded.file.clone(),
                kernel: Ok(k.clone()),
            })
            .collect()
    };
    Ok((name, targets))
}

/// The entries of a `.ptx` file (every one, or the one `--kernel` names), lifted.
fn ptx_targets(args: &VerifyArgs) -> Result<(String, Vec<Target>), CliError> {
    let path = &args.file;
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| CliError::io(path, e))?;
    let module = warpsafe_ptx::parse(&text).map_err(|e| CliError::usage(format!("{name}: {e}")))?;
    let entries: Vec<String> = module
        .functions
        .iter()
        .filter(|f| f.is_entry && !f.is_declaration)
        .filter(|f| args.select.kernel.as_deref().is_none_or(|k| f.name == k))
        .map(|f| f.name.clone())
        .collect();
    if entries.is_empty() {
        return Err(CliError::usage(match args.select.kernel.as_deref() {
            Some(k) => format!("{name}: no .entry `{k}`"),
            None => format!("{name}: no .entry kernel"),
        }));
    }
    let mut out = Vec::new();
    for e in entries {
        out.push(match crate::ptx_input::load_ptx(path, Some(&e)) {
            Ok(p) => lifted(p),
            Err(err) => Target {
                file: SourceFile::new(name.clone(), text.clone()),
                kernel: Err(Unliftable {
                    name: e,
                    reason: err.to_string(),
                    span: None,
                }),
            },
        });
    }
    Ok((name, out))
}

/// The IR of a kernel lowered from PTX, recovered from its control-flow graph.
fn lifted(p: crate::ptx_input::PtxKernel) -> Target {
    let kernel = warpsafe_ptx::lift(&p.program).map_err(|e| Unliftable {
        name: p.program.kernel().name.clone(),
        reason: e.message,
        span: (!e.span.is_dummy()).then_some(e.span),
    });
    Target {
        file: p.file,
        kernel,
    }
}

/// Every property `unknown` for a kernel the PTX road cannot verify.
fn unknown_report(u: &Unliftable, properties: &[Property]) -> Report {
    Report {
        kernel: u.name.clone(),
        results: properties
            .iter()
            .map(|p| {
                warpsafe_verify::PropertyResult::unknown(
                    *p,
                    format!("PTX road: {}", u.reason),
                    u.span,
                )
            })
            .collect(),
        seconds: 0.0,
        queries: 0,
        assumptions: Vec::new(),
    }
}

/// What `--arg`, `--buf` and `--len` fix, read against every kernel to verify; notes on what
/// verify does not use (contents) go to stderr.
fn fixed_inputs(args: &VerifyArgs, targets: &[Target]) -> Result<Fixed, CliError> {
    let kernels: Vec<&Kernel> = targets
        .iter()
        .filter_map(|t| t.kernel.as_ref().ok())
        .collect();
    let flags = fixed::Flags {
        args: &args.args,
        bufs: &args.bufs,
        lens: &args.lens,
        inits: &[],
    };
    let f = fixed::resolve(&kernels, &flags, fixed::Contents::Ignored)?;
    f.print_notes();
    Ok(f)
}

/// `kernel` with what the flags fix written into its contract: each fixed scalar a
/// precondition `name == value`, each fixed length its `len(name)` (replacing the header's).
/// A precondition of the header that the fixed values (and fixed dimensions) decide false is
/// an error: every verdict would hold vacuously.
fn pinned(
    kernel: &Kernel,
    fixed: &Fixed,
    block: DimSpec,
    grid: DimSpec,
) -> Result<Kernel, CliError> {
    let mut k = kernel.clone();
    for a in &fixed.args {
        let Some(id) = k.param_named(&a.name) else {
            continue;
        };
        let ParamKind::Scalar(ty) = k.param(id).kind else {
            continue;
        };
        let param = Expr::new(ExprKind::Param(id), ty);
        let value = Expr::constant(a.value.cast(ty));
        k.contract
            .requires
            .push(Expr::binary(BinOp::Eq, param, value));
    }
    for l in &fixed.lens {
        let Some(id) = k.param_named(&l.name) else {
            continue;
        };
        k.contract.lengths.retain(|s| s.param != id);
        k.contract.lengths.push(LengthSpec {
            param: id,
            len: Expr::u64(l.len),
        });
    }
    refuse_vacuous(kernel, &k, fixed, block, grid)?;
    Ok(k)
}

/// Evaluates each of the header's preconditions that mentions only fixed values; one that
/// is false makes every launch excluded, so it is refused with the flags that decide it.
fn refuse_vacuous(
    original: &Kernel,
    k: &Kernel,
    fixed: &Fixed,
    block: DimSpec,
    grid: DimSpec,
) -> Result<(), CliError> {
    let (DimSpec::Fixed(b), DimSpec::Fixed(g)) = (block, grid) else {
        return Ok(());
    };
    let config = warpsafe_exec::LaunchConfig {
        grid: g,
        block: b,
        dynamic_shared_bytes: 0,
    };
    let scalar = |p: warpsafe_ir::ParamId| {
        let name = &k.param(p).name;
        let ty = match k.param(p).kind {
            ParamKind::Scalar(t) => t,
            ParamKind::Buffer { .. } => return None,
        };
        fixed
            .args
            .iter()
            .find(|a| a.name == *name)
            .map(|a| a.value.cast(ty))
    };
    let len = |p: warpsafe_ir::ParamId| {
        let name = &k.param(p).name;
        fixed.lens.iter().find(|l| l.name == *name).map(|l| l.len)
    };
    for r in &original.contract.requires {
        let Ok(v) = warpsafe_exec::eval_contract_expr(k, r, &scalar, &len, &config) else {
            continue;
        };
        if v == warpsafe_ir::Value::Bool(false) {
            return Err(CliError::usage(format!(
                "precondition `{}` of `{}` does not hold with {}: no launch is left to verify",
                original.expr_to_string(r),
                original.name,
                fixed.of_kernel(original).human()
            )));
        }
    }
    Ok(())
}

/// Runs the command: every kernel of the file (or the one `--kernel` names), one report each.
pub fn run(args: &VerifyArgs) -> Result<u8, CliError> {
    let (file_name, targets) = if crate::ptx_input::is_ptx(&args.file) {
        ptx_targets(args)?
    } else {
        source_targets(args)?
    };
    let fixed = fixed_inputs(args, &targets)?;
    let properties = properties(&args.property)?;
    let deadline = std::time::Instant::now() + Duration::from_secs_f64(args.timeout.max(0.01));
    let mut reports = vec![];
    let solver_before = warpsafe_smt::stats();
    let bar = Task::bar_with_status(
        "verify",
        (targets.len() * properties.len()) as u64,
        move || solver_status(&solver_before),
    );
    for (n, t) in targets.iter().enumerate() {
        // Each kernel gets an equal part of what is left of the budget (and passes on what
        // it leaves unused), as each property does of its kernel's part.
        let deadline =
            warpsafe_verify::budget_share(Some(deadline), targets.len() - n).unwrap_or(deadline);
        let kernel = match &t.kernel {
            Ok(k) => k,
            Err(u) => {
                progress::say(|| format!("kernel `{}`: not verified: {}", u.name, u.reason));
                reports.push(unknown_report(u, &properties));
                bar.inc(properties.len() as u64);
                continue;
            }
        };
        let (block, grid) = (
            dim_spec(&args.block, kernel.contract.block_dim)?,
            dim_spec(&args.grid, kernel.contract.grid_dim)?,
        );
        check_dims(block, grid, [args.block.is_some(), args.grid.is_some()])?;
        let kernel = &pinned(kernel, &fixed, block, grid)?;
        let cfg = Config {
            block,
            grid,
            properties: properties.clone(),
            timeout: Duration::from_secs_f64(args.query_timeout.max(0.01)),
            deadline: Some(deadline),
            lockstep_warps: args.lockstep_warps,
            dump_smt: warpsafe_smt::settings().dump_dir,
            jobs: args.jobs.unwrap_or_else(default_jobs),
            replay: !args.no_replay,
            strict_bounds: args.strict_bounds,
            strict_races: args.strict_races,
        };
        bar.message(format!("`{}`", kernel.name));
        let report = verified(kernel, &cfg);
        bar.inc(properties.len() as u64);
        reports.push(report);
    }
    drop(bar);
    let code = reports.iter().map(exit_code).fold(CLEAN, worst);
    if let Some(path) = &args.html {
        write_html(path, args, &file_name, &targets, &reports)?;
    }
    let facts: Vec<Fixed> = targets
        .iter()
        .map(|t| match &t.kernel {
            Ok(k) => fixed.of_kernel(k),
            Err(_) => Fixed::default(),
        })
        .collect();
    match args.format {
        VerifyFormat::Json => crate::report::print_json(&serde_json::json!({
            "file": file_name,
            "road": if args.via_ptx || crate::ptx_input::is_ptx(&args.file) { "ptx" } else { "source" },
            "kernels": reports
                .iter()
                .zip(&facts)
                .map(|(report, fixed)| crate::report::WithFixed { fixed, report })
                .collect::<Vec<_>>(),
            "solver": solver_json(&warpsafe_smt::stats().since(&solver_before)),
        }))?,
        VerifyFormat::Sarif => {
            let all: Vec<(&SourceFile, &Report)> = targets
                .iter()
                .map(|t| &t.file)
                .zip(reports.iter())
                .collect();
            println!("{}", sarif::render_each(&all));
        }
        VerifyFormat::Human => {
            for ((t, r), f) in targets.iter().zip(&reports).zip(&facts) {
                print_human(&t.file, r, f);
            }
        }
    }
    Ok(code)
}

/// Verifies `kernel`; with `-v`, says what starts and, per property, what it found and how
/// long it took, then the solver's work for the kernel.
fn verified(kernel: &Kernel, cfg: &Config) -> Report {
    let names: Vec<&str> = cfg.properties.iter().map(|p| p.name()).collect();
    progress::say(|| format!("verify `{}`: {}", kernel.name, names.join(", ")));
    let before = warpsafe_smt::stats();
    let report = warpsafe_verify::verify(kernel, cfg);
    for p in &report.results {
        progress::say(|| {
            format!(
                "verify `{}` {}: {} ({:.3} s, {} queries)",
                kernel.name,
                p.property.name(),
                verdict_word(&p.verdict),
                p.seconds.max(0.0),
                p.queries
            )
        });
    }
    progress::say(|| {
        format!(
            "verify `{}` done ({:.3} s); solver: {}",
            kernel.name,
            report.seconds,
            warpsafe_smt::stats().since(&before)
        )
    });
    report
}

/// The solver's work in a report: which solver, queries, seconds, cache hits and, with a
/// second opinion, what it found.
fn solver_json(s: &warpsafe_smt::Stats) -> serde_json::Value {
    serde_json::json!({
        "name": s.solver,
        "queries": s.queries,
        "seconds": s.solver_seconds,
        "cache_hits": s.cache_hits,
        "unanswered": s.unknowns,
        "second_opinion": s.second_opinion.then(|| serde_json::json!({
            "checked": s.second_checks,
            "disagreements": s.disagreements,
            "failed": s.second_failures,
        })),
    })
}

/// The solver's work since `before`, in a few words for a progress bar.
fn solver_status(before: &warpsafe_smt::Stats) -> String {
    let s = warpsafe_smt::stats().since(before);
    format!("{} SMT queries ({} cached)", s.queries, s.cache_hits)
}

/// `--html`: the reports over their source, one section per kernel.
fn write_html(
    path: &std::path::Path,
    args: &VerifyArgs,
    file_name: &str,
    targets: &[Target],
    reports: &[Report],
) -> Result<(), CliError> {
    let road = if args.via_ptx || crate::ptx_input::is_ptx(&args.file) {
        "the PTX road"
    } else {
        "the source road"
    };
    let sections = targets
        .iter()
        .zip(reports)
        .map(|(t, r)| crate::html::verify_section(&t.file, t.kernel.as_ref().ok(), r))
        .collect();
    let page = crate::html::Page {
        title: format!("warpsafe verify {file_name}"),
        subtitle: format!(
            "parametric verification by {road}, {} kernel(s)",
            reports.len()
        ),
        sections,
    };
    crate::html::write(path, &page)
}

/// The more serious of two exit codes: findings, then undecided, then clean.
fn worst(a: u8, b: u8) -> u8 {
    let rank = |c: u8| match c {
        FINDINGS => 2,
        UNKNOWN => 1,
        _ => 0,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

fn where_(file: &SourceFile, span: warpsafe_ir::Span) -> String {
    if span.is_dummy() || file.text.is_empty() {
        return "?".into();
    }
    let (l, c) = file.line_col(span.lo);
    format!("{}:{l}:{c}: {}", file.name, file.line_text(l).trim())
}

fn print_counterexample(file: &SourceFile, cx: &Counterexample) {
    println!(
        "              blockDim {:?}, gridDim {:?}",
        cx.block_dim, cx.grid_dim
    );
    for (b, t) in &cx.threads {
        println!("              thread {t:?} of block {b:?}");
    }
    if !cx.params.is_empty() {
        let ps: Vec<String> = cx
            .params
            .iter()
            .map(|(n, v)| format!("{n} = {v}"))
            .collect();
        println!("              params: {}", ps.join(", "));
    }
    if !cx.buffer_lens.is_empty() {
        let ls: Vec<String> = cx
            .buffer_lens
            .iter()
            .map(|(n, v)| format!("len({n}) = {v}"))
            .collect();
        println!("              buffers: {}", ls.join(", "));
    }
    if let Some((m, i)) = &cx.address {
        println!("              address: {m}[{i}]");
    }
    for s in &cx.spans {
        println!("              at {}", where_(file, *s));
    }
    if cx.exact {
        println!("              exact: the model is an execution of the kernel");
    }
    if let Some(rp) = &cx.replay {
        let word = if rp.reproduced {
            "reproduced"
        } else {
            "NOT reproduced"
        };
        println!(
            "              replay in the interpreter: {word}{}",
            if rp.note.is_empty() {
                String::new()
            } else {
                format!(" ({})", rp.note)
            }
        );
    }
}

fn print_human(file: &SourceFile, r: &Report, fixed: &Fixed) {
    let with = if fixed.is_empty() {
        String::new()
    } else {
        format!(" with {}", fixed.human())
    };
    println!(
        "{}: kernel `{}`{with} ({:.3} s, {} SMT queries)",
        file.name, r.kernel, r.seconds, r.queries
    );
    for a in &r.assumptions {
        println!("  {a}");
    }
    for p in &r.results {
        let name = p.property.name();
        match &p.verdict {
            Verdict::Verified => println!("  {name:<11} verified ({:.3} s)", p.seconds.max(0.0)),
            Verdict::Unknown { reason, span } => {
                println!("  {name:<11} unknown: {reason}");
                if let Some(s) = span {
                    println!("              at {}", where_(file, *s));
                }
            }
            Verdict::Violated(cx) => {
                println!("  {name:<11} VIOLATED [{}]: {}", cx.category, cx.message);
                print_counterexample(file, cx);
            }
            Verdict::Possible {
                counterexample: cx,
                why,
            } => {
                println!("  {name:<11} POSSIBLE [{}]: {}", cx.category, cx.message);
                println!("              unconfirmed: {why}");
                print_counterexample(file, cx);
            }
        }
        for a in &p.assumptions {
            println!("              {a}");
        }
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs.get(xs.len() / 2).copied().unwrap_or(0.0)
}

/// The verifier configuration for a kernel: its header's contract, one solver per core.
pub fn config_for(kernel: &warpsafe_ir::Kernel) -> Config {
    Config {
        jobs: default_jobs(),
        ..Config::for_kernel(kernel)
    }
}

fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A verdict in a word or two, with the finding's category and replay outcome.
pub fn verdict_word(v: &Verdict) -> String {
    match v {
        Verdict::Verified => "verified".into(),
        Verdict::Violated(cx) => {
            let replay = match &cx.replay {
                Some(r) if r.reproduced => ", replayed",
                Some(_) => ", replay differs",
                None => "",
            };
            format!("violated ({}{replay})", cx.category)
        }
        Verdict::Possible {
            counterexample: cx, ..
        } => format!("possible ({}, unconfirmed)", cx.category),
        Verdict::Unknown { .. } => "unknown".into(),
    }
}

/// `warpsafe bench verify`: every bundled kernel, every property, one row each.
pub fn bench(
    dir: &std::path::Path,
    repeat: usize,
    format: Format,
    svg: Option<&std::path::Path>,
) -> Result<u8, CliError> {
    let solver_before = warpsafe_smt::stats();
    let files = source::expand(&[dir.to_path_buf()])?;
    let mut reports = vec![];
    let bar = Task::bar_with_status("bench verify", files.len() as u64, move || {
        solver_status(&solver_before)
    });
    for f in &files {
        bar.message(f.display().to_string());
        let loaded = source::load(f)?;
        for k in &loaded.module.kernels {
            progress::say(|| format!("bench verify {} `{}`", f.display(), k.name));
            let cfg = config_for(k);
            let mut runs: Vec<Report> = (0..repeat.max(1))
                .map(|_| warpsafe_verify::verify(k, &cfg))
                .collect();
            let mut r = runs.pop().ok_or_else(|| CliError::usage("no run"))?;
            r.seconds = median(runs.iter().map(|x| x.seconds).chain([r.seconds]).collect());
            for (i, p) in r.results.iter_mut().enumerate() {
                let times = runs
                    .iter()
                    .filter_map(|x| x.results.get(i).map(|q| q.seconds))
                    .chain([p.seconds])
                    .collect();
                p.seconds = median(times);
            }
            let name = f
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            progress::say(|| {
                let words: Vec<String> = r
                    .results
                    .iter()
                    .map(|p| format!("{} {}", p.property.name(), verdict_word(&p.verdict)))
                    .collect();
                format!("row {name}: {} ({:.3} s)", words.join(", "), r.seconds)
            });
            reports.push((name, r));
        }
        bar.inc(1);
    }
    drop(bar);
    if let Some(path) = svg {
        let rows: Vec<(String, f64)> = reports
            .iter()
            .map(|(file, r)| {
                let label = if *file == r.kernel {
                    file.clone()
                } else {
                    format!("{file} ({})", r.kernel)
                };
                (label, r.seconds)
            })
            .collect();
        let title = format!(
            "warpsafe bench verify: seconds per kernel (all properties, median of {})",
            repeat.max(1)
        );
        std::fs::write(path, crate::html::bar_chart(&title, &rows))
            .map_err(|e| CliError::io(path, e))?;
    }
    match format {
        Format::Json => {
            let rows: Vec<serde_json::Value> = reports
                .iter()
                .map(|(file, r)| serde_json::json!({ "file": file, "report": r }))
                .collect();
            crate::report::print_json(&rows)?;
        }
        Format::Human => {
            let mut t = Table::new(&["kernel", "property", "verdict", "seconds", "queries"]);
            for (file, r) in &reports {
                for p in &r.results {
                    t.row(vec![
                        file.clone(),
                        p.property.name().to_string(),
                        verdict_word(&p.verdict),
                        format!("{:.3}", p.seconds.max(0.0)),
                        p.queries.to_string(),
                    ]);
                }
            }
            println!(
                "parametric verification of {} kernels (all properties, header launch dims), median of {} run(s)",
                reports.len(),
                repeat.max(1)
            );
            print!("{}", t.render());
            let all: Vec<&Verdict> = reports
                .iter()
                .flat_map(|(_, r)| r.results.iter().map(|p| &p.verdict))
                .collect();
            let count = |f: &dyn Fn(&Verdict) -> bool| all.iter().filter(|v| f(v)).count();
            println!(
                "verdicts: {} verified, {} violated ({} replayed), {} possible (unconfirmed), {} unknown",
                count(&|v| matches!(v, Verdict::Verified)),
                count(&|v| matches!(v, Verdict::Violated(_))),
                count(&|v| matches!(v, Verdict::Violated(cx) if cx.replay.as_ref().is_some_and(|r| r.reproduced))),
                count(&|v| matches!(v, Verdict::Possible { .. })),
                count(&|v| matches!(v, Verdict::Unknown { .. })),
            );
            let slowest = reports.iter().map(|(_, r)| r.seconds).fold(0.0, f64::max);
            println!("slowest kernel: {slowest:.3} s (all properties)");
            println!("solver: {}", warpsafe_smt::stats().since(&solver_before));
        }
    }
    Ok(CLEAN)
}
