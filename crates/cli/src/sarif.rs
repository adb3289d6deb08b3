//! SARIF 2.1.0 output of reports (`verify`, `run`, `equiv`, `prove`, `validate`), for
//! code-scanning annotations in CI.

use serde_json::{json, Value};
use warpsafe_ir::{SourceFile, Span};
use warpsafe_verify::{Counterexample, Report, Verdict};

fn location(file: &SourceFile, span: Span) -> Option<Value> {
    if span.is_dummy() || file.text.is_empty() {
        return None;
    }
    let (sl, sc) = file.line_col(span.lo);
    let (el, ec) = file.line_col(span.hi);
    Some(json!({
        "physicalLocation": {
            "artifactLocation": { "uri": file.name },
            "region": { "startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec }
        }
    }))
}

/// A finding's result: the first span is its location, the others related ones.
fn finding(file: &SourceFile, cx: &Counterexample, level: &str, text: String) -> Value {
    let mut locs: Vec<Value> = cx.spans.iter().filter_map(|s| location(file, *s)).collect();
    let primary: Vec<Value> = locs.drain(..locs.len().min(1)).collect();
    json!({
        "ruleId": cx.category.name(),
        "level": level,
        "message": { "text": text },
        "locations": primary,
        "relatedLocations": locs,
    })
}

/// Renders reports whose spans point into different texts (the PTX of each kernel): one
/// run per report, located in its own text.
pub fn render_each(reports: &[(&SourceFile, &Report)]) -> String {
    let runs: Vec<Value> = reports.iter().map(|(f, r)| run(f, r)).collect();
    let log = json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": runs,
    });
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

fn run(file: &SourceFile, r: &Report) -> Value {
    let mut results = vec![];
    for p in &r.results {
        match &p.verdict {
            Verdict::Verified => {}
            Verdict::Violated(cx) => {
                let text = format!("{} (kernel `{}`)", cx.message, r.kernel);
                results.push(finding(file, cx, "error", text));
            }
            Verdict::Possible {
                counterexample,
                why,
            } => {
                let text = format!(
                    "possible {} (kernel `{}`, unconfirmed: {why})",
                    counterexample.message, r.kernel
                );
                results.push(finding(file, counterexample, "warning", text));
            }
            Verdict::Unknown { reason, span } => {
                let locs: Vec<Value> = span.and_then(|s| location(file, s)).into_iter().collect();
                results.push(json!({
                    "ruleId": p.property.name(),
                    "level": "note",
                    "message": { "text": format!("{} could not be decided for kernel `{}`: {reason}", p.property.name(), r.kernel) },
                    "locations": locs,
                }));
            }
        }
    }
    tool_run(rules(), &format!("warpsafe/verify/{}", r.kernel), results)
}

/// The SARIF log of one interpreter run: one result per finding (errors and warnings), at
/// the later access or event, with the other party's site as a related location.
pub fn render_run(file: &SourceFile, kernel: &str, findings: &[warpsafe_exec::Finding]) -> String {
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            let level = match f.severity {
                warpsafe_exec::Severity::Error => "error",
                warpsafe_exec::Severity::Warning => "warning",
            };
            let related: Vec<Value> = f
                .other
                .iter()
                .filter_map(|o| location(file, o.span))
                .collect();
            json!({
                "ruleId": f.category.name(),
                "level": level,
                "message": { "text": format!("{} (kernel `{kernel}`, {} occurrence(s))", f.message, f.count) },
                "locations": location(file, f.at.span).into_iter().collect::<Vec<_>>(),
                "relatedLocations": related,
            })
        })
        .collect();
    let run = tool_run(rules(), &format!("warpsafe/run/{kernel}"), results);
    let log = json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [run],
    });
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

/// The SARIF log of one symbolic check (`equiv`, `prove`, `validate`): one run whose id is
/// `warpsafe/COMMAND/KERNEL`, holding `results` (built by the functions below).
pub fn render_check(command: &str, kernel: &str, results: Vec<Value>) -> String {
    let run = tool_run(rules(), &format!("warpsafe/{command}/{kernel}"), results);
    let log = json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [run],
    });
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

