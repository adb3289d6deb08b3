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
    match &e.kind {
        ExprKind::Var(v) => {
            out.insert(*v);
        }
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => vars_of(a, out),
        ExprKind::Binary(_, a, b) | ExprKind::Logical(_, a, b) => {
            vars_of(a, out);
            vars_of(b, out);
        }
        ExprKind::Select(c, a, b) => {
            vars_of(c, out);
            vars_of(a, out);
            vars_of(b, out);
        }
        ExprKind::Call(_, xs) | ExprKind::Load(_, xs) => xs.iter().for_each(|x| vars_of(x, out)),
        _ => {}
    }
}

fn has_load(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Load(..) => true,
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => has_load(a),
        ExprKind::Binary(_, a, b) | ExprKind::Logical(_, a, b) => has_load(a) || has_load(b),
        ExprKind::Select(c, a, b) => has_load(c) || has_load(a) || has_load(b),
        ExprKind::Call(_, xs) => xs.iter().any(has_load),
        _ => false,
    }
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
