//! Expressions: names, literals, operators with C conversions, `?:`, `&&`/`||`, casts.
//!
//! Side effects inside an expression (assignments, `++`, calls) are emitted as statements
//! into `out` before the statement that uses the value; inside a conditionally evaluated
//! operand they are emitted under the matching `if`.

use super::{Binding, Lowerer, PtrVal, Val};
use crate::ast::{self, BinaryOp, ExprKind, UnaryOp};
use crate::error::{err, Result};
use crate::types::{common, convert, promote, promoted, to_bool};
use warpsafe_ir::{
    BinOp, Builtin, Dim, Expr, ExprKind as IK, LogicOp, ScalarType, Span, Stmt, StmtKind, UnOp,
    Value,
};

fn bin_op(op: BinaryOp) -> BinOp {
    match op {
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::Div => BinOp::Div,
        BinaryOp::Rem => BinOp::Rem,
        BinaryOp::Shl => BinOp::Shl,
        BinaryOp::Shr => BinOp::Shr,
        BinaryOp::Lt => BinOp::Lt,
        BinaryOp::Le => BinOp::Le,
        BinaryOp::Gt => BinOp::Gt,
        BinaryOp::Ge => BinOp::Ge,
        BinaryOp::Eq => BinOp::Eq,
        BinaryOp::Ne => BinOp::Ne,
        BinaryOp::BitAnd => BinOp::BitAnd,
        BinaryOp::BitXor => BinOp::BitXor,
        BinaryOp::BitOr | BinaryOp::And | BinaryOp::Or => BinOp::BitOr,
    }
}

/// True for the null pointer constant `0`.
pub(crate) fn is_null(e: &Expr) -> bool {
    e.ty.is_int() && e.as_const().and_then(|v| v.as_i128()) == Some(0)
}

/// The constant value `v` of type `ty` at `span`.
pub(crate) fn constant(v: Value, span: Span) -> Expr {
    Expr::constant(v).with_span(span)
}

