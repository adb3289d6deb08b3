//! The JSON shapes of reports, with spans turned into lines and columns.

use serde::Serialize;
use warpsafe_exec::{Finding, Location, Severity, Site, Stats};
use warpsafe_ir::{Category, SourceFile};

/// A site with its source position resolved.
#[derive(Serialize)]
pub struct SiteJson {
    /// Block index.
    pub block: [u32; 3],
    /// Thread index within the block.
    pub thread: [u32; 3],
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub column: usize,
    /// The source line's text.
    pub source: String,
}

/// A finding as written in JSON.
#[derive(Serialize)]
pub struct FindingJson<'a> {
    /// Stable category name.
    pub category: Category,
    /// `error` or `warning`.
    pub severity: &'static str,
    /// A complete sentence.
    pub message: &'a str,
    /// Where it happened.
    pub at: SiteJson,
    /// The other access or thread involved, if any.
    pub other: Option<SiteJson>,
    /// The memory cell involved, if any.
    pub location: Option<&'a Location>,
    /// How many times the same pair of sites was seen.
    pub count: u64,
}

/// An output buffer written by `--out`.
#[derive(Serialize)]
pub struct OutputJson {
    /// Parameter name.
    pub name: String,
    /// Element type.
    pub elem: warpsafe_ir::ScalarType,
    /// Number of elements.
    pub len: usize,
    /// Where it was written, when `--out` was given.
    pub path: Option<String>,
}

/// The report of one `run`.
#[derive(Serialize)]
pub struct RunJson<'a> {
    /// The file.
    pub file: &'a str,
    /// The kernel run.
    pub kernel: &'a str,
    /// Grid dimensions.
    pub grid: [u32; 3],
    /// Block dimensions.
    pub block: [u32; 3],
    /// What was found.
    pub findings: Vec<FindingJson<'a>>,
    /// Work done.
    pub stats: &'a Stats,
    /// Writable buffers after the run.
    pub outputs: Vec<OutputJson>,
    /// Random schedules run with `--schedules`, and the first output difference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedules: Option<crate::schedules::ScheduleCheck>,
    /// The process exit code.
    pub exit_code: u8,
}

fn site(file: &SourceFile, s: &Site) -> SiteJson {
    let (line, column) = if s.span.is_dummy() || file.text.is_empty() {
        (0, 0)
    } else {
        file.line_col(s.span.lo)
    };
    SiteJson {
        block: s.block,
        thread: s.thread,
        line,
        column,
        source: file.line_text(line).trim().to_string(),
    }
}

/// Converts a finding for JSON output.
pub fn finding<'a>(file: &SourceFile, f: &'a Finding) -> FindingJson<'a> {
    FindingJson {
        category: f.category,
        severity: match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        message: &f.message,
        at: site(file, &f.at),
        other: f.other.as_ref().map(|o| site(file, o)),
        location: f.location.as_ref(),
        count: f.count,
    }
}

/// Prints `v` as pretty JSON on standard output.
pub fn print_json<T: Serialize + ?Sized>(v: &T) -> Result<(), crate::exit::CliError> {
    let text =
        serde_json::to_string_pretty(v).map_err(|e| crate::exit::CliError::usage(e.to_string()))?;
    println!("{text}");
    Ok(())
}

/// A JSON report with what `--arg`, `--buf` and `--len` fixed (`fixed`, left out when they
/// fixed nothing), the report's own fields inlined.
#[derive(Serialize)]
pub struct WithFixed<'a, T: Serialize> {
    /// The scalar values, buffer lengths and initial contents the flags fixed.
    #[serde(skip_serializing_if = "nothing_fixed")]
    pub fixed: &'a crate::fixed::Fixed,
    /// The report itself.
    #[serde(flatten)]
    pub report: &'a T,
}

fn nothing_fixed(f: &&crate::fixed::Fixed) -> bool {
    f.is_empty()
}
