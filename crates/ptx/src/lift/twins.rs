//! Registers that hold the counter's value when a loop ends. NVRTC computes a double
//! buffer's next parity twice, once for the body and once for the next iteration:
//!
//! ```text
//! do { pout = 1 - pin; …; pin = 1 - pin; } while (…);
//! … buf[pout * 256 + tid] …
//! ```
//!
//! The verifier summarises `pin` (it alternates) but `pout`, written from `pin` rather than
//! from itself, only as "some value", so a read through it after the loop looks unbounded.
//! Both are assigned the same expression of values nothing changes in between, so after
//! every iteration they are equal; the loop is followed by `pout = pin;`, which changes no
//! value and tells the verifier which one `pout` holds.

use warpsafe_ir::{Block, Expr, ExprKind, Stmt, StmtKind, VarId};

use super::carried::{has_continue, loads};
use super::derived::same;
use super::tested::writes;

/// Adds the copy after every `do … while` loop (at any depth) with such a pair.
pub(crate) fn settle_twins(body: &mut Block) {
    let mut i = 0;
    while i < body.len() {
        let mut after = vec![];
        match &mut body[i].kind {
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                settle_twins(then_body);
                settle_twins(else_body);
            }
            StmtKind::For {
                init, update, body, ..
            } => {
                settle_twins(init);
                settle_twins(update);
                settle_twins(body);
            }
            StmtKind::While { body, .. } => settle_twins(body),
            StmtKind::DoWhile { body: inner, .. } => {
                settle_twins(inner);
                after = twins(inner);
            }
            _ => {}
        }
        let span = body[i].span;
        let n = after.len();
        for (k, (d, v, ty)) in after.into_iter().enumerate() {
            let copy = StmtKind::Assign {
                var: d,
                value: Expr::var(v, ty).with_span(span),
            };
            body.insert(i + 1 + k, Stmt::new(copy).with_span(span));
        }
        i += 1 + n;
    }
}

/// Pairs `(d, v, type)` of a loop body `… d = e; … v = e; …` (top level, each variable
/// written once, `e` reading neither `d` nor memory, and nothing between the two writing a
/// variable `e` reads) with no `break` or `continue`: after every iteration `d == v`.
fn twins(body: &Block) -> Vec<(VarId, VarId, warpsafe_ir::ScalarType)> {
    if body.iter().any(|s| has_continue(s) || has_break(s)) {
        return vec![];
    }
    let mut out = vec![];
    for (i, s) in body.iter().enumerate() {
        let StmtKind::Assign { var: d, value: e } = &s.kind else {
            continue;
        };
        let reads = vars(e);
        if reads.contains(d) || loads(e) || writers(body, *d) != [i] {
            continue;
        }
        for (j, t) in body.iter().enumerate().skip(i + 1) {
            let StmtKind::Assign { var: v, value } = &t.kind else {
                continue;
            };
            if v == d || !same(e, value) || writers(body, *v) != [j] {
                continue;
            }
            let untouched = body[i + 1..j]
                .iter()
                .all(|x| reads.iter().all(|r| !writes(x, *r)));
            if untouched {
                out.push((*d, *v, e.ty));
                break;
            }
        }
    }
    out
}

/// `s` holds a `break` (of this loop or, conservatively, of a nested one).
fn has_break(s: &Stmt) -> bool {
    let mut found = false;
    s.walk(&mut |x| found |= matches!(x.kind, StmtKind::Break));
    found
}

/// Positions of the statements of `body` that write `v`.
fn writers(body: &Block, v: VarId) -> Vec<usize> {
    body.iter()
        .enumerate()
        .filter(|(_, s)| writes(s, v))
        .map(|(i, _)| i)
        .collect()
}

fn vars(e: &Expr) -> Vec<VarId> {
    let mut out = vec![];
    e.walk(&mut |x| {
        if let ExprKind::Var(v) = x.kind {
            out.push(v);
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_ir::{BinOp, ScalarType};

    fn i32v(v: u32) -> Expr {
        Expr::var(VarId(v), ScalarType::I32)
    }

    fn assign(v: u32, value: Expr) -> Stmt {
        Stmt::new(StmtKind::Assign {
            var: VarId(v),
            value,
        })
    }

    fn flip(v: u32) -> Expr {
        Expr::binary(BinOp::Sub, Expr::i32(1), i32v(v))
    }

    fn parity_loop(middle: Stmt) -> Block {
        vec![Stmt::new(StmtKind::DoWhile {
            body: vec![assign(1, flip(0)), middle, assign(0, flip(0))],
            cond: Expr::binary(BinOp::Lt, i32v(2), Expr::i32(8)),
        })]
    }

    #[test]
    fn a_parity_computed_twice_is_copied_after_the_loop() {
        let mut b = parity_loop(Stmt::new(StmtKind::SyncThreads));
        settle_twins(&mut b);
        assert_eq!(b.len(), 2);
        assert_eq!(b[1].kind, assign(1, i32v(0)).kind);
    }

    #[test]
    fn pairs_that_may_differ_are_left_alone() {
        for middle in [
            // The operand changes between the two.
            assign(0, Expr::i32(5)),
            Stmt::new(StmtKind::Break),
            Stmt::new(StmtKind::Continue),
            // `d` written twice.
            assign(1, Expr::i32(5)),
        ] {
            let mut b = parity_loop(middle);
            settle_twins(&mut b);
            assert_eq!(b.len(), 1);
        }
    }
}
