//! SARIF 2.1.0 output of verification reports, for code-scanning annotations in CI.

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
