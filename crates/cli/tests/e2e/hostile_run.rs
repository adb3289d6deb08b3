//! `warpsafe run` on hostile command lines (issue 16): every bad size, value or file is an
//! error naming the flag or header line (exit 2), every launch too large or too long is
//! refused or bounded with the limit printed (exit 2 or 3), and nothing panics or aborts.
//! Each test runs the real binary and checks the exit code and the message.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn warpsafe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the warpsafe binary runs")
}

fn saxpy(extra: &[&str]) -> Output {
    let mut args = vec!["run", "examples/kernels/saxpy.cu"];
    args.extend_from_slice(extra);
    warpsafe(&args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts the exit code and that the output contains every one of `parts`; never a panic.
fn expect(o: &Output, code: i32, parts: &[&str]) {
    let (out, err) = (stdout(o), stderr(o));
    let shown = format!("exit {:?}\nstdout:\n{out}\nstderr:\n{err}", o.status.code());
    assert_eq!(o.status.code(), Some(code), "{shown}");
    assert!(
        !err.contains("panicked") && !err.contains("memory allocation"),
        "{shown}"
    );
    let all = format!("{out}{err}");
    for p in parts {
        assert!(all.contains(p), "missing `{p}` in\n{shown}");
    }
}

/// A fresh directory for this test's files.
fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpsafe-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write test file");
    p.display().to_string()
}

/// Spins forever: the loop condition never changes.
const SPIN: &str = "\
//--blockDim=256 --gridDim=4
//@ arg n = 16
//@ len(out) = n
__global__ void spin(float* out, int n)
{
    int i = threadIdx.x;
    while (n > 0) {
        i = i + 1;
    }
    if (i < n) {
        out[i] = 1.0f;
    }
}
";

/// A buffer whose length only the launch gives.
const NO_LEN: &str = "\
//--blockDim=64 --gridDim=1
//@ arg n = 16
__global__ void scale(float* x, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        x[i] = 2.0f * x[i];
    }
}
";

#[test]
fn a_negative_length_names_the_argument_it_came_from() {
    let o = saxpy(&["--arg", "n=-5"]);
    expect(
        &o,
        2,
        &["len(x) = n is -5", "--arg n=-5", "cannot be negative"],
    );
}

#[test]
fn a_negative_length_from_the_header_names_the_header_line() {
    let dir = tmp_dir("neglen");
    let f = write(
        &dir,
        "neg.cu",
        "//--blockDim=32 --gridDim=1\n//@ arg n = 4\n//@ len(x) = n - 10\n\
         __global__ void neg(float* x, int n) { int i = threadIdx.x; if (i < n) { x[i] = 0.0f; } }\n",
    );
    let o = warpsafe(&["run", &f]);
    expect(
        &o,
        2,
        &["len(x) = n - 10 is -6", "the header's `//@ arg n = 4`"],
    );
}

#[test]
fn an_absurd_buffer_length_is_refused_before_allocation() {
    let dir = tmp_dir("huge");
    let f = write(&dir, "nolen.cu", NO_LEN);
    let o = warpsafe(&[
        "run",
        &f,
        "--buf",
        "x=random:99999999999999",
        "--max-memory",
        "4G",
    ]);
    expect(
        &o,
        2,
        &[
            "buffers too large for the interpreter",
            "`x` has 99999999999999 elements (--buf x=random:99999999999999)",
            "over the memory limit of 4.0 GiB",
            "--max-memory",
        ],
    );
    let o = warpsafe(&["run", &f, "--buf", "x=zeros:18446744073709551615"]);
    expect(&o, 2, &["buffers too large", "more than 16 EiB"]);
}

#[test]
fn a_buffer_length_that_disagrees_with_the_header_names_both() {
    let o = saxpy(&["--buf", "x=random:99999999999999"]);
    expect(
        &o,
        2,
        &[
            "buffer `x` has 99999999999999 elements (--buf x=random:99999999999999)",
            "the header's `len(x) = n`",
            "requires 4000",
        ],
    );
}

#[test]
fn n_zero_runs_with_empty_buffers() {
    let o = saxpy(&["--arg", "n=0"]);
    expect(&o, 0, &["no findings", "output y (f32 x 0)"]);
}

#[test]
fn n_at_i32_max_is_refused_by_the_memory_limit() {
    let o = saxpy(&["--arg", "n=2147483647", "--max-memory", "4G"]);
    expect(
        &o,
        2,
        &[
            "`x` has 2147483647 elements",
            "with n = 2147483647 from --arg n=2147483647",
            "over the memory limit of 4.0 GiB",
        ],
    );
}

#[test]
fn a_wide_launch_over_the_memory_limit_prints_estimate_limit_and_flag() {
    let o = warpsafe(&[
        "run",
        "examples/kernels/vector_add.cu",
        "--grid",
        "65535",
        "--block",
        "1024",
        "--arg",
        "n=67107840",
        "--max-memory",
        "8G",
    ]);
    expect(
        &o,
        2,
        &[
            "the interpreter would need about",
            "per running block",
            "more than the memory limit of 8.0 GiB",
            "raise the limit with --max-memory",
        ],
    );
}

