//! Test support shared by the IR's and the interpreter's optimiser tests (the interpreter's
//! include it by path).

use warpsafe_ir::{Block, Expr, ExprKind, Kernel, Span, StmtKind};

/// Gives every statement and expression of `k` its own span, as a frontend would.
pub fn spanned(mut k: Kernel) -> Kernel {
    fn expr(e: &mut Expr, next: &mut usize) {
        *next += 2;
        e.span = Span::new(*next, *next + 1);
        match &mut e.kind {
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => expr(a, next),
            ExprKind::Binary(_, a, b) | ExprKind::Logical(_, a, b) => {
                expr(a, next);
                expr(b, next);
            }
            ExprKind::Select(c, a, b) => {
                expr(c, next);
                expr(a, next);
                expr(b, next);
            }
            ExprKind::Call(_, args) | ExprKind::Load(_, args) => {
                args.iter_mut().for_each(|a| expr(a, next))
            }
            _ => {}
        }
    }
    fn block(b: &mut Block, next: &mut usize) {
        for s in b.iter_mut() {
            *next += 2;
            s.span = Span::new(*next, *next + 1);
            match &mut s.kind {
                StmtKind::Let { init: Some(e), .. }
                | StmtKind::Assign { value: e, .. }
                | StmtKind::Assert(e, _) => expr(e, next),
                StmtKind::Store { indices, value, .. } => {
                    indices.iter_mut().for_each(|e| expr(e, next));
                    expr(value, next);
                }
                StmtKind::If {
                    cond,
                    then_body,
                    else_body,
                } => {
                    expr(cond, next);
                    block(then_body, next);
                    block(else_body, next);
                }
                StmtKind::For {
                    init,
                    cond,
                    update,
                    body,
                } => {
                    block(init, next);
                    if let Some(c) = cond {
                        expr(c, next);
                    }
                    block(update, next);
                    block(body, next);
                }
                StmtKind::While { cond, body } => {
                    expr(cond, next);
                    block(body, next);
                }
                _ => {}
            }
        }
    }
    let mut next = 0;
    block(&mut k.body, &mut next);
    k
}
