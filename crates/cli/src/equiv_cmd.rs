//! `warpsafe equiv`, `warpsafe prove` and `bench equiv`: exact symbolic execution of a block,
//! compared against another kernel or a spec.

use crate::cli::{EquivArgs, Format, ProveArgs, SymArgs, SymLaunch, VerifyFormat};
use crate::exit::{CliError, PROVED_FOR_CONFIGURATION};
use crate::fixed::{self, Fixed};
use crate::launch;
use crate::ptx_input;
use crate::report::WithFixed;
use crate::sarif;
use crate::source;
use crate::summary::Table;
use std::path::Path;
use warpsafe_equiv::{BlockSel, Counterexample, EquivConfig, ExecConfig, KernelRun, Limits, Stage};
use warpsafe_exec::{LaunchConfig, Program};
use warpsafe_ir::{Kernel, ParamKind, SourceFile};

fn split_pair<'a>(item: &'a str, flag: &str) -> Result<(&'a str, &'a str), CliError> {
    item.split_once('=')
        .map(|(a, b)| (a.trim(), b.trim()))
        .ok_or_else(|| CliError::usage(format!("--{flag} `{item}`: want NAME=VALUE")))
}

/// What `--arg`, `--buf` and `--len` fix, read against `kernels` (a name must be a parameter
/// of one of them); notes on what a symbolic check does not use go to stderr.
pub(crate) fn fixed_inputs(kernels: &[&Kernel], sym: &SymLaunch) -> Result<Fixed, CliError> {
    let flags = fixed::Flags {
        args: &sym.args,
        bufs: &sym.bufs,
        lens: &sym.lens,
        inits: &sym.inits,
    };
    let f = fixed::resolve(kernels, &flags, fixed::Contents::Taken)?;
    f.print_notes();
    Ok(f)
}

/// Says which flag gave each buffer started from `--buf NAME=zeros:N` its contents (the
/// engine calls every given start `--init`).
pub(crate) fn label_starts(run: &mut KernelRun, fixed: &Fixed) {
    for s in &mut run.init {
        if let Some(from) = fixed.init_from(&s.name) {
            s.from = from.to_string();
        }
    }
}

/// The symbolic-execution configuration of `kernel` from the flags and what they fix (the
/// header fills the rest).
pub(crate) fn exec_config(
    kernel: &Kernel,
    sym: &SymLaunch,
    fixed: &Fixed,
    all_blocks: bool,
) -> Result<ExecConfig, CliError> {
    let launch = match (&sym.grid, &sym.block) {
        (None, None) => None,
        (g, b) => {
            let dims = |flag: &Option<String>, header: Option<[u32; 3]>, what: &str| match flag {
                Some(t) => launch::parse_dims(t),
                None => header
                    .ok_or_else(|| CliError::usage(format!("no {what} dimensions: pass --{what}"))),
            };
            Some(LaunchConfig {
                grid: dims(g, kernel.contract.grid_dim, "grid")?,
                block: dims(b, kernel.contract.block_dim, "block")?,
                dynamic_shared_bytes: sym.shared_bytes.unwrap_or(0),
            })
        }
    };
    let mut init = init_flags(kernel, &sym.inits)?;
    init.extend(fixed.inits_of(kernel));
    Ok(ExecConfig {
        launch,
        scalars: fixed.scalars_of(kernel),
        lens: fixed.lens_of(kernel),
        init,
        blocks: if all_blocks {
            BlockSel::All
        } else {
            BlockSel::BLOCK0
        },
        lockstep_warps: sym.lockstep_warps,
        ..ExecConfig::default()
    })
}

