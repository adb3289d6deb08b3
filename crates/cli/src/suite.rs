//! `warpsafe bench suite`: the verification table. One row per benchmark kernel with the
//! parametric verifier's four safety verdicts (all configurations the header allows) and
//! functional correctness against the kernel's spec in `examples/specs/`, proved by the exact
//! engine over a sweep of launch configurations and sizes ("✓ sizes ≤ B").
//!
//! Functional correctness is first tried for *every* size ([`warpsafe_functional`]: ownership,
//! coverage, per-thread value and accumulation invariants, all checked by SMT); kernels outside
//! its shapes (barrier-phased algorithms) fall back to the bounded sweep. The column says which
//! kind of proof backs each ✓, and a refutation is confirmed in the concrete interpreter.

use crate::cli::VerifyFormat as Format;
use crate::exit::{CliError, CLEAN, FINDINGS};
use crate::source;
use crate::summary::Table;
use crate::verify_cmd::{config_for, verdict_word};
use std::path::Path;
use std::time::Instant;
use warpsafe_equiv::{BlockSel, ExecConfig, Spec};
use warpsafe_exec::{eval_contract_expr, LaunchConfig};
use warpsafe_induct::Verdict as InductVerdict;
use warpsafe_ir::{Kernel, ParamId, ParamKind, ScalarType, Value};
use warpsafe_verify::{Property, Verdict};

/// The suite: the nine benchmark kernels, the F4 elimination kernel, the three scans and the
/// dot product.
pub const SUITE: [&str; 14] = [
    "vector_add",
    "vector_square",
    "saxpy",
    "scalar_mul",
    "template_scale",
    "matrix_transpose",
    "matrix_transpose_tiled",
    "matrix_mul",
    "matrix_mul_tiled",
    "gauss_elim",
    "kogge_stone_scan",
    "blelloch_scan",
    "exclusive_scan",
    "dot_product",
];

/// Sizes tried for each size parameter (those that buffer lengths depend on), up to the
/// sweep's bound.
const SIZES: [i64; 12] = [1, 2, 3, 7, 16, 17, 31, 32, 33, 64, 100, 128];

/// Block sizes tried along x for one-dimensional kernels.
const BLOCKS: [u32; 6] = [32, 64, 128, 256, 512, 1024];

/// Largest grid extent searched per dimension for a configuration the contract accepts.
const MAX_GRID: u32 = 64;

/// A launch, the size parameters' values, and the largest of them.
type Configuration = (LaunchConfig, Vec<(String, Value)>, i64);

/// The functional verdict of one kernel.
#[derive(serde::Serialize)]
struct Functional {
    /// `proved`, `refuted` or `unknown`.
    verdict: &'static str,
    /// `all sizes` (parametric proof) or `bounded` (the sweep).
    scope: &'static str,
    /// Why the parametric proof did not apply, when it did not.
    parametric: Option<String>,
    /// Why the barrier-loop induction did not prove every size, when it was tried and did
    /// not.
    induction: Option<String>,
    /// What the all-sizes proof assumes.
    assumptions: Vec<String>,
    /// What backs it: the configurations checked, the counterexample, or the reason.
    detail: String,
    /// Largest size value among the configurations proved.
    bound: i64,
    /// Configurations proved.
    configs: usize,
    seconds: f64,
}

/// One row of the table.
#[derive(serde::Serialize)]
struct Row {
    kernel: String,
    race: String,
    divergence: String,
    bounds: String,
    overflow: String,
    safety_seconds: f64,
    functional: Functional,
}

/// The suite's kernels narrowed to `only` (empty: all of them); a name that is not a suite
/// kernel is a usage error that lists them.
fn selected(only: &[String]) -> Result<Vec<&'static str>, CliError> {
    let wanted: Vec<&str> = only
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect();
    if let Some(missing) = wanted.iter().find(|w| !SUITE.contains(w)) {
        return Err(CliError::usage(format!(
            "--only {missing}: not a suite kernel (the suite: {})",
            SUITE.join(", ")
        )));
    }
    Ok(SUITE
        .into_iter()
        .filter(|n| wanted.is_empty() || wanted.contains(n))
        .collect())
}

