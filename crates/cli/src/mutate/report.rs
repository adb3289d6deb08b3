//! The campaign's results: counts per kernel, per mutation kind and in total, as a table,
//! JSON or an SVG bar chart, and the lists a reader acts on (unsound and spurious mutants).

use super::generate::Kind;
use super::running::{Judged, Static};
use crate::summary::Table;
use serde::Serialize;

/// How many mutants fell into each class.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Counts {
    /// Mutants judged.
    pub mutants: usize,
    /// Some property `violated`.
    pub killed_static: usize,
    /// The interpreter found an error on some launch.
    pub killed_dynamic: usize,
    /// A dynamic finding in a category verify checks, every property `verified`.
    pub unsound: usize,
    /// Static `violated`, no dynamic finding on any launch.
    pub spurious: usize,
    /// Worst verdict `possible`.
    pub possible: usize,
    /// Worst verdict `unknown`.
    pub unknown: usize,
    /// Dynamic findings only in categories no verify property checks, every property
    /// `verified`.
    pub unchecked: usize,
    /// Every property verified and no dynamic finding (equivalent mutants, or bugs the
    /// launches did not reach).
    pub survived: usize,
    /// Mutants with a launch stopped at the step budget.
    pub stopped: usize,
}

impl Counts {
    /// The counts of `judged`.
    pub fn of<'a>(judged: impl IntoIterator<Item = &'a Judged>) -> Counts {
        let mut c = Counts::default();
        for j in judged {
            c.mutants += 1;
            c.killed_static += usize::from(j.verdict == Static::Violated);
            c.killed_dynamic += usize::from(j.killed_dynamically());
            c.unsound += usize::from(j.unsound);
            c.spurious += usize::from(j.spurious);
            c.possible += usize::from(j.verdict == Static::Possible);
            c.unknown += usize::from(j.verdict == Static::Unknown);
            c.unchecked += usize::from(j.unchecked);
            c.survived += usize::from(j.verdict == Static::Verified && !j.killed_dynamically());
            c.stopped += usize::from(!j.stopped.is_empty());
        }
        c
    }

    fn cells(&self) -> Vec<String> {
        [
            self.mutants,
            self.killed_static,
            self.killed_dynamic,
            self.unsound,
            self.spurious,
            self.possible,
            self.unknown,
            self.unchecked,
            self.survived,
        ]
        .iter()
        .map(|n| n.to_string())
        .collect()
    }
}

const COLUMNS: [&str; 9] = [
    "mutants",
    "killed static",
    "killed dynamic",
    "unsound",
    "spurious",
    "possible",
    "unknown",
    "unchecked",
    "survived",
];

/// One kernel's part of the campaign.
#[derive(Debug, Serialize)]
pub struct KernelResult {
    /// The kernel's name.
    pub kernel: String,
    /// The file it came from.
    pub file: String,
    /// Why it has no mutants judged (it does not verify, or does not parse).
    pub skipped: Option<String>,
    /// The launches the interpreter ran, in words.
    pub launches: Vec<String>,
    /// Launches left out because the original kernel already fails or stops on them.
    pub dropped_launches: Vec<String>,
    /// Its counts.
    pub counts: Counts,
    /// Every mutant judged.
    pub mutants: Vec<Judged>,
    /// Wall-clock seconds for this kernel.
    pub seconds: f64,
}

/// The counts of one mutation kind.
#[derive(Debug, Serialize)]
pub struct KindCounts {
    /// The kind's name.
    pub kind: &'static str,
    /// Its counts.
    #[serde(flatten)]
    pub counts: Counts,
}

/// The whole campaign.
#[derive(Debug, Serialize)]
pub struct Campaign {
    /// Launches per mutant.
    pub configs: usize,
    /// `--limit`, if any.
    pub limit: Option<usize>,
    /// Per-query solver time limit, seconds.
    pub timeout: f64,
    /// Per kernel.
    pub kernels: Vec<KernelResult>,
    /// Per mutation kind.
    pub by_kind: Vec<KindCounts>,
    /// Over everything.
    pub total: Counts,
    /// Wall-clock seconds of the whole campaign.
    pub seconds: f64,
    /// Peak resident memory of this process (VmHWM), KiB; solver processes not counted.
    pub peak_memory_kib: Option<u64>,
}