/// `--init NAME=VALUE` flags, checked against `kernel` (a buffer of that name, a value its
/// elements can hold).
fn init_flags(kernel: &Kernel, items: &[String]) -> Result<Vec<(String, String)>, CliError> {
    let mut out = vec![];
    for item in items {
        let (name, text) = split_pair(item, "init")?;
        let p = kernel.param_named(name).ok_or_else(|| {
            CliError::usage(format!(
                "--init {item}: `{}` has no buffer `{name}`",
                kernel.name
            ))
        })?;
        let ParamKind::Buffer { elem, .. } = kernel.param(p).kind else {
            return Err(CliError::usage(format!(
                "--init {item}: `{name}` is a scalar: use --arg"
            )));
        };
        warpsafe_ir::InitNumber::parse(text)
            .ok_or_else(|| format!("`{text}` is not a number, `inf` or `-inf`"))
            .and_then(|n| n.to_value(elem))
            .map_err(|why| CliError::usage(format!("--init {item}: {why}")))?;
        out.push((name.to_string(), text.to_string()));
    }
    Ok(out)
}

/// The buffers a run started from constants, one line each.
pub(crate) fn print_starts(run: &KernelRun) {
    for s in &run.init {
        println!(
            "  initial contents of `{}` in `{}`: every element {} ({})",
            s.name, run.name, s.value, s.from
        );
    }
}

fn list(s: &Option<String>) -> Option<Vec<String>> {
    s.as_ref().map(|s| {
        s.split(',')
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect()
    })
}

pub(crate) fn code(c: i32) -> u8 {
    u8::try_from(c).unwrap_or(3)
}

fn print_run(file: &SourceFile, r: &KernelRun) {
    for f in &r.findings {
        let line =
            f.at.line
                .map(|l| format!("{}:{l}: ", file.name))
                .unwrap_or_default();
        println!("  [{}] {line}{}", f.kind, f.message);
        if let Some(o) = &f.other {
            if let Some(l) = o.line {
                println!(
                    "        other side at {}:{l}: {}",
                    file.name,
                    file.line_text(l).trim()
                );
            }
        }
    }
}

pub(crate) fn print_counterexample(cx: &Counterexample) {
    match &cx.replay {
        Some(r) => {
            println!(
                "  first difference: {}[{}]: expected {} but got {} (both run in the interpreter on the input below)",
                cx.buffer, cx.index, r.expected, r.actual
            );
            println!(
                "    symbolic values: expected {} but got {}",
                cx.expected, cx.actual
            );
        }
        None => println!(
            "  first difference: {}[{}]: expected {} but got {}",
            cx.buffer, cx.index, cx.expected, cx.actual
        ),
    }
    println!("    expected term: {}", cx.expected_term);
    println!("    actual term:   {}", cx.actual_term);
    for t in &cx.inputs {
        let shown: Vec<String> = t
            .entries
            .iter()
            .take(8)
            .map(|(i, exact, _)| format!("{i}: {exact}"))
            .collect();
        let more = if t.entries.len() > 8 { ", …" } else { "" };
        println!("    input {} = {{{}{more}}}", t.name, shown.join(", "));
    }
    println!(
        "    (other input elements from seed {}; exact: {})",
        cx.seed, cx.exact
    );
}

/// The memory and time budgets of a check from `--max-memory` and `--timeout`.
fn limits(sym: &SymArgs) -> Result<Limits, CliError> {
    let max_memory = match &sym.max_memory {
        // A third of the machine (the interpreter's default share, two thirds of it): a
        // table that doubles past the budget between two readings must still fit.
        None => warpsafe_exec::default_memory_limit() / 3 * 2,
        Some(text) => match text.parse::<warpsafe_exec::ByteSize>() {
            Ok(warpsafe_exec::ByteSize(0)) => {
                return Err(CliError::usage(
                    "--max-memory 0: the limit must be more than 0 bytes",
                ))
            }
            Ok(warpsafe_exec::ByteSize(n)) => n,
            Err(e) => return Err(CliError::usage(format!("--max-memory {text}: {e}"))),
        },
    };
    let timeout = match sym.timeout {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 => Some(std::time::Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(CliError::usage(format!(
                "--timeout {t}: want a positive number of seconds"
            )))
        }
    };
    Ok(Limits {
        max_memory: Some(max_memory),
        timeout,
    })
}

/// Gives each finding of `run` its line in `file`.
pub(crate) fn set_lines(run: &mut KernelRun, file: &SourceFile) {
    for f in &mut run.findings {
        f.set_lines(&file.text);
    }
}

