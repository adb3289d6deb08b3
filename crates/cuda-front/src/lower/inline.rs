//! `__device__` helper inlining.
//!
//! Parameters become fresh variables (pointer parameters bind to the caller's base and
//! offset); the result goes through a fresh variable. A helper with an early `return` is
//! wrapped in `do { ... } while (false)` and `return` becomes `break`; a `return` inside
//! one of the helper's own loops also sets a `done` flag that is tested after each loop.

use super::{Binding, Lowerer, ReturnCtx, Val, MAX_INLINED_CALLS, MAX_INLINE_DEPTH};
use crate::ast;
use crate::error::{err, Result};
use crate::types::convert;
use std::collections::HashMap;
use warpsafe_ir::{Expr, Span, Stmt, StmtKind};

fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt::new(kind).with_span(span)
}

impl Lowerer<'_> {
    pub(crate) fn inline_call(
        &mut self,
        f: &ast::Function,
        args: &[ast::Expr],
        span: Span,
        want: bool,
        out: &mut Vec<Stmt>,
    ) -> Result<Val> {
        if self.inline_stack.contains(&f.name) {
            return err(
                span,
                format!("recursive call to `{}`: recursion is not supported", f.name),
            );
        }
        self.inlined += 1;
        if self.inline_stack.len() > MAX_INLINE_DEPTH || self.inlined > MAX_INLINED_CALLS {
            return err(span, "too many nested or repeated helper calls to inline");
        }
        if args.len() != f.params.len() {
            return err(
                span,
                format!(
                    "`{}` takes {} argument(s), {} given",
                    f.name,
                    f.params.len(),
                    args.len()
                ),
            );
        }
        if want && f.ret.base.is_none() && !f.ret.ptr {
            return err(
                span,
                format!("`{}` returns `void`; its value cannot be used", f.name),
            );
        }
        if f.ret.ptr {
            return err(f.ret.span, "helpers returning pointers are not supported");
        }
        let assigned = super::scan::assigned_names(&f.body);
        let mut scope = HashMap::new();
        for (p, a) in f.params.iter().zip(args) {
            let Some(ty) = p.ty.base else {
                return err(p.ty.span, "`void` parameters are not supported");
            };
            if p.ty.ptr {
                let Val::Ptr(v) = self.expr(a, out)? else {
                    return err(
                        a.span,
                        format!("parameter `{}` of `{}` needs a pointer", p.name, f.name),
                    );
                };
                if v.elem != ty {
                    return err(
                        a.span,
                        format!(
                            "`{}` expects a pointer to `{}`, given a pointer to `{}`",
                            f.name,
                            ty.c_name(),
                            v.elem.c_name()
                        ),
                    );
                }
                self.mark_volatile(v.mem, p.ty.volatile);
                let saved = std::mem::replace(&mut self.assigned, assigned.clone());
                let b = self.bind_pointer_var(&p.name, v, p.ty.konst, a.span, out);
                self.assigned = saved;
                scope.insert(p.name.clone(), b?);
            } else {
                let v = convert(self.rvalue(a, out)?, ty);
                let id = self.let_var(&p.name, v, a.span, out)?;
                scope.insert(
                    p.name.clone(),
                    Binding::Var {
                        id,
                        ty,
                        konst: None,
                    },
                );
            }
        }
        let result = match f.ret.base {
            Some(ty) => {
                let v = self.new_var(&format!("{}_ret", f.name), ty, span)?;
                out.push(stmt(StmtKind::Let { var: v, init: None }, span));
                Some((v, ty))
            }
            None => None,
        };
        let wrapped = super::scan::needs_early_exit(&f.body);
        let ctx = ReturnCtx {
            name: f.name.clone(),
            result,
            wrapped,
            done: None,
        };
        let saved_scopes = std::mem::replace(&mut self.scopes, vec![scope]);
        let saved_assigned = std::mem::replace(&mut self.assigned, assigned);
        let saved_ret = self.ret.replace(ctx);
        let saved_loops = std::mem::replace(&mut self.loop_depth, 0);
        self.inline_stack.push(f.name.clone());
        let mut body = Vec::new();
        let r = self.stmts(&f.body, &mut body);
        self.inline_stack.pop();
        self.loop_depth = saved_loops;
        let ctx = std::mem::replace(&mut self.ret, saved_ret);
        self.assigned = saved_assigned;
        self.scopes = saved_scopes;
        r?;
        if let Some(done) = ctx.as_ref().and_then(|c| c.done) {
            let init = Expr::bool(false).with_span(span);
            out.push(stmt(
                StmtKind::Let {
                    var: done,
                    init: Some(init),
                },
                span,
            ));
        }
        if wrapped {
            let cond = Expr::bool(false).with_span(span);
            out.push(stmt(StmtKind::DoWhile { body, cond }, span));
        } else {
            out.extend(body);
        }
        Ok(match result {
            Some((v, _)) if want => Val::Scalar(self.var_expr(v, span)),
            _ => Val::Void,
        })
    }

    pub(crate) fn return_stmt(
        &mut self,
        e: Option<&ast::Expr>,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        let Some(ctx) = self.ret.clone() else {
            if let Some(e) = e {
                return err(e.span, "a kernel returns `void`");
            }
            out.push(stmt(StmtKind::Return, span));
            return Ok(());
        };
        match (e, ctx.result) {
            (Some(e), Some((var, ty))) => {
                let value = convert(self.rvalue(e, out)?, ty);
                out.push(stmt(StmtKind::Assign { var, value }, span));
            }
            (None, Some(_)) => return err(span, format!("`{}` must return a value", ctx.name)),
            (Some(e), None) => {
                // `return f();` in a void helper evaluates the call for its effects.
                self.effect(e, out)?;
            }
            (None, None) => {}
        }
        if !ctx.wrapped {
            return Ok(());
        }
        if self.loop_depth > 0 {
            let done = match ctx.done {
                Some(d) => d,
                None => {
                    let d = self.new_var("done", warpsafe_ir::ScalarType::Bool, span)?;
                    if let Some(c) = self.ret.as_mut() {
                        c.done = Some(d);
                    }
                    d
                }
            };
            let value = Expr::bool(true).with_span(span);
            out.push(stmt(StmtKind::Assign { var: done, value }, span));
        }
        out.push(stmt(StmtKind::Break, span));
        Ok(())
    }

    /// After a loop inside a wrapped helper: leave the enclosing loop too if a `return` ran.
    pub(crate) fn after_loop(&mut self, span: Span, out: &mut Vec<Stmt>) {
        let Some(done) = self.ret.as_ref().and_then(|c| c.done) else {
            return;
        };
        let cond = self.var_expr(done, span);
        let kind = StmtKind::If {
            cond,
            then_body: vec![stmt(StmtKind::Break, span)],
            else_body: vec![],
        };
        out.push(stmt(kind, span));
    }
}