/// One result per finding of a symbolic run (`side` names the run: `reference`, `IR`, …),
/// located at its source line, the other party's site related.
pub fn sym_findings(file: &SourceFile, side: &str, run: &warpsafe_equiv::KernelRun) -> Vec<Value> {
    run.findings
        .iter()
        .map(|f| {
            let level = if f.issue.is_error() {
                "error"
            } else if f.issue.is_incomplete() {
                "note"
            } else {
                "warning"
            };
            let related: Vec<Value> = f
                .other
                .iter()
                .filter_map(|o| location(file, o.span))
                .collect();
            json!({
                "ruleId": f.kind,
                "level": level,
                "message": { "text": format!("{} ({side} `{}`)", f.message, run.name) },
                "locations": location(file, f.at.span).into_iter().collect::<Vec<_>>(),
                "relatedLocations": related,
            })
        })
        .collect()
}

/// The result of a difference between two sides (or a kernel and its spec), located at the
/// file of the side that computed the wrong value (no line: outputs have none).
pub fn difference(file: &SourceFile, cx: &warpsafe_equiv::Counterexample) -> Value {
    let (expected, actual) = match &cx.replay {
        Some(r) => (r.expected.to_string(), r.actual.to_string()),
        None => (cx.expected.clone(), cx.actual.clone()),
    };
    json!({
        "ruleId": "different",
        "level": "error",
        "message": { "text": format!(
            "{}[{}]: expected {expected} but got {actual} (expected term {}, actual term {})",
            cx.buffer, cx.index, cx.expected_term, cx.actual_term
        ) },
        "locations": [file_only(file)],
    })
}

/// A result for a check that could not be decided (or a claim weaker than asked), at the
/// file and, when known, the construct `span` points at.
pub fn undecided(file: &SourceFile, rule: &str, text: String, span: Option<Span>) -> Value {
    let at = span
        .and_then(|s| location(file, s))
        .unwrap_or_else(|| file_only(file));
    json!({
        "ruleId": rule,
        "level": "note",
        "message": { "text": text },
        "locations": [at],
    })
}

/// A refutation at a place in `file` (when known) with its explanation.
pub fn refuted(file: &SourceFile, text: String, span: Option<Span>) -> Value {
    let at = span
        .and_then(|s| location(file, s))
        .unwrap_or_else(|| file_only(file));
    json!({
        "ruleId": "refuted",
        "level": "error",
        "message": { "text": text },
        "locations": [at],
    })
}

fn file_only(file: &SourceFile) -> Value {
    json!({ "physicalLocation": { "artifactLocation": { "uri": file.name } } })
}

/// The rules every warpsafe SARIF run declares.
fn rules() -> Vec<Value> {
    [
        ("race", "Data race"),
        ("divergence", "Barrier divergence"),
        ("oob", "Out-of-bounds access"),
        ("overflow", "Signed integer overflow"),
        ("div-by-zero", "Integer division by zero"),
        ("uninit", "Read of uninitialised shared or local memory"),
        ("assert", "Failed assertion"),
        ("bounds", "In-bounds access not decided"),
        (
            "different",
            "Outputs differ (equiv, validate) or miss the spec (prove)",
        ),
        ("refuted", "A proof obligation refuted"),
        ("unknown", "Could not be decided"),
        (
            "not-every-size",
            "Proved for one configuration only, not for every size",
        ),
        (
            "not-structured",
            "A branch or address depends on input data",
        ),
        (
            "unsupported",
            "An operation the symbolic model does not cover",
        ),
        ("step-limit", "The instruction budget ran out"),
        ("budget", "The memory or time budget ran out"),
    ]
    .iter()
    .map(|(id, text)| json!({ "id": id, "shortDescription": { "text": text } }))
    .collect()
}

/// One SARIF run of the warpsafe tool.
fn tool_run(rules: Vec<Value>, id: &str, results: Vec<Value>) -> Value {
    json!({
        "tool": { "driver": {
            "name": "warpsafe",
            "version": env!("CARGO_PKG_VERSION"),
            "rules": rules,
        }},
        "automationDetails": { "id": id },
        "results": results,
    })
}