impl Campaign {
    /// Fills in the per-kind and total counts from the kernels' mutants.
    pub fn tally(&mut self) {
        let all = || self.kernels.iter().flat_map(|k| &k.mutants);
        self.total = Counts::of(all());
        self.by_kind = Kind::ROUND_ROBIN
            .iter()
            .map(|k| KindCounts {
                kind: k.name(),
                counts: Counts::of(all().filter(|j| j.kind == k.name())),
            })
            .filter(|k| k.counts.mutants > 0)
            .collect();
    }
}

/// Peak resident memory of this process in KiB, from `/proc/self/status` (Linux).
pub fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The campaign as text: the tables, then the mutants a reader must look at.
pub fn human(c: &Campaign) -> String {
    let mut out = format!(
        "mutation campaign: {} mutants of {} kernels; static = warpsafe verify (every launch the \
         header allows, counterexamples replayed), dynamic = the checking interpreter on {} \
         launch(es) per kernel{}\n",
        c.total.mutants,
        c.kernels.iter().filter(|k| k.skipped.is_none()).count(),
        c.configs,
        c.limit
            .map(|n| format!(", at most {n} mutants per kernel"))
            .unwrap_or_default()
    );
    let mut head = vec!["kernel"];
    head.extend(COLUMNS);
    head.push("seconds");
    let mut t = Table::new(&head);
    for k in c.kernels.iter().filter(|k| k.skipped.is_none()) {
        let mut row = vec![k.kernel.clone()];
        row.extend(k.counts.cells());
        row.push(format!("{:.1}", k.seconds));
        t.row(row);
    }
    let mut row = vec!["TOTAL".to_string()];
    row.extend(c.total.cells());
    row.push(format!("{:.1}", c.seconds));
    t.row(row);
    out.push_str(&t.render());

    let mut head = vec!["mutation"];
    head.extend(COLUMNS);
    let mut t = Table::new(&head);
    for k in &c.by_kind {
        let mut row = vec![k.kind.to_string()];
        row.extend(k.counts.cells());
        t.row(row);
    }
    out.push('\n');
    out.push_str(&t.render());

    let listed = |f: &dyn Fn(&Judged) -> bool| -> Vec<(&str, &Judged)> {
        c.kernels
            .iter()
            .flat_map(|k| k.mutants.iter().map(move |j| (k.kernel.as_str(), j)))
            .filter(|(_, j)| f(j))
            .collect()
    };
    let unsound = listed(&|j| j.unsound);
    out.push_str(&format!(
        "\nunsound (dynamic finding, every property verified): {}\n",
        if unsound.is_empty() { "none" } else { "" }
    ));
    for (k, j) in &unsound {
        out.push_str(&describe(k, j));
    }
    let unchecked = listed(&|j| j.unchecked);
    if !unchecked.is_empty() {
        out.push_str(
            "\nunchecked (every property verified; the interpreter's finding is of a category \
             no verify property checks):\n",
        );
        for (k, j) in &unchecked {
            out.push_str(&describe(k, j));
        }
    }
    let missed = listed(&|j| !j.property_missed.is_empty());
    if !missed.is_empty() {
        out.push_str("\nproperty verified but its finding seen (another property not verified):\n");
        for (k, j) in &missed {
            out.push_str(&describe(k, j));
        }
    }
    let spurious = listed(&|j| j.spurious);
    out.push_str(&format!(
        "\nspurious (violated statically — by an exact model or a replayed counterexample — \
         but no finding on the {} random launch(es)): {}\n",
        c.configs,
        if spurious.is_empty() { "none" } else { "" }
    ));
    for (k, j) in &spurious {
        let bad: Vec<String> = j
            .properties
            .iter()
            .filter(|(_, v)| v.starts_with("violated"))
            .map(|(p, v)| format!("{p} {v}"))
            .collect();
        out.push_str(&format!("  {k}: {} — {}\n", j.what, bad.join("; ")));
    }
    for k in &c.kernels {
        if let Some(why) = &k.skipped {
            out.push_str(&format!("skipped {}: {why}\n", k.kernel));
        }
        for d in &k.dropped_launches {
            out.push_str(&format!("{}: launch left out: {d}\n", k.kernel));
        }
    }
    out.push_str(&format!(
        "\ntotal {:.1} s, peak memory {} (this process; solver processes not counted)\n",
        c.seconds,
        c.peak_memory_kib
            .map(|k| format!("{:.1} MiB", k as f64 / 1024.0))
            .unwrap_or_else(|| "unknown".into())
    ));
    out
}

