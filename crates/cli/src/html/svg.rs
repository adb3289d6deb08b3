//! `bench … --svg FILE`: a horizontal bar chart as one standalone SVG document (no script,
//! no external reference), one bar per row, longest first.

use super::render::escape;
use std::fmt::Write;

const BAR: f64 = 16.0;
const GAP: f64 = 4.0;
const WIDTH: f64 = 520.0;
const TOP: f64 = 40.0;

/// The chart of `rows` (label, seconds) under `title`, slowest first.
pub fn bar_chart(title: &str, rows: &[(String, f64)]) -> String {
    bar_chart_in(title, rows, "s", 3)
}

/// The chart of `rows` (label, value in `unit`) under `title`, largest first; each value is
/// printed with `decimals` digits after the point and `unit` after it.
pub fn bar_chart_in(title: &str, rows: &[(String, f64)], unit: &str, decimals: usize) -> String {
    let mut rows: Vec<(String, f64)> = rows
        .iter()
        .map(|(l, v)| (l.clone(), if v.is_finite() { v.max(0.0) } else { 0.0 }))
        .collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let max = rows.iter().map(|r| r.1).fold(0.0, f64::max);
    // About 7 pixels per character at 12px sans-serif, so no label runs off the left edge.
    let longest = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let left = (longest as f64 * 7.0 + 16.0).max(120.0);
    let value = |v: f64| format!("{v:.decimals$} {unit}");
    let widest = rows.iter().map(|r| value(r.1).chars().count()).max();
    let right = (widest.unwrap_or(0) as f64 * 7.0 + 16.0).max(90.0);
    let height = TOP + rows.len() as f64 * (BAR + GAP) + 10.0;
    // The title is 14px bold: about 8 pixels per character.
    let heading = title.chars().count() as f64 * 8.0 + 16.0;
    let total = (left + WIDTH + right).max(heading);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{total}\" height=\"{height}\" viewBox=\"0 0 {total} {height}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        out,
        "<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n<text x=\"8\" y=\"22\" font-size=\"14\" font-weight=\"bold\">{}</text>",
        escape(title),
        escape(title)
    );
    for (i, (label, v)) in rows.iter().enumerate() {
        let y = TOP + i as f64 * (BAR + GAP);
        let w = if max > 0.0 { v / max * WIDTH } else { 0.0 };
        let shown = escape(&value(*v));
        let _ = writeln!(
            out,
            "<g class=\"row\"><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text><rect x=\"{left}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{BAR}\" fill=\"#4c6ef5\"><title>{}: {shown}</title></rect><text x=\"{:.1}\" y=\"{:.1}\">{shown}</text></g>",
            left - 8.0,
            y + BAR - 4.0,
            escape(label),
            escape(label),
            left + w + 6.0,
            y + BAR - 4.0,
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::{bar_chart, bar_chart_in};

    #[test]
    fn bars_are_scaled_sorted_and_escaped() {
        let svg = bar_chart(
            "seconds <per> kernel",
            &[
                ("fast".into(), 1.0),
                ("slow&<b>".into(), 4.0),
                ("nan".into(), f64::NAN),
            ],
        );
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("seconds &lt;per&gt; kernel"));
        assert!(svg.contains(">slow&amp;&lt;b&gt;</text>") && !svg.contains("<b>"));
        let slow = svg.find(">slow&amp;").expect("slow row");
        let fast = svg.find(">fast<").expect("fast row");
        assert!(slow < fast, "the slowest bar comes first");
        assert!(
            svg.contains("width=\"520.0\""),
            "the slowest bar is full width"
        );
        assert!(
            svg.contains("width=\"130.0\""),
            "a quarter of the time, a quarter bar"
        );
        assert!(
            svg.contains(">0.000 s</text>"),
            "a non-finite time draws as 0"
        );
        assert_eq!(svg.matches("<g class=\"row\">").count(), 3);
    }

    #[test]
    fn a_unit_and_its_precision_label_every_value() {
        let svg = bar_chart_in(
            "causes",
            &[("accepted".into(), 68.0), ("unsupported <x>".into(), 3.0)],
            "kernels",
            0,
        );
        assert!(svg.contains(">68 kernels</text>") && svg.contains(">3 kernels</text>"));
        assert!(svg.contains("<title>unsupported &lt;x&gt;: 3 kernels</title>"));
        assert!(!svg.contains(" s</text>"));
        let wide = bar_chart_in("t", &[("a".into(), 123456.5)], "M instr/s", 1);
        assert!(wide.contains(">123456.5 M instr/s</text>"));
        assert!(
            wide.contains("width=\"782\""),
            "the right margin fits the value: {}",
            wide.lines().next().unwrap_or_default()
        );
    }
}
