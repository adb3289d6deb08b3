//! `warpsafe bench mutate` end to end, bounded for CI: a few mutants of four example
//! kernels, judged by verify and by the interpreter. No mutant may be unsound (a dynamic
//! finding while every property is verified), and the campaign must kill some.

use std::path::Path;
use std::process::Command;

fn warpsafe() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_warpsafe"));
    c.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    c
}

fn z3_missing() -> bool {
    !warpsafe_smt::available()
}

#[test]
fn a_bounded_campaign_kills_mutants_and_none_is_unsound() {
    if z3_missing() {
        eprintln!("z3 not installed; skipping");
        return;
    }
    let svg = std::env::temp_dir().join(format!("warpsafe-mutate-{}.svg", std::process::id()));
    let out = warpsafe()
        .args(["bench", "mutate", "--limit", "3", "--configs", "2"])
        .args(["--format", "json", "--only"])
        .arg("saxpy,reduce_interleaved,matrix_transpose_tiled,reduce_warp_unrolled")
        .arg("--svg")
        .arg(&svg)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let total = &json["total"];
    let unsound: Vec<String> = json["kernels"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|k| {
            let name = k["kernel"].as_str().unwrap_or_default().to_string();
            k["mutants"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|m| m["unsound"] == true)
                .map(move |m| format!("{name}: {} {}", m["what"], m["dynamic"]))
        })
        .collect();
    assert_eq!(total["unsound"], 0, "unsound mutants: {unsound:#?}");
    assert_eq!(out.status.code(), Some(0), "exit 0 without unsound mutants");

    let kernels = json["kernels"].as_array().expect("kernels");
    assert_eq!(kernels.len(), 4, "one entry per kernel asked for");
    let mut judged = 0;
    for k in kernels {
        // An original that does not verify (yet) is left out with the reason, never judged.
        if let Some(why) = k["skipped"].as_str() {
            assert!(why.starts_with("does not verify"), "{}: {why}", k["kernel"]);
            continue;
        }
        judged += 1;
        let n = k["counts"]["mutants"].as_u64().expect("a count");
        assert!(
            (1..=3).contains(&n),
            "{}: {n} mutants with --limit 3",
            k["kernel"]
        );
        assert_eq!(
            k["launches"].as_array().map(Vec::len),
            Some(2),
            "--configs 2"
        );
    }
    for simple in ["saxpy", "reduce_interleaved"] {
        let k = kernels
            .iter()
            .find(|k| k["kernel"] == simple)
            .expect(simple);
        assert!(
            k["skipped"].is_null(),
            "{simple} was skipped: {}",
            k["skipped"]
        );
    }
    assert!(judged >= 2);
    let killed_static = total["killed_static"].as_u64().expect("a count");
    let killed_dynamic = total["killed_dynamic"].as_u64().expect("a count");
    assert!(killed_static > 0, "verify killed no mutant: {total}");
    assert!(
        killed_dynamic > 0,
        "the interpreter killed no mutant: {total}"
    );
    // Every kernel with a barrier has its barrier dropped first under a limit, and dropping
    // the barrier between a shared store and its neighbour's load is a race both see.
    let reduce = kernels
        .iter()
        .find(|k| k["kernel"] == "reduce_interleaved")
        .expect("reduce_interleaved");
    let dropped = &reduce["mutants"][0];
    assert_eq!(dropped["kind"], "drop-barrier");
    assert_eq!(dropped["verdict"], "violated");
    assert_eq!(dropped["dynamic"][0]["category"], "race");

    let chart = std::fs::read_to_string(&svg).expect("the SVG was written");
    let _ = std::fs::remove_file(&svg);
    assert!(chart.starts_with("<svg") && chart.contains("reduce_interleaved"));
}

#[test]
fn an_unknown_kernel_name_is_a_usage_error() {
    let out = warpsafe()
        .args(["bench", "mutate", "--only", "no_such_kernel"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no_such_kernel") || err.contains("z3"),
        "names the kernel (or the missing solver): {err}"
    );
}

#[test]
fn the_human_table_has_a_total_row_and_says_what_is_unsound() {
    if z3_missing() {
        eprintln!("z3 not installed; skipping");
        return;
    }
    let out = warpsafe()
        .args([
            "bench",
            "mutate",
            "--only",
            "saxpy",
            "--limit",
            "2",
            "--configs",
            "1",
        ])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("TOTAL"), "{text}");
    assert!(text.contains("unsound (dynamic finding, every property verified): none"));
    assert!(text.contains("peak memory"), "{text}");
}
