//! Memory and time budgets of a check: asked from the symbolic executor's scheduling loop and
//! between (and inside) element comparisons, so running out ends the check with `unknown:
//! memory budget` (or `time budget`) and what was compared so far, never an allocation abort.

use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The budgets a check runs under; `None` is unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// Resident memory of the process, in bytes, the check may reach.
    pub max_memory: Option<u64>,
    /// Wall-clock time of the whole check.
    pub timeout: Option<Duration>,
}

/// Which budget ran out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Spent {
    /// `memory budget` or `time budget`.
    pub what: &'static str,
    /// One line: the limit and what was in use.
    pub detail: String,
}

impl Spent {
    /// `memory budget (…)`.
    pub fn text(&self) -> String {
        format!("{} ({})", self.what, self.detail)
    }
}

/// Shared by every thread of one check.
#[derive(Debug)]
pub(crate) struct Budget {
    limits: Limits,
    start: Instant,
    /// Nanoseconds since `start` of the last memory reading.
    last_memory_check: AtomicU64,
    spent_flag: AtomicBool,
    spent: Mutex<Option<Spent>>,
}

/// Memory is read at most this often (reading `/proc` costs microseconds).
const MEMORY_EVERY: Duration = Duration::from_millis(5);

impl Budget {
    pub fn new(limits: Limits) -> Arc<Budget> {
        Arc::new(Budget {
            limits,
            start: Instant::now(),
            last_memory_check: AtomicU64::new(0),
            spent_flag: AtomicBool::new(false),
            spent: Mutex::new(None),
        })
    }

    /// Which budget ran out, if one did (checked now).
    pub fn check(&self) -> Option<Spent> {
        if self.spent_flag.load(Ordering::Relaxed) {
            return self.spent();
        }
        if self.limits.max_memory.is_none() && self.limits.timeout.is_none() {
            return None;
        }
        let elapsed = self.start.elapsed();
        if let Some(t) = self.limits.timeout {
            if elapsed > t {
                return self.set(Spent {
                    what: "time budget",
                    detail: format!("{:.1} s spent; raise with --timeout", t.as_secs_f64()),
                });
            }
        }
        if let Some(limit) = self.limits.max_memory {
            let now = elapsed.as_nanos() as u64;
            let last = self.last_memory_check.load(Ordering::Relaxed);
            let first = last == 0;
            if first || now.saturating_sub(last) >= MEMORY_EVERY.as_nanos() as u64 {
                self.last_memory_check.store(now.max(1), Ordering::Relaxed);
                if let Some(used) = resident_bytes() {
                    if used > limit {
                        return self.set(Spent {
                            what: "memory budget",
                            detail: format!(
                                "{} MiB in use, limit {} MiB; raise with --max-memory",
                                used >> 20,
                                limit.div_ceil(1 << 20)
                            ),
                        });
                    }
                }
            }
        }
        None
    }

    /// The budget that ran out, without checking again.
    pub fn spent(&self) -> Option<Spent> {
        self.spent.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn set(&self, s: Spent) -> Option<Spent> {
        let mut slot = self.spent.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(s);
        }
        self.spent_flag.store(true, Ordering::Relaxed);
        slot.clone()
    }

    /// The check as an algebra [`Interrupt`](warpsafe_algebra::Interrupt).
    pub fn interrupt(self: &Arc<Budget>) -> Option<warpsafe_algebra::Interrupt> {
        if self.limits.max_memory.is_none() && self.limits.timeout.is_none() {
            return None;
        }
        let b = Arc::clone(self);
        Some(Arc::new(move || b.check().map(|s| s.text())))
    }
}

/// The resident memory of this process, where the system says (`/proc/self/status`).
pub fn resident_bytes() -> Option<u64> {
    status_kib("VmRSS:").map(|k| k << 10)
}

/// The peak resident memory of this process, where the system says.
pub fn peak_resident_bytes() -> Option<u64> {
    status_kib("VmHWM:").map(|k| k << 10)
}

/// Resets the peak that [`peak_resident_bytes`] reads to the current use (Linux), so a
/// benchmark can measure each case's peak; false where that is not possible.
pub fn reset_peak_resident() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

fn status_kib(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unlimited_never_spends() {
        let b = Budget::new(Limits::default());
        assert_eq!(b.check(), None);
        assert!(b.interrupt().is_none());
    }

    #[test]
    fn tiny_memory_budget_is_spent_at_once() {
        if resident_bytes().is_none() {
            return; // no /proc here
        }
        let b = Budget::new(Limits {
            max_memory: Some(1024),
            timeout: None,
        });
        let s = b.check().expect("spent");
        assert_eq!(s.what, "memory budget");
        assert_eq!(b.spent(), Some(s));
    }

    #[test]
    fn zero_timeout_is_spent() {
        let b = Budget::new(Limits {
            max_memory: None,
            timeout: Some(Duration::ZERO),
        });
        std::thread::sleep(Duration::from_millis(1));
        assert_eq!(b.check().map(|s| s.what), Some("time budget"));
    }
}