/// Runs the suite (or the kernels `only` names) over the kernels in `kernels` and the specs
/// in `specs`.
pub fn bench(
    kernels: &Path,
    specs: &Path,
    max_size: i64,
    only: &[String],
    format: Format,
    svg: Option<&Path>,
) -> Result<u8, CliError> {
    let names = selected(only)?;
    let mut rows = vec![];
    let mut sarif = vec![];
    let task = crate::progress::Task::bar("bench suite", names.len() as u64);
    for name in names {
        task.message(name.to_string());
        let loaded = source::load(&kernels.join(format!("{name}.cu")))?;
        let k = loaded.kernel(None)?;
        let report = warpsafe_verify::verify(k, &config_for(k));
        let word = |p: Property| {
            report
                .result(p)
                .map_or("-".to_string(), |r| short(&r.verdict))
        };
        let spec_path = specs.join(format!("{name}.spec"));
        let functional = match std::fs::read_to_string(&spec_path) {
            Ok(text) => match Spec::parse(&text) {
                Ok(spec) => functional(k, &spec, max_size),
                Err(e) => unknown(format!("{}: {e}", spec_path.display())),
            },
            Err(e) => unknown(format!("{}: {e}", spec_path.display())),
        };
        crate::progress::say(|| {
            format!(
                "row {name}: safety {:.3} s, functional {} ({})",
                report.seconds, functional.verdict, functional.scope
            )
        });
        if format == Format::Sarif {
            sarif.extend(sarif_results(&loaded.file, &k.name, &report, &functional));
        }
        rows.push(Row {
            kernel: name.to_string(),
            race: word(Property::Race),
            divergence: word(Property::Divergence),
            bounds: word(Property::Bounds),
            overflow: word(Property::Overflow),
            safety_seconds: report.seconds,
            functional,
        });
        task.inc(1);
    }
    drop(task);
    let failed = rows.iter().any(|r| {
        r.functional.verdict == "refuted"
            || [&r.race, &r.divergence, &r.bounds, &r.overflow]
                .iter()
                .any(|v| v.starts_with('✗'))
    });
    match format {
        Format::Sarif => println!(
            "{}",
            crate::sarif::render_check("bench-suite", &kernels.display().to_string(), sarif)
        ),
        Format::Json => crate::report::print_json(&rows)?,
        Format::Human => {
            let mut t = Table::new(&[
                "kernel",
                "race",
                "divergence",
                "bounds",
                "overflow",
                "safety s",
                "functional",
                "functional s",
            ]);
            for r in &rows {
                let f = &r.functional;
                let func = functional_cell(f);
                t.row(vec![
                    r.kernel.clone(),
                    r.race.clone(),
                    r.divergence.clone(),
                    r.bounds.clone(),
                    r.overflow.clone(),
                    format!("{:.3}", r.safety_seconds),
                    func,
                    format!("{:.3}", f.seconds),
                ]);
            }
            println!(
                "verification table: safety for every configuration the header allows \
                 (parametric); functional correctness for every size (parametric proof) or, \
                 outside its shapes, by the exact engine over a sweep of sizes (bounded)"
            );
            print!("{}", t.render());
            for r in rows.iter().filter(|r| r.functional.scope == "bounded") {
                let f = &r.functional;
                println!("{}: not proved for every size:", r.kernel);
                if let Some(p) = &f.parametric {
                    println!("  per-thread proof: {p}");
                }
                if let Some(i) = &f.induction {
                    println!("  barrier-loop induction: {i}");
                }
            }
        }
    }
    if let Some(path) = svg {
        std::fs::write(path, render_svg(&rows)).map_err(|e| CliError::io(path, e))?;
    }
    Ok(if failed { FINDINGS } else { CLEAN })
}

/// SARIF results of one suite row: each of the table's safety verdicts that is not verified
/// (violated `error`, possible `warning`, unknown `note`), and the functional verdict when
/// it is refuted (`error`), unknown (`note`) or proved only up to the sweep's bound (`note`).
fn sarif_results(
    file: &warpsafe_ir::SourceFile,
    kernel: &str,
    report: &warpsafe_verify::Report,
    f: &Functional,
) -> Vec<serde_json::Value> {
    let shown = [
        Property::Race,
        Property::Divergence,
        Property::Bounds,
        Property::Overflow,
    ];
    let mut out: Vec<serde_json::Value> = shown
        .iter()
        .filter_map(|p| report.result(*p))
        .filter_map(|r| crate::sarif::verdict_result(file, kernel, r.property.name(), &r.verdict))
        .collect();
    let functional = match (f.verdict, f.scope) {
        ("refuted", _) => Some(crate::sarif::refuted(
            file,
            format!("kernel `{kernel}` misses its spec: {}", f.detail),
            None,
        )),
        ("proved", "all sizes") => None,
        ("proved", _) => Some(crate::sarif::undecided(
            file,
            "not-every-size",
            format!(
                "kernel `{kernel}` meets its spec for sizes up to {} ({} configurations), not proved for every size",
                f.bound, f.configs
            ),
            None,
        )),
        _ => Some(crate::sarif::undecided(
            file,
            "unknown",
            format!("kernel `{kernel}`: functional correctness not decided: {}", f.detail),
            None,
        )),
    };
    out.extend(functional);
    out
}