/// A mutant with its dynamic findings and static verdicts, indented, for the lists.
fn describe(kernel: &str, j: &Judged) -> String {
    let mut s = format!("  {kernel}: [{}] {}\n", j.kind, j.what);
    for f in &j.dynamic {
        s.push_str(&format!(
            "      interpreter: {} — {} (launch {}: {})\n",
            f.category, f.message, f.launch, f.launch_text
        ));
    }
    let verdicts: Vec<String> = j
        .properties
        .iter()
        .map(|(p, v)| format!("{p} {v}"))
        .collect();
    s.push_str(&format!("      verify: {}\n", verdicts.join(", ")));
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The bars of the chart: label, colour, and the count they show.
const BARS: [(&str, &str); 5] = [
    ("mutants", "#8c959f"),
    ("killed static", "#0969da"),
    ("killed dynamic", "#1a7f37"),
    ("spurious", "#bc4c00"),
    ("unsound", "#cf222e"),
];

fn bar_values(c: &Counts) -> [usize; 5] {
    [
        c.mutants,
        c.killed_static,
        c.killed_dynamic,
        c.spurious,
        c.unsound,
    ]
}

/// A horizontal grouped bar chart: per kernel (and the total), mutants, killed statically,
/// killed dynamically, spurious and unsound.
pub fn svg(c: &Campaign) -> String {
    let mut groups: Vec<(String, Counts)> = c
        .kernels
        .iter()
        .filter(|k| k.skipped.is_none())
        .map(|k| (k.kernel.clone(), k.counts))
        .collect();
    groups.push(("TOTAL".into(), c.total));
    let (label_w, chart_w, bar_h, gap) = (210, 520, 9, 10);
    let group_h = bar_h * BARS.len() as i32 + gap;
    let top = 60;
    let width = label_w + chart_w + 70;
    let height = top + group_h * groups.len() as i32 + 20;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"monospace\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"20\" font-weight=\"bold\">warpsafe bench mutate: {} mutants, {} unsound, {} spurious</text>\n",
        c.total.mutants, c.total.unsound, c.total.spurious
    );
    let mut x = 10;
    for (name, colour) in BARS {
        out.push_str(&format!(
            "<rect x=\"{x}\" y=\"32\" width=\"10\" height=\"10\" fill=\"{colour}\"/>\
             <text x=\"{}\" y=\"41\">{name}</text>\n",
            x + 14
        ));
        x += 14 + 8 * name.len() as i32 + 16;
    }
    for (i, (name, counts)) in groups.iter().enumerate() {
        // Each group is scaled to its own mutant count, so small kernels stay readable
        // beside the total.
        let scale = chart_w as f64 / counts.mutants.max(1) as f64;
        let y0 = top + group_h * i as i32;
        out.push_str(&format!(
            "<text x=\"10\" y=\"{}\">{}</text>\n",
            y0 + group_h / 2,
            escape(name)
        ));
        for (b, ((_, colour), v)) in BARS.iter().zip(bar_values(counts)).enumerate() {
            let y = y0 + bar_h * b as i32;
            let w = (v as f64 * scale).round() as i32;
            out.push_str(&format!(
                "<rect x=\"{label_w}\" y=\"{y}\" width=\"{w}\" height=\"{}\" fill=\"{colour}\"/>\
                 <text x=\"{}\" y=\"{}\" font-size=\"9\">{v}</text>\n",
                bar_h - 1,
                label_w + w + 4,
                y + bar_h - 1
            ));
        }
    }
    out.push_str("</svg>\n");
    out
}
