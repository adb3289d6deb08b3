//! Constant propagation: a variable just set to a constant (`let x = 4;`, `x = 4;`) reads as
//! that constant in the statements after it in the same block, up to the first one that may
//! write it again. Every expression is folded on the way and an `if` on a constant keeps only
//! the branch taken.
//!
//! Exact because a statement after the write in its block runs only after the write, and
//! nothing else changes a variable's register.

use super::fold::fold;
use super::visit::{exprs_mut, rewrite_expr, written_var};
use crate::{Block, Expr, ExprKind, Stmt, StmtKind, Value, VarDecl, VarId};
use std::collections::HashMap;

/// The variables known to hold a constant at a point of the body.
type Env = HashMap<VarId, Value>;

/// Propagates and folds constants through `body`, whose variables are declared in `vars`.
pub(crate) fn propagate(body: &mut Block, vars: &[VarDecl]) {
    let mut env = Env::new();
    block(body, vars, &mut env);
}

fn block(b: &mut Block, vars: &[VarDecl], env: &mut Env) {
    let old = std::mem::take(b);
    for s in old {
        stmt(s, vars, env, b);
    }
}

fn stmt(mut s: Stmt, vars: &[VarDecl], env: &mut Env, out: &mut Block) {
    match &mut s.kind {
        StmtKind::If {
            cond,
            then_body,
            else_body,
        } => {
            rewrite(cond, env);
            if let Some(Value::Bool(c)) = cond.as_const() {
                let taken = std::mem::take(if c { then_body } else { else_body });
                for t in taken {
                    stmt(t, vars, env, out);
                }
                return;
            }
            block(then_body, vars, &mut env.clone());
            block(else_body, vars, &mut env.clone());
            forget_writes(&s, env);
        }
        StmtKind::For {
            init,
            cond,
            update,
            body,
        } => {
            block(init, vars, env);
            forget_writes_in(body, env);
            forget_writes_in(update, env);
            if let Some(c) = cond {
                rewrite(c, env);
            }
            block(body, vars, &mut env.clone());
            block(update, vars, &mut env.clone());
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            forget_writes_in(body, env);
            rewrite(cond, env);
            block(body, vars, &mut env.clone());
        }
        _ => {
            for e in exprs_mut(&mut s) {
                rewrite(e, env);
            }
            if let Some(v) = written_var(&s) {
                env.remove(&v);
                if let Some(c) = constant_written(&s, vars) {
                    env.insert(v, c);
                }
            }
        }
    }
    out.push(s);
}

/// The constant a `let`/assignment stores in its variable, when its type is the variable's.
fn constant_written(s: &Stmt, vars: &[VarDecl]) -> Option<Value> {
    let (var, value) = match &s.kind {
        StmtKind::Let { var, init: None } => {
            let ty = vars.get(var.0 as usize)?.ty;
            return Some(Value::zero(ty));
        }
        StmtKind::Let {
            var,
            init: Some(value),
        }
        | StmtKind::Assign { var, value } => (var, value),
        _ => return None,
    };
    let c = value.as_const()?;
    (vars.get(var.0 as usize)?.ty == c.ty() && value.ty == c.ty()).then_some(c)
}

/// Substitutes the known constants into `e`, then folds it.
fn rewrite(e: &mut Expr, env: &Env) {
    if !env.is_empty() {
        rewrite_expr(e, &mut |x| {
            if let ExprKind::Var(v) = x.kind {
                if let Some(c) = env.get(&v).filter(|c| c.ty() == x.ty) {
                    *x = Expr::constant(*c).with_span(x.span);
                }
            }
        });
    }
    fold(e);
}

fn forget_writes(s: &Stmt, env: &mut Env) {
    if env.is_empty() {
        return;
    }
    s.walk(&mut |t| {
        if let Some(v) = written_var(t) {
            env.remove(&v);
        }
    });
}

fn forget_writes_in(b: &[Stmt], env: &mut Env) {
    b.iter().for_each(|s| forget_writes(s, env));
}
