//! The benchmark table: Cyclic-5..8 and Katsura-6..11, times and basis sizes.

use crate::system::{Algorithm, GroebnerError, Options, Stats, System};
use crate::systems::{cyclic, katsura};
use std::fmt::Write;
use std::time::Duration;

/// One line of the benchmark table.
#[derive(Clone, Debug)]
pub struct BenchRow {
    /// The system's name, e.g. `katsura10`.
    pub name: String,
    /// Number of variables.
    pub nvars: usize,
    /// Basis size, when computed.
    pub size: Option<usize>,
    /// Median wall-clock time over the repetitions, when computed.
    pub median: Option<Duration>,
    /// Statistics of the last run.
    pub stats: Option<Stats>,
    /// Why there is no result (e.g. the time limit), or empty.
    pub note: String,
}

/// The standard benchmark systems: Cyclic-5..8 and Katsura-6..11.
pub fn bench_systems() -> Vec<(String, System)> {
    let mut v: Vec<(String, System)> = (5..=8).map(|n| (format!("cyclic{n}"), cyclic(n))).collect();
    v.extend((6..=11).map(|n| (format!("katsura{n}"), katsura(n))));
    v
}

/// Runs `algo` on every system `repeats` times (fewer when one run exceeds half the time
/// limit of `opts`) and reports medians.
pub fn bench_table(
    systems: &[(String, System)],
    algo: Algorithm,
    repeats: usize,
    opts: &Options,
) -> Vec<BenchRow> {
    systems
        .iter()
        .map(|(name, sys)| {
            let mut row = BenchRow {
                name: name.clone(),
                nvars: sys.vars.len(),
                size: None,
                median: None,
                stats: None,
                note: String::new(),
            };
            let mut times = Vec::new();
            for _ in 0..repeats.max(1) {
                match crate::groebner(sys, algo, opts) {
                    Ok(b) => {
                        times.push(b.stats.time.total);
                        row.size = Some(b.len());
                        row.stats = Some(b.stats);
                        let slow = opts.time_limit.is_some_and(|l| b.stats.time.total * 2 > l);
                        if slow {
                            break;
                        }
                    }
                    Err(GroebnerError::TimeLimit(l)) => {
                        row.note = format!("skipped: over the {} s limit", l.as_secs_f64());
                        break;
                    }
                    Err(e) => {
                        row.note = e.to_string();
                        break;
                    }
                }
            }
            times.sort();
            row.median = times.get(times.len() / 2).copied();
            row
        })
        .collect()
}

/// Formats rows as a plain-text table.
pub fn render_table(rows: &[BenchRow]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<10} {:>5} {:>6} {:>10} {:>6} {:>8} {:>15} {:>13}",
        "system", "vars", "size", "time (s)", "steps", "pairs", "largest matrix", "largest dense"
    );
    for r in rows {
        let time = r
            .median
            .map_or("-".into(), |d| format!("{:.4}", d.as_secs_f64()));
        let size = r.size.map_or("-".into(), |n| n.to_string());
        let (steps, pairs, mat, dense) = match &r.stats {
            Some(st) => (
                st.steps.to_string(),
                st.pairs_reduced.to_string(),
                format!("{}x{}", st.max_matrix.0, st.max_matrix.1),
                format!("{}x{}", st.max_dense.0, st.max_dense.1),
            ),
            None => Default::default(),
        };
        let _ = writeln!(
            s,
            "{:<10} {:>5} {:>6} {:>10} {:>6} {:>8} {:>15} {:>13} {}",
            r.name, r.nvars, size, time, steps, pairs, mat, dense, r.note
        );
    }
    s
}
