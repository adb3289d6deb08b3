//! Loop-carried copies: NVRTC computes a loop's next induction value into a fresh register at
//! the top of the body (`r28 = r22 << 1`), copies it back at the bottom (`r22 = r28`) and tests
//! the copy (`while (r28 < blockDim.x)`). The verifier's loop analysis recognises an
//! induction `s = s << 1` tested as `s < …`, not one that goes through a second register, so
//! such a loop is rewritten to
//!
//! ```text
//! do { r28 = r22 << 1; …; r22 = r22 << 1; } while (r22 < blockDim.x);
//! ```
//!
//! which computes the same values: the copy's source is recomputed from the same operands
//! (none of which the body changes in between), and after the copy both registers hold the
//! same value, so the condition may read either. A copy that reinterprets the bits
//! (`r58 = (u32)r64` of an `i32` register) becomes the same cast of the recomputed value.

use std::collections::HashSet;
use warpsafe_ir::{Block, Expr, ExprKind, Stmt, StmtKind, VarId};

/// Rewrites every `do … while` loop (at any depth) whose body ends in a loop-carried copy.
pub(crate) fn direct_inductions(body: &mut Block) {
    for s in body.iter_mut() {
        match &mut s.kind {
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                direct_inductions(then_body);
                direct_inductions(else_body);
            }
            StmtKind::For {
                init, update, body, ..
            } => {
                direct_inductions(init);
                direct_inductions(update);
                direct_inductions(body);
            }
            StmtKind::While { body, .. } => direct_inductions(body),
            StmtKind::DoWhile { body, cond } => {
                direct_inductions(body);
                rewrite(body, cond);
            }
            _ => {}
        }
    }
}

/// `… b = e; … a = b; } while (c)` → `… b = e; … a = e; } while (c[b := a])` when `e` reads
/// neither `b` nor memory, and nothing between the two assignments writes `a`, `b` or a
/// variable `e` reads.
fn rewrite(body: &mut Block, cond: &mut Expr) {
    let Some(last) = body.last() else { return };
    let StmtKind::Assign {
        var: a,
        value: copied,
    } = &last.kind
    else {
        return;
    };
    // The copy may reinterpret the bits (`a = (u32)b`, `b: i32`): then `a = (u32)e`.
    let (b, cast) = match &copied.kind {
        ExprKind::Var(b) => (*b, false),
        ExprKind::Cast(x) if same_width_int(x, copied) => match x.kind {
            ExprKind::Var(b) => (b, true),
            _ => return,
        },
        _ => return,
    };
    let a = *a;
    // A `continue` would test the condition without running the copy: then `a` and `b` differ.
    if a == b || body.iter().any(has_continue) {
        return;
    }
    let end = body.len() - 1;
    let Some(j) = (0..end).rev().find(|&j| assigns(&body[j], b)) else {
        return;
    };
    let StmtKind::Assign { value: e, .. } = &body[j].kind else {
        return;
    };
    let reads = vars(e);
    if reads.contains(&b) || loads(e) {
        return;
    }
    let mut guarded: HashSet<VarId> = reads;
    guarded.insert(a);
    guarded.insert(b);
    if body[j + 1..end]
        .iter()
        .any(|s| guarded.iter().any(|v| writes_anywhere(s, *v)))
    {
        return;
    }
    let value = if cast {
        Expr::new(ExprKind::Cast(Box::new(e.clone())), copied.ty)
    } else {
        e.clone()
    }
    .with_span(copied.span);
    if let Some(StmtKind::Assign { value: v, .. }) = body.last_mut().map(|s| &mut s.kind) {
        *v = value;
    }
    // Both hold the same bits after the copy; the condition may read `a` when of one type.
    if !cast {
        rename(cond, b, a);
    }
}

/// `inner` and `outer` are integers of one width.
fn same_width_int(inner: &Expr, outer: &Expr) -> bool {
    inner.ty.is_int() && outer.ty.is_int() && inner.ty.bits() == outer.ty.bits()
}

/// `s` holds a `continue` (of this loop or, conservatively, of a nested one).
pub(super) fn has_continue(s: &Stmt) -> bool {
    let mut found = false;
    s.walk(&mut |x| found |= matches!(x.kind, StmtKind::Continue));
    found
}