/// One side of `equiv`: the text its findings point into and the program to run.
struct Side {
    file: SourceFile,
    program: Program,
}

/// A `.ptx` file (lowered), or a `.cu`/IR kernel compiled to thread code directly or, with
/// `via_ptx`, through our CUDA codegen and NVRTC.
fn side(path: &Path, via_ptx: bool, kernel: Option<&str>) -> Result<Side, CliError> {
    if ptx_input::is_ptx(path) {
        let p = match kernel {
            Some(n) => {
                ptx_input::load_ptx(path, Some(n)).or_else(|_| ptx_input::load_ptx(path, None))?
            }
            None => ptx_input::load_ptx(path, None)?,
        };
        return Ok(Side {
            file: p.file,
            program: p.program,
        });
    }
    let loaded = source::load(path)?;
    // `--kernel` names the kernel of each file that defines it; a file with one kernel
    // that is not so named contributes that one.
    let named =
        kernel.filter(|n| loaded.module.kernel(n).is_some() || loaded.module.kernels.len() > 1);
    let k = loaded.kernel(named)?;
    if via_ptx {
        let p = ptx_input::via_ptx(&loaded.file.name, k)?;
        return Ok(Side {
            file: p.file,
            program: p.program,
        });
    }
    let program = warpsafe_exec::compile(k)
        .map_err(|e| CliError::usage(format!("{}: {e}", loaded.file.name)))?;
    Ok(Side {
        file: loaded.file,
        program,
    })
}

/// The kernels `names` (comma-separated, in launch order) of the file at `path`, each
/// compiled as [`side`] compiles one; the file's text for their findings.
fn sequence(
    path: &Path,
    via_ptx: bool,
    names: &str,
) -> Result<(SourceFile, Vec<Program>), CliError> {
    let names: Vec<&str> = names
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if names.is_empty() {
        return Err(CliError::usage("--sequence: name at least one kernel"));
    }
    if ptx_input::is_ptx(path) {
        let mut file = None;
        let mut programs = Vec::new();
        for n in names {
            let p = ptx_input::load_ptx(path, Some(n))?;
            file.get_or_insert(p.file);
            programs.push(p.program);
        }
        let file = file.ok_or_else(|| CliError::usage("--sequence: no kernel"))?;
        return Ok((file, programs));
    }
    let loaded = source::load(path)?;
    let mut programs = Vec::new();
    for n in names {
        let k = loaded.kernel(Some(n))?;
        programs.push(if via_ptx {
            ptx_input::via_ptx(&loaded.file.name, k)?.program
        } else {
            warpsafe_exec::compile(k)
                .map_err(|e| CliError::usage(format!("{}: {e}", loaded.file.name)))?
        });
    }
    Ok((loaded.file, programs))
}

/// The `--init` flags that name a parameter of `kernel` (one set of flags serves every
/// kernel of a sequence; a malformed flag is kept, for its error). `--arg`, `--buf` and
/// `--len` reach each kernel through [`Fixed`], which keeps its own parameters.
fn flags_for(kernel: &Kernel, sym: &SymLaunch) -> SymLaunch {
    let mine = |items: &[String]| -> Vec<String> {
        items
            .iter()
            .filter(|i| {
                i.split_once('=')
                    .is_none_or(|(n, _)| kernel.param_named(n.trim()).is_some())
            })
            .cloned()
            .collect()
    };
    SymLaunch {
        inits: mine(&sym.inits),
        ..sym.clone()
    }
}

/// Checks that every `--init` names a parameter of one of `kernels` (`--arg`, `--buf` and
/// `--len` are checked by [`fixed::resolve`]).
fn every_flag_used(kernels: &[&Kernel], sym: &SymLaunch) -> Result<(), CliError> {
    for (flag, items) in [("init", &sym.inits)] {
        for item in items {
            let Some((name, _)) = item.split_once('=') else {
                continue;
            };
            if !kernels.iter().any(|k| k.param_named(name.trim()).is_some()) {
                let names: Vec<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
                return Err(CliError::usage(format!(
                    "--{flag} {item}: none of {} has a parameter `{}`",
                    names.join(", "),
                    name.trim()
                )));
            }
        }
    }
    Ok(())
}

