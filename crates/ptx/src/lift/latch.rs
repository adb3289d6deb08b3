//! Loops that leave by `ret` at their latch. When a rotated loop's exit block is the kernel's
//! `ret`, structuring makes the exit a `return` inside the loop:
//!
//! ```text
//! for (;;) { B; if (c) {} else { return; } }
//! ```
//!
//! The verifier reads a loop's condition only from its head or latch, so such a loop gets no
//! condition at all (an index bounded by `c` looks unbounded in every iteration). When `B`
//! has no `break` or `continue` of its own, the loop is rewritten to
//!
//! ```text
//! do { B; } while (c); return;
//! ```
//!
//! which runs the same statements in the same order: both run `B` once and then again while
//! `c` holds, and both return when it fails (a `return` inside `B` returns from either).

use warpsafe_ir::{Block, Expr, Stmt, StmtKind, UnOp};

/// Rewrites every such loop, at any depth.
pub(crate) fn latch_returns(body: &mut Block) {
    let mut i = 0;
    while i < body.len() {
        recurse(&mut body[i]);
        if let Some((do_while, ret)) = rewrite(&body[i]) {
            body[i] = do_while;
            body.insert(i + 1, ret);
            i += 1;
        }
        i += 1;
    }
}

fn recurse(s: &mut Stmt) {
    match &mut s.kind {
        StmtKind::If {
            then_body,
            else_body,
            ..
        } => {
            latch_returns(then_body);
            latch_returns(else_body);
        }
        StmtKind::For { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. } => latch_returns(body),
        _ => {}
    }
}

/// The `do … while` and the `return` that replace `s`, when it has the shape above.
fn rewrite(s: &Stmt) -> Option<(Stmt, Stmt)> {
    let StmtKind::For {
        init,
        cond: None,
        update,
        body,
    } = &s.kind
    else {
        return None;
    };
    if !init.is_empty() || !update.is_empty() {
        return None;
    }
    let (last, rest) = body.split_last()?;
    let StmtKind::If {
        cond,
        then_body,
        else_body,
    } = &last.kind
    else {
        return None;
    };
    let (stay, ret) = match (then_body.as_slice(), else_body.as_slice()) {
        ([], [r]) if matches!(r.kind, StmtKind::Return) => (cond.clone(), r),
        ([r], []) if matches!(r.kind, StmtKind::Return) => {
            (Expr::unary(UnOp::Not, cond.clone()), r)
        }
        _ => return None,
    };
    if rest.iter().any(leaves_this_loop) {
        return None;
    }
    let do_while = Stmt::new(StmtKind::DoWhile {
        body: rest.to_vec(),
        cond: stay,
    })
    .with_span(s.span);
    Some((do_while, ret.clone()))
}

/// `s` holds a `break` or `continue` that is not inside a nested loop.
fn leaves_this_loop(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Break | StmtKind::Continue => true,
        StmtKind::If {
            then_body,
            else_body,
            ..
        } => then_body.iter().chain(else_body).any(leaves_this_loop),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_ir::{BinOp, ScalarType, VarId};

    fn i32v(v: u32) -> Expr {
        Expr::var(VarId(v), ScalarType::I32)
    }

    fn bump(v: u32) -> Stmt {
        Stmt::new(StmtKind::Assign {
            var: VarId(v),
            value: Expr::binary(BinOp::Add, i32v(v), Expr::i32(4)),
        })
    }

    fn ret() -> Stmt {
        Stmt::new(StmtKind::Return)
    }

    fn latch(cond: Expr, then_body: Block, else_body: Block) -> Stmt {
        Stmt::new(StmtKind::If {
            cond,
            then_body,
            else_body,
        })
    }

    fn forever(body: Block) -> Stmt {
        Stmt::new(StmtKind::For {
            init: vec![],
            cond: None,
            update: vec![],
            body,
        })
    }

    fn lt(v: u32, w: u32) -> Expr {
        Expr::binary(BinOp::Lt, i32v(v), i32v(w))
    }

    #[test]
    fn a_loop_returning_at_its_latch_becomes_a_do_while_and_a_return() {
        for (then_body, else_body, cond) in [
            (vec![], vec![ret()], lt(0, 1)),
            (vec![ret()], vec![], Expr::unary(UnOp::Not, lt(0, 1))),
        ] {
            let mut body = vec![forever(vec![
                bump(0),
                latch(lt(0, 1), then_body, else_body),
            ])];
            latch_returns(&mut body);
            assert_eq!(body.len(), 2);
            assert_eq!(
                body[0].kind,
                StmtKind::DoWhile {
                    body: vec![bump(0)],
                    cond
                }
            );
            assert_eq!(body[1].kind, StmtKind::Return);
        }
    }

    #[test]
    fn loops_that_leave_otherwise_stay() {
        let cases = [
            // A `continue` in the body would skip the test.
            vec![
                latch(lt(0, 2), vec![Stmt::new(StmtKind::Continue)], vec![]),
                latch(lt(0, 1), vec![], vec![ret()]),
            ],
            // Not a return at the latch.
            vec![bump(0), latch(lt(0, 1), vec![], vec![bump(1), ret()])],
            // The latch is not the last statement.
            vec![latch(lt(0, 1), vec![], vec![ret()]), bump(0)],
        ];
        for case in cases {
            let mut body = vec![forever(case.clone())];
            latch_returns(&mut body);
            assert_eq!(body, vec![forever(case)]);
        }
    }

    #[test]
    fn nested_loops_are_rewritten_and_their_breaks_do_not_count() {
        let inner = forever(vec![bump(1), latch(lt(1, 2), vec![], vec![ret()])]);
        let with_break = Stmt::new(StmtKind::While {
            cond: lt(0, 2),
            body: vec![Stmt::new(StmtKind::Break)],
        });
        let mut body = vec![forever(vec![
            inner,
            with_break.clone(),
            latch(lt(0, 1), vec![], vec![ret()]),
        ])];
        latch_returns(&mut body);
        let StmtKind::DoWhile { body: outer, .. } = &body[0].kind else {
            panic!("{:?}", body[0].kind)
        };
        assert!(matches!(outer[0].kind, StmtKind::DoWhile { .. }));
        assert_eq!(outer[1].kind, StmtKind::Return);
        assert_eq!(outer[2], with_break);
    }
}
