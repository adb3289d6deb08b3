//! `cooperative_groups::grid_group` through the clang frontend, end to end: the issue's
//! exchange kernel (`x[i] = i; grid.sync(); y[i] = x[(i + 1) % n]`) runs in the interpreter
//! and every `y[i]` is the value Rust computes; the grid's ranks and sizes on a 3-D launch
//! are what CUDA documents; a grid barrier under a block-dependent branch is a divergence at
//! run time; `verify` proves the exchange race-free, finds the race of the twin without the
//! barrier and the divergence of the branch; `cuda` and `ptx` generate code NVRTC compiles,
//! and the PTX road reads the generated barrier as a grid barrier (verdicts and outputs).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const EXCHANGE: &str = r#"//--blockDim=64 --gridDim=4
//@ len(x) = n
//@ len(y) = n
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *x, float *y, int n) {
  cg::grid_group g = cg::this_grid();
  int i = g.thread_rank();
  if (i < n) x[i] = i;
  g.sync();
  if (i < n) y[i] = x[(i + 1) % n];
}
"#;

const RANKS: &str = r#"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void ranks(unsigned long long *out, unsigned *dims) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  unsigned long long r = grid.thread_rank();
  out[6 * r] = r;
  out[6 * r + 1] = grid.block_rank();
  out[6 * r + 2] = grid.num_blocks();
  out[6 * r + 3] = grid.size();
  out[6 * r + 4] = grid.num_threads();
  out[6 * r + 5] = grid.is_valid() ? 1 : 0;
  if (block.thread_rank() == 0) {
    unsigned long long b = grid.block_rank();
    dims[4 * b] = grid.block_index().x + 10 * grid.block_index().y + 100 * grid.block_index().z;
    dims[4 * b + 1] = grid.group_dim().x;
    dims[4 * b + 2] = grid.dim_blocks().y;
    dims[4 * b + 3] = grid.group_dim().z;
  }
  cg::sync(grid);
}
"#;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpsafe-grid-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn warpsafe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
        .output()
        .expect("runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn write(dir: &Path, name: &str, source: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, source).expect("kernel written");
    path.display().to_string()
}

fn read<T>(dir: &Path, name: &str, size: usize, from: fn(&[u8]) -> T) -> Vec<T> {
    let bytes = std::fs::read(dir.join(format!("{name}.bin"))).expect("output written");
    bytes.chunks(size).map(from).collect()
}

#[test]
fn the_exchange_reads_the_other_blocks_values_after_the_grid_barrier() {
    let dir = temp_dir("exchange");
    let file = write(&dir, "exchange.cu", EXCHANGE);
    for (grid, block, n) in [("4", "64", 256usize), ("4", "64", 200), ("3", "96", 97)] {
        let out = dir.join(format!("out-{grid}-{block}-{n}"));
        let run = warpsafe(&[
            "run",
            &file,
            "--grid",
            grid,
            "--block",
            block,
            "--arg",
            &format!("n={n}"),
            "--buf",
            &format!("x=zeros:{n}"),
            "--buf",
            &format!("y=zeros:{n}"),
            "--out",
            &out.display().to_string(),
        ]);
        assert!(run.status.success(), "{}", text(&run));
        let y = read(&out, "y", 4, |b| f32::from_le_bytes(b.try_into().unwrap()));
        let want: Vec<f32> = (0..n).map(|i| ((i + 1) % n) as f32).collect();
        assert_eq!(y, want, "grid {grid} block {block} n {n}");
    }
}

#[test]
fn grid_ranks_and_sizes_are_cudas_on_a_3d_launch() {
    let dir = temp_dir("ranks");
    let file = write(&dir, "ranks.cu", RANKS);
    let (grid, block) = ([2u64, 3, 2], [4u64, 2, 3]);
    let blocks: u64 = grid.iter().product();
    let threads: u64 = block.iter().product();
    let total = blocks * threads;
    let out = dir.join("out");
    let run = warpsafe(&[
        "run",
        &file,
        "--grid",
        "2,3,2",
        "--block",
        "4,2,3",
        "--buf",
        &format!("out=zeros:{}", 6 * total),
        "--buf",
        &format!("dims=zeros:{}", 4 * blocks),
        "--out",
        &out.display().to_string(),
    ]);
    assert!(run.status.success(), "{}", text(&run));
    let got = read(&out, "out", 8, |b| {
        u64::from_le_bytes(b.try_into().unwrap())
    });
    let dims = read(&out, "dims", 4, |b| {
        u32::from_le_bytes(b.try_into().unwrap())
    });
    let mut seen = vec![false; total as usize];
    for (bz, by, bx) in (0..grid[2])
        .flat_map(|z| (0..grid[1]).flat_map(move |y| (0..grid[0]).map(move |x| (z, y, x))))
    {
        let b = (bz * grid[1] + by) * grid[0] + bx;
        for t in 0..threads {
            let r = b * threads + t;
            seen[r as usize] = true;
            let row = &got[6 * r as usize..6 * r as usize + 6];
            assert_eq!(
                row,
                [r, b, blocks, total, total, 1],
                "thread {t} of block {b}"
            );
        }
        let d = &dims[4 * b as usize..4 * b as usize + 4];
        let index = (bx + 10 * by + 100 * bz) as u32;
        assert_eq!(d, [index, 2, 3, 2], "block {b}");
    }
    assert!(seen.iter().all(|&s| s));
}

