//! Statements and declarations (scalars, pointers, shared and local arrays).

use super::{Binding, Lowerer, Val};
use crate::ast::{self, Decl, Declarator, Init, StmtKind as SK};
use crate::consteval::{self, Num};
use crate::error::{err, Result};
use crate::types::convert;
use warpsafe_ir::{ArrayDecl, ArrayId, Expr, MemRef, Span, Stmt, StmtKind, Value};

fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt::new(kind).with_span(span)
}

impl Lowerer<'_> {
    /// Lowers a statement list in the current scope.
    pub(crate) fn stmts(&mut self, body: &[ast::Stmt], out: &mut Vec<Stmt>) -> Result<()> {
        for s in body {
            self.stmt(s, out)?;
        }
        Ok(())
    }

    fn scoped_block(&mut self, s: &ast::Stmt) -> Result<Vec<Stmt>> {
        self.scoped(|lw| {
            let mut b = Vec::new();
            lw.stmt(s, &mut b)?;
            Ok(b)
        })
    }

    /// Lowers one statement, appending to `out`.
    pub(crate) fn stmt(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) -> Result<()> {
        self.enter(s.span)?;
        let r = self.stmt_inner(s, out);
        self.leave();
        r
    }

    fn stmt_inner(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) -> Result<()> {
        let span = s.span;
        match &s.kind {
            SK::Empty => {}
            SK::Expr(e) => self.effect(e, out)?,
            SK::Decl(d) => self.decl(d, out)?,
            SK::Block(b) => {
                let body = self.scoped(|lw| {
                    let mut b2 = Vec::new();
                    lw.stmts(b, &mut b2)?;
                    Ok(b2)
                })?;
                out.extend(body);
            }
            SK::If(c, a, b) => {
                let cond = self.cond(c, out)?;
                let then_body = self.scoped_block(a)?;
                let else_body = match b {
                    Some(b) => self.scoped_block(b)?,
                    None => vec![],
                };
                out.push(stmt(
                    StmtKind::If {
                        cond,
                        then_body,
                        else_body,
                    },
                    span,
                ));
            }
            SK::While(c, body) => {
                let (cond, pre) = self.sub_block(|lw, o| lw.cond(c, o))?;
                let body = self.loop_body(body)?;
                out.push(self.make_loop(vec![], cond, pre, vec![], body, span));
                self.after_loop(span, out);
            }
            SK::For {
                init,
                cond,
                update,
                body,
            } => {
                let lowered = self.scoped(|lw| {
                    let mut init_b = Vec::new();
                    if let Some(i) = init {
                        lw.stmt(i, &mut init_b)?;
                    }
                    let (cond, pre) = match cond {
                        Some(c) => lw.sub_block(|lw, o| lw.cond(c, o))?,
                        None => (Expr::bool(true).with_span(span), vec![]),
                    };
                    let ((), upd) = match update {
                        Some(u) => lw.sub_block(|lw, o| lw.effect(u, o))?,
                        None => ((), vec![]),
                    };
                    let body = lw.loop_body(body)?;
                    Ok(lw.make_loop(init_b, cond, pre, upd, body, span))
                })?;
                out.push(lowered);
                self.after_loop(span, out);
            }
            SK::DoWhile(body, c) => {
                let body = self.loop_body(body)?;
                let (cond, pre) = self.sub_block(|lw, o| lw.cond(c, o))?;
                if pre.is_empty() {
                    out.push(stmt(StmtKind::DoWhile { body, cond }, span));
                } else {
                    // Test the effectful condition at the top of every iteration but the first,
                    // so that `continue` still reaches it.
                    let first =
                        self.let_var("first", Expr::bool(true).with_span(span), span, out)?;
                    let mut test = pre;
                    test.push(self.break_unless(cond, span));
                    let not_first = self.not(self.var_expr(first, span), span);
                    let mut b = vec![
                        stmt(
                            StmtKind::If {
                                cond: not_first,
                                then_body: test,
                                else_body: vec![],
                            },
                            span,
                        ),
                        stmt(
                            StmtKind::Assign {
                                var: first,
                                value: Expr::bool(false).with_span(span),
                            },
                            span,
                        ),
                    ];
                    b.extend(body);
                    out.push(stmt(
                        StmtKind::For {
                            init: vec![],
                            cond: None,
                            update: vec![],
                            body: b,
                        },
                        span,
                    ));
                }
                self.after_loop(span, out);
            }
            SK::Break | SK::Continue => {
                if self.loop_depth == 0 {
                    return err(span, "`break`/`continue` outside a loop");
                }
                let kind = if matches!(s.kind, SK::Break) {
                    StmtKind::Break
                } else {
                    StmtKind::Continue
                };
                out.push(stmt(kind, span));
            }
            SK::Return(e) => self.return_stmt(e.as_ref(), span, out)?,
        }
        Ok(())
    }

    fn loop_body(&mut self, body: &ast::Stmt) -> Result<Vec<Stmt>> {
        self.loop_depth += 1;
        let r = self.scoped_block(body);
        self.loop_depth -= 1;
        r
    }

    pub(crate) fn break_unless(&self, cond: Expr, span: Span) -> Stmt {
        let kind = StmtKind::If {
            cond: self.not(cond, span),
            then_body: vec![stmt(StmtKind::Break, span)],
            else_body: vec![],
        };
        stmt(kind, span)
    }

    /// A loop; a condition with side effects becomes `if (!c) break;` at the top of the body.
    fn make_loop(
        &self,
        init: Vec<Stmt>,
        cond: Expr,
        pre: Vec<Stmt>,
        update: Vec<Stmt>,
        body: Vec<Stmt>,
        span: Span,
    ) -> Stmt {
        if !pre.is_empty() {
            let mut b = pre;
            b.push(self.break_unless(cond, span));
            b.extend(body);
            return stmt(
                StmtKind::For {
                    init,
                    cond: None,
                    update,
                    body: b,
                },
                span,
            );
        }
        let always = cond.as_const() == Some(Value::Bool(true));
        if init.is_empty() && update.is_empty() && !always {
            return stmt(StmtKind::While { cond, body }, span);
        }
        let cond = if always { None } else { Some(cond) };
        stmt(
            StmtKind::For {
                init,
                cond,
                update,
                body,
            },
            span,
        )
    }

    fn decl(&mut self, d: &Decl, out: &mut Vec<Stmt>) -> Result<()> {
        for dc in &d.declarators {
            self.declarator(d, dc, out)?;
        }
        Ok(())
    }

    fn const_dims(&mut self, dc: &Declarator) -> Result<Vec<u64>> {
        let mut dims = Vec::new();
        for dim in &dc.dims {
            let Some(e) = dim else {
                return err(dc.span, "an array needs a constant size here");
            };
            let lookup = |n: &str| match self.lookup(n) {
                Some(Binding::Const { value, .. }) => Some(*value),
                Some(Binding::Var { konst, .. }) => *konst,
                _ => None,
            };
            match consteval::eval(e, &lookup) {
                Some(Num::Int(v)) if v > 0 && v <= (1 << 32) => dims.push(v as u64),
                Some(Num::Int(_)) => {
                    return err(e.span, "an array size must be between 1 and 2^32")
                }
                _ => return err(e.span, "an array size must be a constant expression"),
            }
        }
        let total = dims.iter().try_fold(1u64, |a, d| a.checked_mul(*d));
        match total {
            Some(t) if t <= 1 << 32 => Ok(dims),
            _ => err(dc.span, "the array is too large"),
        }
    }

    fn declarator(&mut self, d: &Decl, dc: &Declarator, out: &mut Vec<Stmt>) -> Result<()> {
        let span = dc.span;
        let Some(elem) = d.base.base else {
            return err(d.base.span, "`void` variables are not supported");
        };
        if d.storage.shared {
            self.shared_decl(d, dc, elem)?;
            if d.storage.file_scope {
                if let Some(b) = self.lookup(&dc.name).cloned() {
                    self.kernel_params.insert(dc.name.clone(), b);
                }
            }
            return Ok(());
        }
        if d.storage.extern_ {
            return err(
                span,
                "`extern` is only supported for `extern __shared__` arrays",
            );
        }
        if dc.ptr {
            if !dc.dims.is_empty() {
                return err(span, "arrays of pointers are not supported");
            }
            let p = match &dc.init {
                None => None,
                Some(Init::Expr(init)) => match self.expr(init, out)? {
                    Val::Ptr(p) => Some(p),
                    Val::Scalar(z) if super::expr::is_null(&z) => {
                        Some(self.null_const(elem, init.span)?)
                    }
                    _ => return err(init.span, "a pointer must be initialised with a pointer"),
                },
                Some(Init::List(_, lspan)) => {
                    return err(
                        *lspan,
                        "a pointer is initialised with a pointer, not `{ ... }`",
                    )
                }
            };
            if let Some(p) = &p {
                if p.elem != elem {
                    return err(
                        span,
                        format!(
                            "pointer to `{}` initialised with a pointer to `{}`",
                            elem.c_name(),
                            p.elem.c_name()
                        ),
                    );
                }
                self.mark_volatile_ptr(p, d.base.volatile);
            }
            let mutable = self.assigned.contains(&dc.name);
            let v = self.bind_pointer_var(
                &dc.name,
                dc.span,
                elem,
                p,
                d.base.konst,
                mutable,
                span,
                out,
            )?;
            self.bind(&dc.name, Binding::Ptr(v));
            return Ok(());
        }
        if !dc.dims.is_empty() {
            return self.local_array(dc, elem, out);
        }
        let init = match &dc.init {
            None => None,
            Some(Init::Expr(e)) => Some(convert(self.rvalue(e, out)?, elem)),
            Some(Init::List(items, lspan)) => match items.as_slice() {
                [e] => Some(convert(self.rvalue(e, out)?, elem)),
                _ => return err(*lspan, "a scalar takes a single initialiser"),
            },
        };
        if self.addr_taken.contains(&dc.name) {
            let b = self.cell(&dc.name, elem, init, dc.name_span, out)?;
            self.bind(&dc.name, b);
            return Ok(());
        }
        let konst = match (&init, d.storage.konst) {
            (Some(e), true) => e.as_const().map(Num::from_value),
            _ => None,
        };
        let id = self.new_var(&dc.name, elem, dc.name_span)?;
        out.push(stmt(StmtKind::Let { var: id, init }, span));
        self.bind(
            &dc.name,
            Binding::Var {
                id,
                ty: elem,
                konst,
            },
        );
        Ok(())
    }

    fn shared_decl(
        &mut self,
        d: &Decl,
        dc: &Declarator,
        elem: warpsafe_ir::ScalarType,
    ) -> Result<()> {
        if self.header {
            return err(dc.span, "declarations are not allowed in the header");
        }
        if dc.ptr {
            if !dc.dims.is_empty() || d.storage.extern_ || dc.init.is_some() {
                return err(
                    dc.span,
                    "only a plain `__shared__ T *p;` (no array of pointers, `extern` or \
                     initialiser) is supported",
                );
            }
            let v = self.shared_pointer(&dc.name, dc.span, elem, d.base.konst)?;
            self.bind(&dc.name, Binding::SharedPtr(v));
            return Ok(());
        }
        if dc.init.is_some() {
            return err(
                dc.span,
                "`__shared__` variables cannot be initialised in their declaration",
            );
        }
        // One array per declaration, however often its helper is inlined; the name too, as
        // declarations in a header (a file-scope `__shared__` variable) share one span.
        let key = (dc.span.lo, dc.span.hi, dc.name.clone());
        let (dims, dynamic) = if d.storage.extern_ {
            if dc.dims.len() != 1 || dc.dims[0].is_some() {
                return err(
                    dc.span,
                    "`extern __shared__` arrays are declared `T name[]`",
                );
            }
            (vec![0], true)
        } else if dc.dims.is_empty() {
            (vec![1], false)
        } else {
            (self.const_dims(dc)?, false)
        };
        let id = match self.shared_decls.get(&key) {
            Some(id) => *id,
            None => {
                let id = ArrayId(self.k.shared.len() as u32);
                self.k.shared.push(ArrayDecl {
                    name: dc.name.clone(),
                    elem,
                    dims: dims.clone(),
                    dynamic,
                    span: dc.span,
                });
                self.shared_decls.insert(key, id);
                id
            }
        };
        let mem = MemRef::Shared(id);
        self.mark_volatile(mem, d.base.volatile);
        let b = if dc.dims.is_empty() {
            Binding::Cell { mem, elem }
        } else {
            Binding::Array { mem, elem, dims }
        };
        self.bind(&dc.name, b);
        Ok(())
    }

    fn local_array(
        &mut self,
        dc: &Declarator,
        elem: warpsafe_ir::ScalarType,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if self.header {
            return err(dc.span, "declarations are not allowed in the header");
        }
        let inferred = match (&dc.init, dc.dims.as_slice()) {
            (Some(Init::List(items, _)), [None]) => Some(vec![items.len().max(1) as u64]),
            _ => None,
        };
        let dims = match inferred {
            Some(d) => d,
            None => self.const_dims(dc)?,
        };
        let id = ArrayId(self.k.locals.len() as u32);
        self.k.locals.push(ArrayDecl {
            name: dc.name.clone(),
            elem,
            dims: dims.clone(),
            dynamic: false,
            span: dc.span,
        });
        let mem = MemRef::Local(id);
        match &dc.init {
            None => {}
            Some(Init::List(items, lspan)) => {
                // A list initialises the elements in row-major order (the clang frontend
                // flattens nested lists), the rest are zero.
                let total = dims.iter().try_fold(1u64, |a, d| a.checked_mul(*d));
                let Some(total) = total.filter(|t| items.len() as u64 <= *t) else {
                    return err(*lspan, "the initialiser list does not fit the array");
                };
                if total > 4096 {
                    return err(
                        *lspan,
                        "initialiser lists are supported for arrays of up to 4096 elements",
                    );
                }
                for i in 0..total {
                    let (value, at) = match items.get(i as usize) {
                        Some(e) => (convert(self.rvalue(e, out)?, elem), e.span),
                        None => (Expr::constant(Value::zero(elem)).with_span(*lspan), *lspan),
                    };
                    let mut rest = i;
                    let mut indices: Vec<Expr> = dims
                        .iter()
                        .rev()
                        .map(|d| {
                            let at_dim = rest % d;
                            rest /= d;
                            Expr::i32(at_dim as i32).with_span(at)
                        })
                        .collect();
                    indices.reverse();
                    out.push(stmt(
                        StmtKind::Store {
                            mem,
                            indices,
                            value,
                        },
                        at,
                    ));
                }
            }
            Some(Init::Expr(e)) => return err(e.span, "an array is initialised with `{ ... }`"),
        }
        self.bind(&dc.name, Binding::Array { mem, elem, dims });
        Ok(())
    }
}
