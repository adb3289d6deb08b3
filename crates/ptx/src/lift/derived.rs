//! Registers derived from a loop counter. NVRTC keeps a 32-bit counter and its 64-bit
//! widening in two registers, both updated at the bottom of the loop:
//!
//! ```text
//! v = tid; d = (u64)(u32)tid;
//! do { … x[d] …; v = v + 128; d = (u64)(u32)v; } while ((u64)(u32)v < n);
//! ```
//!
//! The verifier summarises `v` as an induction variable but `d`, written from `v` rather than
//! from itself, only as "some value", so every access through `d` looks unbounded. When `d`
//! equals `f(v)` on entry (the assignments before the loop say so, structurally) and the body
//! re-establishes it at its end, `d == f(v)` holds at the top of every iteration; reads of `d`
//! up to the body's assignment of `v` are rewritten to `f(v)`, which computes the same value.

use std::collections::HashMap;
use warpsafe_ir::{Block, Expr, ExprKind, Stmt, StmtKind, VarId};

use super::carried::{has_continue, loads as has_load};
use super::inst::exprs_mut;

/// What the enclosing straight-line code last assigned to each variable, while still valid.
type Known = HashMap<VarId, Expr>;

/// Rewrites reads of derived registers in every `do … while` loop of `body`.
pub(crate) fn derived_reads(body: &mut Block) {
    walk(body, &mut Known::new());
}

fn walk(body: &mut Block, known: &mut Known) {
    for s in body.iter_mut() {
        match &mut s.kind {
            StmtKind::Assign { var, value } => {
                let (var, value) = (*var, value.clone());
                forget(known, var);
                if !reads(&value, var) && !has_load(&value) {
                    known.insert(var, value);
                }
            }
            StmtKind::DoWhile { body: inner, cond } => {
                rewrite(inner, cond, known);
                let written = writes(inner);
                let mut at_top: Known = known.clone();
                written.iter().for_each(|v| forget(&mut at_top, *v));
                walk(inner, &mut at_top);
                written.iter().for_each(|v| forget(known, *v));
            }
            _ => {
                let written = writes(std::slice::from_ref(s));
                // A branch starts from what holds before it; a loop body from what no
                // iteration changes.
                let is_loop = !matches!(s.kind, StmtKind::If { .. });
                for b in blocks_mut(&mut s.kind) {
                    let mut inner = known.clone();
                    if is_loop {
                        written.iter().for_each(|v| forget(&mut inner, *v));
                    }
                    walk(b, &mut inner);
                }
                written.iter().for_each(|v| forget(known, *v));
            }
        }
    }
}

/// The loop `do { body } while (cond)` entered with `known`: each derived register's reads
/// before the counter's update become the counter's expression.
fn rewrite(body: &mut Block, cond: &mut Expr, known: &Known) {
    let candidates: Vec<(usize, VarId, Expr)> = body
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match &s.kind {
            StmtKind::Assign { var, value } => Some((i, *var, value.clone())),
            _ => None,
        })
        .collect();
    // A `continue` would test the condition without re-establishing `d == f(v)`.
    if body.iter().any(has_continue) {
        return;
    }
    for (at_d, d, f) in candidates {
        let Some(v) = only_var(&f) else { continue };
        if v == d || has_load(&f) {
            continue;
        }
        // `d` and `v` are written once each, at the top level, `v` first.
        let assigns = |x: VarId| {
            body.iter()
                .enumerate()
                .filter(|(_, s)| writes(std::slice::from_ref(s)).contains(&x))
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        let (ds, vs) = (assigns(d), assigns(v));
        let ([only_d], [at_v]) = (ds.as_slice(), vs.as_slice()) else {
            continue;
        };
        let at_v = *at_v;
        if *only_d != at_d || at_v >= at_d || !is_assign(&body[at_v], v) {
            continue;
        }
        // On entry, d = f(v).
        let (Some(d0), Some(v0)) = (known.get(&d), known.get(&v)) else {
            continue;
        };
        if !same(&substitute(&f, v, v0), d0) {
            continue;
        }
        for s in &mut body[..at_v] {
            replace_in_stmt(s, d, &f);
        }
        replace(cond, d, &f);
    }
}

fn is_assign(s: &Stmt, v: VarId) -> bool {
    matches!(s.kind, StmtKind::Assign { var, .. } if var == v)
}