#[test]
fn the_widest_legal_grid_of_a_small_kernel_runs() {
    let o = saxpy(&["--grid", "65535", "--block", "64"]);
    expect(&o, 0, &["4194240 threads", "no findings"]);
}

#[test]
fn too_many_threads_for_the_default_step_budget_are_unknown_up_front() {
    let dir = tmp_dir("threads");
    let f = write(&dir, "nolen.cu", NO_LEN);
    let o = warpsafe(&[
        "run",
        &f,
        "--buf",
        "x=zeros:16",
        "--grid",
        "2147483647,65535,65535",
        "--block",
        "1024",
    ]);
    expect(
        &o,
        3,
        &["unknown: step limit (4294967296 thread-instructions; raise with --max-steps)"],
    );
}

#[test]
fn bad_launch_dimensions_name_their_flag() {
    expect(&saxpy(&["--grid", "0"]), 2, &["--grid", "zero extent"]);
    expect(&saxpy(&["--block", "0,1"]), 2, &["--block", "zero extent"]);
    expect(
        &saxpy(&["--grid", "-3"]),
        2,
        &["--grid", "`-3` is not a number"],
    );
    expect(
        &saxpy(&["--block", "2000"]),
        2,
        &["--block 2000", "per-dimension limits [1024, 1024, 64]"],
    );
    expect(
        &saxpy(&["--block", "1024,1024,1"]),
        2,
        &["--block 1024,1024,1", "1048576 threads; the limit is 1024"],
    );
    expect(
        &saxpy(&["--grid", "1,65536"]),
        2,
        &["--grid 1,65536", "exceeds the limits"],
    );
    expect(
        &saxpy(&["--grid", "1,2,3,4"]),
        2,
        &["--grid", "want X[,Y[,Z]]"],
    );
}

#[test]
fn absurd_shared_memory_names_the_flag() {
    let o = saxpy(&["--shared-bytes", "99999999999999999"]);
    expect(
        &o,
        2,
        &["--shared-bytes 99999999999999999", "more than any GPU has"],
    );
    let o = saxpy(&["--shared-bytes", "-1"]);
    expect(&o, 2, &["--shared-bytes"]);
}

#[test]
fn malformed_args_name_the_flag_and_what_is_wanted() {
    expect(&saxpy(&["--arg", "n"]), 2, &["--arg `n`: want NAME=VALUE"]);
    expect(
        &saxpy(&["--arg", "n=abc"]),
        2,
        &["--arg n=abc: not a valid i32 (want an integer from -2147483648 to 2147483647)"],
    );
    expect(
        &saxpy(&["--arg", "n=99999999999"]),
        2,
        &["--arg n=99999999999: not a valid i32"],
    );
    expect(
        &saxpy(&["--arg", "a=fast"]),
        2,
        &["--arg a=fast: not a valid f32"],
    );
    expect(
        &saxpy(&["--arg", "nope=3"]),
        2,
        &["kernel `saxpy` has no parameter `nope`"],
    );
    expect(
        &saxpy(&["--arg", "x=3"]),
        2,
        &["--arg x=3: `x` is a buffer: use --buf x=SPEC"],
    );
}

#[test]
fn malformed_buffers_name_the_flag() {
    expect(
        &saxpy(&["--buf", "x="]),
        2,
        &["--buf x=: empty buffer spec"],
    );
    expect(
        &saxpy(&["--buf", "x=random:-3"]),
        2,
        &["--buf x=random:-3: bad length `-3`"],
    );
    expect(
        &saxpy(&["--buf", "x=zeros:lots"]),
        2,
        &["--buf x=zeros:lots: bad length `lots`"],
    );
    expect(
        &saxpy(&["--buf", "=random:3"]),
        2,
        &["--buf `=random:3`", "has no parameter"],
    );
    expect(
        &saxpy(&["--buf", "x=/nonexistent/data.bin"]),
        2,
        &["--buf x=/nonexistent/data.bin", "No such file"],
    );
}

#[test]
fn hostile_buffer_files_are_refused() {
    let dir = tmp_dir("files");
    let d = dir.display().to_string();
    expect(
        &saxpy(&["--buf", &format!("x={d}")]),
        2,
        &["is a directory"],
    );
    let odd = write(&dir, "odd.bin", "abcdef");
    expect(
        &saxpy(&["--buf", &format!("x={odd}")]),
        2,
        &["6 bytes is not a whole number of f32 elements"],
    );
    let short = write(&dir, "short.bin", "abcd");
    expect(
        &saxpy(&["--buf", &format!("x={short}")]),
        2,
        &["buffer `x` has 1 elements", "requires 4000"],
    );
    if Path::new("/dev/zero").exists() {
        expect(
            &saxpy(&["--buf", "x=/dev/zero", "--max-memory", "64M"]),
            2,
            &["--buf x=/dev/zero", "longer than", "--max-memory"],
        );
    }
}

