//! `warpsafe bench scans`: the prefix sums within a block, proved by the interval abstraction
//! for every block size up to a bound (2^12 by default) — one abstract run per size covers
//! every associative operator — on real and integer data, with the seconds each took.

use crate::cli::Format;
use crate::exit::{CliError, CLEAN, FINDINGS};
use crate::source;
use crate::summary::Table;
use std::path::Path;
use std::time::Instant;
use warpsafe_equiv::Spec;

/// The scans: kernel file and spec file, relative to the repository root.
const SCANS: [(&str, &str); 4] = [
    (
        "examples/kernels/kogge_stone_scan.cu",
        "examples/specs/kogge_stone_scan.spec",
    ),
    (
        "examples/induct/kogge_stone_int.cu",
        "examples/induct/kogge_stone_int.spec",
    ),
    (
        "examples/kernels/blelloch_scan.cu",
        "examples/specs/blelloch_scan.spec",
    ),
    (
        "examples/induct/blelloch_scan_int.cu",
        "examples/induct/blelloch_scan_int.spec",
    ),
];

#[derive(serde::Serialize)]
struct Row {
    kernel: String,
    sizes: u32,
    verdict: String,
    seconds: f64,
}

/// Sweeps every scan over block sizes `1..=bound`.
pub fn bench(root: &Path, bound: u32, format: Format, svg: Option<&Path>) -> Result<u8, CliError> {
    let start = Instant::now();
    let mut rows = vec![];
    for (kernel, spec) in SCANS {
        let loaded = source::load(&root.join(kernel))?;
        let k = loaded.kernel(None)?;
        let spec_path = root.join(spec);
        let text = std::fs::read_to_string(&spec_path).map_err(|e| CliError::io(&spec_path, e))?;
        let spec = Spec::parse(&text).map_err(|e| CliError::usage(format!("{spec}: {e}")))?;
        let sw = warpsafe_induct::sweep(k, Some(&spec), bound, 1);
        let verdict = match (&sw.pow2_failure, &sw.other_failure) {
            (None, None) => format!("✓ every size ≤ {bound}"),
            (Some(f), _) => format!("✗ at size {}", f.size),
            (None, Some(f)) => format!("✓ powers of two ≤ {bound}; ✗ at size {}", f.size),
        };
        rows.push(Row {
            kernel: k.name.clone()
                + if kernel.contains("_int") {
                    " (int)"
                } else {
                    " (float)"
                },
            sizes: sw.sizes,
            verdict,
            seconds: sw.seconds,
        });
    }
    let failed = rows.iter().any(|r| r.verdict.starts_with('✗'));
    match format {
        Format::Json => crate::report::print_json(&rows)?,
        Format::Human => {
            let mut t = Table::new(&["kernel", "sizes checked", "verdict", "seconds"]);
            for r in &rows {
                t.row(vec![
                    r.kernel.clone(),
                    r.sizes.to_string(),
                    r.verdict.clone(),
                    format!("{:.2}", r.seconds),
                ]);
            }
            println!(
                "prefix sums within a block, interval abstraction (every associative operator), \
                 block sizes 1..={bound}"
            );
            print!("{}", t.render());
            println!("total {:.2} s", start.elapsed().as_secs_f64());
        }
    }
    if let Some(path) = svg {
        let seconds: Vec<(String, f64)> =
            rows.iter().map(|r| (r.kernel.clone(), r.seconds)).collect();
        let title = format!("warpsafe bench scans: seconds per scan, block sizes 1..={bound}");
        std::fs::write(path, crate::html::bar_chart(&title, &seconds))
            .map_err(|e| CliError::io(path, e))?;
    }
    Ok(if failed { FINDINGS } else { CLEAN })
}