impl Lowerer<'_> {
    /// Lowers an expression whose value must be a scalar.
    pub(crate) fn rvalue(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Result<Expr> {
        match self.expr(e, out)? {
            Val::Scalar(x) => Ok(x),
            Val::Ptr(_) => err(e.span, "a pointer is used where a number is expected"),
            Val::Void => err(e.span, "a `void` value is used"),
        }
    }

    /// Lowers a condition to `bool`.
    pub(crate) fn cond(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Result<Expr> {
        Ok(to_bool(self.rvalue(e, out)?))
    }

    /// Lowers an expression to a value.
    pub(crate) fn expr(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Result<Val> {
        let span = e.span;
        let scalar = |x: Expr| Ok(Val::Scalar(x.with_span(span)));
        match &e.kind {
            ExprKind::Int(v, ty) => scalar(Expr::constant(Value::from_i128(*ty, *v as i128))),
            ExprKind::Float(v, ty) => scalar(Expr::constant(Value::from_f64(*ty, *v))),
            ExprKind::Bool(b) => scalar(Expr::bool(*b)),
            ExprKind::SizeOf(t) => {
                let size = match (t.ptr, t.base) {
                    (true, _) => 8,
                    (false, Some(s)) => s.size_bytes(),
                    (false, None) => return err(span, "`sizeof(void)` is not allowed"),
                };
                scalar(Expr::u64(size))
            }
            ExprKind::Ident(name) => self.ident(name, span),
            ExprKind::Member(base, field) => self.member(base, field, span).map(Val::Scalar),
            ExprKind::Index(a, i) => {
                let Val::Ptr(p) = self.expr(a, out)? else {
                    return err(a.span, "only arrays and pointers can be indexed");
                };
                let i = self.rvalue(i, out)?;
                self.index(p, i, span, out)
            }
            ExprKind::Call(name, name_span, args) => {
                self.call(name, *name_span, args, span, true, out)
            }
            ExprKind::Unary(op, a) => self.unary(*op, a, span, out),
            ExprKind::IncDec {
                inc,
                prefix,
                target,
            } => self.inc_dec(*inc, *prefix, target, span, true, out),
            ExprKind::Binary(BinaryOp::And, a, b) => self.logical(LogicOp::And, a, b, span, out),
            ExprKind::Binary(BinaryOp::Or, a, b) => self.logical(LogicOp::Or, a, b, span, out),
            ExprKind::Binary(op, a, b) => {
                let x = self.expr(a, out)?;
                let y = self.expr(b, out)?;
                self.binary(*op, x, y, span)
            }
            ExprKind::Assign(op, lhs, rhs) => self.assign(*op, lhs, rhs, span, true, out),
            ExprKind::Cond(c, a, b) => self.conditional(c, a, b, span, out),
            ExprKind::Cast(t, a) => {
                let v = self.expr(a, out)?;
                self.cast(t, v, span)
            }
            ExprKind::Comma(a, b) => {
                self.effect(a, out)?;
                self.expr(b, out)
            }
        }
    }

    /// Lowers an expression evaluated only for its side effects.
    pub(crate) fn effect(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Result<()> {
        let span = e.span;
        match &e.kind {
            ExprKind::Assign(op, lhs, rhs) => {
                self.assign(*op, lhs, rhs, span, false, out).map(drop)
            }
            ExprKind::IncDec {
                inc,
                prefix,
                target,
            } => self
                .inc_dec(*inc, *prefix, target, span, false, out)
                .map(drop),
            ExprKind::Call(name, name_span, args) => self
                .call(name, *name_span, args, span, false, out)
                .map(drop),
            ExprKind::Comma(a, b) => {
                self.effect(a, out)?;
                self.effect(b, out)
            }
            ExprKind::Cast(t, a) if t.base.is_none() && !t.ptr => self.effect(a, out),
            ExprKind::Cond(c, a, b) => {
                let c = self.cond(c, out)?;
                let ((), then_body) = self.sub_block(|lw, o| lw.effect(a, o))?;
                let ((), else_body) = self.sub_block(|lw, o| lw.effect(b, o))?;
                let kind = StmtKind::If {
                    cond: c,
                    then_body,
                    else_body,
                };
                out.push(Stmt::new(kind).with_span(span));
                Ok(())
            }
            _ => self.expr(e, out).map(drop),
        }
    }

    fn ident(&mut self, name: &str, span: Span) -> Result<Val> {
        let Some(b) = self.lookup(name).cloned() else {
            return match name {
                "warpSize" => Ok(Val::Scalar(
                    Expr::builtin(Builtin::WarpSize).with_span(span),
                )),
                "threadIdx" | "blockIdx" | "blockDim" | "gridDim" => err(
                    span,
                    format!("`{name}` needs a field: `{name}.x`, `.y` or `.z`"),
                ),
                _ => err(span, format!("unknown identifier `{name}`")),
            };
        };
        Ok(match b {
            Binding::Var { id, ty, .. } => Val::Scalar(Expr::var(id, ty).with_span(span)),
            Binding::Param { id, ty } => Val::Scalar(Expr::new(IK::Param(id), ty).with_span(span)),
            Binding::Const { value, ty } => Val::Scalar(constant(value.to_value(ty), span)),
            Binding::Ptr(v) => {
                let what = format!("`{name}` is never given a pointer value");
                if !self.known_bases(&v.bases, what, span) {
                    return Ok(Val::Ptr(PtrVal::null(v.elem, span)));
                }
                Val::Ptr(self.ptr_of_var(&v, span))
            }
            Binding::Array { mem, elem, dims } => Val::Ptr(PtrVal {
                mem,
                elem,
                writable: true,
                prefix: vec![],
                off: None,
                rest: dims.len().max(1),
                choice: None,
            }),
            Binding::SharedPtr(v) => {
                let what = format!("`{name}` is never given a pointer value");
                if !self.known_bases(&v.bases, what, span) {
                    return Ok(Val::Ptr(PtrVal::null(v.elem, span)));
                }
                Val::Ptr(self.shared_ptr_value(&v, span))
            }
            Binding::Cell { mem, elem } => {
                let zero = constant(Value::I32(0), span);
                Val::Scalar(Expr::load(mem, vec![zero], elem).with_span(span))
            }
        })
    }

    fn member(&mut self, base: &ast::Expr, field: &str, span: Span) -> Result<Expr> {
        let ExprKind::Ident(name) = &base.kind else {
            return err(span, "member access (structs) is not supported");
        };
        let dim = match field {
            "x" => Dim::X,
            "y" => Dim::Y,
            "z" => Dim::Z,
            _ => return err(span, format!("`{name}` has no field `{field}`")),
        };
        let b = match name.as_str() {
            "threadIdx" => Builtin::ThreadIdx(dim),
            "blockIdx" => Builtin::BlockIdx(dim),
            "blockDim" => Builtin::BlockDim(dim),
            "gridDim" => Builtin::GridDim(dim),
            _ => return err(span, "member access (structs) is not supported"),
        };
        if self.header && matches!(b, Builtin::ThreadIdx(_) | Builtin::BlockIdx(_)) {
            return err(span, format!("`{name}` cannot be used in the header"));
        }
        Ok(Expr::builtin(b).with_span(span))
    }

    fn unary(
        &mut self,
        op: UnaryOp,
        a: &ast::Expr,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Val> {
        match op {
            UnaryOp::AddrOf => return self.address_of(a, span, out).map(Val::Ptr),
            UnaryOp::Deref => {
                let Val::Ptr(p) = self.expr(a, out)? else {
                    return err(span, "only pointers can be dereferenced");
                };
                return self.load_ptr(p, span, out).map(Val::Scalar);
            }
            _ => {}
        }
        let x = self.rvalue(a, out)?;
        let r = match op {
            UnaryOp::Not => Expr::unary(UnOp::Not, to_bool(x)),
            UnaryOp::Plus => promoted(x),
            UnaryOp::Neg => {
                let x = promoted(x);
                match x.as_const() {
                    Some(v) => match v.as_i128() {
                        Some(i) => Expr::constant(Value::from_i128(v.ty(), -i)),
                        None => Expr::constant(Value::from_f64(v.ty(), -v.as_f64())),
                    },
                    None => Expr::unary(UnOp::Neg, x),
                }
            }
            UnaryOp::BitNot => {
                let x = promoted(x);
                if !x.ty.is_int() {
                    return err(
                        span,
                        format!("`~` needs an integer, found `{}`", x.ty.c_name()),
                    );
                }
                Expr::unary(UnOp::BitNot, x)
            }
            UnaryOp::AddrOf | UnaryOp::Deref => return err(span, "internal: unexpected operator"),
        };
        Ok(Val::Scalar(r.with_span(span)))
    }

    /// `&e` for an array element, a dereference or an array name.
    pub(crate) fn address_of(
        &mut self,
        a: &ast::Expr,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<PtrVal> {
        match &a.kind {
            ExprKind::Index(base, i) => {
                let Val::Ptr(p) = self.expr(base, out)? else {
                    return err(base.span, "only arrays and pointers can be indexed");
                };
                let i = self.rvalue(i, out)?;
                if p.rest > 1 {
                    match self.index(p, i, span, out)? {
                        Val::Ptr(q) => Ok(q),
                        _ => err(span, "cannot take this address"),
                    }
                } else {
                    self.ptr_add(p, i, span)
                }
            }
            ExprKind::Unary(UnaryOp::Deref, p) => match self.expr(p, out)? {
                Val::Ptr(p) => Ok(p),
                _ => err(span, "only pointers can be dereferenced"),
            },
            ExprKind::Ident(name) => match self.lookup(name).cloned() {
                Some(Binding::Cell { mem, elem }) => Ok(PtrVal {
                    mem,
                    elem,
                    writable: true,
                    prefix: vec![],
                    off: None,
                    rest: 1,
                    choice: None,
                }),
                _ => match self.expr(a, out)? {
                    Val::Ptr(p) => Ok(p),
                    _ => err(
                        span,
                        "taking the address of a scalar variable is not supported",
                    ),
                },
            },
            ExprKind::Member(..) => match self.expr(a, out)? {
                Val::Ptr(p) => Ok(p),
                _ => err(
                    span,
                    "taking the address of a scalar variable is not supported",
                ),
            },
            _ => err(span, "cannot take the address of this expression"),
        }
    }

    /// A binary operator with C's conversions; pointer arithmetic where one side is a pointer.
    pub(crate) fn binary(&mut self, op: BinaryOp, x: Val, y: Val, span: Span) -> Result<Val> {
        let (x, y) = match (x, y) {
            (Val::Scalar(x), Val::Scalar(y)) => (x, y),
            (Val::Ptr(p), Val::Scalar(i)) if op == BinaryOp::Add => {
                return self.ptr_add(p, i, span).map(Val::Ptr)
            }
            (Val::Scalar(i), Val::Ptr(p)) if op == BinaryOp::Add => {
                return self.ptr_add(p, i, span).map(Val::Ptr)
            }
            (Val::Ptr(p), Val::Scalar(i)) if op == BinaryOp::Sub => {
                let i = self.index_value(i)?;
                let neg = Expr::unary(UnOp::Neg, convert(i, ScalarType::I64)).with_span(span);
                return self.ptr_add(p, neg, span).map(Val::Ptr);
            }
            // Indices into outer dimensions (`&t[1][0]`) are not in the offset.
            (Val::Ptr(p), Val::Ptr(q)) if !p.prefix.is_empty() || !q.prefix.is_empty() => {
                return err(
                    span,
                    "pointers into a multi-dimensional array compared or subtracted (index \
                     the array instead)",
                )
            }
            (Val::Ptr(p), Val::Ptr(q))
                if op == BinaryOp::Sub
                    && p.mem == q.mem
                    && p.rest == 1
                    && p.choice.is_none()
                    && q.choice.is_none() =>
            {
                let d = Expr::binary(BinOp::Sub, p.off_i64(span), q.off_i64(span));
                return Ok(Val::Scalar(d.with_span(span)));
            }
            // Two pointers into one buffer compare as their offsets.
            (Val::Ptr(p), Val::Ptr(q))
                if matches!(
                    op,
                    BinaryOp::Eq
                        | BinaryOp::Ne
                        | BinaryOp::Lt
                        | BinaryOp::Le
                        | BinaryOp::Gt
                        | BinaryOp::Ge
                ) && p.mem == q.mem
                    && p.elem == q.elem
                    && p.rest == 1
                    && q.rest == 1
                    && p.choice.is_none()
                    && q.choice.is_none() =>
            {
                (p.off_i64(span), q.off_i64(span))
            }
            (Val::Void, _) | (_, Val::Void) => return err(span, "a `void` value is used"),
            _ => return err(span, "this pointer operation is not supported"),
        };
        self.arith(op, x, y, span).map(Val::Scalar)
    }

    /// A binary operator on scalars with C's conversions made explicit.
    pub(crate) fn arith(&mut self, op: BinaryOp, x: Expr, y: Expr, span: Span) -> Result<Expr> {
        let irop = bin_op(op);
        if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            let lt = promote(x.ty);
            if !lt.is_int() || !promote(y.ty).is_int() {
                return err(span, "shift operands must be integers");
            }
            let x = convert(x, lt);
            let y = convert(y, lt);
            return Ok(Expr::binary(irop, x, y).with_span(span));
        }
        let t = common(x.ty, y.ty);
        if irop.is_integer_only() && !t.is_int() {
            return err(
                span,
                format!(
                    "operator `{}` needs integer operands, found `{}`",
                    irop.symbol(),
                    t.c_name()
                ),
            );
        }
        Ok(Expr::binary(irop, convert(x, t), convert(y, t)).with_span(span))
    }

    fn logical(
        &mut self,
        op: LogicOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Val> {
        let x = self.cond(a, out)?;
        let (y, effects) = self.sub_block(|lw, o| lw.cond(b, o))?;
        if effects.is_empty() {
            return Ok(Val::Scalar(Expr::logical(op, x, y).with_span(span)));
        }
        // The right operand has side effects: evaluate it only when C would.
        let t = self.let_var("logic", x, span, out)?;
        let tv = self.var_expr(t, span);
        let guard = match op {
            LogicOp::And => tv.clone(),
            LogicOp::Or => Expr::unary(UnOp::Not, tv.clone()).with_span(span),
        };
        let mut then_body = effects;
        then_body.push(Stmt::new(StmtKind::Assign { var: t, value: y }).with_span(span));
        out.push(
            Stmt::new(StmtKind::If {
                cond: guard,
                then_body,
                else_body: vec![],
            })
            .with_span(span),
        );
        Ok(Val::Scalar(tv))
    }

    fn conditional(
        &mut self,
        c: &ast::Expr,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Val> {
        let c = self.cond(c, out)?;
        let (x, xs) = self.sub_block(|lw, o| lw.expr(a, o))?;
        let (y, ys) = self.sub_block(|lw, o| lw.expr(b, o))?;
        let (x, y) = match (x, y) {
            (Val::Scalar(x), Val::Scalar(y)) => (x, y),
            (Val::Ptr(p), Val::Ptr(q)) if xs.is_empty() && ys.is_empty() => {
                return self.choose(c, p, q, span).map(Val::Ptr);
            }
            (Val::Ptr(p), Val::Scalar(z)) if xs.is_empty() && ys.is_empty() && is_null(&z) => {
                let q = self.null_const(p.elem, span)?;
                return self.choose(c, p, q, span).map(Val::Ptr);
            }
            (Val::Scalar(z), Val::Ptr(q)) if xs.is_empty() && ys.is_empty() && is_null(&z) => {
                let p = self.null_const(q.elem, span)?;
                return self.choose(c, p, q, span).map(Val::Ptr);
            }
            (Val::Void, Val::Void) => return err(span, "a `void` value is used"),
            _ => {
                return err(
                    span,
                    "the arms of `?:` must both be numbers (or simple pointers)",
                )
            }
        };
        let t = if x.ty == y.ty {
            x.ty
        } else {
            common(x.ty, y.ty)
        };
        let (x, y) = (convert(x, t), convert(y, t));
        if xs.is_empty() && ys.is_empty() {
            return Ok(Val::Scalar(Expr::select(c, x, y).with_span(span)));
        }
        let v = self.new_var("cond", t, span)?;
        out.push(Stmt::new(StmtKind::Let { var: v, init: None }).with_span(span));
        let mut then_body = xs;
        then_body.push(Stmt::new(StmtKind::Assign { var: v, value: x }).with_span(span));
        let mut else_body = ys;
        else_body.push(Stmt::new(StmtKind::Assign { var: v, value: y }).with_span(span));
        let kind = StmtKind::If {
            cond: c,
            then_body,
            else_body,
        };
        out.push(Stmt::new(kind).with_span(span));
        Ok(Val::Scalar(self.var_expr(v, span)))
    }

    fn cast(&mut self, t: &ast::Type, v: Val, span: Span) -> Result<Val> {
        match (t.base, t.ptr, v) {
            (None, false, _) => Ok(Val::Void),
            (Some(ty), false, Val::Scalar(x)) => Ok(Val::Scalar(convert(x, ty).with_span(span))),
            (Some(ty), true, Val::Ptr(p)) if ty == p.elem => {
                self.mark_volatile_ptr(&p, t.volatile);
                Ok(Val::Ptr(PtrVal {
                    writable: p.writable && !t.konst,
                    ..p
                }))
            }
            (_, true, Val::Ptr(_)) => err(span, "reinterpreting pointer casts are not supported"),
            (Some(ty), true, Val::Scalar(z)) if is_null(&z) => {
                self.null_const(ty, span).map(Val::Ptr)
            }
            (_, true, _) => err(span, "casting a number to a pointer is not supported"),
            (_, false, Val::Ptr(_)) => err(span, "casting a pointer to a number is not supported"),
            (_, false, Val::Void) => err(span, "a `void` value is used"),
        }
    }
}