/// `s` is a top-level `Assign` to `v`.
fn assigns(s: &Stmt, v: VarId) -> bool {
    matches!(s.kind, StmtKind::Assign { var, .. } if var == v)
}

/// `s` or a statement nested in it assigns `v`.
fn writes_anywhere(s: &Stmt, v: VarId) -> bool {
    let mut found = false;
    s.walk(&mut |x| found |= assigns(x, v));
    found
}

fn vars(e: &Expr) -> HashSet<VarId> {
    let mut out = HashSet::new();
    e.walk(&mut |x| {
        if let ExprKind::Var(v) = x.kind {
            out.insert(v);
        }
    });
    out
}

/// `e` reads memory.
pub(super) fn loads(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= matches!(x.kind, ExprKind::Load(..)));
    found
}

/// Replaces every read of `from` in `e` by a read of `to` (same type).
fn rename(e: &mut Expr, from: VarId, to: VarId) {
    match &mut e.kind {
        ExprKind::Var(v) if *v == from => *v = to,
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Param(_)
        | ExprKind::Builtin(_)
        | ExprKind::BufferLen(_) => {}
        ExprKind::Unary(_, x) | ExprKind::Cast(x) => rename(x, from, to),
        ExprKind::Binary(_, x, y) | ExprKind::Logical(_, x, y) => {
            rename(x, from, to);
            rename(y, from, to);
        }
        ExprKind::Select(c, x, y) => {
            rename(c, from, to);
            rename(x, from, to);
            rename(y, from, to);
        }
        ExprKind::Call(_, args) | ExprKind::Load(_, args) => {
            for x in args {
                rename(x, from, to);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_ir::{BinOp, Builtin, Dim, ScalarType};

    fn u32v(v: u32) -> Expr {
        Expr::var(VarId(v), ScalarType::U32)
    }

    fn assign(v: u32, value: Expr) -> Stmt {
        Stmt::new(StmtKind::Assign {
            var: VarId(v),
            value,
        })
    }

    fn lt_block_dim(v: u32) -> Expr {
        Expr::binary(BinOp::Lt, u32v(v), Expr::builtin(Builtin::BlockDim(Dim::X)))
    }

    #[test]
    fn a_copy_through_a_temporary_becomes_a_direct_induction() {
        let next = Expr::binary(BinOp::Shl, u32v(0), Expr::u32(1));
        let mut body = vec![Stmt::new(StmtKind::DoWhile {
            body: vec![
                assign(1, next.clone()),
                Stmt::new(StmtKind::SyncThreads),
                assign(0, u32v(1)),
            ],
            cond: lt_block_dim(1),
        })];
        direct_inductions(&mut body);
        let StmtKind::DoWhile { body: b, cond } = &body[0].kind else {
            panic!()
        };
        assert_eq!(
            b[2].kind,
            StmtKind::Assign {
                var: VarId(0),
                value: next
            }
        );
        assert_eq!(*cond, lt_block_dim(0));
    }

    #[test]
    fn a_copy_whose_operands_change_in_between_stays() {
        let shifted = Expr::binary(BinOp::Shl, u32v(0), Expr::u32(1));
        let summed = Expr::binary(BinOp::Add, u32v(0), u32v(2));
        let cases = [
            (shifted.clone(), assign(0, Expr::u32(7))),
            (summed, assign(2, Expr::u32(7))),
            (shifted, Stmt::new(StmtKind::Continue)),
        ];
        for (next, middle) in cases {
            let mut body = vec![Stmt::new(StmtKind::DoWhile {
                body: vec![assign(1, next), middle, assign(0, u32v(1))],
                cond: lt_block_dim(1),
            })];
            direct_inductions(&mut body);
            let StmtKind::DoWhile { body: b, cond } = &body[0].kind else {
                panic!()
            };
            assert_eq!(
                b[2].kind,
                StmtKind::Assign {
                    var: VarId(0),
                    value: u32v(1)
                }
            );
            assert_eq!(*cond, lt_block_dim(1));
        }
    }
}
