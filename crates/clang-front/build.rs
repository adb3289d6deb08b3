//! Embeds every file under `include/` (our device headers) into the crate, so the binary
//! needs no installed CUDA headers and no files beside it.

use std::fmt::Write;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = vec![];
    walk(&root, &mut files);
    files.sort();
    let mut code = String::from("/// Our device headers: (path under `include/`, text).\npub const HEADERS: &[(&str, &str)] = &[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let rel = f.strip_prefix(&root).expect("under include/");
        let _ = writeln!(
            code,
            "    ({:?}, include_str!({:?})),",
            rel.to_string_lossy(),
            f.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("headers.rs");
    std::fs::write(out, code).expect("writes headers.rs");
}
