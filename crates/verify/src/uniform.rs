//! The fast uniformity pass: a term built only from launch-wide values, `blockIdx` and the
//! iteration indices of synchronising loops has the same value in every thread of a block
//! (in the same iteration), so the barrier it guards needs no SMT query. Memory reads are
//! fresh per thread, so a condition fed by a (possibly racy) read is never uniform.

use crate::term::{SymKind, Term};

/// True when `t` is provably equal across two threads of one block in the same iterations.
pub fn is_block_uniform(t: &Term) -> bool {
    t.free_syms().iter().all(|s| {
        (crate::term::thread(s) == 0 && s.as_sym().is_some_and(|x| x.kind == SymKind::Shared))
            || matches!(
                s.as_sym().map(|s| s.kind),
                Some(SymKind::Bid | SymKind::Iter { sync: true })
            )
    })
}

/// True when `t` is provably equal across any two threads of the launch in the same
/// iterations: like [`is_block_uniform`] without `blockIdx`.
pub fn is_grid_uniform(t: &Term) -> bool {
    t.free_syms().iter().all(|s| {
        (crate::term::thread(s) == 0 && s.as_sym().is_some_and(|x| x.kind == SymKind::Shared))
            || matches!(
                s.as_sym().map(|s| s.kind),
                Some(SymKind::Iter { sync: true })
            )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Sort;

    #[test]
    fn thread_ids_and_reads_are_not_uniform() {
        let n = crate::term::sym("n".into(), Sort::BitVec(32), SymKind::Shared, 0);
        let k = crate::term::sym(
            "k1".into(),
            Sort::BitVec(64),
            SymKind::Iter { sync: true },
            1,
        );
        let tid = crate::term::sym("tid1_x".into(), Sort::BitVec(32), SymKind::Tid, 1);
        let rd = crate::term::sym("v1_3".into(), Sort::BitVec(32), SymKind::Load, 1);
        assert!(is_block_uniform(&n.ult(&k.zext_to(32))));
        assert!(!is_block_uniform(&tid.ult(&n)));
        assert!(!is_block_uniform(&rd.ult(&n)));
    }

    #[test]
    fn block_ids_are_block_uniform_but_not_grid_uniform() {
        let n = crate::term::sym("n".into(), Sort::BitVec(32), SymKind::Shared, 0);
        let bid = crate::term::sym("bid1_x".into(), Sort::BitVec(32), SymKind::Bid, 1);
        assert!(is_block_uniform(&bid.ult(&n)));
        assert!(!is_grid_uniform(&bid.ult(&n)));
        assert!(is_grid_uniform(&n.ult(&Term::bv(32, 7))));
    }
}
