//! Prints the permission report of a file: `cargo run -p warpsafe-perm --example perm_check FILE`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: perm_check FILE");
        std::process::exit(2);
    };
    let src = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    match warpsafe_perm::check(&src) {
        Ok(r) => {
            for o in &r.obligations {
                println!(
                    "{:10} {:4} {:9} {} {}",
                    o.check,
                    o.line,
                    o.verdict.as_str(),
                    o.what,
                    o.reason.as_deref().unwrap_or("")
                );
            }
            println!("=> {}", r.verdict.as_str());
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
