//! Our device headers (`include/`) stand in for a CUDA toolkit: a real clang parses the
//! real-world kernels under `tests/headers/` with no error, and its JSON AST shows CUDA's
//! builtins the way the translator reads them — `threadIdx.x` as a MemberExpr on a
//! DeclRefExpr named `threadIdx`, an intrinsic as a CallExpr whose callee names the CUDA
//! function, declared in a file under `include/`.
//!
//! clang is `$WARPSAFE_CLANG`, else the first of clang-14, clang-15 … clang-19, clang on
//! `PATH`; without one these tests say so and pass.

use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

fn find_clang() -> Option<PathBuf> {
    if let Some(c) = std::env::var_os("WARPSAFE_CLANG").filter(|c| !c.is_empty()) {
        return Some(PathBuf::from(c));
    }
    let path = std::env::var_os("PATH")?;
    let names = [
        "clang-14", "clang-15", "clang-16", "clang-17", "clang-18", "clang-19", "clang",
    ];
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

fn include_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("include")
}

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/headers")
}

/// What clang made of one file.
struct Dump {
    /// The AST (`-Xclang -ast-dump=json`).
    ast: Value,
    /// Its size in bytes.
    bytes: usize,
    /// clang's `error:` lines.
    errors: Vec<String>,
}

/// Runs clang the way the frontend does on `file` (`-` reads `stdin`), with `extra` flags;
/// with `dump`, asks for the JSON AST. Returns stdout and clang's `error:` lines.
fn run_clang(
    clang: &Path,
    file: &str,
    stdin: Option<&str>,
    extra: &[&str],
    dump: bool,
) -> (Vec<u8>, Vec<String>) {
    let mut cmd = Command::new(clang);
    cmd.args([
        "-x",
        "cuda",
        "--cuda-device-only",
        "-nocudainc",
        "-nocudalib",
        "--cuda-gpu-arch=sm_70",
        "-fsyntax-only",
        "-fno-color-diagnostics",
    ])
    .arg("-isystem")
    .arg(include_dir())
    .args(["-include", "warpsafe/cuda_runtime.h"])
    .args(extra);
    if dump {
        cmd.args(["-Xclang", "-ast-dump=json"]);
    }
    cmd.arg(file)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("clang starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    input
        .write_all(stdin.unwrap_or("").as_bytes())
        .expect("writes stdin");
    drop(input);
    let out = child.wait_with_output().expect("clang finishes");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut errors: Vec<String> = stderr
        .lines()
        .filter(|l| l.contains("error:"))
        .map(str::to_string)
        .collect();
    if !out.status.success() && errors.is_empty() {
        errors.push(format!("clang exited with {}: {stderr}", out.status));
    }
    (out.stdout, errors)
}

/// The JSON AST of `file` (see [`run_clang`]).
fn clang_dump(clang: &Path, file: &str, stdin: Option<&str>, extra: &[&str]) -> Dump {
    let (stdout, errors) = run_clang(clang, file, stdin, extra, true);
    // clang writes invalid bytes of the source (Latin-1 comments) as U+FFFD: valid UTF-8.
    let text = String::from_utf8(stdout).expect("clang's JSON is UTF-8");
    let ast = serde_json::from_str(&text).unwrap_or(Value::Null);
    Dump {
        ast,
        bytes: text.len(),
        errors,
    }
}

fn sample(clang: &Path, name: &str) -> Dump {
    let path = samples_dir().join(name);
    let d = clang_dump(clang, path.to_str().expect("UTF-8 path"), None, &[]);
    assert!(d.errors.is_empty(), "{name}:\n{}", d.errors.join("\n"));
    d
}

/// Every node of the tree, depth first in document order.
fn nodes(v: &Value) -> Vec<&Value> {
    fn go<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
        match v {
            Value::Object(m) => {
                if m.contains_key("kind") {
                    out.push(v);
                }
                m.values().for_each(|c| go(c, out));
            }
            Value::Array(a) => a.iter().for_each(|c| go(c, out)),
            _ => {}
        }
    }
    let mut out = vec![];
    go(v, &mut out);
    out
}