/// The one variable `e` reads, if exactly one.
fn only_var(e: &Expr) -> Option<VarId> {
    let mut found: Option<VarId> = None;
    let mut several = false;
    e.walk(&mut |x| {
        if let ExprKind::Var(v) = x.kind {
            match found {
                Some(w) if w != v => several = true,
                _ => found = Some(v),
            }
        }
    });
    found.filter(|_| !several)
}

fn reads(e: &Expr, v: VarId) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= matches!(x.kind, ExprKind::Var(w) if w == v));
    found
}

/// Drops what is known about `v` and about every variable whose value reads it.
fn forget(known: &mut Known, v: VarId) {
    known.remove(&v);
    known.retain(|_, e| !reads(e, v));
}

/// Every variable `stmts` assign, at any depth.
fn writes(stmts: &[Stmt]) -> Vec<VarId> {
    let mut out = Vec::new();
    for s in stmts {
        s.walk(&mut |x| match &x.kind {
            StmtKind::Assign { var, .. } | StmtKind::Let { var, .. } => out.push(*var),
            StmtKind::Shuffle { dst, .. }
            | StmtKind::Vote { dst, .. }
            | StmtKind::ActiveMask { dst }
            | StmtKind::Arbitrary { dst }
            | StmtKind::SyncThreadsVote { dst, .. } => out.push(*dst),
            StmtKind::Atomic { dst: Some(d), .. } => out.push(*d),
            _ => {}
        });
    }
    out
}

/// The nested blocks of a compound statement.
fn blocks_mut(kind: &mut StmtKind) -> Vec<&mut Block> {
    match kind {
        StmtKind::If {
            then_body,
            else_body,
            ..
        } => vec![then_body, else_body],
        StmtKind::For {
            init, update, body, ..
        } => vec![init, body, update],
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => vec![body],
        _ => vec![],
    }
}

/// Replaces reads of `d` by `f` in `s` and everything nested in it.
fn replace_in_stmt(s: &mut Stmt, d: VarId, f: &Expr) {
    match &mut s.kind {
        StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => replace(cond, d, f),
        StmtKind::DoWhile { cond, .. } => replace(cond, d, f),
        StmtKind::For { cond: Some(c), .. } => replace(c, d, f),
        StmtKind::Let { init: Some(e), .. } => replace(e, d, f),
        other => exprs_mut(other).into_iter().for_each(|e| replace(e, d, f)),
    }
    for b in blocks_mut(&mut s.kind) {
        b.iter_mut().for_each(|x| replace_in_stmt(x, d, f));
    }
}

fn replace(e: &mut Expr, d: VarId, f: &Expr) {
    if matches!(e.kind, ExprKind::Var(v) if v == d) {
        let span = e.span;
        *e = f.clone();
        e.span = span;
        return;
    }
    match &mut e.kind {
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => replace(a, d, f),
        ExprKind::Binary(_, a, b) | ExprKind::Logical(_, a, b) => {
            replace(a, d, f);
            replace(b, d, f);
        }
        ExprKind::Select(c, a, b) => {
            replace(c, d, f);
            replace(a, d, f);
            replace(b, d, f);
        }
        ExprKind::Call(_, xs) | ExprKind::Load(_, xs) => {
            xs.iter_mut().for_each(|x| replace(x, d, f));
        }
        _ => {}
    }
}

/// `f` with `v` replaced by `value`.
fn substitute(f: &Expr, v: VarId, value: &Expr) -> Expr {
    let mut out = f.clone();
    replace(&mut out, v, value);
    out
}

