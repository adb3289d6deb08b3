//! Where races are decided: per memory cell, the last write and the reads since, each with
//! the thread, barrier epoch and warp-clock stamp of the access. An access is ordered after an
//! earlier one when a block barrier separates them (epochs), they are the same thread, or a
//! warp collective both took part in lies between them (warp vector clocks). Lock-step warps
//! order two same-warp accesses only when both are performed in memory (`volatile` accesses,
//! atomics): the compiler may keep a plain access in a register, so it races as it would
//! without lock-step. Every reported pair is a real race.

/// One recorded access.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Acc {
    pub tid: u32,
    pub epoch: u32,
    pub stamp: u32,
    pub pc: u32,
    /// Ordered by lock-step warps (see [`Now::lockstep`]).
    pub lock: bool,
}

/// The kind of an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Read,
    Write,
    Atomic,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Read => "read",
            Kind::Write => "write",
            Kind::Atomic => "atomic",
        }
    }
}

/// The thread making the current access and its happens-before state.
pub(crate) struct Now<'a> {
    pub tid: u32,
    pub pc: u32,
    pub epoch: u32,
    pub vc: &'a [u32; 32],
    /// Lock-step warps order this access with the same-warp accesses that have the flag too:
    /// set under the lock-step model for accesses performed in memory (`Inst::is_volatile`).
    pub lockstep: bool,
}

impl Now<'_> {
    fn acc(&self) -> Acc {
        Acc {
            tid: self.tid,
            epoch: self.epoch,
            stamp: self.vc[(self.tid % 32) as usize],
            pc: self.pc,
            lock: self.lockstep,
        }
    }

    /// True when `prev` happens before this access.
    fn after(&self, prev: &Acc) -> bool {
        prev.epoch < self.epoch
            || prev.tid == self.tid
            || (prev.tid / 32 == self.tid / 32
                && ((self.lockstep && prev.lock) || self.vc[(prev.tid % 32) as usize] > prev.stamp))
    }
}

/// The earlier access of a race.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Conflict {
    pub tid: u32,
    pub pc: u32,
    pub kind: Kind,
}

/// Shadow state of one cell within one block run, plus the first accesses of each kind
/// (the block's summary for races between blocks).
#[derive(Clone, Debug, Default)]
pub(crate) struct Shadow {
    write: Option<Acc>,
    write_atomic: bool,
    reads: Vec<Acc>,
    /// First read (tid, pc) of the block.
    pub first_read: Option<(u32, u32)>,
    /// First write (tid, pc, atomic) of the block.
    pub first_write: Option<(u32, u32, bool)>,
}

impl Shadow {
    /// Records an access and returns an earlier access it races with.
    pub fn access(&mut self, now: &Now, kind: Kind) -> Option<Conflict> {
        let atomic = kind == Kind::Atomic;
        let mut conflict = None;
        if let Some(w) = &self.write {
            if !(now.after(w) || (atomic && self.write_atomic)) {
                conflict = Some(Conflict {
                    tid: w.tid,
                    pc: w.pc,
                    kind: if self.write_atomic {
                        Kind::Atomic
                    } else {
                        Kind::Write
                    },
                });
            }
        }
        match kind {
            Kind::Read => {
                self.first_read.get_or_insert((now.tid, now.pc));
                self.reads.retain(|r| r.epoch == now.epoch);
                let a = now.acc();
                // The latest read of each thread of each kind: a later one of the same kind
                // is ordered after every write the earlier one is.
                match self
                    .reads
                    .iter_mut()
                    .find(|r| r.tid == now.tid && r.lock == now.lockstep)
                {
                    Some(r) => *r = a,
                    None => self.reads.push(a),
                }
            }
            Kind::Write | Kind::Atomic => {
                self.first_write.get_or_insert((now.tid, now.pc, atomic));
                if conflict.is_none() {
                    conflict = self.reads.iter().find(|r| !now.after(r)).map(|r| Conflict {
                        tid: r.tid,
                        pc: r.pc,
                        kind: Kind::Read,
                    });
                }
                self.reads.clear();
                self.write = Some(now.acc());
                self.write_atomic = atomic;
            }
        }
        conflict
    }
}
