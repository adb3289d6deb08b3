//! A backstop for solver processes: z3 does not always honour its own time limits
//! (bit-blasting a product of 64-bit terms ran for many minutes under them), and z3 4.8.12
//! (Debian 12's) sometimes deadlocks on an internal lock of its timers, idle, while we wait
//! for its answer. The watchdog kills such a process; its query is then asked again of a
//! fresh one ([`crate::Pool`]) or answered `unknown`.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a solver asked for an answer may use no CPU time at all before it is taken for
/// deadlocked.
pub(crate) const STALL: Duration = Duration::from_secs(10);

/// The CPU time process `pid` has used, in clock ticks (Linux; `None` elsewhere).
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) in parentheses; utime and stime
    // are the 14th and 15th fields of the line, the 12th and 13th after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// Why the watchdog killed a process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kill {
    /// It used no CPU time for [`STALL`]: z3's timer deadlock, which strikes at random, so
    /// the same query on a fresh process is likely to be answered.
    Stalled,
    /// Its answer took longer than the limit: the same query would run as long again.
    OverLimit,
}

const NOT_KILLED: u8 = 0;
const STALLED: u8 = 1;
const OVER_LIMIT: u8 = 2;

/// Watches process `pid` until the guard is dropped: kills it when `limit` passes, or
/// earlier when it uses no CPU time for [`STALL`].
pub(crate) struct Watchdog {
    _stop: Sender<()>,
    killed: Arc<AtomicU8>,
}

impl Watchdog {
    /// Whether (and why) the process was killed so far.
    pub(crate) fn killed(&self) -> Option<Kill> {
        match self.killed.load(Ordering::SeqCst) {
            STALLED => Some(Kill::Stalled),
            OVER_LIMIT => Some(Kill::OverLimit),
            _ => None,
        }
    }
}

/// Starts watching `pid` (see [`Watchdog`]).
pub(crate) fn watch(pid: u32, limit: Duration) -> Watchdog {
    let (tx, rx) = channel::<()>();
    let killed = Arc::new(AtomicU8::new(NOT_KILLED));
    let mark = killed.clone();
    std::thread::spawn(move || {
        let start = Instant::now();
        let poll = Duration::from_secs(1);
        let mut last = (cpu_ticks(pid), Instant::now());
        loop {
            let left = limit.saturating_sub(start.elapsed());
            match rx.recv_timeout(poll.min(left)) {
                Err(RecvTimeoutError::Timeout) => {}
                _ => return,
            }
            if start.elapsed() >= limit {
                mark.store(OVER_LIMIT, Ordering::SeqCst);
                break;
            }
            let now = cpu_ticks(pid);
            if now.is_none() || now != last.0 {
                last = (now, Instant::now());
            } else if last.1.elapsed() >= STALL {
                mark.store(STALLED, Ordering::SeqCst);
                break;
            }
        }
        crate::stats::count_kill();
        let _ = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .stderr(std::process::Stdio::null())
            .status();
    });
    Watchdog { _stop: tx, killed }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idle_process_is_taken_for_deadlocked_and_killed_long_before_the_limit() {
        if cpu_ticks(std::process::id()).is_none() {
            return; // no /proc: only the limit applies
        }
        let mut idle = std::process::Command::new("sleep")
            .arg("300")
            .spawn()
            .expect("sleep starts");
        let start = Instant::now();
        let dog = watch(idle.id(), Duration::from_secs(300));
        let status = idle.wait().expect("waits");
        assert!(!status.success(), "killed, not finished");
        assert_eq!(dog.killed(), Some(Kill::Stalled));
        let took = start.elapsed();
        assert!(took >= STALL && took < STALL * 3, "killed after {took:?}");
    }

    #[test]
    fn a_busy_process_is_left_to_its_limit() {
        if cpu_ticks(std::process::id()).is_none() {
            return;
        }
        let mut busy = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .expect("sh starts");
        let start = Instant::now();
        let dog = watch(busy.id(), STALL + Duration::from_secs(3));
        let status = busy.wait().expect("waits");
        assert!(!status.success());
        assert_eq!(dog.killed(), Some(Kill::OverLimit));
        assert!(start.elapsed() >= STALL + Duration::from_secs(3));
    }
}
