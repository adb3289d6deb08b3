//! One command line everywhere (issue 19, item 3): `--kernel`, `--block`, `--grid`, `--arg` and
//! `--buf` mean the same to `run`, `verify`, `equiv`, `prove` and `validate`; what they fix
//! shows in each JSON report; a bad `--buf` is the same usage error (exit 2, a JSON error
//! under `--format json`) everywhere; `equiv`, `prove` and `validate` write SARIF.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A kernel with a buffer `x` and a scalar `n`, header conventions as in examples/kernels.
const KERNEL: &str = "\
// Doubles the first n elements of x, one element per thread.
//--blockDim=64 --gridDim=2
//@ arg n = 128
//@ len(x) = n

__global__ void scale(int n, float* x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = 2.0f * x[i];
    }
}
";

/// Its spec (docs/specs.md).
const SPEC: &str = "x[i] = 2 * x[i] for i < n\n";

/// The flags every command takes alike.
const ALIKE: [&str; 10] = [
    "--kernel", "scale", "--block", "64", "--grid", "2", "--arg", "n=128", "--buf", "x=128",
];

struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("warpsafe-uniform-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch dir");
        std::fs::write(dir.join("k.cu"), KERNEL).expect("kernel");
        std::fs::write(dir.join("k.spec"), SPEC).expect("spec");
        Scratch { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn warpsafe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .expect("warpsafe runs")
}

fn json(out: &Output, what: &str) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "{what}: stdout is not JSON ({e}): {text}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn z3() -> bool {
    let ok = warpsafe_smt::available();
    if !ok {
        eprintln!("note: z3 not found; verify skipped");
    }
    ok
}

fn nvrtc() -> bool {
    let ok = warpsafe_cuda::nvrtc_path().is_ok();
    if !ok {
        eprintln!("note: NVRTC not found; validate skipped");
    }
    ok
}

/// The five commands, each with the kernel file (and the second file or spec it needs).
fn commands(s: &Scratch) -> Vec<(&'static str, Vec<String>)> {
    let k = s.path("k.cu");
    let mut out = vec![
        ("run", vec!["run".into(), k.clone()]),
        ("equiv", vec!["equiv".into(), k.clone(), k.clone()]),
        (
            "prove",
            vec!["prove".into(), k.clone(), "--spec".into(), s.path("k.spec")],
        ),
    ];
    if z3() {
        out.push(("verify", vec!["verify".into(), k.clone()]));
    }
    if nvrtc() {
        out.push(("validate", vec!["validate".into(), k]));
    }
    out
}

/// The fixed length of `x` and value of `n` in a command's JSON report.
fn fixed_in(command: &str, v: &serde_json::Value) -> (Option<u64>, Option<String>) {
    let fixed = match command {
        "run" => {
            let len = v["outputs"][0]["len"].as_u64();
            return (len, None);
        }
        "verify" => &v["kernels"][0]["fixed"],
        _ => &v["fixed"],
    };
    (
        fixed["lens"]["x"].as_u64(),
        fixed["args"]["n"].as_str().map(str::to_string),
    )
}

#[test]
fn every_command_takes_the_same_flags_and_reports_what_they_fix() {
    let s = Scratch::new("alike");
    for (name, base) in commands(&s) {
        let mut argv: Vec<&str> = base.iter().map(String::as_str).collect();
        argv.extend(ALIKE);
        argv.extend(["--format", "json"]);
        let out = warpsafe(&argv);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{argv:?}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = json(&out, name);
        let (len, n) = fixed_in(name, &v);
        assert_eq!(len, Some(128), "{name}: {v}");
        if name != "run" {
            assert_eq!(n.as_deref(), Some("128"), "{name}: {v}");
        }
        if name == "prove" {
            assert_eq!(v["scope"], "configuration", "{v}");
        }
    }
}