fn kind(v: &Value) -> &str {
    v["kind"].as_str().unwrap_or("")
}

/// `v` without the implicit casts and parentheses clang wraps around it.
fn strip(mut v: &Value) -> &Value {
    while matches!(kind(v), "ImplicitCastExpr" | "ParenExpr") {
        v = &v["inner"][0];
    }
    v
}

/// For each CallExpr whose callee is a plain name: (name, id of the declaration called).
fn calls(ast: &Value) -> Vec<(String, String)> {
    nodes(ast)
        .into_iter()
        .filter(|n| kind(n) == "CallExpr")
        .filter_map(|n| {
            let callee = strip(&n["inner"][0]);
            if kind(callee) != "DeclRefExpr" {
                return None;
            }
            let d = &callee["referencedDecl"];
            Some((
                d["name"].as_str()?.to_string(),
                d["id"].as_str()?.to_string(),
            ))
        })
        .collect()
}

/// The file of every declaration, by id. clang's JSON names a location's file only when it
/// differs from the previous location written, so this follows them in document order
/// (`serde_json` keeps key order here); a declaration written from a macro counts where the
/// macro was used (`expansionLoc`).
fn decl_files(ast: &Value) -> HashMap<String, String> {
    struct Walk {
        file: String,
        files: HashMap<String, String>,
    }
    impl Walk {
        fn bare(&mut self, loc: &Value) {
            if let Some(f) = loc["file"].as_str() {
                self.file = f.to_string();
            }
        }
        fn loc(&mut self, loc: &Value) {
            if loc.get("spellingLoc").is_some() {
                self.bare(&loc["spellingLoc"]);
                self.bare(&loc["expansionLoc"]);
            } else {
                self.bare(loc);
            }
        }
        fn go(&mut self, v: &Value) {
            match v {
                Value::Object(m) => {
                    for (k, c) in m {
                        match k.as_str() {
                            "loc" => {
                                self.loc(c);
                                if let Some(id) = m.get("id").and_then(Value::as_str) {
                                    self.files.insert(id.to_string(), self.file.clone());
                                }
                            }
                            "range" => {
                                self.loc(&c["begin"]);
                                self.loc(&c["end"]);
                            }
                            _ => self.go(c),
                        }
                    }
                }
                Value::Array(a) => a.iter().for_each(|c| self.go(c)),
                _ => {}
            }
        }
    }
    let mut w = Walk {
        file: String::new(),
        files: HashMap::new(),
    };
    w.go(ast);
    w.files
}

/// `names` are all called in `file`, and some call of each reaches a declaration in our
/// headers. (Only some: `std::min(a, b)` is a call to libstdc++'s `min`, as it should be.)
/// Every call of an intrinsic (`__name`) or an atomic must be ours.
fn assert_calls_ours(clang: &Path, file: &str, names: &[&str]) {
    let d = sample(clang, file);
    let files = decl_files(&d.ast);
    let include = include_dir().to_string_lossy().into_owned();
    let called = calls(&d.ast);
    let ours = |id: &str| files.get(id).is_some_and(|f| f.starts_with(&include));
    for name in names {
        let mut of_name = called.iter().filter(|(n, _)| n == name).peekable();
        assert!(of_name.peek().is_some(), "{file}: no call to `{name}`");
        let strict = name.starts_with("__") || name.starts_with("atomic");
        let (mine, theirs): (Vec<_>, Vec<_>) = of_name.partition(|(_, id)| ours(id));
        assert!(
            !mine.is_empty(),
            "{file}: no call to `{name}` reaches our headers"
        );
        if strict {
            let elsewhere: Vec<_> = theirs.iter().map(|(_, id)| files.get(id)).collect();
            assert!(
                elsewhere.is_empty(),
                "{file}: `{name}` also resolves to {elsewhere:?}"
            );
        }
    }
}

