//! Pre-passes over a function body: which names are assigned, and where `return`s are.

use crate::ast::{visit_stmt_exprs, visit_subexprs, Expr, ExprKind, Stmt, StmtKind};
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
    visit_stmt_exprs(s, &mut |e| expr(e, names));
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

/// Adds every name `s` mentions (conservative under shadowing), but for the arguments of
/// `__no_read(p)` and `__no_write(p)`, which access nothing.
pub(crate) fn mentioned_names(s: &Stmt, names: &mut HashSet<String>) {
    let mut count: std::collections::HashMap<String, isize> = Default::default();
    visit_stmt_exprs(s, &mut |e| {
        visit_subexprs(e, &mut |x| match &x.kind {
            ExprKind::Ident(n) => *count.entry(n.clone()).or_default() += 1,
            ExprKind::Call(f, _, args) if matches!(f.as_str(), "__no_read" | "__no_write") => {
                for a in args {
                    if let ExprKind::Ident(n) = &a.kind {
                        *count.entry(n.clone()).or_default() -= 1;
                    }
                }
            }
            _ => {}
        })
    });
    names.extend(count.into_iter().filter(|(_, c)| *c > 0).map(|(n, _)| n));
}

/// True for a statement that is a check or assumption taking effect where it stands
/// (`__assert(…)`, `__requires(…)`, `__assume(…)`, `assert(…)`; not `__ensures`, which
/// speaks about the kernel's end).
pub(crate) fn is_local_annotation(s: &Stmt) -> bool {
    matches!(&s.kind, StmtKind::Expr(Expr { kind: ExprKind::Call(name, _, _), .. })
        if matches!(name.as_str(), "__assert" | "__requires" | "__assume" | "assert"))
}

/// Names whose address is taken (`&x`) anywhere in `body` (conservative under shadowing).
pub(crate) fn address_taken(body: &[Stmt]) -> HashSet<String> {
    let mut names = HashSet::new();
    for s in body {
        visit_stmt_exprs(s, &mut |e| addr(e, &mut names));
    }
    names
}

fn addr(e: &Expr, names: &mut HashSet<String>) {
    match &e.kind {
        ExprKind::Unary(crate::ast::UnaryOp::AddrOf, a) => {
            if let ExprKind::Ident(n) = &a.kind {
                names.insert(n.clone());
            }
            addr(a, names);
        }
        ExprKind::Assign(_, a, b)
        | ExprKind::Index(a, b)
        | ExprKind::Binary(_, a, b)
        | ExprKind::Comma(a, b) => {
            addr(a, names);
            addr(b, names);
        }
        ExprKind::IncDec { target: a, .. }
        | ExprKind::Member(a, _)
        | ExprKind::Unary(_, a)
        | ExprKind::Cast(_, a) => addr(a, names),
        ExprKind::Cond(c, a, b) => {
            addr(c, names);
            addr(a, names);
            addr(b, names);
        }
        ExprKind::Call(_, _, args) => args.iter().for_each(|a| addr(a, names)),
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
