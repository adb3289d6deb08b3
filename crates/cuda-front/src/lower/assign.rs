//! Assignments, compound assignments and `++`/`--`, desugared to `Assign`/`Store`.
//!
//! The right operand is evaluated first (C++17 sequencing); an index with loads or
//! arithmetic is bound to a temporary so that a read-modify-write evaluates it once.

use super::pointers::PtrVar;
use super::{Binding, Lowerer, PtrVal, Val};
use crate::ast::{self, BinaryOp, ExprKind, UnaryOp};
use crate::error::{err, Result};
use crate::types::convert;
use warpsafe_ir::{
    Check, Expr, ExprKind as IK, MemRef, ScalarType, Span, Stmt, StmtKind, Value, VarId,
};

/// Something that can be assigned.
enum Place {
    Var(VarId, ScalarType),
    Mem {
        mem: MemRef,
        indices: Vec<Expr>,
        elem: ScalarType,
    },
    /// A pointer variable.
    Ptr {
        name: String,
        var: PtrVar,
    },
    /// A `__shared__` pointer.
    Shared(super::pointers::SharedPtr),
    /// The element a pointer with several candidate bases points at.
    Via(PtrVal),
}

fn has_load(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= matches!(x.kind, IK::Load(..)));
    found
}

fn is_atom(e: &Expr) -> bool {
    matches!(
        e.kind,
        IK::Var(_) | IK::Const(_) | IK::Param(_) | IK::Builtin(_)
    )
}

