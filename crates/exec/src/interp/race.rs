//! Where races are decided within a block: happens-before over block barriers (epochs) and
//! warp syncs (per-thread warp vector clocks), with an O(1) amortised shadow record per cell.
//!
//! Each cell remembers its last write and the reads since, FastTrack-style: reads of the
//! current epoch from one warp are a lane mask with one shared stamp (spilled to a per-lane
//! table when stamps differ), plus one read from any other warp. Reads from two warps make any
//! later write of the epoch a race, so nothing more is needed. A write clears the reads: they
//! were either ordered before it or reported.
//!
//! The legacy lock-step warp model orders two accesses of one warp only when both are
//! performed in memory (`volatile` accesses, atomics): a plain access may be kept in a
//! register by the compiler, so it races as it would without lock-step. Each recorded access
//! keeps that bit; a lane that read a cell both ways within one epoch counts as a plain
//! reader (it may then report a race a later ordered read alone would not have; IR-lowered
//! code never does this, as its volatility is per allocation).

/// The last plain read or write kinds a cell records.
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

    /// Bit in a global-access summary.
    pub fn bit(self) -> u8 {
        match self {
            Kind::Read => 1,
            Kind::Write => 2,
            Kind::Atomic => 4,
        }
    }

    /// Index into per-kind site arrays.
    pub fn slot(self) -> usize {
        self as usize
    }

    /// All kinds, writes first (the order races are reported in).
    pub const ALL: [Kind; 3] = [Kind::Write, Kind::Atomic, Kind::Read];

    /// True when accesses of kinds `a` and `b` by different, unordered threads race.
    pub fn conflicts(a: Kind, b: Kind) -> bool {
        !matches!(
            (a, b),
            (Kind::Read, Kind::Read) | (Kind::Atomic, Kind::Atomic)
        )
    }
}

/// The thread making an access, with its happens-before state.
pub(crate) struct Accessor<'a> {
    pub tid: u32,
    pub pc: u32,
    pub epoch: u32,
    /// The thread's warp vector clock.
    pub vc: &'a [u32; 32],
    /// Legacy lock-step warps order this access with earlier same-warp accesses that have the
    /// flag too: set it for accesses performed in memory (`Inst::is_volatile`) under the
    /// lock-step model. Set for every access, lock-step orders every same-warp pair.
    pub lockstep: bool,
}

impl Accessor<'_> {
    #[inline(always)]
    fn lane(&self) -> u32 {
        self.tid % 32
    }

    #[inline(always)]
    fn warp(&self) -> u32 {
        self.tid / 32
    }

    /// True when an access of this epoch by `tid` with warp stamp `stamp` (lock-step ordered
    /// when `lockstep`) happens before this one.
    #[inline(always)]
    fn after(&self, tid: u32, stamp: u32, lockstep: bool) -> bool {
        tid / 32 == self.warp()
            && ((self.lockstep && lockstep) || self.vc[(tid % 32) as usize] > stamp)
    }
}

/// An earlier access that races with the current one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Conflict {
    pub tid: u32,
    pub pc: u32,
    pub kind: Kind,
}

const HAS_W: u8 = 1;
const W_ATOMIC: u8 = 2;
const HAS_R: u8 = 4;
const HAS_O: u8 = 8;
const INIT: u8 = 16;
/// The last write is ordered by lock-step warps (see [`Accessor::lockstep`]).
const W_LOCK: u8 = 32;
const NO_SIDE: u32 = u32::MAX;

/// Shadow state of one memory cell within one block run (stale when `gen` differs).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cell {
    gen: u32,
    flags: u8,
    w_tid: u16,
    r_tid: u16,
    o_tid: u16,
    w_epoch: u32,
    w_stamp: u32,
    w_pc: u32,
    r_epoch: u32,
    r_pc: u32,
    r_mask: u32,
    r_stamp: u32,
    r_side: u32,
    /// Lanes of `r_mask` whose every read this epoch is ordered by lock-step warps.
    r_lock: u32,
    o_pc: u32,
    /// Index of this cell's entry in the block's global-access summary.
    pub touch: u32,
}

/// Per-block side storage for cells whose same-warp readers have different stamps.
#[derive(Default)]
pub(crate) struct SideTable {
    rows: Vec<[u32; 32]>,
}

impl SideTable {
    pub fn clear(&mut self) {
        self.rows.clear();
    }
}

impl Cell {
    /// Brings a stale cell into generation `gen`; returns true when it was stale.
    #[inline(always)]
    pub fn refresh(&mut self, gen: u32) -> bool {
        if self.gen != gen {
            *self = Cell {
                gen,
                r_side: NO_SIDE,
                ..Cell::default()
            };
            true
        } else {
            false
        }
    }

    /// True once the cell has been written in this block.
    #[inline(always)]
    pub fn initialised(&self) -> bool {
        self.flags & INIT != 0
    }

