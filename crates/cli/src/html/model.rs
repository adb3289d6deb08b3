//! What a page shows, independent of the command that produced it: per kernel, the verdicts,
//! the findings with their sides and values, and where the barriers are in the source.

use std::collections::BTreeSet;
use warpsafe_ir::{Kernel, SourceFile, StmtKind};

/// A whole page: a title and one section per kernel.
pub struct Page<'a> {
    /// Shown in the browser's tab and as the heading.
    pub title: String,
    /// One line under the heading (the command, the road).
    pub subtitle: String,
    /// One per kernel reported.
    pub sections: Vec<Section<'a>>,
}

/// How a verdict or finding reads at a glance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Verified, or nothing found.
    Good,
    /// Violated, or an error finding.
    Bad,
    /// Possible (an unconfirmed counterexample) or a warning.
    Maybe,
    /// Neither proved nor refuted.
    Unknown,
}

impl Tone {
    /// The CSS class of the tone.
    pub fn class(self) -> &'static str {
        match self {
            Tone::Good => "good",
            Tone::Bad => "bad",
            Tone::Maybe => "maybe",
            Tone::Unknown => "unknown",
        }
    }
}

/// One row of the verdict table.
pub struct VerdictRow {
    /// Property or category name.
    pub property: String,
    /// Its tone.
    pub tone: Tone,
    /// The verdict in a word or two.
    pub word: String,
    /// Reason, message or cost.
    pub detail: String,
    /// The line the verdict points at (an `unknown`'s construct), 0 when none.
    pub line: usize,
}

/// One party of a finding: a thread (when known) and the operation it performs at a line.
pub struct Side {
    /// (`blockIdx`, `threadIdx`) of the thread, when the report names it.
    pub thread: Option<([u32; 3], [u32; 3])>,
    /// What it does there: `write`, `read`, `out-of-bounds access`, …
    pub action: String,
    /// 1-based line, 0 when unknown.
    pub line: usize,
    /// 1-based column, 0 when unknown.
    pub column: usize,
}

/// A finding (a violated or possible property, or an interpreter finding).
pub struct FindingView {
    /// Property or category, and how sure (`race: violated`).
    pub heading: String,
    /// Its tone.
    pub tone: Tone,
    /// The report's sentence.
    pub message: String,
    /// The threads and operations involved, side A first.
    pub sides: Vec<Side>,
    /// (`gridDim`, `blockDim`) of the launch.
    pub launch: Option<([u32; 3], [u32; 3])>,
    /// Argument values, buffer lengths and the memory cells involved, as (name, value).
    pub values: Vec<(String, String)>,
    /// Further sentences (replay outcome, exactness, assumptions).
    pub notes: Vec<String>,
}

/// One kernel's report.
pub struct Section<'a> {
    /// The text the lines point into.
    pub file: &'a SourceFile,
    /// The kernel's name.
    pub kernel: String,
    /// Cost and launch in one line.
    pub summary: String,
    /// Sentences every verdict of the section assumes.
    pub assumptions: Vec<String>,
    /// The verdict table.
    pub verdicts: Vec<VerdictRow>,
    /// The findings, each drawn over the source.
    pub findings: Vec<FindingView>,
    /// Barriers and statements of the kernel.
    pub code: CodeMap,
}

/// Where a kernel lies in its file, its barrier lines and the lines holding statements.
#[derive(Default)]
pub struct CodeMap {
    /// First line of the kernel's definition (0 when unknown).
    pub first: usize,
    /// Last line of the kernel's definition (0 when unknown).
    pub last: usize,
    /// Lines holding a block- or grid-wide barrier: barrier interval boundaries.
    pub barriers: BTreeSet<usize>,
    /// Lines where a statement starts (the lines a thread can execute).
    pub stmts: BTreeSet<usize>,
}

/// The barrier interval around an access line: the lines strictly between the barriers (or
/// the kernel's ends) around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    /// The barrier line before the access, or `None` from the kernel's start.
    pub after: Option<usize>,
    /// The barrier line after the access, or `None` to the kernel's end.
    pub before: Option<usize>,
}

impl CodeMap {
    /// The map of `kernel` in `file`; an empty one without a kernel.
    pub fn of(file: &SourceFile, kernel: Option<&Kernel>) -> CodeMap {
        let Some(k) = kernel else {
            return CodeMap::default();
        };
        let mut map = CodeMap::default();
        if !k.span.is_dummy() && !file.text.is_empty() {
            map.first = file.line(k.span);
            map.last = file.line_col(k.span.hi.saturating_sub(1).max(k.span.lo)).0;
        }
        for s in &k.body {
            s.walk(&mut |st| {
                if st.span.is_dummy() || file.text.is_empty() {
                    return;
                }
                let line = file.line(st.span);
                map.stmts.insert(line);
                if matches!(
                    st.kind,
                    StmtKind::SyncThreads | StmtKind::SyncThreadsVote { .. } | StmtKind::SyncGrid
                ) {
                    map.barriers.insert(line);
                }
            });
        }
        map
    }

