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
use warpsafe_ir::{Check, Expr, Span, Stmt, StmtKind, UncheckedAnnotation};

fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt::new(kind).with_span(span)
}

impl Lowerer<'_> {
    /// The `__ensures` conditions the inlined helper stated, as assertions over the values
    /// where it ends, `result` standing for `__return_val_*()`.
    fn helper_postconditions(&mut self, result: Option<Val>, out: &mut Vec<Stmt>) {
        let conds = std::mem::take(&mut self.helper_post);
        self.return_val = result;
        for (cond, span) in &conds {
            let mut pre = vec![];
            match self.cond(cond, &mut pre) {
                Ok(c) => {
                    out.extend(pre);
                    out.push(stmt(StmtKind::Assert(c, Check::User), *span));
                }
                // A claim we cannot state leaves `assert` unknown, not the file rejected.
                Err(e) => self.k.contract.unchecked.push(UncheckedAnnotation {
                    what: format!("`__ensures` of a helper: {}", e.message),
                    span: *span,
                    hint: false,
                }),
            }
        }
        self.return_val = None;
    }

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
        if f.ret.ptr && f.ret.base.is_none() {
            return err(f.ret.span, "helpers returning `void*` are not supported");
        }
        let assigned = super::scan::assigned_names(&f.body);
        let addr_taken = super::scan::address_taken(&f.body);
        let mut scope = HashMap::new();
        for (p, a) in f.params.iter().zip(args) {
            let Some(ty) = p.ty.base else {
                return err(p.ty.span, "`void` parameters are not supported");
            };
            if p.ty.ptr {
                let v = match self.expr(a, out)? {
                    Val::Ptr(v) => v,
                    Val::Scalar(z) if super::expr::is_null(&z) => self.null_const(ty, a.span)?,
                    _ => {
                        return err(
                            a.span,
                            format!("parameter `{}` of `{}` needs a pointer", p.name, f.name),
                        )
                    }
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
                self.mark_volatile_ptr(&v, p.ty.volatile);
                let mutable = assigned.contains(&p.name);
                let b = self.bind_pointer_var(
                    &p.name,
                    p.span,
                    ty,
                    Some(v),
                    p.ty.konst,
                    mutable,
                    a.span,
                    out,
                )?;
                scope.insert(p.name.clone(), Binding::Ptr(b));
            } else if addr_taken.contains(&p.name) {
                let v = self.rvalue(a, out)?;
                let b = self.cell(&p.name, ty, Some(v), a.span, out)?;
                scope.insert(p.name.clone(), b);
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
        let wrapped = super::scan::needs_early_exit(&f.body);
        let ptr_result = match f.ret.base {
            Some(ty) if f.ret.ptr => {
                // With one final `return`, the result is always assigned: no "unassigned"
                // candidate.
                let tail = matches!(
                    f.body.last().map(|s| &s.kind),
                    Some(ast::StmtKind::Return(_))
                );
                let mut v = self.bind_pointer_var(
                    &format!("{}_ret", f.name),
                    f.ret.span,
                    ty,
                    None,
                    f.ret.konst,
                    true,
                    span,
                    out,
                )?;
                let key = (f.ret.span.lo, f.ret.span.hi);
                let returns_null = self.cands.hint.get(&key).is_some_and(|h| h.contains(&None));
                if tail && !wrapped && !returns_null {
                    v.bases.retain(Option::is_some);
                    if v.bases.len() == 1 {
                        v.tag = None;
                    }
                }
                Some(v)
            }
            _ => None,
        };
        let result = match f.ret.base {
            Some(_) if f.ret.ptr => None,
            Some(ty) => {
                let v = self.new_var(&format!("{}_ret", f.name), ty, span)?;
                out.push(stmt(StmtKind::Let { var: v, init: None }, span));
                Some((v, ty))
            }
            None => None,
        };
        let ctx = ReturnCtx {
            name: f.name.clone(),
            result,
            ptr_result: ptr_result.clone(),
            wrapped,
            done: None,
        };
        // A helper sees file-scope names (which clang resolved) and its own: the kernel's
        // parameters stand for the former (globals become kernel parameters).
        let saved_scopes =
            std::mem::replace(&mut self.scopes, vec![self.kernel_params.clone(), scope]);
        let saved_assigned = std::mem::replace(&mut self.assigned, assigned);
        let saved_addr = std::mem::replace(&mut self.addr_taken, addr_taken);
        let saved_ret = self.ret.replace(ctx);
        let saved_loops = std::mem::replace(&mut self.loop_depth, 0);
        self.inline_stack.push(f.name.clone());
        let mut body = Vec::new();
        let saved_post = std::mem::take(&mut self.helper_post);
        // A helper called inside a kernel's annotation has its own accesses: nothing is
        // untouched in its body.
        let saved_untouched = std::mem::take(&mut self.untouched);
        let mut post = Vec::new();
        let r = self.stmts(&f.body, &mut body).map(|()| {
            let result = match (&ptr_result, result) {
                (Some(v), _) => Some(Val::Ptr(self.ptr_of_var(v, span))),
                (None, Some((v, _))) => Some(Val::Scalar(self.var_expr(v, span))),
                (None, None) => None,
            };
            self.helper_postconditions(result, &mut post);
        });
        self.helper_post = saved_post;
        self.untouched = saved_untouched;
        self.inline_stack.pop();
        self.loop_depth = saved_loops;
        let ctx = std::mem::replace(&mut self.ret, saved_ret);
        self.assigned = saved_assigned;
        self.addr_taken = saved_addr;
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
        out.extend(post);
        if let (Some(v), true) = (&ptr_result, want) {
            let what = format!("`{}` returns no pointer", f.name);
            if !self.known_bases(&v.bases, what, span) {
                return Ok(Val::Ptr(super::PtrVal::null(v.elem, span)));
            }
            return Ok(Val::Ptr(self.ptr_of_var(v, span)));
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
        if let Some(v) = &ctx.ptr_result {
            let Some(e) = e else {
                return err(span, format!("`{}` must return a value", ctx.name));
            };
            let p = match self.expr(e, out)? {
                Val::Ptr(p) => p,
                Val::Scalar(z) if super::expr::is_null(&z) => self.null_const(v.elem, e.span)?,
                _ => return err(e.span, format!("`{}` returns a pointer", ctx.name)),
            };
            let p = super::PtrVal {
                writable: p.writable && v.writable,
                ..p
            };
            self.assign_pointer(&format!("{}_ret", ctx.name), v, p, span, out)?;
        }
        match (e, ctx.result) {
            (Some(_), None) if ctx.ptr_result.is_some() => {}
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
