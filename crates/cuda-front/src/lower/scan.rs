//! Pre-passes over a function body: which names are assigned, and where `return`s are.

use crate::ast::{Expr, ExprKind, Init, Stmt, StmtKind};
use std::collections::HashSet;

/// Names that appear as the target of an assignment, `++` or `--` anywhere in `body`
/// (conservative under shadowing).
pub(crate) fn assigned_names(body: &[Stmt]) -> HashSet<String> {
    let mut names = HashSet::new();
    for s in body {
        stmt(s, &mut names);
    }
    names
}

fn stmt(s: &Stmt, names: &mut HashSet<String>) {
    match &s.kind {
        StmtKind::Decl(d) => {
            for dc in &d.declarators {
                for e in dc.dims.iter().flatten() {
                    expr(e, names);
                }
                match &dc.init {
                    Some(Init::Expr(e)) => expr(e, names),
                    Some(Init::List(items, _)) => items.iter().for_each(|e| expr(e, names)),
                    None => {}
                }
            }
        }
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => expr(e, names),
        StmtKind::If(c, a, b) => {
            expr(c, names);
            stmt(a, names);
            if let Some(b) = b {
                stmt(b, names);
            }
        }
        StmtKind::For {
            init,
            cond,
            update,
            body,
        } => {
            if let Some(i) = init {
                stmt(i, names);
            }
            cond.iter().chain(update).for_each(|e| expr(e, names));
            stmt(body, names);
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            expr(c, names);
            stmt(b, names);
        }
        StmtKind::Block(b) => b.iter().for_each(|s| stmt(s, names)),
        StmtKind::Break | StmtKind::Continue | StmtKind::Return(None) | StmtKind::Empty => {}
    }
}

fn expr(e: &Expr, names: &mut HashSet<String>) {
    match &e.kind {
        ExprKind::Assign(_, t, v) => {
            target(t, names);
            expr(t, names);
            expr(v, names);
        }
        ExprKind::IncDec { target: t, .. } => {
            target(t, names);
            expr(t, names);
        }
        ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => expr(a, names),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) => {
            expr(a, names);
            expr(b, names);
        }
        ExprKind::Cond(c, a, b) => {
            expr(c, names);
            expr(a, names);
            expr(b, names);
        }
        ExprKind::Call(_, _, args) => args.iter().for_each(|a| expr(a, names)),
        ExprKind::Int(..)
        | ExprKind::Float(..)
        | ExprKind::Bool(_)
        | ExprKind::Ident(_)
        | ExprKind::SizeOf(_) => {}
    }
}

fn target(e: &Expr, names: &mut HashSet<String>) {
    if let ExprKind::Ident(n) = &e.kind {
        names.insert(n.clone());
    }
}

/// True when `body` has a `return` other than one final top-level `return`, so that an
/// inlined copy needs a structured exit.
pub(crate) fn needs_early_exit(body: &[Stmt]) -> bool {
    let total: usize = body.iter().map(count_returns).sum();
    let tail = matches!(body.last().map(|s| &s.kind), Some(StmtKind::Return(_)));
    total > usize::from(tail)
}

fn count_returns(s: &Stmt) -> usize {
    match &s.kind {
        StmtKind::Return(_) => 1,
        StmtKind::If(_, a, b) => count_returns(a) + b.as_deref().map_or(0, count_returns),
        StmtKind::For { body, init, .. } => {
            count_returns(body) + init.as_deref().map_or(0, count_returns)
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => count_returns(b),
        StmtKind::Block(b) => b.iter().map(count_returns).sum(),
        _ => 0,
    }
}