#[test]
fn malformed_limits_name_their_flag() {
    expect(
        &saxpy(&["--max-memory", "lots"]),
        2,
        &["--max-memory lots", "not a size"],
    );
    expect(
        &saxpy(&["--max-memory", "0"]),
        2,
        &["--max-memory 0", "more than 0 bytes"],
    );
    expect(&saxpy(&["--max-steps", "0"]), 2, &["--max-steps"]);
    expect(&saxpy(&["--max-steps", "-1"]), 2, &["--max-steps"]);
}

#[test]
fn a_tiny_memory_limit_refuses_even_a_small_launch_with_the_estimate() {
    let o = saxpy(&["--max-memory", "200K"]);
    expect(
        &o,
        2,
        &[
            "cannot launch `saxpy`",
            "the interpreter would need about",
            "more than the memory limit of 200.0 KiB",
            "--max-memory",
        ],
    );
}

#[test]
fn big_block_state_runs_fewer_blocks_at_once_instead_of_failing() {
    let dir = tmp_dir("scratch");
    let f = write(
        &dir,
        "scratch.cu",
        "//--blockDim=1024 --gridDim=4\n//@ len(out) = 4096\n\
         __global__ void scratch(float* out) {\n\
             float s[4096];\n\
             int t = blockIdx.x * blockDim.x + threadIdx.x;\n\
             for (int k = 0; k < 4096; k++) { s[k] = 1.0f; }\n\
             out[t] = s[t % 4096];\n\
         }\n",
    );
    let o = warpsafe(&[
        "run",
        &f,
        "--max-memory",
        "80M",
        "--max-steps",
        "100000000000",
    ]);
    expect(&o, 0, &["no findings", "output out (f32 x 4096): [1.0f"]);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores > 1 {
        expect(
            &o,
            0,
            &["running 1 block(s) at a time", "memory limit of 80.0 MiB"],
        );
    }
    let o = warpsafe(&["run", &f, "--max-memory", "40M"]);
    expect(
        &o,
        2,
        &[
            "per running block",
            "more than the memory limit of 40.0 MiB",
        ],
    );
}

#[test]
fn an_infinite_loop_is_unknown_with_the_step_limit() {
    let dir = tmp_dir("spin");
    let f = write(&dir, "spin.cu", SPIN);
    for extra in [&[][..], &["--sequential"][..]] {
        let mut args = vec!["run", &f, "--max-steps", "20000000"];
        args.extend_from_slice(extra);
        let o = warpsafe(&args);
        expect(
            &o,
            3,
            &["unknown: step limit (20000000 thread-instructions; raise with --max-steps)"],
        );
    }
    let o = warpsafe(&["run", &f, "--max-steps", "20000000", "--format", "json"]);
    expect(&o, 3, &[]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON report");
    assert_eq!(json["verdict"], "unknown");
    assert_eq!(json["exit_code"], 3);
    assert_eq!(
        json["reason"],
        "step limit (20000000 thread-instructions; raise with --max-steps)"
    );
}

#[test]
fn a_directory_with_one_bad_file_reports_it_and_runs_the_rest() {
    let dir = tmp_dir("dir");
    let saxpy = std::fs::read_to_string(root().join("examples/kernels/saxpy.cu")).expect("saxpy");
    write(&dir, "a_saxpy.cu", &saxpy);
    write(
        &dir,
        "b_broken.cu",
        "__global__ void broken(float* x) { x[0] = ; }\n",
    );
    write(
        &dir,
        "c_neg.cu",
        &saxpy.replace("//@ arg n = 4000", "//@ arg n = -4000"),
    );
    let d = dir.display().to_string();
    let o = warpsafe(&["run", &d]);
    expect(
        &o,
        2,
        &[
            "a_saxpy.cu",
            "b_broken.cu",
            "c_neg.cu",
            "len(x) = n is -4000",
            "1/3 kernels",
        ],
    );
    let table = stdout(&o);
    let saxpy_row = table
        .lines()
        .find(|l| l.contains("a_saxpy.cu"))
        .expect("a row for the good file");
    assert!(!saxpy_row.contains("error"), "{table}");
}

#[test]
fn a_directory_with_an_infinite_loop_is_unknown() {
    let dir = tmp_dir("dir-spin");
    let saxpy = std::fs::read_to_string(root().join("examples/kernels/saxpy.cu")).expect("saxpy");
    write(&dir, "a_saxpy.cu", &saxpy);
    write(&dir, "b_spin.cu", SPIN);
    let d = dir.display().to_string();
    let o = warpsafe(&["run", &d, "--max-steps", "20000000"]);
    expect(
        &o,
        3,
        &["unknown: step limit (20000000 thread-instructions; raise with --max-steps)"],
    );
    let o = warpsafe(&["run", &d, "--max-steps", "20000000", "--format", "json"]);
    expect(&o, 3, &[]);
    let rows: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON rows");
    assert!(rows[1]["unknown"]
        .as_str()
        .is_some_and(|u| u.starts_with("step limit (20000000")));
}