fn functional_cell(f: &Functional) -> String {
    match (f.verdict, f.scope) {
        ("proved", "all sizes") if f.detail.starts_with('✓') => f.detail.clone(),
        ("proved", "all sizes") => "✓ all sizes".into(),
        ("proved", _) if f.configs == 1 => "✓ the header's configuration".into(),
        ("proved", _) => format!(
            "✓ sizes ≤ {} and the header's ({} configs)",
            f.bound, f.configs
        ),
        ("refuted", _) => format!("✗ {}", f.detail),
        _ => format!("? {}", f.detail),
    }
}

/// The all-sizes proof, or the bounded sweep when the kernel is outside its shapes.
fn functional(k: &Kernel, spec: &Spec, max_size: i64) -> Functional {
    let start = Instant::now();
    let p = warpsafe_functional::prove_all_sizes(k, spec, &warpsafe_functional::Options::default());
    if p.verdict == "proved" {
        let induction = p
            .obligations
            .iter()
            .filter(|o| o.method == "induction")
            .count();
        return Functional {
            verdict: "proved",
            scope: "all sizes",
            parametric: None,
            induction: None,
            assumptions: p.assumptions,
            detail: format!(
                "{} obligations proved ({induction} by induction over accumulation loops)",
                p.obligations.len()
            ),
            bound: 0,
            configs: 0,
            seconds: start.elapsed().as_secs_f64(),
        };
    }
    let barrier_loops = warpsafe_induct::prove_all_sizes(k, Some(spec));
    let mut f = match &barrier_loops.verdict {
        InductVerdict::ProvedAllSizes { domain } => Functional {
            verdict: "proved",
            scope: "all sizes",
            parametric: None,
            induction: None,
            assumptions: vec![format!(
                "{domain:?} block sizes, one block of n = blockDim.x"
            )],
            detail: barrier_loops.short(),
            bound: 0,
            configs: 0,
            seconds: 0.0,
        },
        _ => {
            let mut f = sweep(k, spec, max_size);
            f.induction = Some(barrier_loops.short());
            f
        }
    };
    f.parametric = p.reason;
    f.seconds = start.elapsed().as_secs_f64();
    f
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The table as an SVG image: one row per kernel, ✓ green, ✗ red, ? grey.
fn render_svg(rows: &[Row]) -> String {
    let head = [
        "kernel",
        "race",
        "divergence",
        "bounds",
        "overflow",
        "functional",
        "seconds",
    ];
    let widths = [190, 60, 90, 70, 80, 230, 70];
    let row_h = 24;
    let width: i32 = widths.iter().sum::<i32>() + 20;
    let height = row_h * (rows.len() as i32 + 1) + 20;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"monospace\" font-size=\"13\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let colour = |cell: &str| match cell.chars().next() {
        Some('✓') => "#1a7f37",
        Some('✗') => "#cf222e",
        Some('?') => "#6e7781",
        _ => "#24292f",
    };
    let mut line = |y: i32, cells: &[String], bold: bool| {
        let mut x = 10;
        for (c, w) in cells.iter().zip(widths) {
            let short: String = c.chars().take((w / 8) as usize).collect();
            out.push_str(&format!(
                "<text x=\"{x}\" y=\"{y}\" fill=\"{}\"{}>{}</text>\n",
                colour(c),
                if bold { " font-weight=\"bold\"" } else { "" },
                escape(&short)
            ));
            x += w;
        }
    };
    line(28, &head.map(String::from), true);
    for (i, r) in rows.iter().enumerate() {
        let cells = [
            r.kernel.clone(),
            r.race.clone(),
            r.divergence.clone(),
            r.bounds.clone(),
            r.overflow.clone(),
            functional_cell(&r.functional),
            format!("{:.2}", r.safety_seconds + r.functional.seconds),
        ];
        line(28 + row_h * (i as i32 + 1), &cells, false);
    }
    out.push_str("</svg>\n");
    out
}

