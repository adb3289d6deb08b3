//! Traversals the passes share: mutable access to expressions, variable writes and reads,
//! statement counts.

use crate::{Block, Expr, ExprKind, Stmt, StmtKind, VarId};

/// The expressions `s` evaluates directly (not those of nested statements), mutably.
pub(crate) fn exprs_mut(s: &mut Stmt) -> Vec<&mut Expr> {
    match &mut s.kind {
        StmtKind::Let { init, .. } => init.iter_mut().collect(),
        StmtKind::Assign { value, .. } => vec![value],
        StmtKind::Store { indices, value, .. } => indices.iter_mut().chain([value]).collect(),
        StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => vec![cond],
        StmtKind::DoWhile { cond, .. } => vec![cond],
        StmtKind::For { cond, .. } => cond.iter_mut().collect(),
        StmtKind::SyncWarp { mask } => vec![mask],
        StmtKind::Shuffle {
            mask,
            value,
            lane,
            width,
            ..
        } => vec![mask, value, lane, width],
        StmtKind::Vote { mask, pred, .. } => vec![mask, pred],
        StmtKind::SyncThreadsVote { pred, .. } => vec![pred],
        StmtKind::Atomic {
            indices,
            value,
            compare,
            ..
        } => indices
            .iter_mut()
            .chain([value])
            .chain(compare.iter_mut())
            .collect(),
        StmtKind::Assume(e) | StmtKind::Assert(e, _) => vec![e],
        StmtKind::ActiveMask { .. }
        | StmtKind::Arbitrary { .. }
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return
        | StmtKind::SyncThreads
        | StmtKind::SyncGrid => vec![],
    }
}

/// The blocks nested directly in `s`, mutably, in execution order of their first entry.
pub(crate) fn blocks_mut(s: &mut Stmt) -> Vec<&mut Block> {
    match &mut s.kind {
        StmtKind::If {
            then_body,
            else_body,
            ..
        } => vec![then_body, else_body],
        StmtKind::For {
            init, body, update, ..
        } => vec![init, body, update],
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => vec![body],
        _ => vec![],
    }
}

/// Calls `f` on `e` and each of its subexpressions, children first.
pub(crate) fn rewrite_expr(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match &mut e.kind {
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Param(_)
        | ExprKind::Builtin(_)
        | ExprKind::BufferLen(_) => {}
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => rewrite_expr(a, f),
        ExprKind::Binary(_, a, b) | ExprKind::Logical(_, a, b) => {
            rewrite_expr(a, f);
            rewrite_expr(b, f);
        }
        ExprKind::Select(c, a, b) => {
            rewrite_expr(c, f);
            rewrite_expr(a, f);
            rewrite_expr(b, f);
        }
        ExprKind::Call(_, args) | ExprKind::Load(_, args) => {
            args.iter_mut().for_each(|a| rewrite_expr(a, f));
        }
    }
    f(e);
}

/// Calls `f` on every expression of `s` and of its nested statements.
pub(crate) fn for_each_expr_mut(s: &mut Stmt, f: &mut dyn FnMut(&mut Expr)) {
    for e in exprs_mut(s) {
        f(e);
    }
    for b in blocks_mut(s) {
        for t in b.iter_mut() {
            for_each_expr_mut(t, f);
        }
    }
}

/// The variable `s` itself writes, if any (not counting nested statements).
pub(crate) fn written_var(s: &Stmt) -> Option<VarId> {
    match &s.kind {
        StmtKind::Let { var, .. } | StmtKind::Assign { var, .. } => Some(*var),
        StmtKind::Shuffle { dst, .. }
        | StmtKind::Vote { dst, .. }
        | StmtKind::ActiveMask { dst }
        | StmtKind::Arbitrary { dst }
        | StmtKind::SyncThreadsVote { dst, .. } => Some(*dst),
        StmtKind::Atomic { dst, .. } => *dst,
        _ => None,
    }
}

/// True when `s` or a statement nested in it writes `v`.
pub(crate) fn writes(s: &Stmt, v: VarId) -> bool {
    let mut found = false;
    s.walk(&mut |t| found |= written_var(t) == Some(v));
    found
}

/// Marks in `read` every variable an expression of `s` (or a nested statement) reads.
pub(crate) fn mark_reads(s: &Stmt, read: &mut [bool]) {
    s.walk(&mut |t| {
        for e in t.exprs() {
            e.walk(&mut |x| {
                if let ExprKind::Var(w) = x.kind {
                    if let Some(r) = read.get_mut(w.0 as usize) {
                        *r = true;
                    }
                }
            });
        }
    });
}

/// The number of statements in `b`, nested ones included.
pub(crate) fn size(b: &[Stmt]) -> usize {
    let mut n = 0;
    for s in b {
        s.walk(&mut |_| n += 1);
    }
    n
}

/// Replaces every read of `v` in `s` (nested statements included) by `value`, keeping the
/// span of each replaced read.
pub(crate) fn substitute(s: &mut Stmt, v: VarId, value: &Expr) {
    for_each_expr_mut(s, &mut |e| {
        rewrite_expr(e, &mut |x| {
            if matches!(x.kind, ExprKind::Var(w) if w == v) {
                let span = x.span;
                *x = value.clone().with_span(span);
            }
        })
    });
}
