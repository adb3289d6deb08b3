//! A page from `run`'s report: the interpreter's findings as `report::finding` resolves them
//! for JSON, the launch and the argument values.

use super::model::{action_of, race_kinds, CodeMap, FindingView, Section, Side, Tone, VerdictRow};
use crate::report::{FindingJson, SiteJson};
use warpsafe_exec::{Arg, LaunchConfig, Outcome};
use warpsafe_ir::{Category, Kernel, SourceFile};

/// What one run saw.
pub struct RunView<'r> {
    /// The launch that ran.
    pub config: &'r LaunchConfig,
    /// The arguments before the run (one per parameter).
    pub before: &'r [Arg],
    /// The interpreter's outcome (arguments after the run, findings, statistics).
    pub outcome: &'r Outcome,
    /// The findings as the JSON report writes them.
    pub findings: &'r [FindingJson<'r>],
    /// The first output difference over random schedules, when `--schedules` ran.
    pub schedules: Option<&'r crate::schedules::ScheduleCheck>,
}

/// The section of one run of `kernel`.
pub fn section<'a>(file: &'a SourceFile, kernel: &Kernel, run: &RunView) -> Section<'a> {
    let mut verdicts = vec![];
    for c in Category::ALL {
        let of: Vec<&FindingJson> = run.findings.iter().filter(|f| f.category == c).collect();
        let errors = of.iter().filter(|f| f.severity == "error").count();
        let (tone, word) = if errors > 0 {
            (Tone::Bad, format!("found ({errors})"))
        } else if !of.is_empty() {
            (Tone::Maybe, format!("warning ({})", of.len()))
        } else {
            (Tone::Good, "not seen in this run".into())
        };
        verdicts.push(VerdictRow {
            property: c.name().into(),
            tone,
            word,
            detail: of
                .first()
                .map(|f| f.message.to_string())
                .unwrap_or_default(),
            line: 0,
        });
    }
    if let Some(s) = run.schedules {
        verdicts.push(VerdictRow {
            property: "schedules".into(),
            tone: if s.difference.is_some() {
                Tone::Bad
            } else {
                Tone::Good
            },
            word: if s.difference.is_some() {
                "outputs differ".into()
            } else {
                "outputs identical".into()
            },
            detail: s.difference.clone().unwrap_or_else(|| {
                format!("{} random schedule(s) against the default one", s.schedules)
            }),
            line: 0,
        });
    }
    let st = &run.outcome.stats;
    Section {
        file,
        kernel: kernel.name.clone(),
        summary: format!(
            "interpreter run: grid {:?} x block {:?} ({} threads), {} thread-instructions in {:.3} s",
            run.config.grid, run.config.block, st.threads, st.thread_instructions, st.seconds
        ),
        assumptions: vec![],
        verdicts,
        findings: run
            .findings
            .iter()
            .map(|f| finding(kernel, run, f))
            .collect(),
        code: CodeMap::of(file, Some(kernel)),
    }
}

fn side(s: &SiteJson, action: String) -> Side {
    Side {
        thread: Some((s.block, s.thread)),
        action,
        line: s.line,
        column: s.column,
    }
}

/// Side A is the earlier party (`other`) when there is one, side B the finding's own site.
fn finding(kernel: &Kernel, run: &RunView, f: &FindingJson) -> FindingView {
    let kinds = (f.category == Category::Race)
        .then(|| race_kinds(f.message))
        .flatten();
    let plain = action_of(f.category).to_string();
    let sides = match &f.other {
        // The interpreter reports a divergence where one thread waits (`at`) and where the
        // other stands instead: at another barrier, or where it returned.
        Some(o) if f.category == Category::Divergence => vec![
            side(o, "is here instead (waiting elsewhere, or returned)".into()),
            side(&f.at, "waits here".into()),
        ],
        Some(o) => {
            let (a, b) = kinds.unwrap_or((plain.clone(), plain));
            vec![side(o, a), side(&f.at, b)]
        }
        None => vec![side(&f.at, plain)],
    };
    let mut values = vec![];
    for (p, a) in kernel.params.iter().zip(run.before) {
        match a {
            Arg::Scalar(v) => values.push((p.name.clone(), v.to_string())),
            Arg::Buffer(b) => values.push((format!("len({})", p.name), b.len().to_string())),
        }
    }
    if let Some(loc) = f.location {
        let cell = format!("{}[{}]", loc.memory, loc.index);
        let buffer = |args: &[Arg]| -> Option<String> {
            let i = kernel.param_named(&loc.memory)?.0 as usize;
            let Some(Arg::Buffer(b)) = args.get(i) else {
                return None;
            };
            let j = usize::try_from(loc.index).ok().filter(|j| *j < b.len())?;
            Some(b.get(j).to_string())
        };
        match (buffer(run.before), buffer(&run.outcome.args)) {
            (Some(x), Some(y)) => values.push((cell, format!("{x} before the run, {y} after"))),
            _ => values.push(("cell".into(), cell)),
        }
    }
    let mut notes = vec![];
    if f.count > 1 {
        notes.push(format!(
            "seen {} times at the same pair of sites; the first is shown",
            f.count
        ));
    }
    FindingView {
        heading: format!("{}: {}", f.category, f.severity),
        tone: if f.severity == "error" {
            Tone::Bad
        } else {
            Tone::Maybe
        },
        message: f.message.to_string(),
        sides,
        launch: Some((run.config.grid, run.config.block)),
        values,
        notes,
    }
}

/// The section of a run that stopped before an outcome (the step limit): nothing is known.
pub fn stopped<'a>(
    file: &'a SourceFile,
    kernel: &Kernel,
    config: &LaunchConfig,
    reason: &str,
    detail: &str,
) -> Section<'a> {
    Section {
        file,
        kernel: kernel.name.clone(),
        summary: format!(
            "interpreter run: grid {:?} x block {:?}",
            config.grid, config.block
        ),
        assumptions: vec![],
        verdicts: vec![VerdictRow {
            property: "run".into(),
            tone: Tone::Unknown,
            word: "unknown".into(),
            detail: format!("{reason}: {detail}"),
            line: 0,
        }],
        findings: vec![],
        code: CodeMap::of(file, Some(kernel)),
    }
}
