//! `cargo run --example equiv -- REF.cu OPT.cu [--all-blocks] [--lockstep]`: compares two
//! CUDA-C kernels and prints the JSON report (a stand-in until the CLI wires `warpsafe equiv`).

use warpsafe_equiv::{equiv_sources, BlockSel, EquivConfig, ExecConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let files: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    if files.len() != 2 {
        eprintln!("usage: equiv REF.cu OPT.cu [--all-blocks] [--lockstep]");
        std::process::exit(2);
    }
    let exec = ExecConfig {
        blocks: if args.iter().any(|a| a == "--all-blocks") {
            BlockSel::All
        } else {
            BlockSel::default()
        },
        lockstep_warps: args.iter().any(|a| a == "--lockstep"),
        ..ExecConfig::default()
    };
    let read = |p: &str| {
        std::fs::read_to_string(p).unwrap_or_else(|e| {
            eprintln!("{p}: {e}");
            std::process::exit(2)
        })
    };
    match equiv_sources(&read(files[0]), &read(files[1]), &EquivConfig::both(exec)) {
        Ok(r) => {
            println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default());
            std::process::exit(r.exit_code());
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