    /// Marks the cell written without race bookkeeping.
    #[inline(always)]
    pub fn mark_init(&mut self) {
        self.flags |= INIT;
    }

    /// Records a read (or the read half of an atomic) and returns a conflicting earlier write.
    #[inline]
    pub fn read(&mut self, a: &Accessor, side: &mut SideTable) -> Option<Conflict> {
        let conflict = self.check_write(a, false);
        let lane = a.lane();
        let bit = 1u32 << lane;
        let stamp = a.vc[lane as usize];
        let lock = if a.lockstep { bit } else { 0 };
        if self.flags & HAS_R == 0 || self.r_epoch != a.epoch {
            self.flags = (self.flags | HAS_R) & !HAS_O;
            self.r_epoch = a.epoch;
            self.r_tid = a.tid as u16;
            self.r_pc = a.pc;
            self.r_mask = bit;
            self.r_stamp = stamp;
            self.r_side = NO_SIDE;
            self.r_lock = lock;
        } else if self.r_tid as u32 / 32 == a.warp() {
            // One plain read makes the lane a plain reader for the rest of the epoch.
            if self.r_mask & bit == 0 {
                self.r_lock |= lock;
            } else {
                self.r_lock &= !bit | lock;
            }
            if self.r_side != NO_SIDE {
                if let Some(row) = side.rows.get_mut(self.r_side as usize) {
                    row[lane as usize] = stamp + 1;
                }
                self.r_mask |= bit;
            } else if self.r_mask == bit || self.r_stamp == stamp {
                self.r_mask |= bit;
                self.r_stamp = stamp;
            } else {
                let mut row = [0u32; 32];
                let mut m = self.r_mask;
                while m != 0 {
                    row[m.trailing_zeros() as usize] = self.r_stamp + 1;
                    m &= m - 1;
                }
                row[lane as usize] = stamp + 1;
                self.r_side = side.rows.len() as u32;
                side.rows.push(row);
                self.r_mask |= bit;
            }
        } else if self.flags & HAS_O == 0 {
            self.flags |= HAS_O;
            self.o_tid = a.tid as u16;
            self.o_pc = a.pc;
        }
        conflict
    }

    /// Records a write (plain or atomic) and returns a conflicting earlier access.
    #[inline]
    pub fn write(&mut self, a: &Accessor, atomic: bool, side: &SideTable) -> Option<Conflict> {
        let mut conflict = self.check_write(a, atomic);
        if conflict.is_none() && self.flags & HAS_R != 0 && self.r_epoch == a.epoch {
            conflict = self.check_reads(a, side);
        }
        self.flags = (self.flags & !(HAS_R | HAS_O | W_ATOMIC | W_LOCK)) | HAS_W | INIT;
        if atomic {
            self.flags |= W_ATOMIC;
        }
        if a.lockstep {
            self.flags |= W_LOCK;
        }
        self.w_tid = a.tid as u16;
        self.w_epoch = a.epoch;
        self.w_stamp = a.vc[a.lane() as usize];
        self.w_pc = a.pc;
        conflict
    }

    #[inline(always)]
    fn check_write(&self, a: &Accessor, atomic: bool) -> Option<Conflict> {
        if self.flags & HAS_W == 0 || self.w_epoch != a.epoch {
            return None;
        }
        let w_tid = self.w_tid as u32;
        let w_atomic = self.flags & W_ATOMIC != 0;
        let w_lock = self.flags & W_LOCK != 0;
        if w_tid == a.tid || (w_atomic && atomic) || a.after(w_tid, self.w_stamp, w_lock) {
            return None;
        }
        Some(Conflict {
            tid: w_tid,
            pc: self.w_pc,
            kind: if w_atomic { Kind::Atomic } else { Kind::Write },
        })
    }