macro_rules! need_clang {
    () => {
        match find_clang() {
            Some(c) => c,
            None => {
                eprintln!("no clang found ($WARPSAFE_CLANG, clang-14..19, clang); skipping");
                return;
            }
        }
    };
}

#[test]
fn every_sample_parses_without_errors() {
    let clang = need_clang!();
    let mut files: Vec<PathBuf> = std::fs::read_dir(samples_dir())
        .expect("tests/headers exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "only {} samples", files.len());
    let mut failures = vec![];
    for f in &files {
        let (_, errors) = run_clang(&clang, f.to_str().expect("UTF-8 path"), None, &[], false);
        if !errors.is_empty() {
            failures.push(format!("{}:\n  {}", f.display(), errors.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn latin1_source_gives_a_utf8_dump() {
    let clang = need_clang!();
    let d = sample(&clang, "latin1_comment.cu");
    assert_eq!(d.ast["kind"], "TranslationUnitDecl");
}

#[test]
fn builtin_variables_are_fields_of_plain_variables() {
    let clang = need_clang!();
    let d = sample(&clang, "vector_add.cu");
    let mut seen = BTreeSet::new();
    for n in nodes(&d.ast)
        .into_iter()
        .filter(|n| kind(n) == "MemberExpr")
    {
        let base = &n["inner"][0];
        if kind(base) == "DeclRefExpr" {
            let var = base["referencedDecl"]["name"].as_str().unwrap_or("");
            if matches!(var, "threadIdx" | "blockIdx" | "blockDim") {
                assert_eq!(n["isArrow"], false);
                assert_eq!(n["type"]["qualType"], "const unsigned int");
                seen.insert(format!("{var}.{}", n["name"].as_str().unwrap_or("")));
            }
        }
    }
    let want: BTreeSet<String> = ["blockDim.x", "blockIdx.x", "threadIdx.x"]
        .map(String::from)
        .into();
    assert_eq!(seen, want);
}

#[test]
fn intrinsics_are_calls_to_our_declarations() {
    let clang = need_clang!();
    assert_calls_ours(
        &clang,
        "warp_reduce.cu",
        &[
            "__shfl_down_sync",
            "__shfl_xor_sync",
            "__shfl_sync",
            "__shfl_up_sync",
            "__ballot_sync",
            "__any_sync",
            "__all_sync",
            "__activemask",
            "__popc",
            "__ffs",
            "__clz",
            "__brev",
            "__umulhi",
            "__match_any_sync",
            "__reduce_add_sync",
            "__syncwarp",
            "__syncthreads",
            "atomicAdd",
            "fmax",
        ],
    );
    assert_calls_ours(
        &clang,
        "histogram.cu",
        &[
            "atomicAdd",
            "atomicMax",
            "atomicInc",
            "atomicCAS",
            "atomicAdd_block",
            "__syncthreads",
        ],
    );
    assert_calls_ours(
        &clang,
        "sgemm_float4.cu",
        &["__ldg", "fmaf", "__syncthreads"],
    );
    assert_calls_ours(
        &clang,
        "texture_object.cu",
        &[
            "tex2D",
            "tex1Dfetch",
            "surf2Dread",
            "surf2Dwrite",
            "cosf",
            "sinf",
        ],
    );
    assert_calls_ours(
        &clang,
        "half_precision.cu",
        &[
            "__hfma2",
            "__hfma",
            "__hmul",
            "__float2half",
            "__half2float",
            "hsqrt",
        ],
    );
    assert_calls_ours(
        &clang,
        "block_reduce_cg.cu",
        &[
            "this_thread_block",
            "tiled_partition",
            "reduce",
            "sync",
            "atomicAdd",
        ],
    );
    assert_calls_ours(
        &clang,
        "curand_pi.cu",
        &[
            "curand_init",
            "curand_uniform",
            "curand_normal",
            "curand",
            "curand_uniform4",
        ],
    );
    assert_calls_ours(
        &clang,
        "wmma_gemm.cu",
        &[
            "fill_fragment",
            "load_matrix_sync",
            "mma_sync",
            "store_matrix_sync",
        ],
    );
    assert_calls_ours(
        &clang,
        "std_headers.cu",
        &[
            "assert",
            "sqrtf",
            "fabsf",
            "expf",
            "fmaxf",
            "powf",
            "__expf",
            "__fdividef",
            "__float_as_uint",
            "min",
            "max",
            "abs",
            "sqrt",
            "isnan",
        ],
    );
}

#[test]
fn gpuverify_annotations_are_calls() {
    let clang = need_clang!();
    assert_calls_ours(
        &clang,
        "gpuverify_annotations.cu",
        &[
            "__requires",
            "__ensures",
            "__return_val_int",
            "__assume",
            "__invariant",
            "__global_invariant",
            "__assert",
            "__global_assert",
            "__implies",
            "__write",
            "__write_offset_bytes",
            "__read",
            "__read_offset_bytes",
            "__no_read",
            "__ptr_offset_bytes",
            "__same_group",
            "__uniform_int",
            "__distinct_int",
            "__other_int",
            "__enabled",
            "__all",
            "__exclusive",
        ],
    );
    // `__axiom(e)` at file scope defines `bool __axiom_<n>(void) { return (e); }`.
    let d = sample(&clang, "gpuverify_annotations.cu");
    let axioms = d.ast["inner"]
        .as_array()
        .expect("top-level declarations")
        .iter()
        .filter(|n| kind(n) == "FunctionDecl")
        .filter(|n| {
            n["name"]
                .as_str()
                .is_some_and(|s| s.starts_with("__axiom_"))
        })
        .count();
    assert_eq!(axioms, 2);
}

#[test]
fn launches_build_their_configuration_with_our_declaration() {
    let clang = need_clang!();
    let d = sample(&clang, "vector_add.cu");
    let launch = nodes(&d.ast)
        .into_iter()
        .find(|n| kind(n) == "CUDAKernelCallExpr")
        .expect("a kernel launch");
    let kernel = strip(&launch["inner"][0]);
    assert_eq!(kernel["referencedDecl"]["name"], "vectorAdd");
    let config = &launch["inner"][1];
    assert_eq!(kind(config), "CallExpr");
    let name = strip(&config["inner"][0])["referencedDecl"]["name"].clone();
    assert!(
        name == "cudaConfigureCall" || name == "__cudaPushCallConfiguration",
        "{name}"
    );
}

#[test]
fn ndebug_removes_assert_calls() {
    let clang = need_clang!();
    let path = samples_dir().join("std_headers.cu");
    let d = clang_dump(
        &clang,
        path.to_str().expect("UTF-8 path"),
        None,
        &["-DNDEBUG"],
    );
    assert!(d.errors.is_empty(), "{}", d.errors.join("\n"));
    assert!(!calls(&d.ast).iter().any(|(n, _)| n == "assert"));
}

#[test]
fn a_tiny_kernel_parses_fast_into_a_small_dump() {
    let clang = need_clang!();
    let tiny = "__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\n";
    let start = Instant::now();
    let d = clang_dump(&clang, "-", Some(tiny), &[]);
    let elapsed = start.elapsed();
    assert!(d.errors.is_empty(), "{}", d.errors.join("\n"));
    eprintln!(
        "tiny kernel: clang {:.0} ms, JSON AST {} KiB",
        elapsed.as_secs_f64() * 1e3,
        d.bytes / 1024
    );
    // The translator walks the whole dump: keep the headers lean (today about 4 MiB,
    // pretty-printed; `#include <math.h>` alone adds 17 MiB).
    assert!(d.bytes < 8 << 20, "tiny kernel's AST is {} bytes", d.bytes);
}