/// Structural equality, positions aside.
pub(super) fn same(a: &Expr, b: &Expr) -> bool {
    if a.ty != b.ty {
        return false;
    }
    match (&a.kind, &b.kind) {
        (ExprKind::Unary(o, x), ExprKind::Unary(p, y)) => o == p && same(x, y),
        (ExprKind::Cast(x), ExprKind::Cast(y)) => same(x, y),
        (ExprKind::Binary(o, x1, x2), ExprKind::Binary(p, y1, y2)) => {
            o == p && same(x1, y1) && same(x2, y2)
        }
        (ExprKind::Logical(o, x1, x2), ExprKind::Logical(p, y1, y2)) => {
            o == p && same(x1, y1) && same(x2, y2)
        }
        (ExprKind::Select(c, x1, x2), ExprKind::Select(d, y1, y2)) => {
            same(c, d) && same(x1, y1) && same(x2, y2)
        }
        (ExprKind::Call(f, xs), ExprKind::Call(g, ys)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y))
        }
        (ExprKind::Load(m, xs), ExprKind::Load(n, ys)) => {
            m == n && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y))
        }
        (x, y) => x == y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_ir::{BinOp, Builtin, Dim, MemRef, ParamId, ScalarType};

    fn var(v: u32, ty: ScalarType) -> Expr {
        Expr::var(VarId(v), ty)
    }

    fn assign(v: u32, value: Expr) -> Stmt {
        Stmt::new(StmtKind::Assign {
            var: VarId(v),
            value,
        })
    }

    fn widen(e: Expr) -> Expr {
        e.cast(ScalarType::U32).cast(ScalarType::U64)
    }

    fn tid() -> Expr {
        Expr::builtin(Builtin::ThreadIdx(Dim::X)).cast(ScalarType::I32)
    }

    fn read_at(v: u32) -> Stmt {
        assign(
            2,
            Expr::load(
                MemRef::Global(ParamId(0)),
                vec![var(v, ScalarType::U64)],
                ScalarType::F32,
            ),
        )
    }

    fn lp(entry_d: Expr) -> Block {
        let v = || var(0, ScalarType::I32);
        vec![
            assign(0, tid()),
            assign(1, entry_d),
            Stmt::new(StmtKind::DoWhile {
                body: vec![
                    read_at(1),
                    assign(0, Expr::binary(BinOp::Add, v(), Expr::i32(128))),
                    assign(1, widen(v())),
                ],
                cond: Expr::binary(BinOp::Lt, widen(v()), Expr::u64(1000)),
            }),
        ]
    }

    fn first_read(b: &Block) -> Expr {
        let StmtKind::DoWhile { body, .. } = &b[2].kind else {
            panic!()
        };
        let StmtKind::Assign { value, .. } = &body[0].kind else {
            panic!()
        };
        let ExprKind::Load(_, idx) = &value.kind else {
            panic!()
        };
        idx[0].clone()
    }

    #[test]
    fn a_widened_counter_is_read_through_the_counter() {
        let mut b = lp(widen(tid()));
        derived_reads(&mut b);
        assert!(same(&first_read(&b), &widen(var(0, ScalarType::I32))));
    }

    #[test]
    fn a_loop_under_a_branch_starts_from_what_holds_before_the_branch() {
        let mut b = lp(widen(tid()));
        let the_loop = b.pop().expect("loop");
        b.push(Stmt::new(StmtKind::If {
            cond: Expr::bool(true),
            then_body: vec![the_loop],
            else_body: vec![],
        }));
        derived_reads(&mut b);
        let StmtKind::If { then_body, .. } = &b[2].kind else {
            panic!()
        };
        let StmtKind::DoWhile { body, .. } = &then_body[0].kind else {
            panic!()
        };
        let StmtKind::Assign { value, .. } = &body[0].kind else {
            panic!()
        };
        let ExprKind::Load(_, idx) = &value.kind else {
            panic!()
        };
        assert!(same(&idx[0], &widen(var(0, ScalarType::I32))));
    }

    #[test]
    fn a_register_that_starts_elsewhere_stays() {
        // d starts as tid + 1, not as f(v) = widen(tid).
        let other = widen(Expr::binary(BinOp::Add, tid(), Expr::i32(1)));
        let mut b = lp(other);
        derived_reads(&mut b);
        assert!(same(&first_read(&b), &var(1, ScalarType::U64)));
        // A write of v between the entry assignments and the loop: nothing known.
        let mut b = lp(widen(tid()));
        b.insert(2, assign(0, Expr::i32(7)));
        derived_reads(&mut b);
        let StmtKind::DoWhile { body, .. } = &b[3].kind else {
            panic!()
        };
        let StmtKind::Assign { value, .. } = &body[0].kind else {
            panic!()
        };
        let ExprKind::Load(_, idx) = &value.kind else {
            panic!()
        };
        assert!(same(&idx[0], &var(1, ScalarType::U64)));
    }
}