/// `warpsafe equiv REF OPT`.
pub fn equiv(args: &EquivArgs) -> Result<u8, CliError> {
    let r = side(&args.reference, args.via_ptx, args.kernel.as_deref())?;
    let (o, stages) = match &args.sequence {
        None => {
            let o = side(&args.optimized, args.via_ptx, args.kernel.as_deref())?;
            (o.file, vec![o.program])
        }
        Some(list) => {
            let l = &args.sym.launch;
            if l.grid.is_some() || l.block.is_some() || l.shared_bytes.is_some() {
                return Err(CliError::usage(
                    "--sequence: each kernel takes its launch from the file (host launcher or header); --grid, --block and --shared-bytes cannot say which kernel they are for",
                ));
            }
            sequence(&args.optimized, args.via_ptx, list)?
        }
    };
    let rk = r.program.kernel();
    let limits = limits(&args.sym)?;
    let every_block = !args.sym.block0_only;
    let mut kernels = vec![rk];
    kernels.extend(stages.iter().map(Program::kernel));
    let fixed = fixed_inputs(&kernels, &args.sym.launch)?;
    every_flag_used(&kernels, &args.sym.launch)?;
    let exec = |k: &Kernel| -> Result<ExecConfig, CliError> {
        let flags = if args.sequence.is_some() {
            flags_for(k, &args.sym.launch)
        } else {
            args.sym.launch.clone()
        };
        Ok(ExecConfig {
            limits,
            ..exec_config(k, &flags, &fixed, every_block)?
        })
    };
    let stage_execs = stages
        .iter()
        .map(|p| exec(p.kernel()))
        .collect::<Result<Vec<_>, _>>()?;
    let cfg = EquivConfig {
        reference: exec(rk)?,
        optimized: stage_execs[0].clone(),
        outputs: list(&args.outputs),
        inputs: list(&args.inputs),
        exact: args.exact,
        field_points: args.field_points,
        ..EquivConfig::default()
    };
    let optimized: Vec<Stage> = stages
        .iter()
        .zip(&stage_execs)
        .map(|(program, exec)| Stage { program, exec })
        .collect();
    let reference = [Stage {
        program: &r.program,
        exec: &cfg.reference,
    }];
    let task = crate::progress::Task::spinner("equiv");
    let mut report = warpsafe_equiv::equiv_stages(&reference, &optimized, &cfg)
        .map_err(|e| CliError::usage(e.to_string()))?;
    set_lines(&mut report.reference, &r.file);
    set_lines(&mut report.optimized, &o);
    label_starts(&mut report.reference, &fixed);
    label_starts(&mut report.optimized, &fixed);
    drop(task);
    crate::phases::equiv(&report, "reference", "optimized");
    match args.sym.launch.format {
        VerifyFormat::Json => crate::report::print_json(&WithFixed {
            fixed: &fixed,
            report: &report,
        })?,
        VerifyFormat::Sarif => {
            let mut results = sarif::sym_findings(&r.file, "reference", &report.reference);
            results.extend(sarif::sym_findings(&o, "optimized", &report.optimized));
            results.extend(
                report
                    .counterexample
                    .iter()
                    .map(|cx| sarif::difference(&o, cx)),
            );
            if report.verdict == "unknown" {
                let why = report.reason.as_deref().unwrap_or("no reason given");
                let text = format!("{} vs {}: unknown: {why}", r.file.name, o.name);
                results.push(sarif::undecided(&o, "unknown", text, None));
            }
            println!("{}", sarif::render_check("equiv", &rk.name, results));
        }
        VerifyFormat::Human => {
            let partial = if args.sym.block0_only {
                " [block 0 only]"
            } else {
                ""
            };
            println!(
                "{} vs {}: {}{partial} ({:.3} s)",
                r.file.name, o.name, report.verdict, report.seconds
            );
            println!("  compared: {}", report.scope);
            if !fixed.is_empty() {
                println!("  fixed by flags: {}", fixed.human());
            }
            if let Some(why) = &report.reason {
                println!("  reason: {why}");
            }
            if let Some(t) = &report.identity {
                println!("  {}", t.text());
            }
            print_starts(&report.reference);
            print_starts(&report.optimized);
            print_run(&r.file, &report.reference);
            print_run(&o, &report.optimized);
            for s in &report.outputs {
                println!(
                    "  output {}: {} compared, {} equal, {} different, {} unknown",
                    s.name, s.compared, s.equal, s.different, s.unknown
                );
            }
            if let Some(cx) = &report.counterexample {
                print_counterexample(cx);
            }
        }
    }
    Ok(code(report.exit_code()))
}

