//! Removal of constant writes to variables that nothing reads (the counters of unrolled
//! loops, lets whose every read became a constant). A constant write cannot fault, so
//! removing it removes no finding.

use super::visit::{blocks_mut, mark_reads, written_var};
use crate::{Block, Stmt, StmtKind};

/// Drops from `body` the constant `let`s and assignments of variables never read.
pub(crate) fn remove_dead_constants(body: &mut Block, num_vars: usize) {
    let mut read = vec![false; num_vars];
    body.iter().for_each(|s| mark_reads(s, &mut read));
    sweep(body, &read);
}

fn sweep(b: &mut Block, read: &[bool]) {
    b.retain(|s| !is_dead(s, read));
    for s in b.iter_mut() {
        for inner in blocks_mut(s) {
            sweep(inner, read);
        }
    }
}

fn is_dead(s: &Stmt, read: &[bool]) -> bool {
    let constant = match &s.kind {
        StmtKind::Let { init, .. } => init.as_ref().is_none_or(|e| e.as_const().is_some()),
        StmtKind::Assign { value, .. } => value.as_const().is_some(),
        _ => false,
    };
    constant
        && written_var(s)
            .and_then(|v| read.get(v.0 as usize))
            .is_some_and(|r| !r)
}
