//! `warpsafe bench interp`: interpreter throughput with every check on, beside native Rust;
//! and the entry of `warpsafe bench verify`, whose SARIF form is written here.

use crate::cli::{Format, LaunchArgs, VerifyFormat};
use crate::exit::{CliError, CLEAN};
use crate::summary::Table;
use crate::{launch, source};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;
use warpsafe_exec::{Arg, Options};

/// One benchmark case: a bundled kernel at a fixed size.
struct Case {
    file: &'static str,
    grid: &'static str,
    block: &'static str,
    args: &'static [&'static str],
    native: Option<fn(&[Arg])>,
}

const CASES: &[Case] = &[
    Case {
        file: "matrix_mul.cu",
        grid: "16,16",
        block: "16,16",
        args: &["n=256"],
        native: Some(native_matmul),
    },
    Case {
        file: "matrix_mul_tiled.cu",
        grid: "16,16",
        block: "16,16",
        args: &["n=256"],
        native: Some(native_matmul),
    },
    Case {
        file: "vector_add.cu",
        grid: "1024",
        block: "256",
        args: &["n=262144"],
        native: None,
    },
    Case {
        file: "reduce_sequential.cu",
        grid: "256",
        block: "256",
        args: &["n=65536"],
        native: None,
    },
];

/// One row of the table.
#[derive(Serialize)]
struct Row {
    kernel: String,
    threads: u64,
    thread_instructions: u64,
    median_seconds: f64,
    instructions_per_second: f64,
    native_seconds: Option<f64>,
    findings: usize,
}

/// Plain single-threaded Rust matmul over the launch's `A`, `B` (n×n), the comparison point.
fn native_matmul(args: &[Arg]) {
    let bufs: Vec<Vec<f32>> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Buffer(b) => Some(b.to_f32()),
            _ => None,
        })
        .collect();
    let n = args
        .iter()
        .find_map(|a| match a {
            Arg::Scalar(v) => v.as_i128(),
            _ => None,
        })
        .unwrap_or(0) as usize;
    let (Some(a), Some(b)) = (bufs.first(), bufs.get(1)) else {
        return;
    };
    let mut c = vec![0f32; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut s = 0f32;
            for k in 0..n {
                s += a[i * n + k] * b[k * n + j];
            }
            c[i * n + j] = s;
        }
    }
    std::hint::black_box(&c);
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

fn time_case(case: &Case, dir: &Path, repeat: usize) -> Result<Row, CliError> {
    let loaded = source::load(&dir.join(case.file))?;
    let kernel = loaded.kernel(None)?;
    let flags = LaunchArgs {
        grid: Some(case.grid.into()),
        block: Some(case.block.into()),
        args: case.args.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    let l = launch::build(kernel, &flags)?;
    let program = warpsafe_exec::compile(kernel)
        .map_err(|e| CliError::usage(format!("{}: {e}", case.file)))?;
    let mut times = vec![];
    let mut last = None;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        let o =
            warpsafe_exec::run_program(&program, &l.config, l.args.clone(), &Options::default())
                .map_err(|e| CliError::usage(format!("{}: {e}", case.file)))?;
        times.push(start.elapsed().as_secs_f64());
        last = Some(o);
    }
    let o = last.ok_or_else(|| CliError::usage("no run"))?;
    let native_seconds = case.native.map(|f| {
        median(
            (0..repeat.max(1))
                .map(|_| {
                    let start = Instant::now();
                    f(&l.args);
                    start.elapsed().as_secs_f64()
                })
                .collect(),
        )
    });
    let med = median(times);
    Ok(Row {
        kernel: format!(
            "{} {}",
            case.file.trim_end_matches(".cu"),
            case.args.join(" ")
        ),
        threads: o.stats.threads,
        thread_instructions: o.stats.thread_instructions,
        median_seconds: med,
        instructions_per_second: o.stats.thread_instructions as f64 / med.max(1e-9),
        native_seconds,
        findings: o.findings.len(),
    })
}