/// Why the all-sizes proof failed: the first obligation not proved, or the reason it could
/// not be stated.
#[derive(serde::Serialize)]
struct AllSizesFailure {
    /// One line.
    reason: String,
    /// The obligation that failed, when there is one.
    obligation: Option<warpsafe_functional::Obligation>,
}

impl AllSizesFailure {
    fn of(o: &warpsafe_functional::Outcome) -> AllSizesFailure {
        let failed = o.obligations.iter().find(|ob| ob.verdict != "proved");
        let reason = match failed {
            Some(ob) => format!(
                "{} obligation {}: {}{}",
                ob.kind,
                ob.verdict,
                ob.what,
                ob.reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default()
            ),
            None => o
                .reason
                .clone()
                .unwrap_or_else(|| format!("verdict {}", o.verdict)),
        };
        AllSizesFailure {
            reason,
            obligation: failed.cloned(),
        }
    }
}

/// One scalar parameter's value in the checked configuration.
#[derive(serde::Serialize)]
struct ParamValue {
    name: String,
    /// The value, or `symbolic` for a float left as an input symbol.
    value: String,
}

/// The launch `prove` checked when it checked one configuration.
#[derive(serde::Serialize)]
struct Configuration {
    grid: [u32; 3],
    block: [u32; 3],
    params: Vec<ParamValue>,
    /// `0` (block 0 only) or `all`.
    blocks: &'static str,
    /// Buffers that started as a constant (`--init`, `//@ init`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    init: Vec<warpsafe_equiv::BufferStart>,
}

impl Configuration {
    fn of(k: &Kernel, cfg: &ExecConfig, launch: LaunchConfig) -> Configuration {
        let params = k
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| matches!(p.kind, ParamKind::Scalar(_)))
            .map(|(i, p)| {
                let given = cfg.scalars.iter().find(|(n, _)| *n == p.name).map(|x| x.1);
                let default = k
                    .contract
                    .defaults
                    .iter()
                    .find(|(id, _)| id.0 as usize == i)
                    .map(|x| x.1);
                ParamValue {
                    name: p.name.clone(),
                    value: given
                        .or(default)
                        .map_or("symbolic".to_string(), |v| v.to_string()),
                }
            })
            .collect();
        Configuration {
            grid: launch.grid,
            block: launch.block,
            params,
            blocks: if cfg.blocks == BlockSel::All {
                "all"
            } else {
                "0"
            },
            init: Vec::new(),
        }
    }

    fn human(&self) -> String {
        let dims = |d: [u32; 3]| match d {
            [x, 1, 1] => x.to_string(),
            [x, y, 1] => format!("{x},{y}"),
            [x, y, z] => format!("{x},{y},{z}"),
        };
        let mut parts = vec![
            format!("grid {}", dims(self.grid)),
            format!("block {}", dims(self.block)),
        ];
        parts.extend(
            self.params
                .iter()
                .map(|p| format!("{} = {}", p.name, p.value)),
        );
        parts.extend(
            self.init
                .iter()
                .map(|s| format!("`{}` starts as {} ({})", s.name, s.value, s.from)),
        );
        let blocks = if self.blocks == "all" {
            "every block"
        } else {
            "block 0 only (--block0-only)"
        };
        format!("{}; {blocks}", parts.join(", "))
    }
}

