//! A page from `verify`'s reports: the same `Report` values the JSON output serialises.

use super::model::{action_of, race_kinds, CodeMap, FindingView, Section, Side, Tone, VerdictRow};
use warpsafe_ir::{Category, Kernel, SourceFile};
use warpsafe_verify::{Counterexample, Report, Verdict};

/// The section of one kernel's report; `kernel` (when the road has one) places its barriers.
pub fn section<'a>(file: &'a SourceFile, kernel: Option<&Kernel>, r: &Report) -> Section<'a> {
    let mut verdicts = vec![];
    let mut findings = vec![];
    for p in &r.results {
        let property = p.property.name().to_string();
        let word = crate::verify_cmd::verdict_word(&p.verdict);
        let cost = format!("{:.3} s, {} queries", p.seconds.max(0.0), p.queries);
        let (tone, detail, line) = match &p.verdict {
            Verdict::Verified => (Tone::Good, cost, 0),
            Verdict::Violated(cx) => {
                findings.push(finding(file, &property, "violated", Tone::Bad, cx, None));
                (Tone::Bad, cx.message.clone(), 0)
            }
            Verdict::Possible {
                counterexample: cx,
                why,
            } => {
                findings.push(finding(
                    file,
                    &property,
                    "possible (unconfirmed)",
                    Tone::Maybe,
                    cx,
                    Some(why),
                ));
                (
                    Tone::Maybe,
                    format!("{} (unconfirmed: {why})", cx.message),
                    0,
                )
            }
            Verdict::Unknown { reason, span } => (
                Tone::Unknown,
                reason.clone(),
                span.map_or(0, |s| file.line(s)),
            ),
        };
        if let Some(f) = findings
            .last_mut()
            .filter(|_| tone != Tone::Good && tone != Tone::Unknown)
        {
            f.notes.extend(p.assumptions.iter().cloned());
        }
        verdicts.push(VerdictRow {
            property,
            tone,
            word,
            detail,
            line,
        });
    }
    Section {
        file,
        kernel: r.kernel.clone(),
        summary: format!(
            "parametric verification: {:.3} s, {} SMT queries",
            r.seconds, r.queries
        ),
        assumptions: r.assumptions.clone(),
        verdicts,
        findings,
        code: CodeMap::of(file, kernel),
    }
}

/// One side per operation (`spans[i]`, done by `threads[i]`).
fn sides(file: &SourceFile, cx: &Counterexample) -> Vec<Side> {
    let kinds = (cx.category == Category::Race)
        .then(|| race_kinds(&cx.message))
        .flatten();
    let n = cx.spans.len().max(cx.threads.len());
    (0..n)
        .map(|i| {
            let (line, column) = match cx.spans.get(i) {
                Some(s) if !s.is_dummy() && !file.text.is_empty() => file.line_col(s.lo),
                _ => (0, 0),
            };
            let action = match (&kinds, i) {
                (Some((a, _)), 0) => a.clone(),
                (Some((_, b)), 1) => b.clone(),
                // A divergence names the operation once: the other thread does not reach it.
                _ if cx.category == Category::Divergence && line == 0 && i > 0 => {
                    "does not reach it".to_string()
                }
                _ => action_of(cx.category).to_string(),
            };
            Side {
                thread: cx.threads.get(i).copied(),
                action,
                line,
                column,
            }
        })
        .collect()
}

fn finding(
    file: &SourceFile,
    property: &str,
    how: &str,
    tone: Tone,
    cx: &Counterexample,
    why: Option<&String>,
) -> FindingView {
    let mut values: Vec<(String, String)> = cx
        .params
        .iter()
        .map(|(n, v)| (n.clone(), v.to_string()))
        .collect();
    values.extend(
        cx.buffer_lens
            .iter()
            .map(|(n, l)| (format!("len({n})"), l.to_string())),
    );
    if let Some((m, i)) = &cx.address {
        values.push(("cell".into(), format!("{m}[{i}]")));
    }
    let mut notes = vec![];
    if let Some(w) = why {
        notes.push(format!("unconfirmed: {w}"));
    }
    if cx.exact {
        notes.push("exact: the model is an execution of the kernel".into());
    }
    if let Some(rp) = &cx.replay {
        let word = if rp.reproduced {
            "reproduced"
        } else {
            "NOT reproduced"
        };
        notes.push(if rp.note.is_empty() {
            format!("replay in the interpreter: {word}")
        } else {
            format!("replay in the interpreter: {word} ({})", rp.note)
        });
    }
    FindingView {
        heading: format!("{property}: {how} [{}]", cx.category),
        tone,
        message: cx.message.clone(),
        sides: sides(file, cx),
        launch: Some((cx.grid_dim, cx.block_dim)),
        values,
        notes,
    }
}
