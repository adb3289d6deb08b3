//! Where a record object lives, field by field: a local record is one local per field, a
//! record in memory one element per leaf scalar (a record field, local or in memory, is the
//! place of its own fields), a member reference to another record (cub's
//! `TempStorage& temp`) that record's place. Member functions are inlined over places, so
//! what a method writes through `this` lands in the object itself.

use super::aggregate::{field_local, Fields};
use super::expr::strip_implicit;
use super::Unit;
use crate::node::Node;
use warpsafe_cuda_front::ast::{BinaryOp, Expr, ExprKind};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

/// Where one field lives.
#[derive(Debug, Clone)]
pub enum Slot {
    /// A scalar, pointer or array field: an lvalue expression (a local, an element, a
    /// shared array's name).
    Expr(Expr),
    /// A record-typed field (by value, or a reference to another record).
    Record(Place),
    /// A reference member not bound yet (between a constructor's start and its initialiser).
    Unbound,
}

/// A record object: its type's key and fields, and where each field lives.
#[derive(Debug, Clone)]
pub struct Place {
    /// The record's key in [`Unit::records`].
    pub key: String,
    /// The record's fields (name and type spelling).
    pub fields: Fields,
    /// One slot per field, in declaration order.
    pub slots: Vec<Slot>,
    /// For a union, the memory units its members share (what a copy of it copies).
    pub units: Option<Units>,
}

/// The units of memory a union's members share: `count` elements of `base` from `offset`
/// (a `__shared__` or global array, or the local array a union variable is).
#[derive(Debug, Clone)]
pub struct Units {
    /// The memory: an array or pointer expression.
    pub base: Expr,
    /// The first unit's index.
    pub offset: Expr,
    /// The unit type.
    pub unit: ScalarType,
    /// How many units the union spans.
    pub count: u64,
}

impl Units {
    /// Every unit as an element expression `base[offset + k]`.
    fn elements(&self, span: Span) -> Vec<Expr> {
        (0..self.count)
            .map(|k| {
                let k = Expr::new(ExprKind::Int(k, ScalarType::I32), span);
                let at = match &self.offset.kind {
                    ExprKind::Int(0, _) => k,
                    _ => Expr::new(
                        ExprKind::Binary(BinaryOp::Add, Box::new(self.offset.clone()), Box::new(k)),
                        span,
                    ),
                };
                Expr::new(
                    ExprKind::Index(Box::new(self.base.clone()), Box::new(at)),
                    span,
                )
            })
            .collect()
    }
}

impl Place {
    /// The slot of field `name`.
    pub fn field(&self, name: &str, span: Span) -> Result<&Slot, FrontError> {
        self.fields
            .iter()
            .position(|(f, _)| f == name)
            .and_then(|i| self.slots.get(i))
            .ok_or_else(|| unsupported(span, format!("field `{name}` of `{}`", self.key)))
    }

    /// Every leaf as one scalar expression, record fields flattened depth-first in
    /// declaration order (the order of the leaves in memory).
    pub fn scalars(&self, span: Span) -> Result<Vec<Expr>, FrontError> {
        let mut out = vec![];
        self.leaves_into(&mut out, span)?;
        Ok(out)
    }

    fn leaves_into(&self, out: &mut Vec<Expr>, span: Span) -> Result<(), FrontError> {
        if let Some(u) = &self.units {
            out.extend(u.elements(span));
            return Ok(());
        }
        for (s, (f, ty)) in self.slots.iter().zip(&self.fields) {
            match s {
                Slot::Expr(e) if ty.contains('[') => out.extend(elements_of(e, ty, span)?),
                Slot::Expr(e) => out.push(e.clone()),
                Slot::Record(_) if super::types::strip_reference(ty).1 => {
                    return Err(unsupported(
                        span,
                        format!(
                            "copying record `{}` with the reference member `{f}` (`{ty}`)",
                            self.key
                        ),
                    ))
                }
                Slot::Record(p) => p.leaves_into(out, span)?,
                Slot::Unbound => {
                    return Err(unsupported(
                        span,
                        format!("reference member `{f}` (`{ty}`) used before it is bound"),
                    ))
                }
            }
        }
        Ok(())
    }
}

