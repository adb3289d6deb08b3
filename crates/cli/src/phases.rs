//! `-v` lines for the symbolic commands (equiv, prove, validate), told from their reports:
//! the equivalence checker runs as one call, so its phases are said when it returns.

use crate::progress::say;
use warpsafe_equiv::{Counterexample, EquivReport, KernelRun, OutputSummary, SpecReport};

/// One kernel's symbolic run.
fn run(side: &str, r: &KernelRun) {
    say(|| {
        format!(
            "symbolic run of the {side} `{}`: {} block(s), {} thread instructions, {} barriers, {} terms, {} finding(s)",
            r.name,
            r.stats.blocks,
            r.stats.thread_instructions,
            r.stats.barriers,
            r.stats.terms,
            r.findings.len()
        )
    });
}

/// Every output's comparison.
fn outputs(outputs: &[OutputSummary]) {
    for s in outputs {
        say(|| {
            format!(
                "compare output {}: {} of {} elements compared, {} equal, {} different, {} unknown",
                s.name, s.compared, s.elements, s.equal, s.different, s.unknown
            )
        });
    }
}

/// The counterexample's replay in the interpreter, when there is one.
fn replay(cx: &Option<Counterexample>) {
    let Some(cx) = cx else { return };
    say(|| match &cx.replay {
        Some(r) => format!(
            "replay of {}[{}] in the interpreter (seed {}): expected {}, got {}",
            cx.buffer, cx.index, r.seed, r.expected, r.actual
        ),
        None => format!(
            "{}[{}] differs symbolically; no replay in the interpreter",
            cx.buffer, cx.index
        ),
    });
}

/// `equiv` and `validate`: both runs, the comparison and the replay, then the phase times.
pub fn equiv(report: &EquivReport, reference: &str, optimized: &str) {
    run(reference, &report.reference);
    run(optimized, &report.optimized);
    outputs(&report.outputs);
    replay(&report.counterexample);
    let p = &report.phases;
    say(|| {
        format!(
            "{} ({:.3} s: run {:.3} s, identity test {:.3} s, import {:.3} s, compare {:.3} s)",
            report.verdict, report.seconds, p.run, p.identity, p.import, p.compare
        )
    });
}

/// `prove` for one configuration: the kernel's run, the comparison with the spec, the replay.
pub fn prove(report: &SpecReport) {
    run("kernel", &report.kernel);
    outputs(&report.outputs);
    replay(&report.counterexample);
    say(|| format!("{} ({:.3} s)", report.verdict, report.seconds));
}

/// `prove`'s all-sizes attempt: each obligation and how it went.
pub fn all_sizes(o: &warpsafe_functional::Outcome) {
    for ob in &o.obligations {
        say(|| {
            format!(
                "all sizes: {} obligation {} by {}: {}",
                ob.kind, ob.verdict, ob.method, ob.what
            )
        });
    }
    say(|| {
        format!(
            "all sizes: {} ({} obligations, {:.3} s)",
            o.verdict,
            o.obligations.len(),
            o.seconds
        )
    });
}

/// `bench equiv`: each pair's row (the runs happen inside one call, so they are said after).
pub fn bench_equiv_rows(rows: &[warpsafe_equiv::BenchRow]) {
    for r in rows {
        say(|| {
            format!(
                "row {}: {} (expected {}, {:.3} s)",
                r.pair, r.verdict, r.expect, r.seconds
            )
        });
    }
}
