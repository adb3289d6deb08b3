//! Dead assignments: registers whose every use was substituted by their value, or that only
//! their own updates read.
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
            s.walk(&mut |x| match &x.kind {
                // A variable read only by its own updates (NVRTC's byte offsets beside the
                // element indices, `r = r + 16`) is read by nothing else.
                StmtKind::Assign { var, value } => {
                    let mut own = HashSet::new();
                    vars_of(value, &mut own);
                    own.remove(var);
                    read.extend(own);
                }
                _ => {
                    for e in x.exprs() {
                        vars_of(e, &mut read);
                    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_ir::{BinOp, MemRef, ParamId, ScalarType};

    fn var(v: u32) -> Expr {
        Expr::var(VarId(v), ScalarType::I64)
    }

    fn assign(v: u32, value: Expr) -> Stmt {
        Stmt::new(StmtKind::Assign {
            var: VarId(v),
            value,
        })
    }

    fn bump(v: u32, by: Expr) -> Stmt {
        assign(v, Expr::binary(BinOp::Add, var(v), by))
    }

    #[test]
    fn a_register_only_its_own_updates_read_goes() {
        let store = Stmt::new(StmtKind::Store {
            mem: MemRef::Global(ParamId(0)),
            indices: vec![var(0)],
            value: Expr::i32(1),
        });
        let cond = Expr::binary(BinOp::Lt, var(0), var(3));
        let mut body = vec![Stmt::new(StmtKind::DoWhile {
            body: vec![store, bump(0, var(2)), bump(1, var(2)), bump(2, var(0))],
            cond,
        })];
        prune_dead(&mut body);
        let StmtKind::DoWhile { body: b, .. } = &body[0].kind else {
            panic!()
        };
        // `1` only bumps itself; `2` is read by `0`'s update, and `0` by the store and `2`.
        let kept: Vec<VarId> = b
            .iter()
            .filter_map(|s| match s.kind {
                StmtKind::Assign { var, .. } => Some(var),
                _ => None,
            })
            .collect();
        assert_eq!(kept, vec![VarId(0), VarId(2)]);
    }
}