/// The elements `e[0]`, `e[1]`, … of the array field `e` of type `ty` (one known extent,
/// scalar elements).
fn elements_of(e: &Expr, ty: &str, span: Span) -> Result<Vec<Expr>, FrontError> {
    let n = array_extent(ty).ok_or_else(|| {
        unsupported(
            span,
            format!("copying a record with the array field of type `{ty}` (one known extent only)"),
        )
    })?;
    Ok((0..n)
        .map(|k| {
            let k = Expr::new(ExprKind::Int(k, warpsafe_ir::ScalarType::I32), span);
            Expr::new(ExprKind::Index(Box::new(e.clone()), Box::new(k)), span)
        })
        .collect())
}

/// The extent of the one-dimensional array type `ty` (`float[2]`, `float [2]`).
pub(super) fn array_extent(ty: &str) -> Option<u64> {
    let (_, dims) = ty.split_once('[')?;
    dims.strip_suffix(']')?.trim().parse().ok()
}

/// Strips the nodes that do not change which object an expression denotes.
fn strip_object(mut n: &Node) -> &Node {
    while matches!(
        n.kind.as_str(),
        "ImplicitCastExpr"
            | "ParenExpr"
            | "MaterializeTemporaryExpr"
            | "ExprWithCleanups"
            | "CXXBindTemporaryExpr"
            | "ConstantExpr"
            | "CXXStaticCastExpr"
    ) && n
        .str("castKind")
        .is_none_or(|k| k == "NoOp" || k == "LValueToRValue")
    {
        match n.inner.iter().find(|c| super::expr::is_expr(c)) {
            Some(c) => n = c,
            None => break,
        }
    }
    n
}

