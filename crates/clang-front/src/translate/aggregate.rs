//! Structs and vector types (`float4`, `struct Particle { float x, y, z; }`), scalarised:
//!
//! - a local of record type is one local per field (`v.x` is the local `v__x`), and a record
//!   parameter passed by value one parameter per field;
//! - memory holding records whose fields share one scalar type (`float4*`, `Particle*`,
//!   `__shared__ float4 t[64]`, `reinterpret_cast<const float4*>(&A[k])`) is memory of that
//!   scalar: field `f` of element `i` is scalar `i * fields + f` (the same bytes, so races and
//!   bounds are judged on the same cells);
//! - a record assignment or initialisation copies field by field.
//!
//! Records with fields of different types in memory, nested records, and record values
//! passed to or returned from helpers are rejected with their span.

use super::expr::strip_implicit;
use super::{types, Unit};
use crate::node::Node;
use warpsafe_cuda_front::ast::{BinaryOp, Expr, ExprKind, Type, UnaryOp};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

/// A record type's fields: name and type spelling, in declaration order.
pub type Fields = Vec<(String, String)>;

fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

/// The name of `n`'s variable, for the per-field locals `name__field`.
pub fn field_local(var: &str, field: &str) -> String {
    format!("{var}__{field}")
}

/// `a + b`, without adding a literal zero.
fn add(a: Expr, b: Expr, span: Span) -> Expr {
    if matches!(a.kind, ExprKind::Int(0, _)) {
        return b;
    }
    if matches!(b.kind, ExprKind::Int(0, _)) {
        return a;
    }
    Expr::new(
        ExprKind::Binary(BinaryOp::Add, Box::new(a), Box::new(b)),
        span,
    )
}

fn times(a: Expr, k: u64, span: Span) -> Expr {
    if k == 1 {
        return a;
    }
    if let ExprKind::Int(v, t) = a.kind {
        if let Some(p) = v.checked_mul(k) {
            return Expr::new(ExprKind::Int(p, t), span);
        }
    }
    Expr::new(
        ExprKind::Binary(
            BinaryOp::Mul,
            Box::new(a),
            Box::new(Expr::new(ExprKind::Int(k, ScalarType::I32), span)),
        ),
        span,
    )
}

fn zero(span: Span) -> Expr {
    Expr::new(ExprKind::Int(0, ScalarType::I32), span)
}

/// Scalar memory as a base (a buffer or array name, or a pointer expression the lowering
/// knows) and an offset in scalars.
pub struct Scalars {
    base: Expr,
    offset: Expr,
}