#[test]
fn verify_says_what_the_flags_fix_in_its_verdict_line() {
    if !z3() {
        return;
    }
    let s = Scratch::new("verdict");
    let k = s.path("k.cu");
    let out = warpsafe(&["verify", &k, "--arg", "n=100", "--buf", "x=100"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.contains("with n = 100 (--arg n=100), len(x) = 100 (--buf x=100)"),
        "{text}"
    );
    // A length shorter than the threads that pass `i < n` write: a real out-of-bounds.
    let out = warpsafe(&["verify", &k, "--arg", "n=100", "--buf", "x=50"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A header precondition the fixed values make false leaves nothing to verify.
    let path = s.dir.join("req.cu");
    let req = KERNEL.replace("//@ len(x) = n", "//@ len(x) = n\n//@ requires n <= 64");
    std::fs::write(&path, req).expect("write");
    let path = path.display().to_string();
    let out = warpsafe(&["verify", &path, "--arg", "n=128"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not hold"));
}

#[test]
fn zeros_fix_the_length_and_where_taken_the_contents() {
    let s = Scratch::new("zeros");
    for (name, base) in commands(&s) {
        let mut argv: Vec<&str> = base.iter().map(String::as_str).collect();
        argv.extend(["--arg", "n=128", "--buf", "x=zeros:128", "--format", "json"]);
        let out = warpsafe(&argv);
        assert_eq!(out.status.code(), Some(0), "{argv:?}");
        let v = json(&out, name);
        assert_eq!(fixed_in(name, &v).0, Some(128), "{name}: {v}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        match name {
            // The run's output is the zeros doubled.
            "run" => {}
            // verify covers every content: it says it does not use them.
            "verify" => assert!(stderr.contains("contents are not used"), "{stderr}"),
            // equiv, prove and validate start `x` from 0, as `--init x=0` would.
            _ => assert_eq!(v["fixed"]["init"]["x"], "0", "{name}: {v}"),
        }
    }
    // The same through `--init`'s road: prove reports the start and the flag that gave it.
    let k = s.path("k.cu");
    let spec = s.path("k.spec");
    let out = warpsafe(&["prove", &k, "--spec", &spec, "--buf", "x=zeros:128"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("`x` starts as 0 (--buf x=zeros:128)"),
        "{text}"
    );
}

#[test]
fn a_file_gives_the_length_and_an_odd_size_is_a_usage_error() {
    let s = Scratch::new("file");
    let good = s.dir.join("x.bin");
    let odd = s.dir.join("odd.bin");
    let floats: Vec<u8> = (0..128u32).flat_map(|i| (i as f32).to_le_bytes()).collect();
    std::fs::write(&good, &floats).expect("write");
    std::fs::write(&odd, &floats[..510]).expect("write");
    let good_flag = format!("x={}", good.display());
    let odd_flag = format!("x={}", odd.display());
    for (name, base) in commands(&s) {
        let mut argv: Vec<&str> = base.iter().map(String::as_str).collect();
        argv.extend(["--arg", "n=128", "--format", "json", "--buf"]);
        let mut ok = argv.clone();
        ok.push(&good_flag);
        let out = warpsafe(&ok);
        assert_eq!(out.status.code(), Some(0), "{ok:?}");
        let v = json(&out, name);
        assert_eq!(fixed_in(name, &v).0, Some(128), "{name}: {v}");
        if name != "run" {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("contents are not used"), "{name}: {stderr}");
        }
        let mut bad = argv;
        bad.push(&odd_flag);
        let out = warpsafe(&bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let v = json(&out, name);
        let msg = v["error"].as_str().unwrap_or_default();
        assert!(msg.contains("510 bytes"), "{name}: {v}");
        assert!(v.get("span").is_some(), "{name}: {v}");
    }
}

#[test]
fn an_unknown_buffer_is_a_usage_error_that_lists_the_buffers() {
    let s = Scratch::new("unknown");
    for (name, base) in commands(&s) {
        let mut argv: Vec<&str> = base.iter().map(String::as_str).collect();
        argv.extend(["--buf", "y=128"]);
        let out = warpsafe(&argv);
        assert_eq!(out.status.code(), Some(2), "{argv:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("no buffer parameter `y`") && stderr.contains("x (f32*)"),
            "{name}: {stderr}"
        );
    }
    // `--len` is an alias of `--buf NAME=N`, for every command.
    let k = s.path("k.cu");
    let out = warpsafe(&[
        "equiv", &k, &k, "--arg", "n=64", "--len", "x=64", "--format", "json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out, "equiv --len")["fixed"]["lens"]["x"], 64);
    // `prove --all-sizes` takes no length: the flag is named.
    let spec = s.path("k.spec");
    let out = warpsafe(&["prove", &k, "--spec", &spec, "--all-sizes", "--buf", "x=4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("takes no --buf"));
}

#[test]
fn equiv_prove_and_validate_write_sarif() {
    let s = Scratch::new("sarif");
    let k = s.path("k.cu");
    let spec = s.path("k.spec");
    let wrong = s.dir.join("wrong.cu");
    std::fs::write(&wrong, KERNEL.replace("2.0f * x[i]", "3.0f * x[i]")).expect("write");
    let wrong = wrong.display().to_string();
    let mut cases: Vec<(Vec<&str>, i32, Option<&str>)> = vec![
        (vec!["equiv", &k, &k], 0, None),
        (vec!["equiv", &k, &wrong], 1, Some("different")),
        (
            vec!["prove", &k, "--spec", &spec, "--arg", "n=128"],
            0,
            None,
        ),
        (
            vec!["prove", &wrong, "--spec", &spec, "--arg", "n=128"],
            1,
            Some("different"),
        ),
    ];
    if nvrtc() {
        cases.push((vec!["validate", &k], 0, None));
    }
    for (mut argv, code, rule) in cases {
        argv.extend(["--format", "sarif"]);
        let out = warpsafe(&argv);
        assert_eq!(out.status.code(), Some(code), "{argv:?}");
        let v = json(&out, argv[0]);
        assert_eq!(v["version"], "2.1.0");
        let results = v["runs"][0]["results"]
            .as_array()
            .unwrap_or_else(|| panic!("{argv:?}: no runs[0].results: {v}"));
        match rule {
            None => assert!(results.is_empty(), "{argv:?}: {v}"),
            Some(rule) => {
                let hit = results.iter().find(|r| r["ruleId"] == rule);
                let hit = hit.unwrap_or_else(|| panic!("{argv:?}: no {rule}: {v}"));
                let uri = &hit["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
                assert_eq!(uri.as_str(), Some(wrong.as_str()), "{v}");
            }
        }
    }
    // A finding of the symbolic run is located at its line.
    let out = warpsafe(&[
        "equiv", &k, &k, "--arg", "n=128", "--buf", "x=100", "--format", "sarif",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out, "equiv oob");
    let results = v["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let oob = results.iter().find(|r| r["ruleId"] == "oob");
    let oob = oob.unwrap_or_else(|| panic!("no oob result: {v}"));
    assert_eq!(
        oob["locations"][0]["physicalLocation"]["region"]["startLine"], 10,
        "{v}"
    );
}

#[test]
fn every_command_answers_a_failure_with_a_json_error_under_json_and_sarif() {
    let commands: [&[&str]; 12] = [
        &["run", "nope.cu"],
        &["ir", "nope.cu"],
        &["verify", "nope.cu"],
        &["equiv", "nope.cu", "nope.cu"],
        &["prove", "nope.cu", "--spec", "x[i] = 1 for i < 1"],
        &[
            "prove",
            "nope.cu",
            "--spec",
            "x[i] = 1 for i < 1",
            "--all-sizes",
        ],
        &["validate", "nope.cu"],
        &["check-perm", "nope.cu"],
        &["groebner", "nope.txt"],
        &["cuda", "nope.cu"],
        &["ptx", "nope.cu"],
        &["bench", "intake", "nope"],
    ];
    for c in commands {
        for format in ["json", "sarif"] {
            let mut argv = c.to_vec();
            argv.extend(["--format", format]);
            let out = warpsafe(&argv);
            assert_eq!(out.status.code(), Some(2), "{argv:?}");
            let v = json(&out, c[0]);
            assert!(v["error"].is_string(), "{argv:?}: {v}");
            assert!(v.get("span").is_some(), "{argv:?}: {v}");
        }
    }
}
