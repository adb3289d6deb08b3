//! Loop tests computed before the counter's update. NVRTC rotates `for (s = n; s > 32;
//! s >>= 1)` into a loop that decides whether to go on from the counter's old value:
//!
//! ```text
//! do { …; f = s > 131u; s = s >> 1u; } while (f);
//! ```
//!
//! The verifier summarises `s` as an induction variable but `f`, a flag written in the loop,
//! only as "some value", so the loop's exit and everything counted by it are unknown. When
//! the flag compares the counter with a constant and the update shifts it right, the test
//! reads the same on the new value: `s > 131` exactly when `s >> 1 > 65` (a right shift is
//! floor division by a power of two, and `x ≥ m·2ᵏ` exactly when `⌊x / 2ᵏ⌋ ≥ m`). The loop
//! becomes `do { …; f = s > 131u; s = s >> 1u; } while (s > 65u);`, the same loop.

use warpsafe_ir::{BinOp, Block, Expr, ExprKind, ScalarType, Stmt, StmtKind, UnOp, Value, VarId};

use super::carried::has_continue;

/// Rewrites the test of every `do … while` loop (at any depth) that reads such a flag.
pub(crate) fn tests_on_new_values(body: &mut Block) {
    for s in body.iter_mut() {
        match &mut s.kind {
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                tests_on_new_values(then_body);
                tests_on_new_values(else_body);
            }
            StmtKind::For {
                init, update, body, ..
            } => {
                tests_on_new_values(init);
                tests_on_new_values(update);
                tests_on_new_values(body);
            }
            StmtKind::While { body, .. } => tests_on_new_values(body),
            StmtKind::DoWhile { body, cond } => {
                tests_on_new_values(body);
                if let Some(c) = retest(body, cond) {
                    *cond = c.with_span(cond.span);
                }
            }
            _ => {}
        }
    }
}

/// The condition `cond` (`f` or `!f`) of `do { body } while (cond)` on the counter's new
/// value, where `body` assigns `f = x cmp c` once and later `v = x >> k` once (`x` being `v`
/// read in one type), both at its top level, and nothing else writes `f` or `v`.
fn retest(body: &Block, cond: &Expr) -> Option<Expr> {
    let (f, negated) = match &cond.kind {
        ExprKind::Var(f) => (*f, false),
        ExprKind::Unary(UnOp::Not, x) => match x.kind {
            ExprKind::Var(f) => (f, true),
            _ => return None,
        },
        _ => return None,
    };
    // A `continue` tests the condition before the assignments.
    if body.iter().any(has_continue) {
        return None;
    }
    let at_f = only_assignment(body, f)?;
    let StmtKind::Assign { value: test, .. } = &body[at_f].kind else {
        return None;
    };
    let ExprKind::Binary(op, a, b) = &test.kind else {
        return None;
    };
    // `x cmp c`, with `c cmp x` turned around.
    let (op, x, c) = match (const_of(a), const_of(b)) {
        (None, Some(c)) => (*op, &**a, c),
        (Some(c), None) => (flip(*op)?, &**b, c),
        _ => return None,
    };
    let v = counter(x)?;
    let at_v = only_assignment(body, v)?;
    if at_v <= at_f {
        return None;
    }
    let StmtKind::Assign { value: update, .. } = &body[at_v].kind else {
        return None;
    };
    let shift = shifted(update, v, x.ty)?;
    let new_test = on_shifted(op, c, shift, x.ty)?;
    let read = Expr::var(v, update.ty);
    let x_new = if x.ty == update.ty {
        read
    } else {
        Expr::new(ExprKind::Cast(Box::new(read)), x.ty)
    };
    let (op, bound) = new_test;
    let e = Expr::binary(op, x_new, Expr::constant(Value::from_i128(x.ty, bound)));
    Some(if negated { super::inst::not(e) } else { e })
}

/// The position of the only statement of `body` that writes `v`, when that is a top-level
/// assignment.
fn only_assignment(body: &Block, v: VarId) -> Option<usize> {
    let writers: Vec<usize> = body
        .iter()
        .enumerate()
        .filter(|(_, s)| writes(s, v))
        .map(|(i, _)| i)
        .collect();
    match writers.as_slice() {
        [i] if matches!(body[*i].kind, StmtKind::Assign { var, .. } if var == v) => Some(*i),
        _ => None,
    }
}

/// `s` or a statement nested in it writes `v` (assignments, declarations, and the
/// destinations of warp collectives and atomics).
pub(super) fn writes(s: &Stmt, v: VarId) -> bool {
    let mut found = false;
    s.walk(&mut |x| {
        found |= match &x.kind {
            StmtKind::Assign { var, .. } | StmtKind::Let { var, .. } => *var == v,
            StmtKind::Shuffle { dst, .. }
            | StmtKind::Vote { dst, .. }
            | StmtKind::ActiveMask { dst }
            | StmtKind::Arbitrary { dst }
            | StmtKind::SyncThreadsVote { dst, .. } => *dst == v,
            StmtKind::Atomic { dst: Some(d), .. } => *d == v,
            _ => false,
        }
    });
    found
}

/// The variable `x` reads: `v`, or `v` reinterpreted at its own width.
fn counter(x: &Expr) -> Option<VarId> {
    match &x.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Cast(inner) if same_width(inner.ty, x.ty) => match inner.kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        },
        _ => None,
    }
}

fn same_width(a: ScalarType, b: ScalarType) -> bool {
    a.is_int() && b.is_int() && a.bits() == b.bits()
}

