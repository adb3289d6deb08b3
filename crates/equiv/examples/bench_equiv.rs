//! `cargo run --release --example bench_equiv [FILTER] [--json] [--dir DIR]`: the pairs of the
//! equivalence benchmark written in the C subset (no clang: the sized C++ pairs are left to
//! `warpsafe bench equiv`), over `examples/equiv` or the copy of it in DIR.

use std::path::{Path, PathBuf};
use warpsafe_equiv::{bench_equiv, bench_table};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args
        .iter()
        .position(|a| a == "--dir")
        .and_then(|i| args.get(i + 1));
    let filter = args
        .iter()
        .enumerate()
        .find(|(i, a)| !a.starts_with("--") && (*i == 0 || args[i - 1] != "--dir"))
        .map(|(_, a)| a.as_str());
    let root = match dir {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/equiv"),
    };
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