fn short(v: &Verdict) -> String {
    match v {
        Verdict::Verified => "✓".into(),
        Verdict::Violated(_) => format!("✗ {}", verdict_word(v)),
        Verdict::Possible { .. } => "? possible".into(),
        Verdict::Unknown { .. } => "?".into(),
    }
}

fn unknown(detail: String) -> Functional {
    Functional {
        verdict: "unknown",
        scope: "bounded",
        parametric: None,
        induction: None,
        assumptions: vec![],
        detail,
        bound: 0,
        configs: 0,
        seconds: 0.0,
    }
}

/// Integer scalar parameters that some buffer length depends on: the problem sizes.
fn size_params(k: &Kernel) -> Vec<usize> {
    let mut out = vec![];
    for (i, p) in k.params.iter().enumerate() {
        let ParamKind::Scalar(t) = p.kind else {
            continue;
        };
        if t.is_float() {
            continue;
        }
        let id = ParamId(i as u32);
        let mut mentioned = false;
        for l in &k.contract.lengths {
            l.len.walk(&mut |e| {
                mentioned |= matches!(e.kind, warpsafe_ir::ExprKind::Param(p) if p == id);
            });
        }
        if mentioned {
            out.push(i);
        }
    }
    out
}

/// Launch configurations and size assignments to check: header block and, for 1-D blocks,
/// every power of two from 32 to 1024; every size in [`SIZES`] for each size parameter (the
/// same value for all of them, and the header's ratio between two of them); for each, the
/// smallest grid the contract accepts.
fn configurations(k: &Kernel, max_size: i64) -> Vec<Configuration> {
    let header_block = k.contract.block_dim.unwrap_or([256, 1, 1]);
    let mut blocks = vec![header_block];
    if header_block[1] == 1 && header_block[2] == 1 {
        blocks.extend(
            BLOCKS
                .iter()
                .filter(|&&b| b != header_block[0])
                .map(|&b| [b, 1, 1]),
        );
    }
    let sizes = size_params(k);
    let default = |i: usize| -> i64 {
        k.contract
            .defaults
            .iter()
            .find(|(id, _)| id.0 as usize == i)
            .and_then(|(_, v)| v.as_i128())
            .unwrap_or(1) as i64
    };
    let mut assignments: Vec<Vec<i64>> = vec![];
    for &s in SIZES.iter().filter(|&&s| s <= max_size) {
        assignments.push(sizes.iter().map(|_| s).collect());
        if sizes.len() == 2 {
            // Keep the header's aspect ratio (rows : cols), scaled to this size.
            let (a, b) = (default(sizes[0]).max(1), default(sizes[1]).max(1));
            if a != b {
                assignments.push(vec![s, (s * b / a).max(1)]);
                assignments.push(vec![(s * a / b).max(1), s]);
            }
        }
    }
    let mut out = vec![];
    for block in &blocks {
        for values in &assignments {
            let scalars: Vec<(String, Value)> = sizes
                .iter()
                .zip(values)
                .map(|(&i, &v)| {
                    let ty = match k.params[i].kind {
                        ParamKind::Scalar(t) => t,
                        ParamKind::Buffer { .. } => ScalarType::I32,
                    };
                    (
                        k.params[i].name.clone(),
                        Value::from_i128(ty, i128::from(v)),
                    )
                })
                .collect();
            let bound = values.iter().copied().max().unwrap_or(0);
            if bound > max_size {
                continue;
            }
            if let Some(launch) = smallest_grid(k, *block, &scalars) {
                out.push((launch, scalars.clone(), bound));
            }
        }
    }
    out
}