/// Runs the interpreter benchmark and prints the table.
pub fn interp(
    repeat: usize,
    dir: &Path,
    format: Format,
    svg: Option<&Path>,
) -> Result<u8, CliError> {
    let task = crate::progress::Task::bar("bench interp", CASES.len() as u64);
    let mut rows = vec![];
    for c in CASES {
        task.message(c.file);
        let r = time_case(c, dir, repeat)?;
        crate::progress::say(|| {
            format!(
                "row {}: {} thread instructions, median {:.3} s",
                r.kernel, r.thread_instructions, r.median_seconds
            )
        });
        rows.push(r);
        task.inc(1);
    }
    drop(task);
    match format {
        Format::Json => crate::report::print_json(&rows)?,
        Format::Human => {
            let mut t = Table::new(&[
                "kernel",
                "threads",
                "thread-instr",
                "median s",
                "Minstr/s",
                "native Rust s",
                "slowdown",
                "findings",
            ]);
            for r in &rows {
                t.row(vec![
                    r.kernel.clone(),
                    r.threads.to_string(),
                    r.thread_instructions.to_string(),
                    format!("{:.3}", r.median_seconds),
                    format!("{:.1}", r.instructions_per_second / 1e6),
                    r.native_seconds
                        .map(|s| format!("{s:.4}"))
                        .unwrap_or("-".into()),
                    r.native_seconds
                        .map(|s| format!("{:.0}x", r.median_seconds / s.max(1e-9)))
                        .unwrap_or("-".into()),
                    r.findings.to_string(),
                ]);
            }
            println!(
                "interpreter benchmark: every dynamic check on, {} repetitions, medians",
                repeat.max(1)
            );
            print!("{}", t.render());
        }
    }
    if let Some(path) = svg {
        let throughput: Vec<(String, f64)> = rows
            .iter()
            .map(|r| (r.kernel.clone(), r.instructions_per_second / 1e6))
            .collect();
        let title = format!(
            "warpsafe bench interp: million thread-instructions per second, every check on (median of {})",
            repeat.max(1)
        );
        std::fs::write(
            path,
            crate::html::bar_chart_in(&title, &throughput, "M instr/s", 1),
        )
        .map_err(|e| CliError::io(path, e))?;
    }
    Ok(CLEAN)
}

/// `warpsafe bench verify`: the table or rows of `verify_cmd::bench`, or (SARIF) one result
/// per verdict that is not verified, located in the kernel's file. Exit 0.
pub fn verify(
    dir: &Path,
    repeat: usize,
    format: VerifyFormat,
    svg: Option<&Path>,
) -> Result<u8, CliError> {
    match format {
        VerifyFormat::Human => crate::verify_cmd::bench(dir, repeat, Format::Human, svg),
        VerifyFormat::Json => crate::verify_cmd::bench(dir, repeat, Format::Json, svg),
        VerifyFormat::Sarif => verify_sarif(dir, repeat, svg),
    }
}

/// `bench verify --format sarif`: verifies every kernel of `dir` (`repeat` times, for the
/// median seconds of `--svg`; verdicts are those of the last run).
fn verify_sarif(dir: &Path, repeat: usize, svg: Option<&Path>) -> Result<u8, CliError> {
    let files = source::expand(&[dir.to_path_buf()])?;
    let task = crate::progress::Task::bar("bench verify", files.len() as u64);
    let mut results = vec![];
    let mut seconds = vec![];
    for f in &files {
        task.message(f.display().to_string());
        let loaded = source::load(f)?;
        for k in &loaded.module.kernels {
            let cfg = crate::verify_cmd::config_for(k);
            let mut times = vec![];
            let mut last = None;
            for _ in 0..repeat.max(1) {
                let r = warpsafe_verify::verify(k, &cfg);
                times.push(r.seconds);
                last = Some(r);
            }
            let Some(r) = last else { continue };
            let stem = f
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let label = if stem == r.kernel {
                stem
            } else {
                format!("{stem} ({})", r.kernel)
            };
            seconds.push((label, median(times)));
            results.extend(crate::sarif::report_results(&loaded.file, &r));
        }
        task.inc(1);
    }
    drop(task);
    if let Some(path) = svg {
        let title = format!(
            "warpsafe bench verify: seconds per kernel (all properties, median of {})",
            repeat.max(1)
        );
        std::fs::write(path, crate::html::bar_chart(&title, &seconds))
            .map_err(|e| CliError::io(path, e))?;
    }
    let subject = dir.display().to_string();
    println!(
        "{}",
        crate::sarif::render_check("bench-verify", &subject, results)
    );
    Ok(CLEAN)
}
