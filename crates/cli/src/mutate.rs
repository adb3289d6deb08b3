//! `warpsafe bench mutate`: the mutation campaign. Every example kernel that verifies is
//! mutated at the IR level ([`generate`]: dropped barriers, indices ±1, x/y swaps, flipped
//! guards, dropped `volatile`, atomics made plain); each mutant is judged by the parametric
//! verifier and by the checking interpreter on random launches the header allows
//! ([`configs`], [`running`]), and the results are counted ([`report`]). A mutant the
//! interpreter catches while every property is `verified` is *unsound* — a verifier bug —
//! and makes the command exit 1; a `violated` the interpreter never sees is *spurious*, a
//! figure to drive down.

mod configs;
mod generate;
mod report;
mod running;

use crate::cli::Format;
use crate::exit::{CliError, CLEAN, FINDINGS};
use crate::source;
use configs::Launch;
use generate::Mutant;
use report::{Campaign, Counts, KernelResult};
use running::{interp_options, judge, Judged, Static};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use warpsafe_exec::Severity;
use warpsafe_ir::{Kernel, SourceFile};
use warpsafe_verify::Config;

/// What `warpsafe bench mutate` was asked to do.
pub struct Options {
    /// Directory of example kernels.
    pub kernels: PathBuf,
    /// File stems to keep (empty: every kernel that verifies).
    pub only: Vec<String>,
    /// At most this many mutants per kernel.
    pub limit: Option<usize>,
    /// Random launches per mutant.
    pub configs: usize,
    /// Solver time limit per query of each verification, seconds.
    pub timeout: f64,
    /// Output format.
    pub format: Format,
    /// Where to write the SVG chart, if anywhere.
    pub svg: Option<PathBuf>,
}

/// The interpreter's step budget for a mutant, from the original kernel's count on the same
/// launch: generous enough for a mutant that loops a little longer, small enough that one
/// that never stops costs well under a second.
fn step_budget(original: u64) -> u64 {
    original.saturating_mul(16).saturating_add(1_000_000)
}

/// Runs the campaign and prints its report; exit 1 when some mutant is unsound.
pub fn bench(opts: &Options) -> Result<u8, CliError> {
    crate::solver::require_z3()?;
    if !(opts.timeout.is_finite() && opts.timeout > 0.0) {
        return Err(CliError::usage(format!(
            "--timeout {}: a positive number of seconds",
            opts.timeout
        )));
    }
    let start = Instant::now();
    let mut kernels = vec![];
    let files = files(&opts.kernels, &opts.only)?;
    let task = crate::progress::Task::bar("bench mutate", files.len() as u64);
    for file in files {
        task.message(file.display().to_string());
        crate::progress::say(|| format!("mutants of {}", file.display()));
        kernels.extend(campaign_of_file(&file, opts));
        task.inc(1);
    }
    drop(task);
    let mut campaign = Campaign {
        configs: opts.configs,
        limit: opts.limit,
        timeout: opts.timeout,
        kernels,
        by_kind: vec![],
        total: Counts::default(),
        seconds: 0.0,
        peak_memory_kib: None,
    };
    campaign.tally();
    campaign.seconds = start.elapsed().as_secs_f64();
    campaign.peak_memory_kib = report::peak_memory_kib();
    match opts.format {
        Format::Json => crate::report::print_json(&campaign)?,
        Format::Human => print!("{}", report::human(&campaign)),
    }
    if let Some(path) = &opts.svg {
        std::fs::write(path, report::svg(&campaign)).map_err(|e| CliError::io(path, e))?;
    }
    Ok(if campaign.total.unsound > 0 {
        FINDINGS
    } else {
        CLEAN
    })
}

/// The `.cu` files of `dir` that are not buggy twins, narrowed to `only` (file stems); a
/// name in `only` that matches no such file is a usage error.
fn files(dir: &Path, only: &[String]) -> Result<Vec<PathBuf>, CliError> {
    let stem = |p: &Path| {
        p.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let all: Vec<PathBuf> = source::expand(&[dir.to_path_buf()])?
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "cu") && !stem(p).contains("_bug_"))
        .collect();
    let wanted: Vec<&str> = only
        .iter()
        .flat_map(|s| s.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if let Some(missing) = wanted.iter().find(|w| !all.iter().any(|p| stem(p) == **w)) {
        let have: Vec<String> = all.iter().map(|p| stem(p)).collect();
        return Err(CliError::usage(format!(
            "--only {missing}: no such kernel file in {} (have: {})",
            dir.display(),
            have.join(", ")
        )));
    }
    Ok(all
        .into_iter()
        .filter(|p| wanted.is_empty() || wanted.contains(&stem(p).as_str()))
        .collect())
}

