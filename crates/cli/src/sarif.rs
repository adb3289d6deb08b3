//! SARIF 2.1.0 output of reports (`verify`, `run`, `equiv`, `prove`, `validate`,
//! `check-perm`, `groebner`, `bench verify`, `bench suite`), for code-scanning annotations
//! in CI. The one place that writes SARIF: commands build results with the functions here.

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
    let runs: Vec<Value> = reports
        .iter()
        .map(|(f, r)| {
            let id = format!("warpsafe/verify/{}", r.kernel);
            tool_run(rules(), &id, report_results(f, r))
        })
        .collect();
    log(runs)
}

/// The SARIF 2.1.0 log holding `runs`, as pretty JSON.
fn log(runs: Vec<Value>) -> String {
    let log = json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": runs,
    });
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

/// One result per verdict of a `verify` report that is not verified: violated `error`,
/// possible `warning`, unknown `note`, located at the counterexample's (or construct's) line.
pub fn report_results(file: &SourceFile, r: &Report) -> Vec<Value> {
    r.results
        .iter()
        .filter_map(|p| verdict_result(file, &r.kernel, p.property.name(), &p.verdict))
        .collect()
}

/// The result of one property's verdict for `kernel`; `None` when it is verified.
pub fn verdict_result(
    file: &SourceFile,
    kernel: &str,
    property: &str,
    verdict: &Verdict,
) -> Option<Value> {
    match verdict {
        Verdict::Verified => None,
        Verdict::Violated(cx) => {
            let text = format!("{} (kernel `{kernel}`)", cx.message);
            Some(finding(file, cx, "error", text))
        }
        Verdict::Possible {
            counterexample,
            why,
        } => {
            let text = format!(
                "possible {} (kernel `{kernel}`, unconfirmed: {why})",
                counterexample.message
            );
            Some(finding(file, counterexample, "warning", text))
        }
        Verdict::Unknown { reason, span } => {
            let at = span
                .and_then(|s| location(file, s))
                .unwrap_or_else(|| file_only(file));
            Some(json!({
                "ruleId": property,
                "level": "note",
                "message": { "text": format!("{property} could not be decided for kernel `{kernel}`: {reason}") },
                "locations": [at],
            }))
        }
    }
}

/// The SARIF log of one interpreter run: one result per finding (errors and warnings), at
/// the later access or event, with the other party's site as a related location.
pub fn render_run(file: &SourceFile, kernel: &str, findings: &[warpsafe_exec::Finding]) -> String {
    let results = run_results(file, kernel, findings);
    let run = tool_run(rules(), &format!("warpsafe/run/{kernel}"), results);
    log(vec![run])
}

/// The results of one interpreter run of `kernel` (see [`render_run`]), for a log that
/// gathers several runs' results (`run` of several files).
pub fn run_results(
    file: &SourceFile,
    kernel: &str,
    findings: &[warpsafe_exec::Finding],
) -> Vec<Value> {
    findings
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
        .collect()
}

/// The SARIF log of one check (`equiv`, `prove`, `validate`, `check-perm`, `groebner`, a
/// bench, `run` of several files): one run whose id is `warpsafe/COMMAND/SUBJECT`, holding
/// `results` (built by the functions of this module).
pub fn render_check(command: &str, subject: &str, results: Vec<Value>) -> String {
    let run = tool_run(rules(), &format!("warpsafe/{command}/{subject}"), results);
    log(vec![run])
}

/// A result at line `line` of the file named `uri` (its whole file when `line` is 0), for
/// reports that know lines but hold no source text (`check-perm`, benches, `groebner`).
pub fn at_line(uri: &str, line: usize, rule: &str, level: &str, text: String) -> Value {
    let region = (line > 0).then(|| json!({ "startLine": line }));
    let mut physical = json!({ "artifactLocation": { "uri": uri } });
    if let (Some(r), Some(obj)) = (region, physical.as_object_mut()) {
        obj.insert("region".into(), r);
    }
    json!({
        "ruleId": rule,
        "level": level,
        "message": { "text": text },
        "locations": [{ "physicalLocation": physical }],
    })
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
        (
            "permission",
            "A permission-annotation obligation violated or not decided (check-perm)",
        ),
        (
            "not-a-basis",
            "groebner --check: the result is not a reduced Gröbner basis",
        ),
        (
            "unchecked",
            "groebner: a basis computed but not checked (--check checks it)",
        ),
        ("error", "The input could not be read or checked"),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_at_a_line_has_a_region_and_one_without_has_none() {
        let r = at_line("k.cu", 7, "permission", "error", "violated".into());
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "k.cu");
        assert_eq!(loc["region"]["startLine"], 7);
        assert_eq!(r["level"], "error");
        let whole = at_line("k.cu", 0, "unchecked", "note", "n".into());
        assert!(whole["locations"][0]["physicalLocation"]
            .get("region")
            .is_none());
    }

    #[test]
    fn every_rule_a_command_uses_is_declared() {
        let ids: Vec<Value> = rules().iter().map(|r| r["id"].clone()).collect();
        for id in [
            "permission",
            "not-a-basis",
            "unchecked",
            "error",
            "step-limit",
        ] {
            assert!(ids.contains(&Value::from(id)), "{id}");
        }
        let log: Value = serde_json::from_str(&render_check("run", "2 files", vec![]))
            .expect("a SARIF log is JSON");
        assert_eq!(log["version"], "2.1.0");
        assert_eq!(
            log["runs"][0]["automationDetails"]["id"],
            "warpsafe/run/2 files"
        );
        assert!(log["runs"][0]["results"]
            .as_array()
            .is_some_and(Vec::is_empty));
    }
}