/// `prove`'s JSON for one configuration: the report, what it covers, and why the all-sizes
/// proof (when attempted) failed.
#[derive(serde::Serialize)]
struct ConfigurationJson<'a> {
    scope: &'static str,
    configuration: &'a Configuration,
    all_sizes: Option<&'a AllSizesFailure>,
    #[serde(flatten)]
    report: &'a warpsafe_equiv::SpecReport,
}

/// `warpsafe prove FILE --spec SPEC`: for every size when no flag fixes the launch and the
/// per-thread proof goes through; else for one configuration, saying which and, when the
/// all-sizes proof failed, why (exit [`PROVED_FOR_CONFIGURATION`] instead of 0).
pub fn prove(args: &ProveArgs) -> Result<u8, CliError> {
    let f = source::load(&args.file)?;
    let k = f.kernel(args.select.kernel.as_deref())?;
    let spec = crate::allsizes_cmd::read_spec(Path::new(&args.spec))?;
    let l = &args.sym.launch;
    let fixed = fixed_inputs(&[k], l)?;
    let sizes_fixed = l.grid.is_some() || l.block.is_some() || fixed.fixes_sizes();
    let mut all_sizes = None;
    if !sizes_fixed {
        let task = crate::progress::Task::spinner("prove for every size");
        let all = warpsafe_functional::prove_all_sizes(
            k,
            &spec,
            &warpsafe_functional::Options::default(),
        );
        drop(task);
        crate::phases::all_sizes(&all);
        if all.verdict == "proved" {
            match l.format {
                VerifyFormat::Json => crate::report::print_json(&WithFixed {
                    fixed: &fixed,
                    report: &crate::allsizes_cmd::Scoped {
                        scope: crate::allsizes_cmd::ALL_SIZES,
                        report: &all,
                    },
                })?,
                VerifyFormat::Sarif => {
                    println!("{}", sarif::render_check("prove", &k.name, vec![]));
                }
                VerifyFormat::Human => print_all_sizes(&f.file, &all),
            }
            return Ok(crate::exit::CLEAN);
        }
        let why = AllSizesFailure::of(&all);
        if l.format == VerifyFormat::Human {
            println!(
                "{}: the all-sizes proof failed: {}",
                f.file.name, why.reason
            );
        }
        all_sizes = Some(why);
    }
    let cfg = ExecConfig {
        limits: limits(&args.sym)?,
        ..exec_config(k, &args.sym.launch, &fixed, !args.sym.block0_only)?
    };
    let task = crate::progress::Task::spinner("prove for one configuration");
    let mut report =
        warpsafe_equiv::prove_spec(k, &spec, &cfg).map_err(|e| CliError::usage(e.to_string()))?;
    set_lines(&mut report.kernel, &f.file);
    label_starts(&mut report.kernel, &fixed);
    drop(task);
    crate::phases::prove(&report);
    let mut configuration = Configuration::of(k, &cfg, report.kernel.launch);
    configuration.init = report.kernel.init.clone();
    let proved = report.verdict == "equal";
    let exit = match (proved, &all_sizes) {
        (true, Some(_)) => PROVED_FOR_CONFIGURATION,
        _ => code(report.exit_code()),
    };
    match args.sym.launch.format {
        VerifyFormat::Json => crate::report::print_json(&WithFixed {
            fixed: &fixed,
            report: &ConfigurationJson {
                scope: "configuration",
                configuration: &configuration,
                all_sizes: all_sizes.as_ref(),
                report: &report,
            },
        })?,
        VerifyFormat::Sarif => {
            let results = prove_sarif(&f.file, &report, all_sizes.as_ref(), &configuration);
            println!("{}", sarif::render_check("prove", &k.name, results));
        }
        VerifyFormat::Human => {
            let word = match (proved, &all_sizes) {
                (true, Some(_)) => "proved for one configuration only",
                (true, None) => "proved for one configuration",
                _ => report.verdict,
            };
            println!(
                "{} against the spec: {word} ({:.3} s)",
                f.file.name, report.seconds
            );
            println!("  configuration: {}", configuration.human());
            if !fixed.is_empty() {
                println!("  fixed by flags: {}", fixed.human());
            }
            if let Some(why) = &report.reason {
                println!("  reason: {why}");
            }
            print_run(&f.file, &report.kernel);
            for s in &report.outputs {
                println!(
                    "  output {}: {} elements, {} equal, {} different, {} unknown",
                    s.name, s.compared, s.equal, s.different, s.unknown
                );
            }
            if let Some(cx) = &report.counterexample {
                print_counterexample(cx);
                let header = k
                    .contract
                    .grid_dim
                    .zip(k.contract.block_dim)
                    .map(|(grid, block)| warpsafe_exec::LaunchConfig {
                        grid,
                        block,
                        dynamic_shared_bytes: 0,
                    });
                if let Some(launch) = cfg.launch.or(header) {
                    println!(
                        "  {}",
                        crate::confirm::confirm(k, &launch, &cfg.scalars, cx).note
                    );
                }
            }
            if exit == PROVED_FOR_CONFIGURATION {
                println!(
                    "  not proved for every size (see above): exit {PROVED_FOR_CONFIGURATION}, \
                     proved for this configuration only"
                );
            }
        }
    }
    Ok(exit)
}