/// Every kernel of one file; a file that does not parse is one skipped entry.
fn campaign_of_file(file: &Path, opts: &Options) -> Vec<KernelResult> {
    let name = file.display().to_string();
    let loaded = match source::load(file) {
        Ok(l) => l,
        Err(e) => return vec![skipped(file_stem(file), name, format!("{e}"), 0.0)],
    };
    loaded
        .module
        .kernels
        .iter()
        .map(|k| campaign_of_kernel(k, &loaded.file, opts))
        .collect()
}

fn file_stem(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn skipped(kernel: String, file: String, why: String, seconds: f64) -> KernelResult {
    KernelResult {
        kernel,
        file,
        skipped: Some(why),
        launches: vec![],
        dropped_launches: vec![],
        counts: Counts::default(),
        mutants: vec![],
        seconds,
    }
}

/// Verifies the original, builds the launches, then judges every selected mutant.
fn campaign_of_kernel(k: &Kernel, file: &SourceFile, opts: &Options) -> KernelResult {
    let start = Instant::now();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cfg = Config {
        timeout: Duration::from_secs_f64(opts.timeout),
        ..crate::verify_cmd::config_for(k)
    };
    let original = warpsafe_verify::verify(k, &cfg);
    if running::outcome(&original) != Static::Verified {
        let not: Vec<String> = original
            .results
            .iter()
            .map(|r| (r.property, crate::verify_cmd::verdict_word(&r.verdict)))
            .filter(|(_, w)| w != "verified")
            .map(|(p, w)| format!("{} {w}", p.name()))
            .collect();
        let why = format!("does not verify ({})", not.join(", "));
        return skipped(
            k.name.clone(),
            file.name.clone(),
            why,
            start.elapsed().as_secs_f64(),
        );
    }
    let (launches, budgets, dropped) = baseline(k, opts.configs);
    let mutants = generate::select(generate::mutants(k, file), opts.limit);
    // Progress on stderr: a full campaign takes minutes.
    eprintln!("mutate: {} ({} mutants)", k.name, mutants.len());
    let judged = judge_all(&mutants, &cfg, &launches, &budgets, cores);
    KernelResult {
        kernel: k.name.clone(),
        file: file.name.clone(),
        skipped: None,
        launches: launches.iter().map(|l| l.text.clone()).collect(),
        dropped_launches: dropped,
        counts: Counts::of(&judged),
        mutants: judged,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// The campaign's launches for `k` on which the original kernel runs clean, the step
/// budget of each, and the launches left out (with why).
fn baseline(k: &Kernel, count: usize) -> (Vec<Launch>, Vec<u64>, Vec<String>) {
    // A seed from the kernel's name: every run of the campaign draws the same launches.
    let seed = k.name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut kept = vec![];
    let mut budgets = vec![];
    let mut dropped = vec![];
    for l in configs::launches(k, count, seed) {
        let opts = warpsafe_exec::Options {
            parallel: true,
            ..interp_options(warpsafe_exec::Options::default().max_block_instructions)
        };
        match warpsafe_exec::run(k, &l.config, l.args.clone(), &opts) {
            Ok(out) => match out.findings.iter().find(|f| f.severity == Severity::Error) {
                Some(f) => dropped.push(format!(
                    "{}: the original kernel has a finding: {} {}",
                    l.text, f.category, f.message
                )),
                None => {
                    budgets.push(step_budget(out.stats.thread_instructions));
                    kept.push(l);
                }
            },
            Err(e) => dropped.push(format!("{}: {e}", l.text)),
        }
    }
    (kept, budgets, dropped)
}

/// Judges `mutants` on a pool of threads (one per core; each verification gets the cores
/// the pool leaves over), in their order.
fn judge_all(
    mutants: &[Mutant],
    cfg: &Config,
    launches: &[Launch],
    budgets: &[u64],
    cores: usize,
) -> Vec<Judged> {
    let workers = cores.min(mutants.len()).max(1);
    let cfg = Config {
        jobs: (cores / workers).max(1),
        ..cfg.clone()
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, Judged)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = vec![];
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(m) = mutants.get(i) else {
                            break mine;
                        };
                        mine.push((i, judge(m, &cfg, launches, budgets)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, j)| j).collect()
}
