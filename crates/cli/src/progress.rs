//! Feedback on stderr while a command works: `-v` step lines and progress bars.
//!
//! Two independent channels, both on stderr so stdout (reports, JSON, SARIF) never changes:
//! - [`say`]: with `-v`, one line per step, prefixed by the seconds since the command
//!   started (`warpsafe [   1.234 s] …`). Without `-v` nothing is built or printed.
//! - [`Task`]: an `indicatif` bar (with a length) or spinner (without), drawn only when stderr
//!   is a terminal, the output format is human, and the task has run for over a second; it is
//!   cleared when the task is dropped, before the command prints its report.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a task runs before its bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// `-v` count.
static VERBOSE: AtomicU8 = AtomicU8::new(0);
/// Bars may be drawn (stderr a terminal, human output).
static BARS: AtomicBool = AtomicBool::new(false);
/// When the command started (the `-v` lines' clock).
static START: OnceLock<Instant> = OnceLock::new();
/// The bar on screen, if any, with its task's number: `-v` lines are printed around it.
static SHOWN: Mutex<Option<(u64, ProgressBar)>> = Mutex::new(None);
/// Numbers tasks, so a task knows whether the bar on screen is its own.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// Records the `-v` count and whether bars may be drawn (never for `--format json|sarif`,
/// never when stderr is not a terminal). Called once, first thing in `main`.
pub fn configure(verbose: u8, machine_output: bool) {
    let _ = START.set(Instant::now());
    VERBOSE.store(verbose, Ordering::Relaxed);
    let bars = !machine_output
        && std::io::stderr().is_terminal()
        && std::env::var_os("WARPSAFE_NO_PROGRESS").is_none();
    BARS.store(bars, Ordering::Relaxed);
}

/// The `-v` count (0 without the flag).
pub fn verbosity() -> u8 {
    VERBOSE.load(Ordering::Relaxed)
}

/// With `-v`, prints the line `line()` builds to stderr with the command's elapsed time.
pub fn say(line: impl FnOnce() -> String) {
    if verbosity() == 0 {
        return;
    }
    let at = START.get().map_or(0.0, |s| s.elapsed().as_secs_f64());
    let text = format!("warpsafe [{at:>8.3} s] {}", line());
    let shown = SHOWN
        .lock()
        .ok()
        .and_then(|g| g.as_ref().map(|(_, b)| b.clone()));
    match shown {
        Some(bar) => bar.suspend(|| eprintln!("{text}")),
        None => eprintln!("{text}"),
    }
}

/// Runs `f` as one step: with `-v`, a line when it ends naming it, its seconds and what
/// `done` says of the result; a spinner meanwhile when it takes over a second.
pub fn step<T>(label: &str, f: impl FnOnce() -> T, done: impl FnOnce(&T) -> String) -> T {
    let task = Task::spinner(label);
    let t = Instant::now();
    let out = f();
    drop(task);
    say(|| {
        let what = done(&out);
        let sep = if what.is_empty() { "" } else { ": " };
        format!("{label}{sep}{what} ({:.3} s)", t.elapsed().as_secs_f64())
    });
    out
}

/// A unit of work with a bar (or spinner) that appears after a second on a terminal.
///
/// Dropping it clears the bar, so a command drops its tasks before printing its report.
pub struct Task {
    id: u64,
    bar: ProgressBar,
    done: Arc<AtomicBool>,
    timer: Option<JoinHandle<()>>,
}

/// The bar's layout: a spinner, the label, the counts when there is a length, the time,
/// the live status and the message.
const BAR: &str = "{spinner} {prefix} [{bar:30}] {pos}/{len} {elapsed} {status}{wide_msg}";
/// [`BAR`] without a length.
const SPINNER: &str = "{spinner} {prefix} {elapsed} {status}{wide_msg}";

/// A line of live numbers the bar reads at every tick (solver queries so far, …).
type Status = Arc<dyn Fn() -> String + Send + Sync>;