/// `prove`'s SARIF results for one configuration: the kernel's findings, the difference
/// from the spec, an unknown verdict, and a note when the all-sizes proof failed.
fn prove_sarif(
    file: &SourceFile,
    report: &warpsafe_equiv::SpecReport,
    all_sizes: Option<&AllSizesFailure>,
    configuration: &Configuration,
) -> Vec<serde_json::Value> {
    let mut results = sarif::sym_findings(file, "kernel", &report.kernel);
    results.extend(
        report
            .counterexample
            .iter()
            .map(|cx| sarif::difference(file, cx)),
    );
    if report.verdict == "unknown" {
        let why = report.reason.as_deref().unwrap_or("no reason given");
        let text = format!(
            "the spec could not be decided for {}: {why}",
            configuration.human()
        );
        results.push(sarif::undecided(file, "unknown", text, None));
    }
    if let Some(why) = all_sizes {
        let text = format!("not proved for every size: {}", why.reason);
        results.push(sarif::undecided(file, "not-every-size", text, None));
    }
    results
}

/// The all-sizes proof: assumptions, then every obligation with its method.
pub(crate) fn print_all_sizes(file: &warpsafe_ir::SourceFile, o: &warpsafe_functional::Outcome) {
    println!(
        "{} against the spec: proved for every launch configuration and size ({} obligations, {:.3} s)",
        file.name,
        o.obligations.len(),
        o.seconds
    );
    println!("  assuming:");
    for a in &o.assumptions {
        println!("    {a}");
    }
    let mut kinds: Vec<(&str, &str, usize)> = vec![];
    for ob in &o.obligations {
        match kinds
            .iter_mut()
            .find(|(k, m, _)| *k == ob.kind && *m == ob.method)
        {
            Some(e) => e.2 += 1,
            None => kinds.push((ob.kind, ob.method, 1)),
        }
    }
    println!("  proved:");
    for (kind, method, n) in kinds {
        println!("    {n:>3} {kind} obligation(s) by {method}");
    }
}

