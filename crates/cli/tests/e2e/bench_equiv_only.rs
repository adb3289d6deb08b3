//! `bench equiv --only TEXT` runs the pairs whose family or file contains the text (the whole
//! benchmark takes many minutes); every row gets its expected verdict; a text no pair has is
//! a usage error.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn only_runs_the_named_pairs_and_each_gets_its_verdict() {
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["bench", "equiv", "--only", "attention_flash_upstream"])
        .args(["--repeat", "1", "--format", "json"])
        .current_dir(root())
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let rows: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let rows = rows.as_array().expect("rows");
    assert_eq!(rows.len(), 2, "{rows:#?}");
    for r in rows {
        assert_eq!(r["verdict"], r["expect"], "{r:#}");
    }
    let verdicts: Vec<&str> = rows.iter().filter_map(|r| r["verdict"].as_str()).collect();
    assert_eq!(verdicts, ["equal", "race"]);
}

#[test]
fn a_text_no_pair_has_is_a_usage_error() {
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["bench", "equiv", "--only", "nosuch", "--repeat", "1"])
        .current_dir(root())
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("nosuch"));
}
