//! `verify --html` and `run --html` end to end: the page is written, is self-contained, and
//! renders in a real headless Chromium without console errors, its script having run to the
//! end (it marks `<html data-rendered="ok">` last; an exception leaves it otherwise), with the
//! race's two lines highlighted, one colour per side. Without Chromium the browser half is
//! skipped with a note, except under `CI=true` (scripts/setup.sh installs it there).

use std::path::{Path, PathBuf};
use std::process::Command;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/kernels")
        .join(name)
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("html_report_{test}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch directory");
    d
}

/// The Chromium to run: `$WARPSAFE_CHROMIUM`, else the first of the usual names on PATH.
fn chromium() -> Option<String> {
    let candidates = std::env::var("WARPSAFE_CHROMIUM")
        .ok()
        .into_iter()
        .chain(["chromium", "chromium-browser", "google-chrome"].map(String::from));
    for c in candidates {
        let ok = Command::new(&c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(c);
        }
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(
        !ci,
        "CI=true but no Chromium found (scripts/setup.sh installs the Debian package chromium)"
    );
    eprintln!("note: no Chromium found ($WARPSAFE_CHROMIUM, chromium); browser checks skipped");
    None
}

/// The DOM after the page's script ran, and the console messages Chromium logged.
fn render(browser: &str, page: &Path, dir: &Path) -> (String, Vec<String>) {
    let out = Command::new(browser)
        .args([
            "--headless=new",
            "--disable-gpu",
            "--no-sandbox",
            "--no-first-run",
            "--virtual-time-budget=2000",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg("--dump-dom")
        .arg(format!(
            "file://{}",
            page.canonicalize().expect("page").display()
        ))
        .output()
        .expect("chromium runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let console = stderr
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(String::from)
        .collect();
    assert!(out.status.success(), "chromium failed: {stderr}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), console)
}

/// The opening tag of the source row of `line` in the `nth` code table.
fn row(html: &str, nth: usize, line: usize) -> String {
    let table = html
        .split("<table class=\"code\"")
        .nth(nth + 1)
        .unwrap_or_else(|| panic!("no code table {nth}"));
    let table = table.split("</table>").next().unwrap_or_default();
    let key = format!("data-line=\"{line}\"");
    table
        .split("<tr ")
        .find(|r| r.split('>').next().is_some_and(|tag| tag.contains(&key)))
        .and_then(|r| r.split('>').next())
        .unwrap_or_else(|| panic!("no row for line {line} in table {nth}"))
        .to_string()
}

/// The class list of the row of `line` in the `nth` code table.
fn classes(html: &str, nth: usize, line: usize) -> Vec<String> {
    let tag = row(html, nth, line);
    let cls = tag
        .split("class=\"")
        .nth(1)
        .and_then(|c| c.split('"').next())
        .unwrap_or_default();
    cls.split_whitespace().map(String::from).collect()
}

fn has(html: &str, nth: usize, line: usize, class: &str) -> bool {
    classes(html, nth, line).iter().any(|c| c == class)
}

/// The page holds everything it shows: no URL, no external script, style, image or frame.
fn assert_self_contained(html: &str) {
    for bad in ["http://", "https://", " src=", "<link", "@import", "url("] {
        assert!(
            !html.contains(bad),
            "the page refers outside itself: `{bad}`"
        );
    }
}

fn warpsafe(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(args)
        .output()
        .expect("warpsafe runs")
}

/// Rendered, no console message, script ran to its end.
fn assert_renders(browser: &str, page: &Path, dir: &Path) -> String {
    let (dom, console) = render(browser, page, dir);
    assert!(console.is_empty(), "console messages: {console:#?}");
    assert!(
        dom.contains("data-rendered=\"ok\""),
        "the page script did not finish: {}",
        dom.lines().take(3).collect::<Vec<_>>().join("\n")
    );
    dom
}

#[test]
fn verify_race_lines_are_highlighted_in_the_browser() {
    let dir = scratch("verify_race");
    let page = dir.join("report.html");
    let file = example("matrix_transpose_tiled_bug_nosync.cu");
    let out = warpsafe(&[
        "verify",
        file.to_str().expect("utf-8 path"),
        "--property",
        "race",
        "--html",
        page.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(1), "violated: exit 1");
    let html = std::fs::read_to_string(&page).expect("the page is written");
    assert_self_contained(&html);
    // The write of `tile` at line 24 (side A) races with the read at line 30 (side B).
    assert!(has(&html, 0, 24, "hl-a") && !has(&html, 0, 24, "hl-b"));
    assert!(has(&html, 0, 30, "hl-b") && !has(&html, 0, 30, "hl-a"));
    assert!(!has(&html, 0, 27, "hl-a") && !has(&html, 0, 27, "hl-b"));
    assert!(
        html.contains("): write at line 24") && html.contains("): read at line 30"),
        "legend names both sides"
    );
    assert!(html.contains("gridDim (3,2,1) blockDim (32,8,1)"));
    assert!(html.contains("violated (race, replayed)"));
    let Some(browser) = chromium() else { return };
    let dom = assert_renders(&browser, &page, &dir);
    assert!(
        dom.contains("data-highlighted=\"24,30\""),
        "the script saw lines 24 and 30 highlighted"
    );
    assert!(has(&dom, 0, 24, "hl-a") && has(&dom, 0, 30, "hl-b"));
    assert!(dom.contains("highlighted lines: 24 and 30"));
}

#[test]
fn verify_marks_barriers_and_the_interval_of_the_race() {
    let dir = scratch("verify_barriers");
    let page = dir.join("report.html");
    let file = example("kogge_stone_scan_bug_race.cu");
    let out = warpsafe(&[
        "verify",
        file.to_str().expect("utf-8 path"),
        "--property",
        "race",
        "--html",
        page.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(1), "violated: exit 1");
    let html = std::fs::read_to_string(&page).expect("the page is written");
    // Both sides are on line 24, between the barriers of lines 20 and 26.
    assert!(has(&html, 0, 24, "hl-a") && has(&html, 0, 24, "hl-b"));
    assert!(has(&html, 0, 20, "bar") && has(&html, 0, 26, "bar"));
    assert!(has(&html, 0, 23, "iv-a") && has(&html, 0, 23, "iv-b"));
    assert!(!has(&html, 0, 19, "iv-a") && !has(&html, 0, 29, "iv-a"));
    assert!(html.contains("barrier interval from the barrier at line 20 to the barrier at line 26"));
    let Some(browser) = chromium() else { return };
    let dom = assert_renders(&browser, &page, &dir);
    assert!(dom.contains("data-highlighted=\"24\""));
}

#[test]
fn verify_clean_kernel_shows_the_source_and_verdicts() {
    let dir = scratch("verify_clean");
    let page = dir.join("report.html");
    let file = example("matrix_transpose_tiled.cu");
    let out = warpsafe(&[
        "verify",
        file.to_str().expect("utf-8 path"),
        "--property",
        "race,bounds",
        "--html",
        page.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(0), "verified: exit 0");
    let html = std::fs::read_to_string(&page).expect("the page is written");
    assert_eq!(html.matches("class=\"tone good\">verified<").count(), 2);
    assert!(!html.contains("class=\"finding"));
    assert!(
        has(&html, 0, 26, "bar"),
        "the __syncthreads() line is ruled"
    );
    let rows: Vec<&str> = html
        .split("<tr id=")
        .skip(1)
        .filter_map(|r| r.split('>').next())
        .collect();
    assert!(rows.len() > 10, "the kernel's lines are shown");
    assert!(
        rows.iter().all(|r| !r.contains("hl-")),
        "no line is highlighted"
    );
    let Some(browser) = chromium() else { return };
    let dom = assert_renders(&browser, &page, &dir);
    assert!(dom.contains("0 finding(s)."));
}

#[test]
fn run_race_lines_are_highlighted_in_the_browser() {
    let dir = scratch("run_race");
    let page = dir.join("report.html");
    let file = example("matrix_transpose_tiled_bug_nosync.cu");
    let out = warpsafe(&[
        "run",
        file.to_str().expect("utf-8 path"),
        "--html",
        page.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(1), "findings: exit 1");
    let html = std::fs::read_to_string(&page).expect("the page is written");
    assert_self_contained(&html);
    // The interpreter's first race: thread (0,0,0) writes `tile` at line 24 (the earlier
    // access, side A), thread (8,0,0) reads it at line 30 (side B).
    // (The text before the first finding holds the verdict table, which quotes messages too.)
    let nth = html
        .split("<div class=\"finding")
        .skip(1)
        .position(|f| f.contains("write-read race on shared `tile`"))
        .expect("a write-read race finding");
    assert!(has(&html, nth, 24, "hl-a") && has(&html, nth, 30, "hl-b"));
    assert!(html.contains("thread A (block (0,0,0), thread (0,0,0)): write at line 24"));
    assert!(html.contains("thread B (block (0,0,0), thread (8,0,0)): read at line 30"));
    assert!(html.contains(">found ("), "the race row says found");
    let Some(browser) = chromium() else { return };
    let dom = assert_renders(&browser, &page, &dir);
    assert!(has(&dom, nth, 24, "hl-a") && has(&dom, nth, 30, "hl-b"));
}

/// The harness itself: a script exception in the page is caught (the rendered flag is not set
/// and the console reports it), so the checks above are not vacuous.
#[test]
fn a_script_error_is_noticed() {
    let dir = scratch("script_error");
    let page = dir.join("report.html");
    let file = example("kogge_stone_scan_bug_race.cu");
    let out = warpsafe(&[
        "verify",
        file.to_str().expect("utf-8 path"),
        "--property",
        "race",
        "--html",
        page.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let html = std::fs::read_to_string(&page).expect("the page is written");
    let marker = "root.setAttribute('data-rendered', 'ok');";
    assert!(html.contains(marker));
    let broken = page.with_file_name("broken.html");
    std::fs::write(&broken, html.replace(marker, &format!("null.x;\n{marker}"))).expect("write");
    let Some(browser) = chromium() else { return };
    let (dom, console) = render(&browser, &broken, &dir);
    assert!(!dom.contains("data-rendered=\"ok\""));
    assert!(
        console.iter().any(|l| l.contains("Uncaught")),
        "console: {console:#?}"
    );
}

/// `bench verify --svg`: one bar per kernel, the slowest full width, a standalone SVG.
#[test]
fn bench_verify_draws_seconds_per_kernel() {
    let dir = scratch("bench_svg");
    let kernels = dir.join("kernels");
    std::fs::create_dir_all(&kernels).expect("kernels directory");
    for k in ["vector_add.cu", "kogge_stone_scan_bug_race.cu"] {
        std::fs::copy(example(k), kernels.join(k)).expect("copy");
    }
    let svg = dir.join("verify.svg");
    let out = warpsafe(&[
        "bench",
        "verify",
        "--kernels",
        kernels.to_str().expect("utf-8 path"),
        "--repeat",
        "1",
        "--svg",
        svg.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).expect("the chart is written");
    assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(text.trim_end().ends_with("</svg>"));
    assert_eq!(text.matches("<g class=\"row\">").count(), 2);
    assert!(text.contains(">vector_add</text>"));
    assert!(text.contains(">kogge_stone_scan_bug_race (kogge_stone_scan)</text>"));
    assert_eq!(
        text.matches("width=\"520.0\"").count(),
        1,
        "exactly one bar, the slowest, is full width"
    );
    assert!(!text.contains("<script") && !text.contains("href"));
}