/// Reads a benchmark file as `warpsafe equiv` does: clang (with the pair's `-D`) when it is
/// installed, else the C subset (a sized pair then fails: its files are C++); through our
/// CUDA codegen and NVRTC's PTX on the PTX road; a `.ptx` file as it is.
fn bench_load(
    path: &Path,
    defines: &[(String, String)],
    via_ptx: bool,
) -> Result<(Program, String), warpsafe_equiv::EquivError> {
    use warpsafe_equiv::EquivError;
    if ptx_input::is_ptx(path) {
        // nvcc's PTX of a tensor-core pair: read as it is.
        let p = ptx_input::load_ptx(path, None).map_err(|e| EquivError::Source(e.to_string()))?;
        return Ok((p.program, p.file.text));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| EquivError::Source(format!("{}: {e}", path.display())))?;
    let name = path.display().to_string();
    let joined = |errs: Vec<warpsafe_cuda_front::FrontError>| {
        let msgs: Vec<String> = errs.iter().map(|e| e.message.clone()).collect();
        EquivError::Source(format!("{name}: {}", msgs.join("; ")))
    };
    let module = if warpsafe_clang_front::find_clang().is_some() {
        let opts = warpsafe_clang_front::Options {
            defines: defines.iter().map(|(k, v)| format!("{k}={v}")).collect(),
            include_dirs: vec![],
        };
        let c = warpsafe_clang_front::compile_file(path, &text, &opts).map_err(joined)?;
        if let Some(r) = c.rejected.into_iter().next() {
            return Err(joined(r.errors));
        }
        c.module
    } else {
        warpsafe_cuda_front::compile(&text).map_err(joined)?
    };
    let k = module
        .kernels
        .first()
        .ok_or_else(|| EquivError::Source(format!("{name}: no kernel")))?;
    if via_ptx {
        let p = ptx_input::via_ptx(&name, k).map_err(|e| EquivError::Compile(e.to_string()))?;
        return Ok((p.program, p.file.text));
    }
    let p = warpsafe_exec::compile(k).map_err(|e| EquivError::Compile(e.to_string()))?;
    Ok((p, text))
}

/// `warpsafe bench equiv`.
pub fn bench(
    dir: &std::path::Path,
    only: &[String],
    repeat: usize,
    format: Format,
    svg: Option<&Path>,
) -> Result<u8, CliError> {
    let task = crate::progress::Task::bar("bench equiv", repeat.max(1) as u64);
    let filters: Vec<Option<&str>> = if only.is_empty() {
        vec![None]
    } else {
        only.iter().map(|t| Some(t.trim())).collect()
    };
    let mut runs = vec![];
    for _ in 0..repeat.max(1) {
        let mut rows = vec![];
        for f in &filters {
            rows.extend(
                warpsafe_equiv::bench_equiv_with(dir, *f, &bench_load, true)
                    .map_err(|e| CliError::usage(e.to_string()))?,
            );
        }
        if rows.is_empty() {
            return Err(CliError::usage(format!(
                "bench equiv --only {}: no pair's family or file contains it",
                only.join(",")
            )));
        }
        runs.push(rows);
        task.inc(1);
    }
    let mut rows = runs.pop().unwrap_or_default();
    drop(task);
    for (i, r) in rows.iter_mut().enumerate() {
        let mut times: Vec<f64> = runs
            .iter()
            .filter_map(|run| run.get(i).map(|x| x.seconds))
            .collect();
        times.push(r.seconds);
        times.sort_by(|a, b| a.total_cmp(b));
        r.seconds = times[times.len() / 2];
    }
    crate::phases::bench_equiv_rows(&rows);
    match format {
        Format::Json => crate::report::print_json(&rows)?,
        Format::Human => {
            let mut t = Table::new(&[
                "pair",
                "verdict",
                "expected",
                "seconds",
                "peak MiB",
                "barriers",
                "thread-instr",
            ]);
            for r in &rows {
                t.row(vec![
                    r.pair.clone(),
                    r.verdict.clone(),
                    r.expect.clone(),
                    format!("{:.3}", r.seconds),
                    r.peak_mib.map_or("-".into(), |m| format!("{m:.0}")),
                    r.barriers.to_string(),
                    r.thread_instructions.to_string(),
                ]);
            }
            println!(
                "equivalence benchmark: symbolic execution of every block, median of {} run(s)",
                repeat.max(1)
            );
            print!("{}", t.render());
        }
    }
    if let Some(path) = svg {
        let seconds: Vec<(String, f64)> =
            rows.iter().map(|r| (r.pair.clone(), r.seconds)).collect();
        let title = format!(
            "warpsafe bench equiv: seconds per pair (median of {})",
            repeat.max(1)
        );
        std::fs::write(path, crate::html::bar_chart(&title, &seconds))
            .map_err(|e| CliError::io(path, e))?;
    }
    let all_ok = rows.iter().all(|r| r.verdict == r.expect);
    Ok(if all_ok {
        crate::exit::CLEAN
    } else {
        crate::exit::FINDINGS
    })
}