/// The smallest grid (growing x, then y) for which every `requires` holds, if any.
fn smallest_grid(k: &Kernel, block: [u32; 3], scalars: &[(String, Value)]) -> Option<LaunchConfig> {
    let scalar_value = |p: ParamId| -> Option<Value> {
        let param = k.params.get(p.0 as usize)?;
        scalars
            .iter()
            .find(|(n, _)| *n == param.name)
            .map(|(_, v)| *v)
            .or_else(|| {
                k.contract
                    .defaults
                    .iter()
                    .find(|(id, _)| *id == p)
                    .map(|(_, v)| *v)
            })
    };
    for gy in 1..=MAX_GRID {
        for gx in 1..=MAX_GRID {
            let launch = LaunchConfig {
                grid: [gx, gy, 1],
                block,
                dynamic_shared_bytes: 0,
            };
            let mut launch = launch;
            if let Some(e) = &k.contract.dynamic_shared_bytes {
                let no_len = |_: ParamId| None;
                let v = eval_contract_expr(k, e, &scalar_value, &no_len, &launch).ok()?;
                launch.dynamic_shared_bytes = v.as_i128().unwrap_or(0).max(0) as u64;
            }
            let len_of = |p: ParamId| -> Option<u64> {
                let spec = k.contract.lengths.iter().find(|l| l.param == p)?;
                let no_len = |_: ParamId| None;
                let v = eval_contract_expr(k, &spec.len, &scalar_value, &no_len, &launch).ok()?;
                Some(v.as_i128()?.max(0) as u64)
            };
            let holds = k.contract.requires.iter().all(|r| {
                eval_contract_expr(k, r, &scalar_value, &len_of, &launch)
                    .ok()
                    .and_then(|v| v.as_i128())
                    .is_some_and(|v| v != 0)
            });
            if holds {
                return Some(launch);
            }
        }
        if k.contract.block_dim.is_some_and(|b| b[1] == 1) && block[1] == 1 {
            // A 1-D launch never needs a second grid dimension.
            break;
        }
    }
    None
}

/// The exact engine over every configuration of [`configurations`] (all blocks each), then
/// the header's own launch and `//@ arg` values (all blocks): small sizes often take one
/// pass of a grid-stride loop, the header's several.
fn sweep(k: &Kernel, spec: &Spec, max_size: i64) -> Functional {
    let start = Instant::now();
    let configs = configurations(k, max_size);
    let mut bound = 0;
    let header = std::iter::once(None);
    for entry in configs.iter().map(Some).chain(header) {
        let cfg = match entry {
            Some((launch, scalars, _)) => ExecConfig {
                launch: Some(*launch),
                scalars: scalars.clone(),
                blocks: BlockSel::All,
                ..ExecConfig::default()
            },
            None => ExecConfig {
                blocks: BlockSel::All,
                ..ExecConfig::default()
            },
        };
        let describe = || match entry {
            Some((launch, scalars, _)) => {
                let sizes: Vec<String> =
                    scalars.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                format!(
                    "block {:?} grid {:?}, {}",
                    launch.block,
                    launch.grid,
                    sizes.join(", ")
                )
            }
            None => "the header's configuration".to_string(),
        };
        match warpsafe_equiv::prove_spec(k, spec, &cfg) {
            Ok(r) if r.verdict == "equal" => {
                if let Some((_, _, size)) = entry {
                    bound = bound.max(*size);
                }
            }
            Ok(r) => {
                let what = match (&r.counterexample, entry) {
                    (Some(c), Some((launch, scalars, _))) => {
                        let confirmation = crate::confirm::confirm(k, launch, scalars, c);
                        format!(
                            "{} at {}[{}]: spec {} vs kernel {}; {}",
                            r.verdict, c.buffer, c.index, c.expected, c.actual, confirmation.note
                        )
                    }
                    (Some(c), None) => format!(
                        "{} at {}[{}]: spec {} vs kernel {}",
                        r.verdict, c.buffer, c.index, c.expected, c.actual
                    ),
                    (None, _) => r.reason.clone().unwrap_or_else(|| r.verdict.to_string()),
                };
                let verdict = if r.verdict == "unknown" {
                    "unknown"
                } else {
                    "refuted"
                };
                return Functional {
                    verdict,
                    scope: "bounded",
                    parametric: None,
                    induction: None,
                    assumptions: vec![],
                    detail: format!("{what} ({})", describe()),
                    bound,
                    configs: 0,
                    seconds: start.elapsed().as_secs_f64(),
                };
            }
            Err(e) => return unknown(format!("{e} ({})", describe())),
        }
    }
    Functional {
        verdict: "proved",
        scope: "bounded",
        parametric: None,
        induction: None,
        assumptions: vec![],
        detail: format!("{} configurations and the header's", configs.len()),
        bound,
        configs: configs.len() + 1,
        seconds: start.elapsed().as_secs_f64(),
    }
}
