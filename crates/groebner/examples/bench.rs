//! Prints the benchmark table: `cargo run --release -p warpsafe-groebner --example bench
//! [-- [--threads N] [--repeats N] [--limit SECONDS] [--algo f4|buchberger] [--exact] [NAME...]]`
//! (`--exact`: reduce every row, no random combinations).

use std::time::Duration;
use warpsafe_groebner::{bench_systems, bench_table, render_table, Algorithm, Options};

fn main() {
    let mut opts = Options {
        threads: Some(1),
        time_limit: Some(Duration::from_secs(60)),
        ..Options::default()
    };
    let mut repeats = 3;
    let mut algo = Algorithm::F4;
    let mut names = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        match a.as_str() {
            "--threads" => opts.threads = value().parse().ok(),
            "--repeats" => repeats = value().parse().unwrap_or(3),
            "--limit" => {
                opts.time_limit = value().parse().ok().map(Duration::from_secs_f64);
            }
            "--algo" => algo = value().parse().unwrap_or(Algorithm::F4),
            "--exact" => opts.random_combinations = false,
            _ => names.push(a),
        }
    }
    let systems: Vec<_> = bench_systems()
        .into_iter()
        .filter(|(n, _)| names.is_empty() || names.contains(n))
        .collect();
    let rows = bench_table(&systems, algo, repeats, &opts);
    print!("{}", render_table(&rows));
    if std::env::var_os("GROEBNER_PHASES").is_some() {
        for r in &rows {
            if let Some(s) = &r.stats {
                println!("{}: {:?}", r.name, s.time);
            }
        }
    }
}
