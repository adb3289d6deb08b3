//! Finding and running clang: the command line, our device headers, and clang's errors.

use crate::headers;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How to run clang on a file: macros and include directories, as `-D` and `-I` give them.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `NAME` or `NAME=VALUE`, as `-D` takes them.
    pub defines: Vec<String>,
    /// Directories searched by `#include`, after the file's own.
    pub include_dirs: Vec<PathBuf>,
}

/// clang's answer on one file: the AST dump (possibly partial) and the errors it reported.
pub struct ClangOutput {
    /// The `-ast-dump=json` text.
    pub json: String,
    /// Each error: file, 1-based line and column, message.
    pub errors: Vec<Diagnostic>,
}

/// One clang error.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// The file clang names.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (bytes).
    pub col: usize,
    /// The message.
    pub message: String,
    /// A fatal error (a header not found): clang stops reporting errors after it, so the
    /// AST from there on may silently lack what it could not parse.
    pub fatal: bool,
}

/// The clang to run: `$WARPSAFE_CLANG`, else the first of `clang-14` … `clang-19`, `clang`
/// on `PATH`.
pub fn find_clang() -> Option<PathBuf> {
    if let Some(c) = std::env::var_os("WARPSAFE_CLANG").filter(|c| !c.is_empty()) {
        return Some(PathBuf::from(c));
    }
    let names = [
        "clang-14", "clang-15", "clang-16", "clang-17", "clang-18", "clang-19", "clang",
    ];
    let path = std::env::var_os("PATH")?;
    for name in names {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// Runs clang on `file` (device side only, no CUDA installation, our headers) and returns
/// its AST dump and errors; with a cache directory ([`crate::set_cache_dir`]), an earlier
/// run's answer when nothing it depended on changed.
pub fn run(clang: &Path, file: &Path, opts: &Options) -> Result<ClangOutput, String> {
    let include = headers::dir()?;
    let mut cmd = Command::new(clang);
    cmd.args([
        "-x",
        "cuda",
        "--cuda-device-only",
        "-nocudainc",
        "-nocudalib",
        "--cuda-gpu-arch=sm_80",
        "-fsyntax-only",
        "-fno-color-diagnostics",
        "-fno-caret-diagnostics",
        "-ferror-limit=0",
        "-w",
        "-D__WARPSAFE__=1",
    ]);
    cmd.arg("-isystem").arg(&include);
    cmd.arg("-include").arg("warpsafe/cuda_runtime.h");
    let source = std::fs::read(file).unwrap_or_default();
    if gpuverify_form(&String::from_utf8_lossy(&source)) {
        cmd.arg("-D__WARPSAFE_GPUVERIFY__=1");
    }
    for d in header_defines(&String::from_utf8_lossy(&source)) {
        cmd.arg(format!("-D{d}"));
    }
    for d in &opts.defines {
        cmd.arg(format!("-D{d}"));
    }
    for i in &opts.include_dirs {
        cmd.arg("-I").arg(i);
    }
    cmd.args(["-Xclang", "-ast-dump=json"]).arg(file);
    let cached = crate::cache::dir().and_then(|dir| {
        let source = String::from_utf8_lossy(&std::fs::read(file).ok()?).into_owned();
        Some((dir, cache_key(clang, &cmd, file, source)))
    });
    let deps_file = std::env::temp_dir().join(format!(
        "warpsafe-deps-{}-{:?}.d",
        std::process::id(),
        std::thread::current().id()
    ));
    if let Some((dir, key)) = &cached {
        if let Some(hit) = crate::cache::lookup(dir, key) {
            return Ok(hit);
        }
        cmd.arg("-MD").arg("-MF").arg(&deps_file);
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", clang.display()))?;
    let json = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<Diagnostic> = stderr.lines().filter_map(diagnostic).collect();
    if json.trim().is_empty() {
        let first = stderr.lines().next().unwrap_or("no output");
        return Err(format!("{} failed: {first}", clang.display()));
    }
    let out = ClangOutput { json, errors };
    if let Some((dir, key)) = &cached {
        crate::cache::store(dir, key, &deps_file, &out);
        let _ = std::fs::remove_file(&deps_file);
    }
    Ok(out)
}

/// The `-DNAME[=VALUE]` flags of the file's GPUVerify-style flag lines (`//--blockDim=64
/// -DWIDTH=256`) among its leading comments; `-D` on the command line comes after them, so it
/// wins.
pub fn header_defines(source: &str) -> Vec<String> {
    source
        .lines()
        .map(str::trim)
        .take_while(|l| l.is_empty() || l.starts_with("//"))
        .filter_map(|l| l.strip_prefix("//"))
        .filter(|l| l.trim_start().starts_with('-'))
        .flat_map(str::split_whitespace)
        .filter_map(|t| t.strip_prefix("-D"))
        .filter(|d| !d.is_empty())
        .map(str::to_string)
        .collect()
}

/// True for a file in GPUVerify's test form: a first line `//pass` or `//xfail:KIND` (in any
/// case, as GPUVerify's runner reads it). Such a file gets GPUVerify's CUDA preamble
/// (`include/warpsafe/gpuverify.h`: the vector operators of helper_math.h, cuRAND's types).
pub fn gpuverify_form(source: &str) -> bool {
    let first = source
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    first.starts_with("//pass") || first.starts_with("//xfail:")
}

/// What identifies a run: clang's path, size and modification time, its arguments, and the
/// file's path and text.
fn cache_key(clang: &Path, cmd: &Command, file: &Path, source: String) -> crate::cache::Key {
    let meta = std::fs::metadata(clang).ok();
    let stamp = meta.map(|m| {
        let modified = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        format!("{} {modified}", m.len())
    });
    let mut command = format!("{}\n{}", clang.display(), stamp.unwrap_or_default());
    for a in cmd.get_args() {
        command.push('\n');
        command.push_str(&a.to_string_lossy());
    }
    crate::cache::Key {
        command,
        file: file.display().to_string(),
        source,
    }
}

/// `file:line:col: error: message` (or `fatal error:`), else `None`.
fn diagnostic(line: &str) -> Option<Diagnostic> {
    let fatal = line.contains(": fatal error: ");
    let (loc, message) = line
        .split_once(": error: ")
        .or_else(|| line.split_once(": fatal error: "))?;
    let mut parts = loc.rsplitn(3, ':');
    let col = parts.next()?.parse().ok()?;
    let line_no = parts.next()?.parse().ok()?;
    let file = parts.next()?.to_string();
    Some(Diagnostic {
        file,
        line: line_no,
        col,
        message: message.to_string(),
        fatal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_clang_error_lines() {
        let d = diagnostic("k.cu:12:7: error: use of undeclared identifier 'q'").unwrap();
        assert_eq!((d.file.as_str(), d.line, d.col), ("k.cu", 12, 7));
        assert_eq!(d.message, "use of undeclared identifier 'q'");
        assert!(!d.fatal);
        let f = diagnostic("k.cu:2:10: fatal error: 'cfg.h' file not found").unwrap();
        assert!(f.fatal && f.message == "'cfg.h' file not found");
        assert!(diagnostic("k.cu:1:1: warning: unused").is_none());
    }

    #[test]
    fn gpuverify_test_form_is_its_first_line() {
        assert!(gpuverify_form("//pass\n//--blockDim=64\n"));
        assert!(gpuverify_form("//PASS\n"));
        assert!(gpuverify_form("//xfail:BOOGIE_ERROR\n"));
        assert!(!gpuverify_form("//--blockDim=64\n//pass\n"));
        assert!(!gpuverify_form("__global__ void k() {}\n"));
    }

    #[test]
    fn flag_lines_of_the_header_give_their_macros() {
        let src =
            "//pass\n//--blockDim=64 -DWIDTH=256 --no-inline -DSMALL\n\n#define X 1\n// -DLATE=1\n";
        assert_eq!(header_defines(src), ["WIDTH=256", "SMALL"]);
        assert!(header_defines("int x; //--gridDim=1 -DA=1\n").is_empty());
    }
}
