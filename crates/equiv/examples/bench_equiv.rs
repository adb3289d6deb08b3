//! `cargo run --release --example bench_equiv [FILTER] [--json]`: the equivalence benchmark
//! table over `examples/equiv` (a stand-in until the CLI wires `warpsafe bench equiv`).

use std::path::Path;
use warpsafe_equiv::{bench_equiv, bench_table};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let filter = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map(String::as_str);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/equiv");
    match bench_equiv(&root, filter) {
        Ok(rows) => {
            if args.iter().any(|a| a == "--json") {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&rows).unwrap_or_default()
                );
            } else {
                print!("{}", bench_table(&rows));
            }
            let ok = rows.iter().all(|r| r.verdict == r.expect);
            std::process::exit(if ok { 0 } else { 1 });
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