#[test]
fn a_grid_barrier_in_a_block_dependent_branch_diverges_at_run_time() {
    let dir = temp_dir("branch");
    let src = EXCHANGE.replace("  g.sync();", "  if (g.block_rank() != 0) g.sync();");
    let file = write(&dir, "branch.cu", &src);
    let run = warpsafe(&[
        "run",
        &file,
        "--arg",
        "n=256",
        "--buf",
        "x=zeros:256",
        "--buf",
        "y=zeros:256",
    ]);
    assert!(!run.status.success(), "{}", text(&run));
    let t = text(&run);
    assert!(t.contains("barrier divergence across the grid"), "{t}");
}

fn verdicts(file: &str) -> (i32, serde_json::Value) {
    let out = warpsafe(&["verify", file, "--format", "json"]);
    let json =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
    (out.status.code().unwrap_or(-1), json)
}

/// The verdict kind of `property` in the first kernel of a `verify --format json` report.
fn verdict(json: &serde_json::Value, property: &str) -> String {
    let results = json
        .pointer("/kernels/0/results")
        .and_then(|r| r.as_array())
        .unwrap_or_else(|| panic!("no results in {json}"));
    let r = results
        .iter()
        .find(|r| r["property"] == property)
        .unwrap_or_else(|| panic!("no {property} in {json}"));
    match &r["verdict"] {
        serde_json::Value::String(s) => s.clone(),
        v => v
            .as_object()
            .and_then(|o| o.keys().next().cloned())
            .unwrap_or_default(),
    }
}

#[test]
fn verify_proves_the_exchange_and_refutes_its_twins() {
    let dir = temp_dir("verify");
    let ok = write(&dir, "exchange.cu", EXCHANGE);
    let (code, json) = verdicts(&ok);
    assert_eq!(verdict(&json, "race"), "verified", "{json}");
    assert_eq!(verdict(&json, "divergence"), "verified", "{json}");
    assert_eq!(code, 0, "{json}");

    let nosync = write(&dir, "nosync.cu", &EXCHANGE.replace("  g.sync();\n", ""));
    let (code, json) = verdicts(&nosync);
    assert_eq!(verdict(&json, "race"), "violated", "{json}");
    assert_eq!(code, 1);

    let branch = EXCHANGE.replace("  g.sync();", "  if (g.block_rank() != 0) g.sync();");
    let branch = write(&dir, "branch.cu", &branch);
    let (code, json) = verdicts(&branch);
    assert_eq!(verdict(&json, "divergence"), "violated", "{json}");
    assert_eq!(code, 1);
}

#[test]
fn generated_cuda_has_the_grid_barrier_and_compiles() {
    let dir = temp_dir("cuda");
    let file = write(&dir, "exchange.cu", EXCHANGE);
    let out = warpsafe(&["cuda", &file]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("ws_grid_sync();"), "{t}");
    let ptx = warpsafe(&["ptx", &file]);
    let t = text(&ptx);
    if !ptx.status.success() && t.contains("NVRTC") {
        return; // no NVRTC on this machine
    }
    assert!(ptx.status.success(), "{t}");
    assert!(
        t.contains("membar.gl") && t.contains("atom.global.add.u32"),
        "{t}"
    );
}

/// `verify --via-ptx` of `file`: its exit code and JSON report.
fn ptx_verdicts(file: &str) -> (i32, serde_json::Value) {
    let out = warpsafe(&["verify", file, "--via-ptx", "--format", "json"]);
    let json =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
    (out.status.code().unwrap_or(-1), json)
}

#[test]
fn the_ptx_road_reads_the_generated_grid_barrier_as_one() {
    // NVRTC's PTX of the generated barrier is a call of `ws_grid_sync`, which the PTX road
    // lowers to the grid barrier: the exchange is race-free there too, and its twin is not.
    let dir = temp_dir("ptx-road");
    let ok = write(&dir, "exchange.cu", EXCHANGE);
    let (code, json) = ptx_verdicts(&ok);
    if code == 2 && json.to_string().contains("NVRTC") {
        return; // no NVRTC on this machine
    }
    assert_eq!(verdict(&json, "race"), "verified", "{json}");
    assert_eq!(verdict(&json, "divergence"), "verified", "{json}");
    let nosync = write(&dir, "nosync.cu", &EXCHANGE.replace("  g.sync();\n", ""));
    let (code, json) = ptx_verdicts(&nosync);
    assert_eq!(verdict(&json, "race"), "violated", "{json}");
    assert_eq!(code, 1);

    // The interpreter runs the PTX with the barrier as the source road runs it: every y[i] is
    // x[(i + 1) % n] = (i + 1) % n.
    let n = 256usize;
    let run = |via_ptx: bool| {
        let out_dir = dir.join(if via_ptx { "ptx-out" } else { "src-out" });
        let mut args = vec![
            "run".to_string(),
            ok.clone(),
            "--arg".into(),
            format!("n={n}"),
            "--buf".into(),
            format!("x=zeros:{n}"),
            "--buf".into(),
            format!("y=zeros:{n}"),
            "--out".into(),
            out_dir.to_string_lossy().into_owned(),
        ];
        if via_ptx {
            args.push("--via-ptx".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = warpsafe(&args);
        assert!(out.status.success(), "{}", text(&out));
        read(&out_dir, "y", 4, |b| {
            f32::from_le_bytes([b[0], b[1], b[2], b[3]])
        })
    };
    let (source, ptx) = (run(false), run(true));
    let expected: Vec<f32> = (0..n).map(|i| ((i + 1) % n) as f32).collect();
    assert_eq!(source, expected);
    assert_eq!(ptx, expected);
}