impl Unit<'_> {
    /// The fields of record `key` (an error naming it when it is none).
    pub(super) fn fields_of(&self, key: &str, span: Span) -> Result<Fields, FrontError> {
        self.records
            .get(key)
            .cloned()
            .ok_or_else(|| unsupported(span, format!("record `{key}`")))
    }

    /// The rejection of a union (or a record holding one) where it would be one value per
    /// field (a kernel's by-value parameter, a braced initialiser, a constructor): its members
    /// share bytes, which separate values would not.
    pub(super) fn reject_union_value(&self, key: &str, span: Span) -> Result<(), FrontError> {
        match self.union_in(key, 0) {
            Some(u) => Err(unsupported(
                span,
                format!(
                    "the union `{u}` as one value per member (a kernel parameter, a braced \
                     initialiser or a constructor; its members share bytes)"
                ),
            )),
            None => Ok(()),
        }
    }

    /// The default place of record variable `var` (as the translation names it): one local
    /// per field, `var__field`.
    pub fn local_place(&self, key: &str, var: &str, span: Span) -> Result<Place, FrontError> {
        if self.is_union(key) {
            return self.union_local_place(key, &field_local(var, "u"), span);
        }
        let fields = self.fields_of(key, span)?;
        let mut slots = vec![];
        for (f, ty) in &fields {
            let name = field_local(var, f);
            slots.push(match self.record_key_of(ty) {
                _ if super::types::strip_reference(ty).1 => Slot::Unbound,
                Some(k) => Slot::Record(self.local_place(&k, &name, span)?),
                None => Slot::Expr(Expr::new(ExprKind::Ident(name), span)),
            });
        }
        Ok(Place {
            key: key.to_string(),
            fields,
            slots,
            units: None,
        })
    }

    /// The place of the record object `n` denotes (a variable, `*this`, a member, an element
    /// in memory), or a temporary holding its value (a constructor, a call returning a
    /// record) whose statements are hoisted before the enclosing statement.
    pub fn place_of(&self, n: &Node, outer: Span) -> Result<Place, FrontError> {
        let span = self.span(n, outer);
        let n = strip_object(n);
        let ty = n.ty().unwrap_or("");
        let key = self
            .record_key_of(ty)
            .ok_or_else(|| unsupported(span, format!("value of type `{ty}` as a record")))?;
        match n.kind.as_str() {
            "DeclRefExpr" => {
                let (id, _, name) = n
                    .referenced()
                    .ok_or_else(|| unsupported(span, "record reference"))?;
                if let Some(slot) = self.alias(id) {
                    return match slot {
                        Slot::Record(p) => Ok(p),
                        _ => Err(unsupported(span, format!("`{name}` as a record"))),
                    };
                }
                if let Some(p) = self.record_var(id) {
                    return Ok(p);
                }
                if self.record_global_of(id).is_some() {
                    // A `__constant__`/`__device__` record: record 0 of its buffer.
                    self.check_record_global(id, span)?;
                    return self.memory_place(n, &key, span);
                }
                self.local_place(&key, &self.var_name(id, name), span)
            }
            "UnaryOperator" if n.str("opcode") == Some("*") => {
                let inner = n
                    .inner
                    .first()
                    .map(strip_implicit)
                    .ok_or_else(|| unsupported(span, "malformed `*`"))?;
                if inner.kind == "CXXThisExpr" {
                    return self.this_place(span);
                }
                // `*p` of a pointer to a local record (a parameter given `&acc`).
                if let Some(p) = self.local_record_pointee(inner) {
                    return Ok(p);
                }
                self.memory_place(n, &key, span)
            }
            "ArraySubscriptExpr" => self.memory_place(n, &key, span),
            "MemberExpr" => match self.member_slot(n, span)? {
                Slot::Record(p) => Ok(p),
                _ => Err(unsupported(span, "member as a record")),
            },
            "CXXOperatorCallExpr" if self.can_hoist() => {
                if let Some(copies) = self.record_assignment(n, span)? {
                    // `dot(tmp = (L - A), tmp)`: the copy runs before the statement, the
                    // value is the assigned record.
                    self.hoist(copies, span)?;
                    let lhs = n
                        .inner
                        .get(1)
                        .ok_or_else(|| unsupported(span, "malformed assignment"))?;
                    return self.place_of(lhs, span);
                }
                match self.call_value(n, span)? {
                    Some(super::inline::Value::Record(p)) => Ok(p),
                    _ => Err(unsupported(
                        span,
                        format!("a record returned by a call (`{}`)", n.kind),
                    )),
                }
            }
            "CXXMemberCallExpr" | "CXXOperatorCallExpr" | "CallExpr" => {
                match self.call_value(n, span)? {
                    Some(super::inline::Value::Record(p)) => Ok(p),
                    // A builtin's record (a texture fetch, `__ldg`): its value in fresh
                    // locals.
                    None if n.kind == "CallExpr" => {
                        let leaves = self.record_fields(n, span)?;
                        self.vector_place(&key, leaves, span)
                    }
                    _ => Err(unsupported(
                        span,
                        format!("a record returned by a call (`{}`)", n.kind),
                    )),
                }
            }
            "ImplicitCastExpr" | "CXXStaticCastExpr"
                if matches!(
                    n.str("castKind"),
                    Some("DerivedToBase" | "UncheckedDerivedToBase")
                ) =>
            {
                // A base is a prefix of the derived record's fields.
                let inner = n
                    .inner
                    .first()
                    .ok_or_else(|| unsupported(span, "empty cast"))?;
                let derived = self.place_of(inner, span)?;
                let fields = self.fields_of(&key, span)?;
                let k = fields.len();
                if derived.fields.len() < k || derived.fields[..k] != fields[..] {
                    return Err(unsupported(
                        span,
                        format!(
                            "`{}` as its base `{key}` (the base's fields are not its first ones)",
                            derived.key
                        ),
                    ));
                }
                Ok(Place {
                    key,
                    fields,
                    slots: derived.slots[..k].to_vec(),
                    units: None,
                })
            }
            "ConditionalOperator" => self.conditional_place(n, &key, span),
            "InitListExpr" if self.nested_braces(n, &key) => self.braced(n, &key, span),
            "CXXConstructExpr"
            | "CXXTemporaryObjectExpr"
            | "CXXFunctionalCastExpr"
            | "InitListExpr"
            | "LambdaExpr" => self.temporary(n, &key, span),
            other => Err(unsupported(span, format!("a record from `{other}`"))),
        }
    }

    /// A record in memory (`p[i]`, `*p`): one element per leaf.
    fn memory_place(&self, n: &Node, key: &str, span: Span) -> Result<Place, FrontError> {
        self.record_place_of(n, key, span)
    }

    /// True for a braced initialiser of a record with record fields (`Body{p, v}`,
    /// `{{0, 0, 0}, v}`) and no default member initialisers.
    fn nested_braces(&self, n: &Node, key: &str) -> bool {
        let nested = self.records.get(key).is_some_and(|fields| {
            fields.iter().any(|(_, t)| {
                !super::types::strip_reference(t).1 && self.record_key_of(t).is_some()
            })
        });
        nested && !n.inner.iter().any(|c| c.kind == "CXXDefaultInitExpr")
    }

    /// A braced initialiser of a record with record fields, in fresh locals set leaf by
    /// leaf.
    fn braced(&self, n: &Node, key: &str, span: Span) -> Result<Place, FrontError> {
        let base = format!("__tmp{}", self.fresh());
        let values = self.record_fields(n, span)?;
        let (mut decls, place) = self.fresh_record(key, &base, false, span)?;
        for (to, from) in place.scalars(span)?.into_iter().zip(values) {
            decls.push(warpsafe_cuda_front::ast::Stmt {
                kind: warpsafe_cuda_front::ast::StmtKind::Expr(Expr::new(
                    ExprKind::Assign(None, Box::new(to), Box::new(from)),
                    span,
                )),
                span,
            });
        }
        self.hoist(decls, span)?;
        Ok(place)
    }

    /// The slot a member expression (`obj.f`, `p->f`, `this->f`, implicit `f` in a method)
    /// names.
    pub fn member_slot(&self, n: &Node, span: Span) -> Result<Slot, FrontError> {
        let field = n.name().unwrap_or("");
        let base = n
            .inner
            .first()
            .ok_or_else(|| unsupported(span, "malformed member access"))?;
        let b = strip_implicit(base);
        let place = if b.kind == "CXXThisExpr" {
            self.this_place(span)?
        } else if n.flag("isArrow") {
            let ty = b.ty().unwrap_or("");
            let key = ty
                .rsplit_once('*')
                .and_then(|(p, _)| self.record_key_of(p))
                .ok_or_else(|| unsupported(span, format!("`->{field}` on `{ty}`")))?;
            self.pointee_place(base, &key, span)?
        } else {
            self.place_of(base, span)?
        };
        let name = if field.is_empty() {
            // A lambda's capture: clang names the field by nothing; find it by id.
            let id = n.str("referencedMemberDecl").unwrap_or("");
            return self.capture_slot(&place, id, span);
        } else {
            field
        };
        place.field(name, span).cloned()
    }

    /// The slot of an unnamed closure field by its declaration id.
    fn capture_slot(&self, place: &Place, id: &str, span: Span) -> Result<Slot, FrontError> {
        let decl = self
            .record_decls
            .get(&place.key)
            .ok_or_else(|| unsupported(span, "lambda capture"))?;
        let i = decl
            .inner
            .iter()
            .filter(|c| c.kind == "FieldDecl")
            .position(|c| c.id() == id)
            .ok_or_else(|| unsupported(span, "lambda capture"))?;
        place
            .slots
            .get(i)
            .cloned()
            .ok_or_else(|| unsupported(span, "lambda capture"))
    }

    /// The field expressions of a record value, through [`Unit::place_of`], for the node
    /// kinds member functions introduce (`None` for the others).
    pub fn record_fields_via_place(
        &self,
        n: &Node,
        span: Span,
    ) -> Result<Option<Vec<Expr>>, FrontError> {
        let s = strip_object(n);
        let by_place = match s.kind.as_str() {
            "DeclRefExpr" | "MemberExpr" | "CXXMemberCallExpr" | "LambdaExpr" => true,
            "UnaryOperator" => s.inner.first().is_some_and(|i| {
                strip_implicit(i).kind == "CXXThisExpr"
                    || s.str("opcode") == Some("*") && self.local_record_pointee(i).is_some()
            }),
            "CXXOperatorCallExpr" => true,
            "CallExpr" => self.is_user_call(s),
            "CXXConstructExpr" | "CXXTemporaryObjectExpr" => self.user_constructor(s).is_some(),
            "InitListExpr" => s.inner.iter().any(|c| c.kind == "CXXDefaultInitExpr"),
            _ => false,
        };
        if !by_place {
            return Ok(None);
        }
        Ok(Some(self.place_of(s, span)?.scalars(span)?))
    }
}