impl Task {
    /// A bar over `len` items, labelled `label` (`verify`, `bench verify`, …).
    pub fn bar(label: &str, len: u64) -> Task {
        Task::start(ProgressBar::new(len), BAR, label, None)
    }

    /// A spinner without a length, labelled `label`.
    pub fn spinner(label: &str) -> Task {
        Task::start(ProgressBar::new_spinner(), SPINNER, label, None)
    }

    /// A bar over `len` items that also shows what `status` says at every tick.
    pub fn bar_with_status(
        label: &str,
        len: u64,
        status: impl Fn() -> String + Send + Sync + 'static,
    ) -> Task {
        Task::start(ProgressBar::new(len), BAR, label, Some(Arc::new(status)))
    }

    fn start(bar: ProgressBar, template: &str, label: &str, status: Option<Status>) -> Task {
        bar.set_draw_target(ProgressDrawTarget::hidden());
        bar.set_style(style(template, status));
        bar.set_prefix(label.to_string());
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let done = Arc::new(AtomicBool::new(false));
        let timer = BARS.load(Ordering::Relaxed).then(|| {
            let (bar, done) = (bar.clone(), done.clone());
            std::thread::spawn(move || reveal_after_delay(id, &bar, &done))
        });
        Task {
            id,
            bar,
            done,
            timer,
        }
    }

    /// `n` more items done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
    }

    /// What is being worked on now (shown last).
    pub fn message(&self, text: impl Into<String>) {
        self.bar.set_message(text.into());
    }

    /// A handle that moves the bar from elsewhere (a callback, another thread).
    pub fn ticker(&self) -> Ticker {
        Ticker(self.bar.clone())
    }
}

/// Moves a [`Task`]'s bar from a callback; it does not keep the bar on screen.
#[derive(Clone)]
pub struct Ticker(ProgressBar);

impl Ticker {
    /// What is being worked on now.
    pub fn message(&self, text: impl Into<String>) {
        self.0.set_message(text.into());
    }
}

/// The style for `template`, its `{status}` key filled by `status` (empty without one).
fn style(template: &str, status: Option<Status>) -> ProgressStyle {
    let fallback = if template == BAR {
        ProgressStyle::default_bar()
    } else {
        ProgressStyle::default_spinner()
    };
    let Ok(style) = ProgressStyle::with_template(template) else {
        return fallback;
    };
    style.progress_chars("=> ").with_key(
        "status",
        move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
            if let Some(f) = &status {
                let _ = write!(w, "{} ", f());
            }
        },
    )
}

/// Waits [`DELAY`] (or until the task ends), then draws the bar on stderr and ticks it.
fn reveal_after_delay(id: u64, bar: &ProgressBar, done: &AtomicBool) {
    let until = Instant::now() + DELAY;
    while Instant::now() < until {
        if done.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let Ok(mut shown) = SHOWN.lock() else {
        return;
    };
    // One bar at a time: an inner task (a compile inside verify) stays hidden.
    if done.load(Ordering::Relaxed) || shown.is_some() {
        return;
    }
    bar.set_draw_target(ProgressDrawTarget::stderr());
    bar.enable_steady_tick(Duration::from_millis(100));
    *shown = Some((id, bar.clone()));
}

impl Drop for Task {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.timer.take() {
            let _ = t.join();
        }
        if let Ok(mut shown) = SHOWN.lock() {
            if shown.as_ref().is_some_and(|(id, _)| *id == self.id) {
                *shown = None;
            }
        }
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_without_a_terminal_draws_nothing_and_ends_cleanly() {
        configure(0, false);
        let t = Task::bar("test", 3);
        t.inc(1);
        t.message("one");
        drop(t);
        assert!(SHOWN.lock().expect("lock").is_none());
    }

    #[test]
    fn step_returns_what_the_work_returns() {
        assert_eq!(step("add", || 2 + 2, |n| format!("{n}")), 4);
    }
}
