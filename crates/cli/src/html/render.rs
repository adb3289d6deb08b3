//! The page as HTML text: escaped content, inline style and script, nothing fetched.

use super::model::{FindingView, Page, Section, Side, Tone};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// `text` with the five characters HTML treats specially replaced by entities, so it is shown
/// as written in element content and in quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The side letters, A first: side A is the first party a report names.
const LETTERS: [&str; 4] = ["a", "b", "c", "d"];

/// No network at all: only the inline style and script run.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

const STYLE: &str = r#"
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#1b1b1b}
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.2em;margin:1.6em 0 .3em;border-bottom:1px solid #ccc}
h3{font-size:1.05em;margin:1.2em 0 .3em}.sub{color:#555}
code,.src{font-family:ui-monospace,Menlo,Consolas,monospace}
table.verdicts{border-collapse:collapse;margin:.4em 0}table.verdicts td,table.verdicts th{padding:.15em .7em;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
.tone{font-weight:600;white-space:nowrap}.tone.good{color:#2b8a3e}.tone.bad{color:#c92a2a}.tone.maybe{color:#e67700}.tone.unknown{color:#5f3dc4}
.finding{border:1px solid #ddd;border-left:4px solid #c92a2a;border-radius:4px;padding:.4em .9em;margin:.8em 0}
.finding.maybe{border-left-color:#e67700}.finding.unknown{border-left-color:#5f3dc4}
ul.legend{list-style:none;padding:0;margin:.4em 0}ul.legend li{margin:.15em 0}
.legend li[data-goto]{cursor:pointer}.legend li[data-goto]:hover{text-decoration:underline}
.sw{display:inline-block;width:1.1em;height:.9em;border-radius:2px;vertical-align:-1px;margin-right:.4em;border:1px solid #888}
.sw.a{background:#ffc078}.sw.b{background:#74c0fc}.sw.c{background:#b2f2bb}.sw.d{background:#eebefa}
.sw.iv{background:repeating-linear-gradient(90deg,#ffc078 0 3px,#fff 3px 6px)}.sw.bar{border:0;border-top:2px dashed #495057;height:0;vertical-align:middle}
table.values{border-collapse:collapse;font-size:.95em}table.values td{padding:.05em .8em .05em 0}table.values td:first-child{color:#555}
ul.notes{margin:.3em 0;padding-left:1.2em;color:#333}
table.code{border-collapse:collapse;width:100%;margin:.4em 0;background:#fafafa;border:1px solid #e5e5e5}
table.code td{padding:0 .5em;vertical-align:top}
td.no{color:#888;text-align:right;user-select:none;width:3.5em;border-right:1px solid #e5e5e5}
td.tag{width:4.5em;white-space:nowrap;font-size:.8em;color:#444;user-select:none}
td.src{white-space:pre;tab-size:4}
tr.hl-a td.src{background:#ffd8a8}tr.hl-b td.src{background:#a5d8ff}tr.hl-c td.src{background:#b2f2bb}tr.hl-d td.src{background:#eebefa}
tr.hl-a.hl-b td.src{background:linear-gradient(90deg,#ffd8a8 0 50%,#a5d8ff 50% 100%)}
tr.iv-a td.no{box-shadow:inset 4px 0 #ffc078}tr.iv-b td.no{box-shadow:inset -4px 0 #74c0fc}
tr.iv-a.iv-b td.no{box-shadow:inset 4px 0 #ffc078,inset -4px 0 #74c0fc}
tr.iv-a:not(.hl-a):not(.hl-b) td.src,tr.iv-b:not(.hl-a):not(.hl-b) td.src{background:#fff4e6}
tr.bar td{border-top:2px dashed #495057}tr.unk td.src{background:#e5dbff}
tr.flash td.src{outline:2px solid #1b1b1b}
.badge{display:inline-block;padding:0 .35em;border-radius:3px;font-weight:700;margin-right:.2em}
.badge.a{background:#ffc078}.badge.b{background:#74c0fc}.badge.c{background:#b2f2bb}.badge.d{background:#eebefa}.badge.bar{background:#dee2e6;font-weight:400}
#status{color:#555;font-size:.9em}
"#;

/// Fills in the status line from what was drawn, wires legend clicks to their lines, and
/// marks the page rendered; an exception anywhere leaves `data-rendered` saying so.
const SCRIPT: &str = r#"
(function () {
  var root = document.documentElement;
  window.addEventListener('error', function (e) { root.setAttribute('data-rendered', 'error: ' + e.message); });
  var shown = [];
  document.querySelectorAll('table.code').forEach(function (t) {
    var lines = [];
    t.querySelectorAll('tr.hl-a, tr.hl-b, tr.hl-c, tr.hl-d').forEach(function (r) {
      lines.push(Number(r.getAttribute('data-line')));
    });
    t.setAttribute('data-highlighted', lines.join(','));
    if (lines.length) { shown.push(lines.join(' and ')); }
  });
  document.querySelectorAll('[data-goto]').forEach(function (el) {
    el.addEventListener('click', function () {
      var row = document.getElementById(el.getAttribute('data-goto'));
      if (!row) { return; }
      row.scrollIntoView({ block: 'center' });
      row.classList.add('flash');
      setTimeout(function () { row.classList.remove('flash'); }, 1200);
    });
  });
  var findings = document.querySelectorAll('.finding').length;
  document.getElementById('status').textContent = findings + ' finding(s)' +
    (shown.length ? '; highlighted lines: ' + shown.join('; ') : '') + '.';
  root.setAttribute('data-rendered', 'ok');
})();
"#;

/// The whole page.
pub fn page(p: &Page) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\" data-rendered=\"no\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n\
         <p class=\"sub\">{}</p>\n<p id=\"status\">(the page script did not run)</p>\n",
        escape(&p.title),
        escape(&p.title),
        escape(&p.subtitle)
    );
    for (i, s) in p.sections.iter().enumerate() {
        section(&mut out, i, s);
    }
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

fn section(out: &mut String, si: usize, s: &Section) {
    let _ = write!(
        out,
        "<section class=\"kernel\" id=\"k{si}\">\n<h2>kernel <code>{}</code> <span class=\"sub\">in {}</span></h2>\n<p class=\"sub\">{}</p>\n",
        escape(&s.kernel),
        escape(&s.file.name),
        escape(&s.summary)
    );
    if !s.assumptions.is_empty() {
        out.push_str("<ul class=\"notes\">");
        for a in &s.assumptions {
            let _ = write!(out, "<li>{}</li>", escape(a));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("<table class=\"verdicts\"><thead><tr><th>property</th><th>verdict</th><th>detail</th></tr></thead><tbody>\n");
    for v in &s.verdicts {
        let at = if v.line > 0 {
            format!(" (line {})", v.line)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"tone {}\">{}</td><td>{}{}</td></tr>",
            escape(&v.property),
            v.tone.class(),
            escape(&v.word),
            escape(&v.detail),
            escape(&at)
        );
    }
    out.push_str("</tbody></table>\n");
    for (fi, f) in s.findings.iter().enumerate() {
        finding(out, &format!("k{si}f{fi}"), s, f);
    }
    if s.findings.is_empty() {
        let unknown: BTreeSet<usize> = s
            .verdicts
            .iter()
            .filter(|v| v.tone == Tone::Unknown && v.line > 0)
            .map(|v| v.line)
            .collect();
        let _ = writeln!(out, "<h3>source</h3>");
        code(out, &format!("k{si}"), s, &[], &unknown);
    }
    out.push_str("</section>\n");
}

fn coords(v: [u32; 3]) -> String {
    format!("({},{},{})", v[0], v[1], v[2])
}

fn side_text(letter: &str, side: &Side) -> String {
    let who = match side.thread {
        Some((b, t)) => format!(
            "thread {} (block {}, thread {})",
            letter.to_uppercase(),
            coords(b),
            coords(t)
        ),
        None => format!("thread {}", letter.to_uppercase()),
    };
    let at = if side.line > 0 {
        format!(" at line {}", side.line)
    } else {
        String::new()
    };
    format!("{who}: {}{at}", side.action)
}

fn interval_text(s: &Section, line: usize) -> String {
    if line == 0 {
        return String::new();
    }
    if s.code.barriers.contains(&line) {
        return "the barrier itself: it ends one interval and starts the next".into();
    }
    let iv = s.code.interval(line);
    let from = iv.after.map_or("the kernel's start".to_string(), |b| {
        format!("the barrier at line {b}")
    });
    let to = iv.before.map_or("the kernel's end".to_string(), |b| {
        format!("the barrier at line {b}")
    });
    format!("barrier interval from {from} to {to}")
}

fn finding(out: &mut String, id: &str, s: &Section, f: &FindingView) {
    let _ = write!(
        out,
        "<div class=\"finding {}\" id=\"{id}\">\n<h3><span class=\"tone {}\">{}</span></h3>\n<p>{}</p>\n<ul class=\"legend\">\n",
        f.tone.class(),
        f.tone.class(),
        escape(&f.heading),
        escape(&f.message)
    );
    for (side, letter) in f.sides.iter().zip(LETTERS) {
        let goto = if side.line > 0 {
            format!(" data-goto=\"{id}-L{}\"", side.line)
        } else {
            String::new()
        };
        let iv = interval_text(s, side.line);
        let _ = writeln!(
            out,
            "<li class=\"side {letter}\"{goto}><span class=\"sw {letter}\"></span>{}{}</li>",
            escape(&side_text(letter, side)),
            if iv.is_empty() {
                String::new()
            } else {
                format!(" <span class=\"sub\">({})</span>", escape(&iv))
            }
        );
    }
    if f.sides.iter().any(|x| x.line > 0) {
        out.push_str(
            "<li><span class=\"sw iv\"></span>shaded, with a bar in the margin: the statement lines of each thread's barrier interval (the report records no path, so these are the lines the thread may execute between the barriers around its operation)</li>\n",
        );
    }
    if !s.code.barriers.is_empty() {
        out.push_str("<li><span class=\"sw bar\"></span>dashed rule: a barrier (<code>__syncthreads()</code>), a boundary of barrier intervals</li>\n");
    }
    out.push_str("</ul>\n");
    if f.launch.is_some() || !f.values.is_empty() {
        out.push_str("<table class=\"values\">");
        if let Some((grid, block)) = f.launch {
            let _ = write!(
                out,
                "<tr><td>launch</td><td><code>gridDim {} blockDim {}</code></td></tr>",
                escape(&coords(grid)),
                escape(&coords(block))
            );
        }
        for (n, v) in &f.values {
            let _ = write!(
                out,
                "<tr><td><code>{}</code></td><td><code>{}</code></td></tr>",
                escape(n),
                escape(v)
            );
        }
        out.push_str("</table>\n");
    }
    if !f.notes.is_empty() {
        out.push_str("<ul class=\"notes\">");
        for n in &f.notes {
            let _ = write!(out, "<li>{}</li>", escape(n));
        }
        out.push_str("</ul>\n");
    }
    code(out, id, s, &f.sides, &BTreeSet::new());
    out.push_str("</div>\n");
}

/// The source lines to show: the kernel and every marked line, with two lines of context.
fn shown_lines(s: &Section, marked: &BTreeSet<usize>) -> (usize, usize) {
    let total = s.file.text.lines().count().max(1);
    let mut lo = if s.code.first > 0 { s.code.first } else { 1 };
    let mut hi = if s.code.last > 0 { s.code.last } else { total };
    for &m in marked.iter().filter(|m| **m > 0) {
        lo = lo.min(m);
        hi = hi.max(m);
    }
    (lo.saturating_sub(2).max(1), (hi + 2).min(total))
}

/// The source as a table of lines, the sides' lines highlighted, their intervals shaded and
/// the barriers ruled.
fn code(out: &mut String, id: &str, s: &Section, sides: &[Side], unknown: &BTreeSet<usize>) {
    let mut classes: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let mut tags: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (side, letter) in sides.iter().zip(LETTERS) {
        if side.line == 0 {
            continue;
        }
        for l in s.code.interval_lines(side.line) {
            classes.entry(l).or_default().push(format!("iv-{letter}"));
        }
        classes
            .entry(side.line)
            .or_default()
            .push(format!("hl-{letter}"));
        tags.entry(side.line).or_default().push(format!(
            "<span class=\"badge {letter}\" title=\"{}\">{}</span>",
            escape(&format!(
                "{}: {} at {}:{}",
                letter.to_uppercase(),
                side.action,
                side.line,
                side.column
            )),
            letter.to_uppercase()
        ));
    }
    for &b in &s.code.barriers {
        classes.entry(b).or_default().push("bar".into());
        tags.entry(b)
            .or_default()
            .push("<span class=\"badge bar\">barrier</span>".into());
    }
    for &u in unknown {
        classes.entry(u).or_default().push("unk".into());
    }
    let marked: BTreeSet<usize> = sides
        .iter()
        .map(|x| x.line)
        .chain(unknown.iter().copied())
        .collect();
    let (lo, hi) = shown_lines(s, &marked);
    out.push_str("<table class=\"code\"><tbody>\n");
    for (i, text) in s.file.text.lines().enumerate() {
        let n = i + 1;
        if n < lo || n > hi {
            continue;
        }
        let mut cls = vec!["ln".to_string()];
        if let Some(c) = classes.get(&n) {
            let mut c = c.clone();
            c.sort();
            c.dedup();
            cls.extend(c);
        }
        let tag = tags.get(&n).map(|t| t.join("")).unwrap_or_default();
        let _ = writeln!(
            out,
            "<tr id=\"{id}-L{n}\" class=\"{}\" data-line=\"{n}\"><td class=\"no\">{n}</td><td class=\"tag\">{tag}</td><td class=\"src\">{}</td></tr>",
            cls.join(" "),
            escape(text.trim_end_matches('\r'))
        );
    }
    out.push_str("</tbody></table>\n");
}