    fn check_reads(&self, a: &Accessor, side: &SideTable) -> Option<Conflict> {
        let r_warp = self.r_tid as u32 / 32;
        let read = |tid: u32, pc: u32| {
            Some(Conflict {
                tid,
                pc,
                kind: Kind::Read,
            })
        };
        if self.flags & HAS_O != 0 {
            return if r_warp != a.warp() {
                read(self.r_tid as u32, self.r_pc)
            } else {
                read(self.o_tid as u32, self.o_pc)
            };
        }
        if r_warp != a.warp() {
            return read(self.r_tid as u32, self.r_pc);
        }
        let mut m = self.r_mask & !(1u32 << a.lane());
        if a.lockstep {
            m &= !self.r_lock;
        }
        let row = side.rows.get(self.r_side as usize);
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            let stamp = match row {
                Some(r) => r[l as usize].saturating_sub(1),
                None => self.r_stamp,
            };
            if a.vc[l as usize] <= stamp {
                return read(r_warp * 32 + l, self.r_pc);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(tid: u32, epoch: u32, vc: &[u32; 32]) -> Accessor<'_> {
        Accessor {
            tid,
            pc: tid,
            epoch,
            vc,
            lockstep: false,
        }
    }

    #[test]
    fn barrier_epochs_order_accesses() {
        let vc = [0; 32];
        let mut side = SideTable::default();
        let mut c = Cell::default();
        c.refresh(1);
        assert!(c.write(&acc(0, 0, &vc), false, &side).is_none());
        assert!(c.read(&acc(40, 0, &vc), &mut side).is_some());
        assert!(c.read(&acc(40, 1, &vc), &mut side).is_none());
    }

    #[test]
    fn reads_from_two_warps_race_with_any_write() {
        let vc = [0; 32];
        let mut side = SideTable::default();
        let mut c = Cell::default();
        c.refresh(1);
        assert!(c.read(&acc(1, 0, &vc), &mut side).is_none());
        assert!(c.read(&acc(33, 0, &vc), &mut side).is_none());
        let k = c
            .write(&acc(1, 0, &vc), false, &side)
            .map(|c| (c.tid, c.kind));
        assert_eq!(k, Some((33, Kind::Read)));
    }

    #[test]
    fn warp_clock_orders_same_warp() {
        let mut side = SideTable::default();
        let mut c = Cell::default();
        c.refresh(1);
        let vc0 = [0; 32];
        assert!(c.read(&acc(3, 0, &vc0), &mut side).is_none());
        let mut vc1 = [0; 32];
        assert!(c.write(&acc(4, 0, &vc1), false, &side).is_some());
        c.refresh(2);
        assert!(c.read(&acc(3, 0, &vc0), &mut side).is_none());
        vc1[3] = 1;
        assert!(c.write(&acc(4, 0, &vc1), false, &side).is_none());
    }

    /// An access of lane `tid` (epoch 0) that lock-step warps order when `lockstep`.
    fn lock(tid: u32, vc: &[u32; 32], lockstep: bool) -> Accessor<'_> {
        Accessor {
            lockstep,
            ..acc(tid, 0, vc)
        }
    }

    #[test]
    fn lockstep_orders_a_warp_only_between_volatile_accesses() {
        let vc = [0; 32];
        let mut side = SideTable::default();
        for (first, second, races) in [
            (true, true, false),
            (false, true, true),
            (true, false, true),
            (false, false, true),
        ] {
            // write, then read by another lane
            let mut c = Cell::default();
            c.refresh(1);
            assert!(c.write(&lock(4, &vc, first), false, &side).is_none());
            let r = c.read(&lock(3, &vc, second), &mut side);
            assert_eq!(r.is_some(), races, "write {first} then read {second}");
            // read, then write by another lane
            let mut c = Cell::default();
            c.refresh(1);
            assert!(c.read(&lock(3, &vc, first), &mut side).is_none());
            let w = c.write(&lock(4, &vc, second), false, &side);
            assert_eq!(w.is_some(), races, "read {first} then write {second}");
        }
    }

    #[test]
    fn lockstep_does_not_order_warps() {
        let vc = [0; 32];
        let side = SideTable::default();
        let mut c = Cell::default();
        c.refresh(1);
        assert!(c.write(&lock(4, &vc, true), false, &side).is_none());
        assert!(c.write(&lock(36, &vc, true), false, &side).is_some());
    }

    #[test]
    fn a_plain_read_among_volatile_ones_still_races() {
        let vc = [0; 32];
        let mut side = SideTable::default();
        let mut c = Cell::default();
        c.refresh(1);
        assert!(c.read(&lock(1, &vc, true), &mut side).is_none());
        assert!(c.read(&lock(2, &vc, false), &mut side).is_none());
        assert!(c.read(&lock(3, &vc, true), &mut side).is_none());
        let w = c.write(&lock(5, &vc, true), false, &side).map(|c| c.tid);
        assert_eq!(w, Some(2));
        // The same lane reading plainly, then volatile: still a plain reader.
        let mut c = Cell::default();
        c.refresh(2);
        assert!(c.read(&lock(2, &vc, false), &mut side).is_none());
        assert!(c.read(&lock(2, &vc, true), &mut side).is_none());
        assert!(c.write(&lock(5, &vc, true), false, &side).is_some());
        // Volatile readers only: ordered.
        let mut c = Cell::default();
        c.refresh(3);
        assert!(c.read(&lock(1, &vc, true), &mut side).is_none());
        assert!(c.read(&lock(2, &vc, true), &mut side).is_none());
        assert!(c.write(&lock(5, &vc, true), false, &side).is_none());
    }

    #[test]
    fn atomics_do_not_race_with_each_other() {
        let vc = [0; 32];
        let side = SideTable::default();
        let mut c = Cell::default();
        c.refresh(1);
        assert!(c.write(&acc(1, 0, &vc), true, &side).is_none());
        assert!(c.write(&acc(70, 0, &vc), true, &side).is_none());
        assert!(c.write(&acc(90, 0, &vc), false, &side).is_some());
    }
}
