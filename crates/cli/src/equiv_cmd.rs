//! `warpsafe equiv`, `warpsafe prove` and `bench equiv`: exact symbolic execution of a block,
//! compared against another kernel or a spec.

use crate::cli::{EquivArgs, Format, ProveArgs, SymArgs};
use crate::exit::CliError;
use crate::launch;
use crate::source::{self, Loaded};
use crate::summary::Table;
use warpsafe_equiv::{BlockSel, Counterexample, EquivConfig, ExecConfig, KernelRun, Spec};
use warpsafe_exec::LaunchConfig;
use warpsafe_ir::{Kernel, ParamKind, Value};

fn split_pair<'a>(item: &'a str, flag: &str) -> Result<(&'a str, &'a str), CliError> {
    item.split_once('=')
        .map(|(a, b)| (a.trim(), b.trim()))
        .ok_or_else(|| CliError::usage(format!("--{flag} `{item}`: want NAME=VALUE")))
}

/// The symbolic-execution configuration of `kernel` from the flags (the header fills the rest).
pub(crate) fn exec_config(kernel: &Kernel, sym: &SymArgs) -> Result<ExecConfig, CliError> {
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
    let mut scalars = vec![];
    for item in &sym.args {
        let (name, text) = split_pair(item, "arg")?;
        let p = kernel.param_named(name).ok_or_else(|| {
            CliError::usage(format!("`{}` has no parameter `{name}`", kernel.name))
        })?;
        let ParamKind::Scalar(ty) = kernel.param(p).kind else {
            return Err(CliError::usage(format!("`{name}` is a buffer: use --len")));
        };
        let v = Value::parse(ty, text)
            .ok_or_else(|| CliError::usage(format!("--arg {name}={text}: not a valid {ty}")))?;
        scalars.push((name.to_string(), v));
    }
    let mut lens = vec![];
    for item in &sym.lens {
        let (name, n) = split_pair(item, "len")?;
        let n = n
            .parse()
            .map_err(|_| CliError::usage(format!("--len {item}: not a length")))?;
        lens.push((name.to_string(), n));
    }
    Ok(ExecConfig {
        launch,
        scalars,
        lens,
        blocks: if sym.all_blocks {
            BlockSel::All
        } else {
            BlockSel::default()
        },
        lockstep_warps: sym.lockstep_warps,
        ..ExecConfig::default()
    })
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

fn print_run(file: &Loaded, r: &KernelRun) {
    for f in &r.findings {
        let line =
            f.at.line
                .map(|l| format!("{}:{l}: ", file.file.name))
                .unwrap_or_default();
        println!("  [{}] {line}{}", f.kind, f.message);
        if let Some(o) = &f.other {
            if let Some(l) = o.line {
                println!(
                    "        other side at {}:{l}: {}",
                    file.file.name,
                    file.file.line_text(l).trim()
                );
            }
        }
    }
}

pub(crate) fn print_counterexample(cx: &Counterexample) {
    println!(
        "  first difference: {}[{}]: expected {} but got {}",
        cx.buffer, cx.index, cx.expected, cx.actual
    );
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

fn set_lines(run: &mut KernelRun, file: &Loaded) {
    for f in &mut run.findings {
        f.set_lines(&file.file.text);
    }
}

/// `warpsafe equiv REF OPT`.
pub fn equiv(args: &EquivArgs) -> Result<u8, CliError> {
    let r = source::load(&args.reference)?;
    let o = source::load(&args.optimized)?;
    let (rk, ok) = (r.kernel(None)?, o.kernel(None)?);
    let cfg = EquivConfig {
        reference: exec_config(rk, &args.sym)?,
        optimized: exec_config(ok, &args.sym)?,
        outputs: list(&args.outputs),
        inputs: list(&args.inputs),
        points: None,
    };
    let mut report =
        warpsafe_equiv::equiv(rk, ok, &cfg).map_err(|e| CliError::usage(e.to_string()))?;
    set_lines(&mut report.reference, &r);
    set_lines(&mut report.optimized, &o);
    match args.sym.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| CliError::usage(e.to_string()))?
        ),
        Format::Human => {
            println!(
                "{} vs {}: {} ({:.3} s)",
                r.file.name, o.file.name, report.verdict, report.seconds
            );
            if let Some(why) = &report.reason {
                println!("  reason: {why}");
            }
            print_run(&r, &report.reference);
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

/// `warpsafe prove FILE --spec SPEC`.
pub fn prove(args: &ProveArgs) -> Result<u8, CliError> {
    let f = source::load(&args.file)?;
    let k = f.kernel(args.select.kernel.as_deref())?;
    let text = match std::fs::read_to_string(&args.spec) {
        Ok(t) => t,
        Err(_) if args.spec.contains('=') => args.spec.clone(),
        Err(e) => return Err(CliError::io(std::path::Path::new(&args.spec), e)),
    };
    let spec = Spec::parse(&text).map_err(|e| CliError::usage(format!("spec: {e}")))?;
    let cfg = exec_config(k, &args.sym)?;
    let mut report =
        warpsafe_equiv::prove_spec(k, &spec, &cfg).map_err(|e| CliError::usage(e.to_string()))?;
    set_lines(&mut report.kernel, &f);
    match args.sym.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| CliError::usage(e.to_string()))?
        ),
        Format::Human => {
            let word = if report.verdict == "equal" {
                "proved"
            } else {
                report.verdict
            };
            println!(
                "{} against the spec: {word} ({:.3} s)",
                f.file.name, report.seconds
            );
            if let Some(why) = &report.reason {
                println!("  reason: {why}");
            }
            print_run(&f, &report.kernel);
            for s in &report.outputs {
                println!(
                    "  output {}: {} elements, {} equal, {} different, {} unknown",
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

/// `warpsafe bench equiv`.
pub fn bench(dir: &std::path::Path, repeat: usize, format: Format) -> Result<u8, CliError> {
    let mut runs = vec![];
    for _ in 0..repeat.max(1) {
        runs.push(
            warpsafe_equiv::bench_equiv(dir, None).map_err(|e| CliError::usage(e.to_string()))?,
        );
    }
    let mut rows = runs.pop().unwrap_or_default();
    for (i, r) in rows.iter_mut().enumerate() {
        let mut times: Vec<f64> = runs
            .iter()
            .filter_map(|run| run.get(i).map(|x| x.seconds))
            .collect();
        times.push(r.seconds);
        times.sort_by(|a, b| a.total_cmp(b));
        r.seconds = times[times.len() / 2];
    }
    match format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&rows).map_err(|e| CliError::usage(e.to_string()))?
        ),
        Format::Human => {
            let mut t = Table::new(&[
                "pair",
                "verdict",
                "expected",
                "seconds",
                "barriers",
                "thread-instr",
            ]);
            for r in &rows {
                t.row(vec![
                    r.pair.clone(),
                    r.verdict.clone(),
                    r.expect.clone(),
                    format!("{:.3}", r.seconds),
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
    let all_ok = rows.iter().all(|r| r.verdict == r.expect);
    Ok(if all_ok {
        crate::exit::CLEAN
    } else {
        crate::exit::FINDINGS
    })
}
