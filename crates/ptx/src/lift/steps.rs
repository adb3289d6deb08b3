//! Unsigned counters stepped by signed additions. NVRTC counts a remainder loop down in a
//! register it defines as unsigned (`and.b32 %r35, %r34, 3`) and steps with `add.s32 %r35,
//! %r35, -1`, which lifts to `r35 = (u32)((i32)r35 + -1)`. The verifier does not summarise
//! signed arithmetic on an unsigned variable as an induction (the two wrap at different
//! bounds), so the loop's exit, and every register counted with it, is unknown afterwards.
//!
//! Addition is the same on the bits in both signednesses, and PTX's `add` wraps, so a loop
//! body's `v = (uN)((iN)v + c)` becomes `v = v + c` (or `v - |c|`) in `v`'s own type: the
//! same values, now an induction the verifier solves.

use warpsafe_ir::{BinOp, Block, Expr, ExprKind, StmtKind, Value};

/// Rewrites the steps of every loop body (at any depth).
pub(crate) fn unsigned_steps(body: &mut Block) {
    for s in body.iter_mut() {
        match &mut s.kind {
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                unsigned_steps(then_body);
                unsigned_steps(else_body);
            }
            StmtKind::For {
                init, update, body, ..
            } => {
                unsigned_steps(init);
                rewrite_steps(update);
                rewrite_steps(body);
                unsigned_steps(body);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                rewrite_steps(body);
                unsigned_steps(body);
            }
            _ => {}
        }
    }
}

/// The top-level steps of one loop body.
fn rewrite_steps(body: &mut Block) {
    for s in body.iter_mut() {
        if let StmtKind::Assign { var, value } = &mut s.kind {
            if let Some(step) = unsigned_step(*var, value) {
                *value = step;
            }
        }
    }
}

/// `v + c` in `v`'s type for `value = (uN)((iN)v + c)`, `v: uN`, `c` a constant.
fn unsigned_step(v: warpsafe_ir::VarId, value: &Expr) -> Option<Expr> {
    let ty = value.ty;
    if !ty.is_int() || ty.is_signed() {
        return None;
    }
    let ExprKind::Cast(inner) = &value.kind else {
        return None;
    };
    let ExprKind::Binary(BinOp::Add, a, b) = &inner.kind else {
        return None;
    };
    if !inner.ty.is_signed() || inner.ty.bits() != ty.bits() {
        return None;
    }
    let ExprKind::Cast(x) = &a.kind else {
        return None;
    };
    if !matches!(x.kind, ExprKind::Var(w) if w == v) || x.ty != ty {
        return None;
    }
    let ExprKind::Const(k) = &b.kind else {
        return None;
    };
    let c = k.as_i128()?;
    let var = (**x).clone();
    let (op, magnitude) = if c < 0 {
        (BinOp::Sub, -c)
    } else {
        (BinOp::Add, c)
    };
    if magnitude == 0 || magnitude >= 1i128 << (ty.bits() - 1) {
        return None;
    }
    let step = Expr::constant(Value::from_i128(ty, magnitude));
    Some(Expr::binary(op, var, step).with_span(value.span))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_ir::{ScalarType, Stmt, VarId};

    fn signed_step(c: i32) -> Stmt {
        let v = Expr::var(VarId(0), ScalarType::U32);
        let sum = Expr::binary(BinOp::Add, v.cast(ScalarType::I32), Expr::i32(c));
        Stmt::new(StmtKind::Assign {
            var: VarId(0),
            value: sum.cast(ScalarType::U32),
        })
    }

    fn in_loop(s: Stmt) -> Block {
        let cond = Expr::binary(
            BinOp::Ne,
            Expr::var(VarId(0), ScalarType::U32),
            Expr::u32(0),
        );
        vec![Stmt::new(StmtKind::DoWhile {
            body: vec![s],
            cond,
        })]
    }

    fn step_of(b: &Block) -> Expr {
        let StmtKind::DoWhile { body, .. } = &b[0].kind else {
            panic!()
        };
        let StmtKind::Assign { value, .. } = &body[0].kind else {
            panic!()
        };
        value.clone()
    }

    #[test]
    fn a_signed_step_of_an_unsigned_counter_becomes_unsigned() {
        let v = Expr::var(VarId(0), ScalarType::U32);
        for (c, want) in [
            (-1, Expr::binary(BinOp::Sub, v.clone(), Expr::u32(1))),
            (4, Expr::binary(BinOp::Add, v.clone(), Expr::u32(4))),
        ] {
            let mut b = in_loop(signed_step(c));
            unsigned_steps(&mut b);
            assert_eq!(step_of(&b), want);
        }
    }

    #[test]
    fn other_statements_stay() {
        // Outside a loop, and a step of another variable.
        let mut b = vec![signed_step(-1)];
        unsigned_steps(&mut b);
        assert_eq!(b, vec![signed_step(-1)]);
        let v1 = Expr::var(VarId(1), ScalarType::U32);
        let sum = Expr::binary(BinOp::Add, v1.cast(ScalarType::I32), Expr::i32(-1));
        let other = Stmt::new(StmtKind::Assign {
            var: VarId(0),
            value: sum.cast(ScalarType::U32),
        });
        let mut b = in_loop(other.clone());
        unsigned_steps(&mut b);
        assert_eq!(b, in_loop(other));
    }
}
