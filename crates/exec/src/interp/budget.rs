//! The thread-instruction budget of a launch, per block and in all. Blocks running at once
//! share the launch-wide count, checking in every [`SLICE`] instructions, so an infinite loop
//! stops every block soon after the budget is spent.

use crate::ExecError;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// Thread-instructions a block runs between check-ins with the launch-wide count.
const SLICE: u64 = 1 << 20;

/// The budget of one launch.
pub(crate) struct Budget {
    per_block: u64,
    total: u64,
    used: AtomicU64,
    spent: AtomicBool,
    /// Why the launch stopped: the first limit a block ran past.
    reason: Mutex<Option<ExecError>>,
}

impl Budget {
    /// At most `per_block` thread-instructions in each block and `total` in all.
    pub fn new(per_block: u64, total: u64) -> Budget {
        Budget {
            per_block,
            total,
            used: AtomicU64::new(0),
            spent: AtomicBool::new(false),
            reason: Mutex::new(None),
        }
    }

    /// The count at which a block that has executed `instrs` must check in next.
    pub fn next_check(&self, instrs: u64) -> u64 {
        instrs.saturating_add(SLICE).min(self.per_block)
    }

    /// True once some block ran past a limit: blocks that have not started yet are skipped.
    pub fn is_spent(&self) -> bool {
        self.spent.load(Relaxed)
    }

    /// Adds what block `block` executed since its last check-in (`reported` of `instrs`);
    /// false when the block or the launch is past its limit (the block must stop).
    pub fn check_in(&self, block: [u32; 3], instrs: u64, reported: &mut u64) -> bool {
        let delta = instrs.saturating_sub(*reported);
        *reported = instrs;
        let used = self.used.fetch_add(delta, Relaxed).saturating_add(delta);
        if instrs > self.per_block {
            self.stop(ExecError::StepLimit {
                block: Some(block),
                limit: self.per_block,
            });
        } else if used > self.total {
            self.stop(ExecError::StepLimit {
                block: None,
                limit: self.total,
            });
        }
        !self.is_spent()
    }

    fn stop(&self, why: ExecError) {
        self.spent.store(true, Relaxed);
        let mut reason = self.reason.lock().unwrap_or_else(|e| e.into_inner());
        reason.get_or_insert(why);
    }

    /// The error that stopped the launch, if one did.
    pub fn reason(&self) -> Option<ExecError> {
        self.reason
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_past_its_own_limit_names_itself() {
        let b = Budget::new(100, u64::MAX);
        let mut reported = 0;
        assert!(b.check_in([0, 0, 0], 100, &mut reported));
        assert!(!b.check_in([2, 0, 0], 101, &mut reported));
        assert_eq!(
            b.reason(),
            Some(ExecError::StepLimit {
                block: Some([2, 0, 0]),
                limit: 100
            })
        );
        assert!(b.is_spent());
    }

    #[test]
    fn blocks_share_the_launch_limit_and_the_first_reason_stays() {
        let b = Budget::new(u64::MAX, 1000);
        let (mut r1, mut r2) = (0, 0);
        assert!(b.check_in([0, 0, 0], 600, &mut r1));
        assert!(!b.check_in([1, 0, 0], 500, &mut r2));
        assert!(!b.check_in([0, 0, 0], 601, &mut r1));
        assert_eq!(
            b.reason(),
            Some(ExecError::StepLimit {
                block: None,
                limit: 1000
            })
        );
    }

    #[test]
    fn check_ins_come_every_slice_and_at_the_block_limit() {
        let b = Budget::new(SLICE * 3 / 2, u64::MAX);
        assert_eq!(b.next_check(0), SLICE);
        assert_eq!(b.next_check(SLICE), SLICE * 3 / 2);
        assert_eq!(Budget::new(u64::MAX, 1).next_check(u64::MAX - 1), u64::MAX);
    }
}
