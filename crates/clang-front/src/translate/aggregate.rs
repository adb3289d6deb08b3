//! Structs and vector types (`float4`, `struct Particle { float x, y, z; }`), scalarised:
//!
//! - a local of record type is one local per field (`v.x` is the local `v__x`), and a record
//!   parameter passed by value one parameter per field;
//! - memory holding records whose *leaf* scalars share one type (`float4*`, `Particle*`,
//!   `struct Body { float3 pos; float3 vel; }*`, `__shared__ float4 t[64]`,
//!   `reinterpret_cast<const float4*>(&A[k])`) is memory of that scalar: leaf `l` of element
//!   `i` is scalar `i * leaves + l` (the same bytes, so races and bounds are judged on the
//!   same cells); nested records are flattened depth-first in declaration order (`layout`);
//! - a record assignment or initialisation copies leaf by leaf.
//!
//! Records in memory whose leaves have different types, whose C layout has padding, or with
//! array, pointer or reference fields are rejected with their span.

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
    // `(x + 3) + 1` is `x + 4` (a nested record's leaves).
    if let (ExprKind::Binary(BinaryOp::Add, x, c), ExprKind::Int(d, _)) = (&a.kind, &b.kind) {
        if let ExprKind::Int(c, t) = c.kind {
            if let Some(sum) = c.checked_add(*d) {
                let k = Expr::new(ExprKind::Int(sum, t), span);
                return Expr::new(
                    ExprKind::Binary(BinaryOp::Add, x.clone(), Box::new(k)),
                    span,
                );
            }
        }
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

    /// The type of a pointer to records (`const float4 *`) as a pointer to their common
    /// scalar, with the number of fields per record; `None` when `ty` is no such pointer.
    pub fn record_pointer(&self, ty: &str, span: Span) -> Result<Option<(Type, u64)>, FrontError> {
        let Some((pointee, _)) = ty.rsplit_once('*') else {
            return Ok(None);
        };
        let Some(layout) = self.layout_of(pointee, span)? else {
            return Ok(None);
        };
        let pointee = pointee.trim();
        Ok(Some((
            Type {
                base: Some(layout.scalar),
                ptr: true,
                konst: pointee.starts_with("const "),
                volatile: pointee.contains("volatile "),
                span,
            },
            layout.leaves,
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
        let Some(layout) = self.layout_of(elem, span)? else {
            return Ok(None);
        };
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
            .checked_mul(layout.leaves)
            .ok_or_else(|| unsupported(span, format!("array `{ty}` too large")))?;
        let konst = if elem.trim_start().starts_with("const ") {
            "const "
        } else {
            ""
        };
        Ok(Some(format!("{konst}{}[{total}]", layout.scalar.c_name())))
    }

    /// The leaf expressions of the record value `n`, nested records flattened depth-first
    /// (each an lvalue when `n` is one).
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
            | "CXXFunctionalCastExpr"
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
                let mut leaves = vec![];
                for i in items {
                    if self.record(i.ty().unwrap_or("")).is_some() {
                        leaves.extend(self.record_fields(i, span)?);
                    } else {
                        leaves.push(self.expr(i, span)?);
                    }
                }
                Ok(leaves)
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
                    return Ok(self.leaf_elements(s, self.leaf_count(ty), span));
                }
                Err(unsupported(span, format!("a record returned by `{name}`")))
            }
            "DeclRefExpr" => {
                let (_, _, var) = n
                    .referenced()
                    .ok_or_else(|| unsupported(span, "record reference"))?;
                let key = self.record_key_of(ty).unwrap_or_default();
                self.local_place(&key, var, span)?.scalars(span)
            }
            "ArraySubscriptExpr" | "UnaryOperator" => {
                let s = self.record_place(n, span)?;
                Ok(self.leaf_elements(s, self.leaf_count(ty), span))
            }
            other => Err(unsupported(span, format!("a record value from `{other}`"))),
        }
    }

    /// `base[offset + l]` for every field, `l` the leaf the field starts at (a record
    /// field's expression is its first leaf: use [`Unit::memory_place_at`] for places).
    pub(super) fn elements(&self, s: Scalars, fields: &Fields, span: Span) -> Vec<Expr> {
        let starts: Vec<u64> = (0..fields.len())
            .map(|i| self.leaf_offset(fields, i))
            .collect();
        self.at_leaves(s, starts, span)
    }

    /// `base[offset + l]` for every leaf `l` of a record of `leaves` leaves.
    pub(super) fn leaf_elements(&self, s: Scalars, leaves: u64, span: Span) -> Vec<Expr> {
        self.at_leaves(s, (0..leaves).collect(), span)
    }

    /// `base[offset + l]` for every `l` of `at`.
    fn at_leaves(&self, s: Scalars, at: Vec<u64>, span: Span) -> Vec<Expr> {
        at.into_iter()
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
        let stride = match (ty.rsplit_once('*'), ty.split_once('[')) {
            (Some((pointee, _)), _) => self.layout_of(pointee, span)?,
            (None, Some((elem, _))) => self.layout_of(elem, span)?,
            _ => None,
        }
        .map(|l| l.leaves)
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
                let scalar = self
                    .layout_of(ty.rsplit_once('*').map_or(ty, |p| p.0), span)?
                    .map(|l| l.scalar);
                if !source.ptr || source.base != scalar {
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

    /// The place of a record `key` in memory starting at `s`: a scalar field is the element
    /// of its leaf, a record field the place of its leaves.
    pub(super) fn memory_place_at(
        &self,
        key: &str,
        s: Scalars,
        span: Span,
    ) -> Result<super::place::Place, FrontError> {
        let fields = self.fields_of(key, span)?;
        let mut slots = vec![];
        let mut leaf = 0;
        for (_, ty) in &fields {
            let at = Scalars {
                base: s.base.clone(),
                offset: add(
                    s.offset.clone(),
                    Expr::new(ExprKind::Int(leaf, ScalarType::I32), span),
                    span,
                ),
            };
            slots.push(match self.record_key_of(ty) {
                Some(inner) => super::place::Slot::Record(self.memory_place_at(&inner, at, span)?),
                None => super::place::Slot::Expr(Expr::new(
                    ExprKind::Index(Box::new(at.base), Box::new(at.offset)),
                    span,
                )),
            });
            leaf += self.leaf_count(ty);
        }
        Ok(super::place::Place {
            key: key.to_string(),
            fields,
            slots,
        })
    }

    /// Where the record lvalue `n` (`p[i]`, `*p`) starts, as a nested place.
    pub(super) fn record_place_of(
        &self,
        n: &Node,
        key: &str,
        span: Span,
    ) -> Result<super::place::Place, FrontError> {
        let s = self.record_place(n, span)?;
        self.memory_place_at(key, s, span)
    }

    /// The place of the record `*p` for a pointer `p` to records of type `key`.
    pub(super) fn pointee_place(
        &self,
        p: &Node,
        key: &str,
        span: Span,
    ) -> Result<super::place::Place, FrontError> {
        let (at, _) = self.record_scalars(p, span)?;
        self.memory_place_at(key, at, span)
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
        if self.record(&fields[index].1).is_some() {
            return Err(unsupported(
                span,
                format!("member `{field}` (a record) used as a value"),
            ));
        }
        let leaf = self.leaf_offset(&fields, index) as usize;
        if arrow {
            let (s, _) = self.record_scalars(base, span)?;
            return Ok(self.elements(s, &fields, span).into_iter().nth(index));
        }
        Ok(self.record_fields(base, span)?.into_iter().nth(leaf))
    }
}