/// The shift `k` of `update = x >> k` (possibly reinterpreted back to `v`'s type), where the
/// shift reads `v` in the type `ty` the test compares in (so the shift is arithmetic exactly
/// when the comparison is signed).
fn shifted(update: &Expr, v: VarId, ty: ScalarType) -> Option<u32> {
    let inner = match &update.kind {
        ExprKind::Cast(x) if same_width(x.ty, update.ty) => &**x,
        _ => update,
    };
    let ExprKind::Binary(BinOp::Shr, a, k) = &inner.kind else {
        return None;
    };
    if inner.ty != ty || a.ty != ty || counter(a)? != v {
        return None;
    }
    let k = const_of(k)?;
    (1..i128::from(ty.bits())).contains(&k).then_some(k as u32)
}

/// `x cmp c` as a comparison of `x >> k` (floor division by `2ᵏ`) with a constant, when one
/// says exactly the same: `x ≥ m·2ᵏ ⇔ (x >> k) ≥ m`.
fn on_shifted(op: BinOp, c: i128, k: u32, ty: ScalarType) -> Option<(BinOp, i128)> {
    // As `x ≥ t` (or its negation `x < t`).
    let (t, ge) = match op {
        BinOp::Ge => (c, true),
        BinOp::Gt => (c.checked_add(1)?, true),
        BinOp::Lt => (c, false),
        BinOp::Le => (c.checked_add(1)?, false),
        _ => return None,
    };
    let (lo, hi) = range(ty)?;
    // `x ≥ hi + 1` is never true and `x ≥ lo` always: leave such tests alone.
    if t <= lo || t > hi {
        return None;
    }
    let p = 1i128 << k;
    if t % p != 0 {
        return None;
    }
    Some((if ge { BinOp::Ge } else { BinOp::Lt }, t / p))
}

/// The values of an integer type.
fn range(ty: ScalarType) -> Option<(i128, i128)> {
    if !ty.is_int() || ty.bits() > 64 {
        return None;
    }
    let w = ty.bits();
    Some(if ty.is_signed() {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    })
}

/// `c cmp x` as `x cmp' c`.
fn flip(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        _ => return None,
    })
}

fn const_of(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::Const(v) if e.ty.is_int() => v.as_i128(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u32v(v: u32) -> Expr {
        Expr::var(VarId(v), ScalarType::U32)
    }

    fn assign(v: u32, value: Expr) -> Stmt {
        Stmt::new(StmtKind::Assign {
            var: VarId(v),
            value,
        })
    }

    fn flag_loop(test: Expr, update: Expr) -> Block {
        vec![Stmt::new(StmtKind::DoWhile {
            body: vec![
                Stmt::new(StmtKind::SyncThreads),
                assign(1, test),
                assign(0, update),
            ],
            cond: Expr::var(VarId(1), ScalarType::Bool),
        })]
    }

    fn cond_of(b: &Block) -> Expr {
        let StmtKind::DoWhile { cond, .. } = &b[0].kind else {
            panic!()
        };
        cond.clone()
    }

    #[test]
    fn an_unsigned_halving_tests_the_halved_value() {
        let test = Expr::binary(BinOp::Gt, u32v(0), Expr::u32(131));
        let update = Expr::binary(BinOp::Shr, u32v(0), Expr::u32(1));
        let mut b = flag_loop(test, update);
        tests_on_new_values(&mut b);
        assert_eq!(cond_of(&b), Expr::binary(BinOp::Ge, u32v(0), Expr::u32(66)));
        // Exhaustively on 16 bits' worth of values: the old test and the new agree.
        for x in 0u32..70_000 {
            assert_eq!(x > 131, (x >> 1) >= 66, "{x}");
        }
    }

    #[test]
    fn a_signed_halving_through_a_reinterpretation_tests_the_halved_value() {
        let signed = |e: Expr| Expr::new(ExprKind::Cast(Box::new(e)), ScalarType::I32);
        let test = Expr::binary(BinOp::Gt, signed(u32v(0)), Expr::i32(3));
        let shr = Expr::binary(BinOp::Shr, signed(u32v(0)), Expr::i32(1));
        let update = Expr::new(ExprKind::Cast(Box::new(shr)), ScalarType::U32);
        let mut b = flag_loop(test, update);
        tests_on_new_values(&mut b);
        assert_eq!(
            cond_of(&b),
            Expr::binary(BinOp::Ge, signed(u32v(0)), Expr::i32(2))
        );
        for x in -70_000i32..70_000 {
            assert_eq!(x > 3, (x >> 1) >= 2, "{x}");
        }
    }

    #[test]
    fn tests_without_an_exact_form_stay() {
        let shr = Expr::binary(BinOp::Shr, u32v(0), Expr::u32(1));
        let cases = [
            // 130 + 1 is odd: `x > 130` is not a test of `x >> 1`.
            (
                Expr::binary(BinOp::Gt, u32v(0), Expr::u32(130)),
                shr.clone(),
            ),
            // Not a shift.
            (
                Expr::binary(BinOp::Gt, u32v(0), Expr::u32(131)),
                Expr::binary(BinOp::Add, u32v(0), Expr::u32(1)),
            ),
            // A test of another variable.
            (
                Expr::binary(BinOp::Gt, u32v(2), Expr::u32(131)),
                shr.clone(),
            ),
        ];
        for (test, update) in cases {
            let mut b = flag_loop(test, update);
            tests_on_new_values(&mut b);
            assert_eq!(cond_of(&b), Expr::var(VarId(1), ScalarType::Bool));
        }
        // The update before the test: the flag already reads the new value.
        let test = Expr::binary(BinOp::Gt, u32v(0), Expr::u32(131));
        let mut b = flag_loop(test.clone(), shr.clone());
        if let StmtKind::DoWhile { body, .. } = &mut b[0].kind {
            body.swap(1, 2);
        }
        tests_on_new_values(&mut b);
        assert_eq!(cond_of(&b), Expr::var(VarId(1), ScalarType::Bool));
    }
}