impl Unit<'_> {
    /// The fields of the record type `ty`, when it is one (through `const`, references and
    /// namespaces).
    pub fn record(&self, ty: &str) -> Option<&Fields> {
        self.records.get(&self.record_key_of(ty)?)
    }

    /// The one scalar type of every field of `fields`, when they share it.
    pub fn uniform(&self, fields: &Fields, span: Span) -> Result<ScalarType, FrontError> {
        let mut common = None;
        for (name, ty) in fields {
            let t = types::scalar_or_pointer(ty, span)
                .ok()
                .filter(|t| !t.ptr)
                .and_then(|t| t.base)
                .ok_or_else(|| {
                    unsupported(
                        span,
                        format!("field `{name}` of type `{ty}` in a record in memory"),
                    )
                })?;
            match common {
                None => common = Some(t),
                Some(c) if c == t => {}
                Some(_) => {
                    return Err(unsupported(
                        span,
                        "a record in memory whose fields have different types",
                    ))
                }
            }
        }
        common.ok_or_else(|| unsupported(span, "an empty record"))
    }

    /// The type of a pointer to records (`const float4 *`) as a pointer to their common
    /// scalar, with the number of fields per record; `None` when `ty` is no such pointer.
    pub fn record_pointer(&self, ty: &str, span: Span) -> Result<Option<(Type, u64)>, FrontError> {
        let Some((pointee, _)) = ty.rsplit_once('*') else {
            return Ok(None);
        };
        let Some(fields) = self.record(pointee) else {
            return Ok(None);
        };
        let scalar = self.uniform(fields, span)?;
        let pointee = pointee.trim();
        Ok(Some((
            Type {
                base: Some(scalar),
                ptr: true,
                konst: pointee.starts_with("const "),
                volatile: pointee.contains("volatile "),
                span,
            },
            fields.len() as u64,
        )))
    }

    /// True for a pointer to records (`float4 *`), whose arithmetic steps by whole records.
    pub fn is_record_pointer(&self, ty: &str) -> bool {
        ty.rsplit_once('*')
            .is_some_and(|(p, _)| self.record(p).is_some())
    }

    /// The initial value of a local pointer to records, as a pointer to its first scalar
    /// (`float4* p = reinterpret_cast<float4*>(x) + 1` starts at `&x[4]`).
    pub fn record_pointer_init(&self, n: &Node, span: Span) -> Result<Expr, FrontError> {
        let (s, _) = self.record_scalars(n, span)?;
        if matches!(s.offset.kind, ExprKind::Int(0, _)) {
            return Ok(s.base);
        }
        let at = Expr::new(ExprKind::Index(Box::new(s.base), Box::new(s.offset)), span);
        Ok(Expr::new(
            ExprKind::Unary(UnaryOp::AddrOf, Box::new(at)),
            span,
        ))
    }

    /// An array of records (`float4[64]`) as the spelling of the array of their scalars
    /// (`float[256]`); `None` for other types.
    pub fn record_array(&self, ty: &str, span: Span) -> Result<Option<String>, FrontError> {
        let Some((elem, dims)) = ty.split_once('[') else {
            return Ok(None);
        };
        let Some(fields) = self.record(elem) else {
            return Ok(None);
        };
        let scalar = self.uniform(fields, span)?;
        let extent: u64 = dims
            .strip_suffix(']')
            .and_then(|d| d.trim().parse().ok())
            .ok_or_else(|| {
                unsupported(
                    span,
                    format!("array of records `{ty}` (one known extent only)"),
                )
            })?;
        let total = extent
            .checked_mul(fields.len() as u64)
            .ok_or_else(|| unsupported(span, format!("array `{ty}` too large")))?;
        let konst = if elem.trim_start().starts_with("const ") {
            "const "
        } else {
            ""
        };
        Ok(Some(format!("{konst}{}[{total}]", scalar.c_name())))
    }

    /// The field expressions of the record value `n` (each an lvalue when `n` is one).
    pub fn record_fields(&self, n: &Node, span: Span) -> Result<Vec<Expr>, FrontError> {
        let span = self.span(n, span);
        let ty = n.ty().unwrap_or("");
        let fields = self
            .record(ty)
            .ok_or_else(|| unsupported(span, format!("value of type `{ty}`")))?
            .clone();
        if let Some(v) = self.record_fields_via_place(n, span)? {
            return Ok(v);
        }
        match n.kind.as_str() {
            "ImplicitCastExpr"
            | "ParenExpr"
            | "MaterializeTemporaryExpr"
            | "ExprWithCleanups"
            | "CXXBindTemporaryExpr"
            | "ConstantExpr" => {
                let inner = n
                    .inner
                    .first()
                    .ok_or_else(|| unsupported(span, "empty expression"))?;
                self.record_fields(inner, span)
            }
            "CXXConstructExpr" | "CXXTemporaryObjectExpr" => match &n.inner[..] {
                [one] => self.record_fields(one, span),
                [] => Err(unsupported(span, "a record without an initial value")),
                _ => Err(unsupported(
                    span,
                    "a record constructor with several arguments",
                )),
            },
            "InitListExpr" => {
                let items: Vec<&Node> = n.inner.iter().collect();
                if items.len() != fields.len() {
                    return Err(unsupported(span, "a partial record initialiser"));
                }
                items.iter().map(|i| self.expr(i, span)).collect()
            }
            "CallExpr" => {
                let callee = n.inner.first().map(strip_implicit);
                let name = callee
                    .and_then(|c| c.referenced())
                    .map(|(_, _, name)| name)
                    .unwrap_or("");
                if name.starts_with("make_") && n.inner.len() == fields.len() + 1 {
                    return n.inner[1..].iter().map(|a| self.expr(a, span)).collect();
                }
                if matches!(
                    name,
                    "__ldg" | "__ldcg" | "__ldca" | "__ldcs" | "__ldlu" | "__ldcv"
                ) && n.inner.len() == 2
                {
                    let s = self.scalars(&n.inner[1], span)?;
                    return Ok(self.elements(s, &fields, span));
                }
                Err(unsupported(span, format!("a record returned by `{name}`")))
            }
            "DeclRefExpr" => {
                let (_, _, var) = n
                    .referenced()
                    .ok_or_else(|| unsupported(span, "record reference"))?;
                Ok(fields
                    .iter()
                    .map(|(f, _)| Expr::new(ExprKind::Ident(field_local(var, f)), span))
                    .collect())
            }
            "ArraySubscriptExpr" | "UnaryOperator" => {
                let s = self.record_place(n, span)?;
                Ok(self.elements(s, &fields, span))
            }
            other => Err(unsupported(span, format!("a record value from `{other}`"))),
        }
    }

    /// `base[offset + f]` for every field `f`.
    pub(super) fn elements(&self, s: Scalars, fields: &Fields, span: Span) -> Vec<Expr> {
        (0..fields.len() as u64)
            .map(|f| {
                let idx = add(
                    s.offset.clone(),
                    Expr::new(ExprKind::Int(f, ScalarType::I32), span),
                    span,
                );
                Expr::new(
                    ExprKind::Index(Box::new(s.base.clone()), Box::new(idx)),
                    span,
                )
            })
            .collect()
    }

    /// Where the record lvalue `n` (`p[i]`, `*p`) starts, in scalars.
    fn record_place(&self, n: &Node, span: Span) -> Result<Scalars, FrontError> {
        match n.kind.as_str() {
            "ArraySubscriptExpr" => {
                let (Some(base), Some(index)) = (n.inner.first(), n.inner.get(1)) else {
                    return Err(unsupported(span, "malformed subscript"));
                };
                let (s, stride) = self.record_scalars(base, span)?;
                let i = self.expr(index, span)?;
                Ok(Scalars {
                    offset: add(s.offset, times(i, stride, span), span),
                    base: s.base,
                })
            }
            "UnaryOperator" if n.str("opcode") == Some("*") => {
                let p = n
                    .inner
                    .first()
                    .ok_or_else(|| unsupported(span, "malformed `*`"))?;
                Ok(self.record_scalars(p, span)?.0)
            }
            "ImplicitCastExpr" | "ParenExpr" => {
                let inner = n
                    .inner
                    .first()
                    .ok_or_else(|| unsupported(span, "empty expression"))?;
                self.record_place(inner, span)
            }
            other => Err(unsupported(
                span,
                format!("a record in memory from `{other}`"),
            )),
        }
    }

    /// The scalars a pointer to records (or an array of records) points at, with the
    /// number of scalars per record.
    pub(super) fn record_scalars(
        &self,
        n: &Node,
        span: Span,
    ) -> Result<(Scalars, u64), FrontError> {
        let span = self.span(n, span);
        let ty = n.ty().unwrap_or("");
        let stride = if let Some((pointee, _)) = ty.rsplit_once('*') {
            self.record(pointee).map(|f| f.len() as u64)
        } else if let Some((elem, _)) = ty.split_once('[') {
            self.record(elem).map(|f| f.len() as u64)
        } else {
            None
        }
        .ok_or_else(|| unsupported(span, format!("pointer of type `{ty}`")))?;
        match n.kind.as_str() {
            "ImplicitCastExpr" | "ParenExpr" => {
                let inner = n
                    .inner
                    .first()
                    .ok_or_else(|| unsupported(span, "empty expression"))?;
                if n.str("castKind") == Some("BitCast") {
                    return Ok((self.scalars(inner, span)?, stride));
                }
                self.record_scalars(inner, span)
            }
            "CStyleCastExpr" | "CXXReinterpretCastExpr" | "CXXStaticCastExpr" => {
                let inner = n
                    .inner
                    .first()
                    .ok_or_else(|| unsupported(span, "empty cast"))?;
                let from = strip_implicit(inner).ty().unwrap_or("");
                if self.record_pointer(from, span)?.is_some() || from.contains('[') {
                    return self.record_scalars(inner, span);
                }
                let source = types::scalar_or_pointer(from, span)
                    .map_err(|e| unsupported(span, format!("cast of {e} to `{ty}`")))?;
                let fields = self
                    .record(ty.rsplit_once('*').map_or(ty, |p| p.0))
                    .cloned()
                    .unwrap_or_default();
                if !source.ptr || source.base != Some(self.uniform(&fields, span)?) {
                    return Err(unsupported(
                        span,
                        format!("pointer cast from `{from}` to `{ty}` (the record's fields are not of the pointed-to type)"),
                    ));
                }
                Ok((self.scalars(inner, span)?, stride))
            }
            "DeclRefExpr" => {
                let (id, _, name) = n
                    .referenced()
                    .ok_or_else(|| unsupported(span, "reference"))?;
                let base = match self.alias(id) {
                    Some(super::place::Slot::Expr(e)) => e,
                    _ => Expr::new(ExprKind::Ident(self.var_name(id, name)), span),
                };
                Ok((
                    Scalars {
                        base,
                        offset: zero(span),
                    },
                    stride,
                ))
            }
            "BinaryOperator" if matches!(n.str("opcode"), Some("+" | "-")) => {
                let (Some(a), Some(b)) = (n.inner.first(), n.inner.get(1)) else {
                    return Err(unsupported(span, "malformed pointer arithmetic"));
                };
                let (p, k) = if a.ty().is_some_and(|t| t.contains('*')) {
                    (a, b)
                } else {
                    (b, a)
                };
                let (s, stride) = self.record_scalars(p, span)?;
                let mut k = times(self.expr(k, span)?, stride, span);
                if n.str("opcode") == Some("-") {
                    k = Expr::new(ExprKind::Unary(UnaryOp::Neg, Box::new(k)), span);
                }
                Ok((
                    Scalars {
                        offset: add(s.offset, k, span),
                        base: s.base,
                    },
                    stride,
                ))
            }
            "UnaryOperator" if n.str("opcode") == Some("&") => {
                let inner = n
                    .inner
                    .first()
                    .ok_or_else(|| unsupported(span, "malformed `&`"))?;
                Ok((self.record_place(inner, span)?, stride))
            }
            other => Err(unsupported(
                span,
                format!("a pointer to records from `{other}`"),
            )),
        }
    }

    /// A scalar pointer expression as base and offset (`&A[k]` is `A` and `k`).
    fn scalars(&self, n: &Node, span: Span) -> Result<Scalars, FrontError> {
        let n = strip_implicit(n);
        let span = self.span(n, span);
        if n.kind == "UnaryOperator" && n.str("opcode") == Some("&") {
            if let Some(sub) = n.inner.first().map(strip_implicit) {
                if sub.kind == "ArraySubscriptExpr" && sub.inner.len() == 2 {
                    return Ok(Scalars {
                        base: self.expr(&sub.inner[0], span)?,
                        offset: self.expr(&sub.inner[1], span)?,
                    });
                }
            }
        }
        if n.kind == "BinaryOperator" && n.str("opcode") == Some("+") && n.inner.len() == 2 {
            let (a, b) = (&n.inner[0], &n.inner[1]);
            let (p, k) = if a.ty().is_some_and(|t| t.contains('*')) {
                (a, b)
            } else {
                (b, a)
            };
            let s = self.scalars(p, span)?;
            return Ok(Scalars {
                offset: add(s.offset, self.expr(k, span)?, span),
                base: s.base,
            });
        }
        if self.record_pointer(n.ty().unwrap_or(""), span)?.is_some() {
            return Ok(self.record_scalars(n, span)?.0);
        }
        Ok(Scalars {
            base: self.expr(n, span)?,
            offset: zero(span),
        })
    }

    /// `e.f` / `p->f` on a record: the field's expression, or `None` when the base is not
    /// a record.
    pub fn record_member(&self, n: &Node, span: Span) -> Result<Option<Expr>, FrontError> {
        let Some(base) = n.inner.first() else {
            return Ok(None);
        };
        let field = n.name().unwrap_or("");
        let b = strip_implicit(base);
        let by_place = matches!(
            b.kind.as_str(),
            "CXXThisExpr"
                | "DeclRefExpr"
                | "MemberExpr"
                | "CXXMemberCallExpr"
                | "CXXOperatorCallExpr"
                | "CXXConstructExpr"
                | "CXXTemporaryObjectExpr"
                | "MaterializeTemporaryExpr"
        ) || b.kind == "CallExpr" && self.is_user_call(b);
        if by_place && !(n.flag("isArrow") && b.kind != "CXXThisExpr") {
            if self.record(b.ty().unwrap_or("")).is_none() && b.kind != "CXXThisExpr" {
                return Ok(None);
            }
            return match self.member_slot(n, span)? {
                super::place::Slot::Expr(e) => Ok(Some(Expr::new(e.kind, span))),
                _ => Err(unsupported(
                    span,
                    format!("member `{field}` (a record) used as a value"),
                )),
            };
        }
        let base_ty = b.ty().unwrap_or("");
        let arrow = n.flag("isArrow");
        let fields = if arrow {
            base_ty.rsplit_once('*').and_then(|(p, _)| self.record(p))
        } else {
            self.record(base_ty)
        };
        let Some(fields) = fields.cloned() else {
            return Ok(None);
        };
        let index = fields
            .iter()
            .position(|(f, _)| f == field)
            .ok_or_else(|| unsupported(span, format!("field `{field}`")))?;
        if arrow {
            let (s, _) = self.record_scalars(base, span)?;
            return Ok(self.elements(s, &fields, span).into_iter().nth(index));
        }
        Ok(self.record_fields(base, span)?.into_iter().nth(index))
    }
}
