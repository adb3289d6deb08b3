//! Dead assignments: registers whose every use was substituted by their value.
//!
//! Only assignments of pure values go; an assignment that loads from memory stays (the
//! load is an access the verifier must check), and so does everything else.

use std::collections::HashSet;
use warpsafe_ir::{Block, Expr, ExprKind, Stmt, StmtKind, VarId};

/// Removes assignments to variables nothing reads, until none is left.
pub(crate) fn prune_dead(body: &mut Block) {
    loop {
        let mut read = HashSet::new();
        for s in body.iter() {
            s.walk(&mut |x| {
                for e in x.exprs() {
                    vars_of(e, &mut read);
                }
            });
        }
        if !remove(body, &read) {
            return;
        }
    }
}

fn vars_of(e: &Expr, out: &mut HashSet<VarId>) {
    e.walk(&mut |x| {
        if let ExprKind::Var(v) = &x.kind {
            out.insert(*v);
        }
    });
}

fn has_load(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= matches!(x.kind, ExprKind::Load(..)));
    found
}

fn dead(s: &Stmt, read: &HashSet<VarId>) -> bool {
    match &s.kind {
        StmtKind::Assign { var, value } => !read.contains(var) && !has_load(value),
        _ => false,
    }
}

/// Removes dead assignments from `b` and nested blocks; true when any went.
fn remove(b: &mut Block, read: &HashSet<VarId>) -> bool {
    let before = b.len();
    b.retain(|s| !dead(s, read));
    let mut changed = b.len() != before;
    for s in b.iter_mut() {
        match &mut s.kind {
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                changed |= remove(then_body, read);
                changed |= remove(else_body, read);
            }
            StmtKind::For {
                init, update, body, ..
            } => {
                changed |= remove(init, read);
                changed |= remove(update, read);
                changed |= remove(body, read);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                changed |= remove(body, read);
            }
            _ => {}
        }
    }
    changed
}