    /// The barrier interval holding `line`, within the kernel's lines. Textual: a loop's
    /// interval can also run from its last barrier round to the loop's head.
    pub fn interval(&self, line: usize) -> Interval {
        let inside = |b: &&usize| self.first == 0 || (self.first..=self.last).contains(*b);
        Interval {
            after: self.barriers.range(..line).rev().find(inside).copied(),
            before: self
                .barriers
                .range(line.saturating_add(1)..)
                .find(inside)
                .copied(),
        }
    }

    /// The statement lines of the interval around `line` (`line` itself included).
    pub fn interval_lines(&self, line: usize) -> BTreeSet<usize> {
        let mut out = BTreeSet::from([line]);
        if line == 0 || self.barriers.contains(&line) {
            return out;
        }
        if self.first != 0 && !(self.first..=self.last).contains(&line) {
            return out;
        }
        let iv = self.interval(line);
        let lo = iv.after.map_or(self.first, |b| b + 1);
        let hi = iv.before.map_or(self.last, |b| b.saturating_sub(1));
        out.extend(self.stmts.range(lo..=hi.max(lo)).copied());
        out
    }
}

/// The thread-facing name of what a finding's site does, for categories other than races.
pub fn action_of(category: warpsafe_ir::Category) -> &'static str {
    use warpsafe_ir::Category::*;
    match category {
        Race => "access",
        Divergence => "reaches this barrier or warp collective",
        Oob => "out-of-bounds access",
        Uninit => "read of uninitialised memory",
        DivByZero => "division by zero",
        Overflow => "overflowing operation",
        Assert => "failing assertion",
    }
}

/// The two access kinds of a race from the report's sentence, in its order: the
/// interpreter's `write-read race on …` or the verifier's ``data race on `s`: read and write``;
/// `None` when the sentence does not name them.
pub fn race_kinds(message: &str) -> Option<(String, String)> {
    let known = |w: &str| matches!(w, "read" | "write" | "atomic");
    let pair = |a: &str, b: &str| (known(a) && known(b)).then(|| (a.to_string(), b.to_string()));
    if let Some((a, b)) = message
        .split_whitespace()
        .next()
        .and_then(|w| w.split_once('-'))
    {
        if let Some(p) = pair(a, b) {
            return Some(p);
        }
    }
    let rest = message.split_once("`: ")?.1;
    let mut words = rest.split_whitespace();
    let (a, and, b) = (words.next()?, words.next()?, words.next()?);
    if and == "and" {
        pair(a, b)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(barriers: &[usize], stmts: &[usize]) -> CodeMap {
        CodeMap {
            first: 10,
            last: 30,
            barriers: barriers.iter().copied().collect(),
            stmts: stmts.iter().copied().collect(),
        }
    }

    #[test]
    fn interval_is_between_the_barriers_around_the_line() {
        let m = map(&[15, 22], &[11, 12, 15, 17, 18, 20, 22, 25]);
        assert_eq!(
            m.interval(18),
            Interval {
                after: Some(15),
                before: Some(22)
            }
        );
        let lines: Vec<usize> = m.interval_lines(18).into_iter().collect();
        assert_eq!(lines, vec![17, 18, 20]);
        let head: Vec<usize> = m.interval_lines(12).into_iter().collect();
        assert_eq!(head, vec![11, 12]);
        let tail: Vec<usize> = m.interval_lines(25).into_iter().collect();
        assert_eq!(tail, vec![25]);
        assert_eq!(
            m.interval_lines(22).into_iter().collect::<Vec<_>>(),
            vec![22]
        );
    }

    #[test]
    fn race_kinds_from_both_sentences() {
        assert_eq!(
            race_kinds("data race on `s`: read and write (block (0,0,0) thread (1,0,0))"),
            Some(("read".into(), "write".into()))
        );
        assert_eq!(
            race_kinds("write-read race on shared `s` [index 2] between …"),
            Some(("write".into(), "read".into()))
        );
        assert_eq!(race_kinds("out-of-bounds read of global `x`"), None);
        assert_eq!(race_kinds("data race on `s`: something else"), None);
    }
}
