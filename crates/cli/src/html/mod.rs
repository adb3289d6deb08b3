//! `--html FILE`: a report as one self-contained page (inline style and script, nothing
//! fetched) over the kernel's source: every finding's sides highlighted on their lines, the
//! barrier intervals around them, the launch and values of the counterexample, and the verdict
//! per property. Built from the same report values as the JSON output.

mod from_run;
mod from_verify;
mod model;
mod render;
mod svg;

pub use from_run::{section as run_section, stopped as run_stopped, RunView};
pub use from_verify::section as verify_section;
pub use model::{Page, Section};
pub use svg::{bar_chart, bar_chart_in};

use crate::exit::CliError;
use std::path::Path;

/// Writes `page` to `path` as HTML.
pub fn write(path: &Path, page: &Page) -> Result<(), CliError> {
    std::fs::write(path, render::page(page)).map_err(|e| CliError::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::model::{CodeMap, FindingView, Section, Side, Tone, VerdictRow};
    use super::*;
    use warpsafe_ir::SourceFile;

    fn racy_page(file: &SourceFile) -> String {
        let side = |line, action: &str, t| Side {
            thread: Some(([0, 0, 0], [t, 0, 0])),
            action: action.into(),
            line,
            column: 5,
        };
        let page = Page {
            title: "warpsafe verify <t>".into(),
            subtitle: "source road".into(),
            sections: vec![Section {
                file,
                kernel: "k<T>".into(),
                summary: "1 s".into(),
                assumptions: vec![],
                verdicts: vec![VerdictRow {
                    property: "race".into(),
                    tone: Tone::Bad,
                    word: "violated (race)".into(),
                    detail: "data race on `s`: write and read".into(),
                    line: 0,
                }],
                findings: vec![FindingView {
                    heading: "race: violated".into(),
                    tone: Tone::Bad,
                    message: "data race on `s`: write and read".into(),
                    sides: vec![side(3, "write", 1), side(5, "read", 2)],
                    launch: Some(([1, 1, 1], [32, 1, 1])),
                    values: vec![("n".into(), "\"32\"&".into())],
                    notes: vec![],
                }],
                code: CodeMap {
                    first: 1,
                    last: 6,
                    barriers: [4].into(),
                    stmts: [2, 3, 4, 5].into(),
                },
            }],
        };
        render::page(&page)
    }

    #[test]
    fn source_text_is_escaped_and_both_lines_are_marked() {
        let src = "__global__ void k(int* s) {\n  // </script><script>alert(1)</script>\n  s[0] = 1;\n  __syncthreads();\n  int x = s[1] < 2 && true;\n}\n";
        let html = racy_page(&SourceFile::new("a<b>.cu", src));
        assert!(
            !html.contains("<script>alert"),
            "source text must be escaped"
        );
        assert!(html.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("s[1] &lt; 2 &amp;&amp; true"));
        assert!(html.contains("a&lt;b&gt;.cu") && html.contains("k&lt;T&gt;"));
        assert!(html.contains("&quot;32&quot;&amp;"));
        assert_eq!(
            html.matches("<script>").count(),
            1,
            "only the page's own script"
        );
        let row = |n: usize| {
            html.lines()
                .find(|l| l.contains(&format!("data-line=\"{n}\"")) && l.starts_with("<tr"))
                .unwrap_or_default()
                .to_string()
        };
        assert!(
            row(3).contains("hl-a") && !row(3).contains("hl-b"),
            "{}",
            row(3)
        );
        assert!(
            row(5).contains("hl-b") && !row(5).contains("hl-a"),
            "{}",
            row(5)
        );
        assert!(
            row(4).contains("bar"),
            "the barrier line is a boundary: {}",
            row(4)
        );
        assert!(
            row(2).contains("iv-a"),
            "line 2 is in A's interval: {}",
            row(2)
        );
        assert!(
            !row(2).contains("iv-b"),
            "line 2 is not in B's interval: {}",
            row(2)
        );
        assert!(html.contains("thread A (block (0,0,0), thread (1,0,0)): write at line 3"));
        assert!(html.contains("thread B (block (0,0,0), thread (2,0,0)): read at line 5"));
        assert!(
            html.contains("barrier interval from the barrier at line 4 to the kernel&#39;s end")
        );
        assert!(!html.contains("http://") && !html.contains("https://") && !html.contains(" src="));
    }
}
