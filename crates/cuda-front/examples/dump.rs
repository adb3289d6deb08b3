//! Prints the IR of a CUDA-C file, or its errors with the offending text.
//!
//! `cargo run -p warpsafe-cuda-front --example dump -- kernel.cu`

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: dump FILE.cu");
        std::process::exit(2);
    };
    let src = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    match warpsafe_cuda_front::compile(&src) {
        Ok(m) => m.kernels.iter().for_each(|k| print!("{k}")),
        Err(errs) => {
            let file = warpsafe_ir::SourceFile::new(path.as_str(), src.as_str());
            for e in errs {
                let (line, col) = file.line_col(e.span.lo);
                let text = src.get(e.span.range()).unwrap_or("");
                eprintln!("{path}:{line}:{col}: error: {} [`{text}`]", e.message);
                if let Some(n) = e.note {
                    eprintln!("  note: {n}");
                }
            }
            std::process::exit(1);
        }
    }
}
