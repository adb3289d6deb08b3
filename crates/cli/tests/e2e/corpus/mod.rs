//! Expectation files shared by the corpus tests: `.cu` files state what `warpsafe verify`
//! must answer in comment lines:
//!
//! ```text
//! // verify: race=violated bounds=verified exit=1        (every kernel of the file)
//! // verify[name]: assert=unknown                          (one kernel)
//! // verify-args: --block any --grid any                   (extra flags)
//! ```
//!
//! Verdict words are the JSON verdict kinds: `verified`, `violated`, `possible`, `unknown`.

use std::path::Path;
use std::process::Command;

/// What one file expects.
#[derive(Default)]
pub struct Expect {
    pub args: Vec<String>,
    pub exit: Option<i32>,
    /// (kernel or `None` for all, property, verdict)
    pub verdicts: Vec<(Option<String>, String, String)>,
}

pub fn expectations(text: &str) -> Expect {
    let mut e = Expect::default();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("// verify") else {
            continue;
        };
        if let Some(args) = rest.strip_prefix("-args:") {
            e.args.extend(args.split_whitespace().map(String::from));
            continue;
        }
        let (kernel, items) = match rest.strip_prefix('[') {
            Some(r) => {
                let (name, items) = r.split_once("]:").expect("verify[name]: …");
                (Some(name.to_string()), items)
            }
            None => (None, rest.strip_prefix(':').expect("verify: …")),
        };
        for item in items.split_whitespace() {
            let (k, v) = item.split_once('=').expect("key=value");
            if k == "exit" {
                e.exit = Some(v.parse().expect("exit code"));
            } else {
                e.verdicts
                    .push((kernel.clone(), k.to_string(), v.to_string()));
            }
        }
    }
    e
}

/// The verdict kind of a JSON property result (`"verified"` or `{"violated": …}`).
fn kind(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other
            .as_object()
            .and_then(|o| o.keys().next().cloned())
            .unwrap_or_default(),
    }
}

pub fn check(file: &Path, extra: &[&str]) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let e = expectations(&text);
    if e.exit.is_none() && e.verdicts.is_empty() {
        return Err("no `// verify:` expectation".into());
    }
    let out = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .arg("verify")
        .arg(file)
        .args(["--format", "json"])
        .args(&e.args)
        .args(extra)
        .output()
        .map_err(|e| e.to_string())?;
    let code = out.status.code().unwrap_or(-1);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|err| {
        format!(
            "exit {code}, not JSON ({err}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    let mut problems = vec![];
    if let Some(want) = e.exit {
        if code != want {
            problems.push(format!("exit {code}, expected {want}"));
        }
    }
    let kernels = json["kernels"].as_array().cloned().unwrap_or_default();
    for (kernel, property, want) in &e.verdicts {
        let mut seen = false;
        for k in &kernels {
            let name = k["kernel"].as_str().unwrap_or_default();
            if kernel.as_deref().is_some_and(|n| n != name) {
                continue;
            }
            let results = k["results"].as_array().cloned().unwrap_or_default();
            let Some(r) = results.iter().find(|r| r["property"] == property.as_str()) else {
                problems.push(format!("{name}: no `{property}` result"));
                continue;
            };
            seen = true;
            let got = kind(&r["verdict"]);
            // `!kind`: anything but that verdict (a soundness floor where precision varies).
            let ok = match want.strip_prefix('!') {
                Some(not) => got != not,
                None => &got == want,
            };
            if !ok {
                let why = r["verdict"][got.as_str()]["reason"]
                    .as_str()
                    .map(|w| format!(" ({w})"))
                    .unwrap_or_default();
                problems.push(format!("{name}: {property} is {got}{why}, expected {want}"));
            }
        }
        if !seen {
            problems.push(format!("no kernel answered `{property}` ({kernel:?})"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}
