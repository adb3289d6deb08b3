//! `--lockstep-warps` orders a warp's accesses only when both are `volatile`: the real binary
//! on Harris's unrolled warp tail with and without `volatile`, through `run` and `equiv`, from
//! CUDA C and through NVRTC's PTX (issue 16, item 6).

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

fn text(o: &Output) -> String {
    format!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Asserts the exit code, showing everything the command printed when it differs.
fn expect_exit(o: &Output, code: i32) {
    assert_eq!(o.status.code(), Some(code), "{}", text(o));
}

fn nvrtc() -> bool {
    let ok = warpsafe_cuda::nvrtc_path().is_ok();
    if !ok {
        eprintln!("note: NVRTC not found; --via-ptx lock-step tests skipped");
    }
    ok
}

const REFERENCE: &str = "examples/equiv/reduce/reduce0_reference.cu";
const VOLATILE: &str = "examples/equiv/reduce/reduce5_warp_unrolled.cu";
const PLAIN: &str = "examples/equiv/reduce/reduce5_bug_nonvolatile.cu";

/// The verdict word of `equiv`'s human report: `REF vs OPT: VERDICT (… s)`.
fn verdict(o: &Output) -> String {
    let out = String::from_utf8_lossy(&o.stdout);
    out.lines()
        .next()
        .and_then(|l| l.rsplit_once(": "))
        .and_then(|(_, v)| v.split_whitespace().next())
        .unwrap_or_default()
        .to_string()
}

#[test]
fn equiv_reports_the_race_of_a_nonvolatile_warp_tail_under_lockstep() {
    let o = warpsafe(&["equiv", REFERENCE, PLAIN, "--lockstep-warps"]);
    assert_eq!(verdict(&o), "race", "{}", text(&o));
    assert!(text(&o).contains("race on shared `sdata`"), "{}", text(&o));
    expect_exit(&o, 1);
    let o = warpsafe(&["equiv", REFERENCE, VOLATILE, "--lockstep-warps"]);
    assert_eq!(verdict(&o), "equal", "{}", text(&o));
    expect_exit(&o, 0);
}

#[test]
fn equiv_via_ptx_agrees_under_lockstep() {
    if !nvrtc() {
        return;
    }
    let o = warpsafe(&["equiv", REFERENCE, PLAIN, "--lockstep-warps", "--via-ptx"]);
    let v = verdict(&o);
    assert!(v == "race" || v == "different", "{}", text(&o));
    assert_ne!(o.status.code(), Some(0), "{}", text(&o));
    let o = warpsafe(&[
        "equiv",
        REFERENCE,
        VOLATILE,
        "--lockstep-warps",
        "--via-ptx",
    ]);
    assert_eq!(verdict(&o), "equal", "{}", text(&o));
    expect_exit(&o, 0);
}

#[test]
fn run_reports_the_race_of_a_nonvolatile_warp_tail_under_lockstep() {
    let plain = "examples/kernels/reduce_warp_unrolled_bug_nonvolatile.cu";
    for flags in [&[][..], &["--lockstep-warps"][..]] {
        let mut argv = vec!["run", plain];
        argv.extend_from_slice(flags);
        let o = warpsafe(&argv);
        expect_exit(&o, 1);
        assert!(
            text(&o).contains("race on shared `sdata`"),
            "{flags:?}: {}",
            text(&o)
        );
    }
    let o = warpsafe(&[
        "run",
        "examples/kernels/reduce_warp_unrolled_bug_nosync.cu",
        "--lockstep-warps",
    ]);
    expect_exit(&o, 0);
}