impl Lowerer<'_> {
    fn place(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Result<Place> {
        let span = e.span;
        let p = match &e.kind {
            ExprKind::Ident(name) => match self.lookup(name).cloned() {
                Some(Binding::Var { id, ty, .. }) => return Ok(Place::Var(id, ty)),
                Some(Binding::Cell { mem, elem }) => {
                    let zero = Expr::i32(0).with_span(span);
                    return Ok(Place::Mem {
                        mem,
                        indices: vec![zero],
                        elem,
                    });
                }
                Some(Binding::Ptr(var)) => {
                    return Ok(Place::Ptr {
                        name: name.clone(),
                        var,
                    })
                }
                Some(Binding::SharedPtr(v)) => return Ok(Place::Shared(v)),
                Some(Binding::Array { .. }) => {
                    return err(span, format!("cannot assign to array `{name}`"))
                }
                Some(Binding::Param { .. }) | Some(Binding::Const { .. }) => {
                    return err(span, format!("cannot assign to `{name}` here"))
                }
                None => return err(span, format!("unknown identifier `{name}`")),
            },
            ExprKind::Index(..) | ExprKind::Unary(UnaryOp::Deref, _) => {
                let target = match &e.kind {
                    ExprKind::Unary(UnaryOp::Deref, p) => (**p).clone(),
                    _ => e.clone(),
                };
                match &e.kind {
                    ExprKind::Index(..) => self.address_of(&target, span, out)?,
                    _ => match self.expr(&target, out)? {
                        Val::Ptr(p) => p,
                        _ => return err(span, "only pointers can be dereferenced"),
                    },
                }
            }
            ExprKind::Member(..) => return err(span, "launch builtins cannot be assigned"),
            _ => return err(span, "this expression cannot be assigned to"),
        };
        if !p.writable && self.constant_mems.contains(&p.mem) {
            // Constant memory written: a finding where the write is reached; the value goes
            // to a scratch variable instead.
            let never = Expr::bool(false).with_span(span);
            out.push(Stmt::new(StmtKind::Assert(never, Check::Writable)).with_span(span));
            let zero = Expr::constant(Value::zero(p.elem)).with_span(span);
            let var = self.let_var("constant_write", zero, span, out)?;
            return Ok(Place::Var(var, p.elem));
        }
        if !p.writable {
            let name = super::pointers::MemName::mem_name_safe(&self.k, p.mem);
            return err(
                span,
                format!("write through a pointer to const (`{name}` is read-only here)"),
            );
        }
        if p.choice.is_some() {
            return Ok(Place::Via(p));
        }
        let indices = p.indices(span)?;
        Ok(Place::Mem {
            mem: p.mem,
            indices,
            elem: p.elem,
        })
    }

    /// Binds indices that would be evaluated twice by a read-modify-write to temporaries.
    pub(crate) fn stable_indices(
        &mut self,
        indices: Vec<Expr>,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Expr>> {
        let mut stable = Vec::with_capacity(indices.len());
        for i in indices {
            if is_atom(&i) && !has_load(&i) {
                stable.push(i);
            } else {
                stable.push(self.temp("idx", i, out)?);
            }
        }
        Ok(stable)
    }

    /// `lhs = rhs` or `lhs op= rhs`; the value is the stored value when `want` is set.
    pub(crate) fn assign(
        &mut self,
        op: Option<BinaryOp>,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
        want: bool,
        out: &mut Vec<Stmt>,
    ) -> Result<Val> {
        let r = self.expr(rhs, out)?;
        let place = self.place(lhs, out)?;
        match place {
            Place::Ptr { name, var } => {
                let cur = self.ptr_of_var(&var, span);
                let new = self.pointer_update(op, r, cur, var.elem, rhs.span, span)?;
                self.assign_pointer(&name, &var, new, span, out)?;
                Ok(Val::Ptr(self.ptr_of_var(&var, span)))
            }
            Place::Shared(v) => {
                let cur = self.shared_ptr_value(&v, span);
                let new = self.pointer_update(op, r, cur, v.elem, rhs.span, span)?;
                self.assign_shared_pointer(&v, new, span, out)?;
                Ok(Val::Ptr(self.shared_ptr_value(&v, span)))
            }
            Place::Via(p) => {
                let r = self.scalar(r, rhs.span)?;
                let elem = p.elem;
                let result = self.access_result(want, elem, span, out)?;
                self.per_base(&p, span, out, |lw, mem, indices, o| {
                    let value = match op {
                        None => r.clone(),
                        Some(op) => {
                            let old = Expr::load(mem, indices.clone(), elem).with_span(lhs.span);
                            lw.arith(op, old, r.clone(), span)?
                        }
                    };
                    let mut value = convert(value, elem).with_span(span);
                    if let Some(t) = result {
                        o.push(Stmt::new(StmtKind::Assign { var: t, value }).with_span(span));
                        value = lw.var_expr(t, span);
                    }
                    let kind = StmtKind::Store {
                        mem,
                        indices,
                        value,
                    };
                    o.push(Stmt::new(kind).with_span(span));
                    Ok(())
                })?;
                Ok(match result {
                    Some(t) => Val::Scalar(self.var_expr(t, span)),
                    None => Val::Void,
                })
            }
            Place::Var(v, ty) => {
                let r = self.scalar(r, rhs.span)?;
                let value = match op {
                    None => r,
                    Some(op) => self.arith(op, self.var_expr(v, span), r, span)?,
                };
                let value = convert(value, ty).with_span(span);
                out.push(Stmt::new(StmtKind::Assign { var: v, value }).with_span(span));
                Ok(Val::Scalar(self.var_expr(v, span)))
            }
            Place::Mem { mem, indices, elem } => {
                let r = self.scalar(r, rhs.span)?;
                let (indices, value) = match op {
                    None => (indices, r),
                    Some(op) => {
                        let indices = self.stable_indices(indices, out)?;
                        let old = Expr::load(mem, indices.clone(), elem).with_span(lhs.span);
                        (indices, self.arith(op, old, r, span)?)
                    }
                };
                self.store(mem, indices, convert(value, elem), want, span, out)
            }
        }
    }

    /// A variable for an access's value when the value is used.
    /// The pointer `p = r` or `p op= r` makes of `cur` (a pointer variable or a `__shared__`
    /// pointer cell pointing to `elem`).
    fn pointer_update(
        &mut self,
        op: Option<BinaryOp>,
        r: Val,
        cur: PtrVal,
        elem: ScalarType,
        rhs_span: Span,
        span: Span,
    ) -> Result<PtrVal> {
        match (op, r) {
            (None, Val::Ptr(p)) => Ok(p),
            (None, Val::Scalar(z)) if super::expr::is_null(&z) => self.null_const(elem, rhs_span),
            (Some(o @ (BinaryOp::Add | BinaryOp::Sub)), Val::Scalar(i)) => {
                match self.binary(o, Val::Ptr(cur), Val::Scalar(i), span)? {
                    Val::Ptr(p) => Ok(p),
                    _ => err(span, "unsupported pointer update"),
                }
            }
            _ => err(span, "unsupported pointer assignment"),
        }
    }

    fn access_result(
        &mut self,
        want: bool,
        ty: ScalarType,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Option<VarId>> {
        if !want {
            return Ok(None);
        }
        let t = self.new_var("val", ty, span)?;
        out.push(Stmt::new(StmtKind::Let { var: t, init: None }).with_span(span));
        Ok(Some(t))
    }

    fn scalar(&self, v: Val, span: Span) -> Result<Expr> {
        match v {
            Val::Scalar(x) => Ok(x),
            Val::Ptr(_) => err(span, "a pointer is used where a number is expected"),
            Val::Void => err(span, "a `void` value is used"),
        }
    }

    fn store(
        &mut self,
        mem: MemRef,
        indices: Vec<Expr>,
        value: Expr,
        want: bool,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Val> {
        let value = value.with_span(span);
        let (value, result) = if want {
            let t = self.temp("val", value, out)?;
            (t.clone(), Val::Scalar(t))
        } else {
            (value, Val::Void)
        };
        let kind = StmtKind::Store {
            mem,
            indices,
            value,
        };
        out.push(Stmt::new(kind).with_span(span));
        Ok(result)
    }

    /// `++x`, `x++`, `--x`, `x--`; a postfix form used as a value yields the old value.
    pub(crate) fn inc_dec(
        &mut self,
        inc: bool,
        prefix: bool,
        target: &ast::Expr,
        span: Span,
        want: bool,
        out: &mut Vec<Stmt>,
    ) -> Result<Val> {
        let op = if inc { BinaryOp::Add } else { BinaryOp::Sub };
        let one = Expr::i32(1).with_span(span);
        match self.place(target, out)? {
            Place::Var(v, ty) => {
                let cur = self.var_expr(v, span);
                let old = if want && !prefix {
                    Some(self.temp("old", cur.clone(), out)?)
                } else {
                    None
                };
                let value = convert(self.arith(op, cur, one, span)?, ty).with_span(span);
                out.push(Stmt::new(StmtKind::Assign { var: v, value }).with_span(span));
                Ok(Val::Scalar(old.unwrap_or_else(|| self.var_expr(v, span))))
            }
            Place::Mem { mem, indices, elem } => {
                let indices = self.stable_indices(indices, out)?;
                let cur = Expr::load(mem, indices.clone(), elem).with_span(target.span);
                let old = if want && !prefix {
                    Some(self.temp("old", cur.clone(), out)?)
                } else {
                    None
                };
                let value = convert(self.arith(op, old.clone().unwrap_or(cur), one, span)?, elem);
                let stored = self.store(mem, indices, value, want && prefix, span, out)?;
                Ok(old.map(Val::Scalar).unwrap_or(stored))
            }
            Place::Shared(_) => err(
                span,
                "`++`/`--` on a `__shared__` pointer is not supported (write `p = p + 1`)",
            ),
            Place::Via(p) => {
                let elem = p.elem;
                let result = self.access_result(want, elem, span, out)?;
                self.per_base(&p, span, out, |lw, mem, indices, o| {
                    let cur = Expr::load(mem, indices.clone(), elem).with_span(target.span);
                    let old = match result {
                        Some(t) if !prefix => {
                            o.push(
                                Stmt::new(StmtKind::Assign { var: t, value: cur }).with_span(span),
                            );
                            lw.var_expr(t, span)
                        }
                        _ => cur,
                    };
                    let value =
                        convert(lw.arith(op, old, one.clone(), span)?, elem).with_span(span);
                    let value = match result {
                        Some(t) if prefix => {
                            o.push(Stmt::new(StmtKind::Assign { var: t, value }).with_span(span));
                            lw.var_expr(t, span)
                        }
                        _ => value,
                    };
                    let kind = StmtKind::Store {
                        mem,
                        indices,
                        value,
                    };
                    o.push(Stmt::new(kind).with_span(span));
                    Ok(())
                })?;
                Ok(match result {
                    Some(t) => Val::Scalar(self.var_expr(t, span)),
                    None => Val::Void,
                })
            }
            Place::Ptr { name, var: pv } => {
                let Some(var) = pv.off else {
                    return err(span, format!("cannot reassign pointer `{name}`"));
                };
                let cur = self.var_expr(var, span);
                let old = if want && !prefix {
                    Some(self.temp("old", cur.clone(), out)?)
                } else {
                    None
                };
                let delta = Expr::constant(Value::I64(if inc { 1 } else { -1 }));
                let value = self.arith(BinaryOp::Add, cur, delta.with_span(span), span)?;
                out.push(Stmt::new(StmtKind::Assign { var, value }).with_span(span));
                let now = self.ptr_of_var(&pv, span);
                Ok(Val::Ptr(PtrVal {
                    off: Some(old.unwrap_or_else(|| self.var_expr(var, span))),
                    ..now
                }))
            }
        }
    }
}
