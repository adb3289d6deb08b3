//! Structs and vector types (`float4`, `struct Particle { float x, y, z; }`), scalarised:
//!
//! - a local of record type is one local per field (`v.x` is the local `v__x`), and a record
//!   parameter passed by value one parameter per field;
//! - memory holding records whose *leaf* scalars share one type (`float4*`, `Particle*`,
//!   `struct Body { float3 pos; float3 vel; }*`, `__shared__ float4 t[64]`,
//!   `reinterpret_cast<const float4*>(&A[k])`) is memory of that scalar: leaf `l` of element
//!   `i` is scalar `i * leaves + l` (the same bytes, so races and bounds are judged on the
//!   same cells); nested records are flattened depth-first in declaration order (`layout`);
//! - memory holding records whose leaves have different types of one size (`struct Particle
//!   { float3 pos; float mass; int id; }`) is memory of the unsigned integer of that size
//!   (`u32`, `u64`), each leaf converted where it is accessed: a float leaf reads as
//!   `__uint_as_float(mem[k])` and is written as `mem[k] = __float_as_uint(v)`, an integer
//!   leaf by a cast of the same bits ([`Unit::leaf_assign`]); its address (an atomic on it,
//!   a `float*` to it) is rejected;
//! - a record assignment or initialisation copies leaf by leaf.
//!
//! Records in memory whose leaves have types of different sizes, whose C layout has padding,
//! or with array, pointer or reference fields are rejected with their span.

use super::expr::strip_implicit;
use super::{layout, types, Unit};
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
            let t = if p > i32::MAX as u64 {
                ScalarType::I64
            } else {
                t
            };
            return Expr::new(ExprKind::Int(p, t), span);
        }
    }
    Expr::new(
        ExprKind::Binary(
            BinaryOp::Mul,
            Box::new(a),
            Box::new(Expr::new(ExprKind::Int(k, ScalarType::I64), span)),
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
    /// The leaves' own types from `offset` on, when the memory holds records whose leaves
    /// have different types (`Layout::view`); `None` when every leaf is the memory's type.
    view: Option<View>,
}

/// Memory of `mem` units holding leaves of other types: per unit (from some offset on), the
/// type of the leaf starting there (`None`: padding or a later unit of a wider leaf).
#[derive(Clone, PartialEq, Eq)]
struct View {
    mem: ScalarType,
    leaves: Vec<Option<ScalarType>>,
}

impl View {
    /// The view from leaf `k` on.
    fn from(&self, k: u64) -> View {
        View {
            mem: self.mem,
            leaves: self.leaves.get(k as usize..).unwrap_or_default().to_vec(),
        }
    }
}

fn cast(to: ScalarType, e: Expr, span: Span) -> Expr {
    super::expr::scalar_cast(to, e, span)
}

fn call(name: &str, e: Expr, span: Span) -> Expr {
    Expr::new(ExprKind::Call(name.to_string(), span, vec![e]), span)
}

/// The value of a leaf of type `leaf` held in the memory units `units` (one, or the
/// little-endian units of a leaf wider than the unit): a bit reinterpretation for a float,
/// an integer cast (same bits) for an integer. An lvalue for [`Unit::leaf_assign`] and
/// [`leaf_view`].
fn decode_units(leaf: ScalarType, units: Vec<Expr>, span: Span) -> Expr {
    if units.len() <= 1 {
        return decode(
            leaf,
            units.into_iter().next().unwrap_or_else(|| zero(span)),
            span,
        );
    }
    let wide = layout::unsigned_of(leaf.size_bytes()).unwrap_or(ScalarType::U64);
    let step = (leaf.size_bytes() / units.len() as u64) * 8;
    let mut bits: Option<Expr> = None;
    for (j, u) in units.into_iter().enumerate() {
        let mut part = cast(wide, u, span);
        if j > 0 {
            let k = Expr::new(ExprKind::Int(step * j as u64, ScalarType::I32), span);
            part = Expr::new(
                ExprKind::Binary(BinaryOp::Shl, Box::new(part), Box::new(k)),
                span,
            );
        }
        bits = Some(match bits {
            None => part,
            Some(b) => Expr::new(
                ExprKind::Binary(BinaryOp::BitOr, Box::new(b), Box::new(part)),
                span,
            ),
        });
    }
    let bits = bits.unwrap_or_else(|| zero(span));
    match leaf {
        ScalarType::F32 => call("__uint_as_float", bits, span),
        ScalarType::F64 => call(
            "__longlong_as_double",
            cast(ScalarType::I64, bits, span),
            span,
        ),
        t => cast(t, bits, span),
    }
}

/// The value of a leaf of type `leaf` from the memory scalar `m` (of `leaf`'s unsigned
/// integer): a bit reinterpretation for a float, an integer cast (same bits) for an
/// integer.
fn decode(leaf: ScalarType, m: Expr, span: Span) -> Expr {
    match leaf {
        ScalarType::F32 => call("__uint_as_float", m, span),
        ScalarType::F64 => call("__longlong_as_double", cast(ScalarType::I64, m, span), span),
        ScalarType::U32 | ScalarType::U64 => m,
        t => cast(t, m, span),
    }
}

/// The memory scalar (of `mem`) holding the value `v` of a leaf of type `leaf`.
fn encode(leaf: ScalarType, mem: ScalarType, v: Expr, span: Span) -> Expr {
    let v = cast(leaf, v, span);
    match leaf {
        ScalarType::F32 => call("__float_as_uint", v, span),
        ScalarType::F64 => cast(mem, call("__double_as_longlong", v, span), span),
        _ => cast(mem, v, span),
    }
}

/// A converted leaf of a record in memory of mixed leaf types (what [`decode_units`]
/// builds): the leaf's type and its memory units (one, or several little-endian ones).
pub fn leaf_view(e: &Expr) -> Option<(ScalarType, Vec<&Expr>)> {
    let (leaf, inner) = match &e.kind {
        ExprKind::Call(f, _, args) if f == "__uint_as_float" && args.len() == 1 => {
            (ScalarType::F32, &args[0])
        }
        ExprKind::Call(f, _, args) if f == "__longlong_as_double" && args.len() == 1 => {
            match &args[0].kind {
                ExprKind::Cast(t, c) if t.base == Some(ScalarType::I64) && !t.ptr => {
                    (ScalarType::F64, &**c)
                }
                _ => return None,
            }
        }
        ExprKind::Cast(t, c)
            if !t.ptr && t.base.is_some_and(|b| b.is_int() || b == ScalarType::Bool) =>
        {
            (t.base?, &**c)
        }
        _ => return None,
    };
    if let Some(units) = or_chain(inner) {
        if units.len() > 1 {
            return Some((leaf, units));
        }
    }
    leaf_view_one(e).map(|(t, m)| (t, vec![m]))
}

/// The units of `(W)u0 | ((W)u1 << k) | …`, each an element, in order.
fn or_chain(e: &Expr) -> Option<Vec<&Expr>> {
    fn unit(p: &Expr) -> Option<&Expr> {
        let p = match &p.kind {
            ExprKind::Binary(BinaryOp::Shl, a, k) if matches!(k.kind, ExprKind::Int(..)) => &**a,
            _ => p,
        };
        match &p.kind {
            ExprKind::Cast(_, m) if matches!(m.kind, ExprKind::Index(..)) => Some(&**m),
            _ => None,
        }
    }
    match &e.kind {
        ExprKind::Binary(BinaryOp::BitOr, a, b) => {
            let mut v = or_chain(a)?;
            v.push(unit(b)?);
            Some(v)
        }
        _ => Some(vec![unit(e)?]),
    }
}

/// [`leaf_view`] of a leaf held in one unit.
fn leaf_view_one(e: &Expr) -> Option<(ScalarType, &Expr)> {
    let is_elem = |m: &Expr| matches!(m.kind, ExprKind::Index(..));
    match &e.kind {
        ExprKind::Call(f, _, args) if f == "__uint_as_float" => match &args[..] {
            [m] if is_elem(m) => Some((ScalarType::F32, m)),
            _ => None,
        },
        ExprKind::Call(f, _, args) if f == "__longlong_as_double" => match &args[..] {
            [c] => match leaf_view_one(c) {
                Some((ScalarType::I64, m)) => Some((ScalarType::F64, m)),
                _ => None,
            },
            _ => None,
        },
        ExprKind::Cast(t, m)
            if !t.ptr
                && matches!(
                    t.base,
                    Some(
                        ScalarType::I8
                            | ScalarType::I16
                            | ScalarType::I32
                            | ScalarType::I64
                            | ScalarType::U8
                            | ScalarType::U16
                            | ScalarType::U32
                            | ScalarType::Bool
                    )
                )
                && is_elem(m) =>
        {
            Some((t.base?, m))
        }
        _ => None,
    }
}

/// The memory unit of a leaf of type `leaf` held in one unit among leaves of mixed types:
/// the unsigned integer of its size.
fn mem_of(leaf: ScalarType) -> ScalarType {
    layout::unsigned_of(leaf.size_bytes()).unwrap_or(ScalarType::U32)
}

/// True when evaluating `e` twice is evaluating it once (no assignment, increment or call
/// other than a bit conversion).
pub(super) fn pure(e: &Expr) -> bool {
    match &e.kind {
        // The bit conversions a record's leaves are read and written with.
        ExprKind::Call(f, _, args)
            if matches!(
                f.as_str(),
                "__uint_as_float"
                    | "__float_as_uint"
                    | "__longlong_as_double"
                    | "__double_as_longlong"
            ) =>
        {
            args.iter().all(pure)
        }
        ExprKind::Assign(..) | ExprKind::IncDec { .. } | ExprKind::Call(..) => false,
        ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => pure(a),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) => {
            pure(a) && pure(b)
        }
        ExprKind::Cond(c, a, b) => pure(c) && pure(a) && pure(b),
        _ => true,
    }
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
        let konst = if elem.trim_start().starts_with("const ") {
            "const "
        } else {
            ""
        };
        if dims.trim() == "]" {
            // `extern __shared__ float4 tile[]`: the records of dynamic shared memory, whose
            // size the launch gives.
            return Ok(Some(format!("{konst}{}[]", layout.scalar.c_name())));
        }
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
        // helper_math.h's vector arithmetic and the `make_<vector>` factories.
        if let Some(leaves) = self.vector_leaves(super::vector_math::strip_value(n), span)? {
            return Ok(leaves);
        }
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
                    let mixed = self.layout_of(ty, span)?.is_some_and(|l| l.view.is_some());
                    let s = if mixed {
                        self.record_scalars(&n.inner[1], span)?.0
                    } else {
                        self.scalars(&n.inner[1], span)?
                    };
                    return self.leaf_elements(s, ty, span);
                }
                let ours = callee
                    .and_then(|c| c.referenced())
                    .is_some_and(|(id, _, _)| {
                        !matches!(self.callee.get(id), Some(super::Callee::User(..)))
                    });
                if let Some(leaves) = self.texture_record(name, n, span).filter(|_| ours) {
                    return leaves;
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
                self.leaf_elements(s, ty, span)
            }
            "ConditionalOperator" => self.conditional_fields(n, span),
            other => Err(unsupported(span, format!("a record value from `{other}`"))),
        }
    }

    /// The value of every field of record `key` in memory at `s` (a record field's
    /// expression is its first leaf: use [`Unit::memory_place_at`] for places).
    pub(super) fn elements(
        &self,
        s: Scalars,
        key: &str,
        span: Span,
    ) -> Result<Vec<Expr>, FrontError> {
        let unit = self.unit_of(&s, key, span)?;
        let starts = self.field_units(key, unit, span)?;
        Ok(self.at_leaves(s, starts, span))
    }

    /// The unit size in bytes of memory `s` holding records `key`: its view's, or the
    /// record's own.
    fn unit_of(&self, s: &Scalars, key: &str, span: Span) -> Result<u64, FrontError> {
        Ok(match &s.view {
            Some(v) => v.mem.size_bytes(),
            None => self.layout(key, span)?.scalar.size_bytes(),
        })
    }

    /// Every leaf of a record of type `ty` in memory at `s`.
    pub(super) fn leaf_elements(
        &self,
        s: Scalars,
        ty: &str,
        span: Span,
    ) -> Result<Vec<Expr>, FrontError> {
        let key = self
            .record_key_of(ty)
            .ok_or_else(|| unsupported(span, format!("value of type `{ty}` as a record")))?;
        let unit = self.unit_of(&s, &key, span)?;
        let starts = self.leaf_units(&key, unit, span)?;
        Ok(self.at_leaves(s, starts, span))
    }

    /// `base[offset + l]` for every unit `l` of `at`, each converted to its leaf's type (its
    /// units combined when it is wider than the unit) when the memory holds leaves of
    /// different types.
    fn at_leaves(&self, s: Scalars, at: Vec<u64>, span: Span) -> Vec<Expr> {
        at.into_iter()
            .map(|f| {
                let unit = |k: u64| {
                    let idx = add(
                        s.offset.clone(),
                        Expr::new(ExprKind::Int(f + k, ScalarType::I32), span),
                        span,
                    );
                    Expr::new(
                        ExprKind::Index(Box::new(s.base.clone()), Box::new(idx)),
                        span,
                    )
                };
                match &s.view {
                    Some(v) => match v.leaves.get(f as usize).copied().flatten() {
                        Some(leaf) => {
                            let n = (leaf.size_bytes() / v.mem.size_bytes()).max(1);
                            decode_units(leaf, (0..n).map(unit).collect(), span)
                        }
                        None => unit(0),
                    },
                    None => unit(0),
                }
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
                    view: s.view,
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
            "DeclRefExpr" => {
                // A `__constant__`/`__device__` record: record 0 of its buffer.
                let g = n
                    .referenced()
                    .and_then(|(id, _, _)| self.record_global_of(id))
                    .ok_or_else(|| unsupported(span, "a record in memory from `DeclRefExpr`"))?;
                self.check_record_global(&g.id, span)?;
                let layout = self
                    .layout_of(n.ty().unwrap_or(""), span)?
                    .ok_or_else(|| unsupported(span, format!("record global `{}`", g.name)))?;
                Ok(Scalars {
                    base: Expr::new(ExprKind::Ident(g.name.clone()), span),
                    offset: zero(span),
                    view: layout.view.map(|leaves| View {
                        mem: layout.scalar,
                        leaves,
                    }),
                })
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
        let layout = match (ty.rsplit_once('*'), ty.split_once('[')) {
            (Some((pointee, _)), _) => self.layout_of(pointee, span)?,
            (None, Some((elem, _))) => self.layout_of(elem, span)?,
            _ => None,
        }
        .ok_or_else(|| unsupported(span, format!("pointer of type `{ty}`")))?;
        let stride = layout.leaves;
        let view = layout.view.clone().map(|leaves| View {
            mem: layout.scalar,
            leaves,
        });
        let (mut s, stride) = self.record_scalars_of(n, ty, stride, view.clone(), span)?;
        if s.view.is_some() && s.view != view {
            return Err(unsupported(
                span,
                format!("`{ty}` over records whose leaves have other types"),
            ));
        }
        s.view = view;
        Ok((s, stride))
    }

    /// [`Unit::record_scalars`] of `n` of type `ty`, before its leaves' types are set.
    fn record_scalars_of(
        &self,
        n: &Node,
        ty: &str,
        stride: u64,
        view: Option<View>,
        span: Span,
    ) -> Result<(Scalars, u64), FrontError> {
        match n.kind.as_str() {
            "ImplicitCastExpr" | "ParenExpr" => {
                let inner = n
                    .inner
                    .first()
                    .ok_or_else(|| unsupported(span, "empty expression"))?;
                if n.str("castKind") == Some("BitCast") {
                    let from = strip_implicit(inner).ty().unwrap_or("");
                    let other = match from.rsplit_once('*') {
                        Some((p, _)) => self.layout_of(p, span)?,
                        None => None,
                    };
                    let mismatch = other.is_some_and(|l| {
                        (l.view.is_some() || view.is_some())
                            && l.view.as_ref() != view.as_ref().map(|v| &v.leaves)
                    });
                    if mismatch {
                        return Err(unsupported(
                            span,
                            format!(
                                "pointer cast from `{from}` to `{ty}` (records whose leaves have \
                                 different types are seen only as themselves)"
                            ),
                        ));
                    }
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
                    let (s, k) = self.record_scalars(inner, span)?;
                    if s.view != view
                        && (view.is_some() || self.record_pointer(from, span)?.is_some())
                    {
                        return Err(unsupported(
                            span,
                            format!(
                                "pointer cast from `{from}` to `{ty}` (records whose leaves have \
                                 different types are seen only as themselves)"
                            ),
                        ));
                    }
                    return Ok((s, k));
                }
                let layout = self.layout_of(ty.rsplit_once('*').map_or(ty, |p| p.0), span)?;
                if let Some(l) = layout.as_ref().filter(|l| l.view.is_none()) {
                    if let Some((base, offset)) =
                        self.view_records(inner, l.scalar, l.leaves, span)?
                    {
                        return Ok((Scalars { base, offset, view }, stride));
                    }
                }
                let source = types::scalar_or_pointer(from, span)
                    .map_err(|e| unsupported(span, format!("cast of {e} to `{ty}`")))?;
                let scalar = layout.map(|l| l.scalar);
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
                self.check_record_global(id, span)?;
                let base = match self.alias(id) {
                    Some(super::place::Slot::Expr(e)) => e,
                    _ => Expr::new(ExprKind::Ident(self.var_name(id, name)), span),
                };
                Ok((
                    Scalars {
                        base,
                        offset: zero(span),
                        view,
                    },
                    stride,
                ))
            }
            "ArraySubscriptExpr" if ty.contains('[') && !ty.contains('*') => {
                // A row of a multi-dimensional array of records, which lies flat in memory
                // (`g[i]` of `Cell g[4][8]` is the 8 records from record 8·i).
                let (Some(base), Some(index)) = (n.inner.first(), n.inner.get(1)) else {
                    return Err(unsupported(span, "malformed subscript"));
                };
                let rows = strip_implicit(base);
                let records: Option<u64> = ty.split_once('[').and_then(|(_, d)| {
                    d.split('[')
                        .map(|e| e.trim().strip_suffix(']')?.trim().parse::<u64>().ok())
                        .try_fold(1u64, |n, e| n.checked_mul(e?))
                });
                let (Some(records), true) = (
                    records,
                    rows.ty()
                        .is_some_and(|t| t.contains('[') && !t.contains('*')),
                ) else {
                    self.check_global_under(n, span)?;
                    return Err(unsupported(span, format!("a row `{ty}` of records")));
                };
                let row = records
                    .checked_mul(stride)
                    .ok_or_else(|| unsupported(span, format!("array `{ty}` too large")))?;
                let (s, _) = self.record_scalars(rows, span)?;
                let i = self.expr(index, span)?;
                Ok((
                    Scalars {
                        offset: add(s.offset, times(i, row, span), span),
                        base: s.base,
                        view: s.view,
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
                        view: s.view,
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
            "MemberExpr" if ty.contains('[') && !ty.contains('*') => {
                // An array-of-records field (`M.m` of `struct { float4 m[3]; } M`): a local
                // record's flat array of leaves, or `&mem[k]` of a record in memory.
                let slot = self.member_slot(n, span)?;
                let e = match slot {
                    super::place::Slot::Expr(e) => e,
                    _ => return Err(unsupported(span, format!("array field of type `{ty}`"))),
                };
                let (base, offset) = match e.kind {
                    ExprKind::Unary(UnaryOp::AddrOf, inner) => match inner.kind {
                        ExprKind::Index(b, k) => (*b, *k),
                        other => {
                            let inner = Expr::new(other, span);
                            (super::expr::address_of(inner), zero(span))
                        }
                    },
                    kind => (Expr::new(kind, span), zero(span)),
                };
                Ok((Scalars { base, offset, view }, stride))
            }
            "UnaryOperator" | "CompoundAssignOperator"
                if matches!(n.str("opcode"), Some("++" | "--" | "+=" | "-=")) =>
            {
                let base = self
                    .record_pointer_step(n, span)?
                    .ok_or_else(|| unsupported(span, "a pointer to records from its step"))?;
                Ok((
                    Scalars {
                        base,
                        offset: zero(span),
                        view,
                    },
                    stride,
                ))
            }
            other => {
                self.check_global_under(n, span)?;
                Err(unsupported(
                    span,
                    format!("a pointer to records from `{other}`"),
                ))
            }
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
                        view: None,
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
                view: s.view,
            });
        }
        if self.record_pointer(n.ty().unwrap_or(""), span)?.is_some() {
            return Ok(self.record_scalars(n, span)?.0);
        }
        Ok(Scalars {
            base: self.expr(n, span)?,
            offset: zero(span),
            view: None,
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
        let unit = self.unit_of(&s, key, span)?;
        let starts = self.field_units(key, unit, span)?;
        // A union's members share its units, each seen through its own leaves' types.
        let mem = match (&s.view, self.is_union(key)) {
            (_, false) => None,
            (Some(v), true) => Some(v.mem),
            (None, true) => Some(self.layout(key, span)?.scalar),
        };
        let mut slots = vec![];
        for ((name, ty), &first) in fields.iter().zip(&starts) {
            let view = match mem {
                Some(mem) => self
                    .member_view(key, name, ty, mem, span)?
                    .map(|leaves| View { mem, leaves }),
                None => s.view.as_ref().map(|v| v.from(first)),
            };
            let at = Scalars {
                base: s.base.clone(),
                offset: add(
                    s.offset.clone(),
                    Expr::new(ExprKind::Int(first, ScalarType::I32), span),
                    span,
                ),
                view,
            };
            slots.push(match self.record_key_of(ty) {
                Some(inner) => super::place::Slot::Record(self.memory_place_at(&inner, at, span)?),
                None if ty.contains('[') => {
                    super::place::Slot::Expr(self.array_field_at(key, name, ty, at, span)?)
                }
                None => super::place::Slot::Expr(
                    self.at_leaves(at, vec![0], span)
                        .pop()
                        .ok_or_else(|| unsupported(span, format!("field of `{key}`")))?,
                ),
            });
        }
        let units = match mem {
            Some(unit) => Some(super::place::Units {
                count: self.record_bytes(key, key, span)?.size / unit.size_bytes().max(1),
                base: s.base,
                offset: s.offset,
                unit,
            }),
            None => None,
        };
        Ok(super::place::Place {
            key: key.to_string(),
            fields,
            slots,
            units,
        })
    }

    /// The array field `name` (`unsigned v[5]`) of a record in memory at `at`, as a pointer to
    /// its first element (`&mem[k]`): only when its elements are the memory's own scalars.
    fn array_field_at(
        &self,
        key: &str,
        name: &str,
        ty: &str,
        at: Scalars,
        span: Span,
    ) -> Result<Expr, FrontError> {
        let elem = ty.split_once('[').map_or(ty, |p| p.0).trim();
        // An array of records (`float4 m[3]`) whose leaves are all of the memory's scalar:
        // the records lie flat from the field's first unit.
        let own = match types::scalar(elem).ok().flatten() {
            Some(t) => Some(t),
            None => self
                .layout_of(elem, span)?
                .filter(|l| l.view.is_none())
                .map(|l| l.scalar),
        };
        let fits = match (&at.view, own) {
            (Some(v), Some(t)) => v.mem == t,
            (None, Some(t)) => self.layout(key, span)?.scalar == t,
            _ => false,
        };
        if !fits || super::place::array_extent(ty).is_none() {
            return Err(unsupported(
                span,
                format!(
                    "array field `{name}` (`{ty}`) of record `{key}` in memory (its elements \
                     are not the memory's units)"
                ),
            ));
        }
        let m = Expr::new(
            ExprKind::Index(Box::new(at.base), Box::new(at.offset)),
            span,
        );
        Ok(Expr::new(
            ExprKind::Unary(UnaryOp::AddrOf, Box::new(m)),
            span,
        ))
    }

    /// Arithmetic on a pointer to records (`p + k`, `p - q`, `p++`, `p += k`) as arithmetic on
    /// the pointer to their first scalar it is: a step of `k` records is `k` times the record's
    /// units, a difference is in records. `None` for another form.
    pub(super) fn record_pointer_step(
        &self,
        n: &Node,
        span: Span,
    ) -> Result<Option<Expr>, FrontError> {
        let stride_of = |ty: &str| -> Result<Option<u64>, FrontError> {
            Ok(self.record_pointer(ty, span)?.map(|(_, k)| k))
        };
        let int = |k: u64| Expr::new(ExprKind::Int(k, ScalarType::I64), span);
        let bin = |op, a, b| Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), span);
        let operand = |i: usize| {
            n.inner
                .get(i)
                .ok_or_else(|| unsupported(span, "malformed pointer arithmetic"))
        };
        let ty = |i: usize| -> Result<String, FrontError> {
            Ok(strip_implicit(operand(i)?).ty().unwrap_or("").to_string())
        };
        let op = match n.str("opcode") {
            Some("+" | "+=" | "++") => BinaryOp::Add,
            Some("-" | "-=" | "--") => BinaryOp::Sub,
            _ => return Ok(None),
        };
        match n.kind.as_str() {
            "UnaryOperator" => {
                let Some(stride) = stride_of(&ty(0)?)? else {
                    return Ok(None);
                };
                let target = self.expr(operand(0)?, span)?;
                let step = Expr::new(
                    ExprKind::Assign(Some(op), Box::new(target), Box::new(int(stride))),
                    span,
                );
                if n.flag("isPostfix") {
                    // The old value: the stepped pointer stepped back.
                    let back = if op == BinaryOp::Add {
                        BinaryOp::Sub
                    } else {
                        BinaryOp::Add
                    };
                    return Ok(Some(bin(back, step, int(stride))));
                }
                Ok(Some(step))
            }
            "CompoundAssignOperator" => {
                let Some(stride) = stride_of(&ty(0)?)? else {
                    return Ok(None);
                };
                let target = self.expr(operand(0)?, span)?;
                let k = times(self.expr(operand(1)?, span)?, stride, span);
                Ok(Some(Expr::new(
                    ExprKind::Assign(Some(op), Box::new(target), Box::new(k)),
                    span,
                )))
            }
            "BinaryOperator" => {
                let (a, b) = (stride_of(&ty(0)?)?, stride_of(&ty(1)?)?);
                let (x, y) = (self.expr(operand(0)?, span)?, self.expr(operand(1)?, span)?);
                Ok(match (a, b) {
                    (Some(s), Some(t)) if s == t && op == BinaryOp::Sub => {
                        Some(bin(BinaryOp::Div, bin(BinaryOp::Sub, x, y), int(s)))
                    }
                    (Some(s), None) => Some(bin(op, x, times(y, s, span))),
                    (None, Some(s)) if op == BinaryOp::Add => Some(bin(op, times(x, s, span), y)),
                    _ => None,
                })
            }
            _ => Ok(None),
        }
    }

    /// The place of a union variable: the local array `array` of the union's units, which
    /// its members are views of.
    pub(super) fn union_local_place(
        &self,
        key: &str,
        array: &str,
        span: Span,
    ) -> Result<super::place::Place, FrontError> {
        let s = Scalars {
            base: Expr::new(ExprKind::Ident(array.to_string()), span),
            offset: zero(span),
            view: None,
        };
        self.memory_place_at(key, s, span)
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
        if let Some(place) = self.local_record_pointee(p) {
            return Ok(place);
        }
        let (at, _) = self.record_scalars(p, span)?;
        self.memory_place_at(key, at, span)
    }

    /// `to = from` (`op` `None`) or `to op= from`; when `to` is a converted leaf of a record
    /// in memory of mixed leaf types ([`leaf_view`]), the store converts the value to the
    /// memory's type (`mem[k] = __float_as_uint(v)`, or each unit of a leaf wider than the
    /// unit: `mem[k] = (u8)v, mem[k + 1] = (u8)(v >> 8)`) and a compound assignment reads,
    /// converts and writes back. The expression's value is the leaf's new value.
    pub fn leaf_assign(
        &self,
        op: Option<BinaryOp>,
        to: Expr,
        from: Expr,
        span: Span,
    ) -> Result<ExprKind, FrontError> {
        let Some((leaf, units)) = leaf_view(&to) else {
            return Ok(ExprKind::Assign(op, Box::new(to), Box::new(from)));
        };
        let units: Vec<Expr> = units.into_iter().cloned().collect();
        let value = match op {
            None => from,
            Some(_) if !units.iter().all(pure) => {
                return Err(unsupported(
                    span,
                    "a compound assignment to a field of a record whose leaves have \
                     different types, at an index with side effects",
                ))
            }
            Some(o) => Expr::new(
                ExprKind::Binary(o, Box::new(to.clone()), Box::new(from)),
                span,
            ),
        };
        if let [m] = &units[..] {
            let store = Expr::new(
                ExprKind::Assign(
                    None,
                    Box::new(m.clone()),
                    Box::new(encode(leaf, mem_of(leaf), value, span)),
                ),
                span,
            );
            return Ok(decode(leaf, store, span).kind);
        }
        let n = units.len() as u64;
        let unit_bytes = leaf.size_bytes() / n;
        let unit = layout::unsigned_of(unit_bytes).unwrap_or(ScalarType::U8);
        let wide = layout::unsigned_of(leaf.size_bytes()).unwrap_or(ScalarType::U64);
        let mut bits = encode(leaf, wide, value, span);
        if !pure(&bits) && units.iter().all(pure) && self.can_hoist() {
            // Its bytes are written one by one: the value is computed once, before.
            let name = format!("__leaf{}", self.fresh());
            let decl = self.local_decl(&name, wide.c_name(), Some(bits), span)?;
            self.hoist(vec![decl], span)?;
            bits = Expr::new(ExprKind::Ident(name), span);
        }
        if !pure(&bits) || !units.iter().all(pure) {
            return Err(unsupported(
                span,
                format!(
                    "a store of a value with side effects (a call, an assignment) into a \
                     `{}` field of a byte-addressed record (its bytes are written one by one: \
                     hold the value in a variable first)",
                    leaf.c_name()
                ),
            ));
        }
        let mut seq: Option<Expr> = None;
        for (j, m) in units.iter().enumerate() {
            let mut part = bits.clone();
            if j > 0 {
                let k = Expr::new(
                    ExprKind::Int(unit_bytes * 8 * j as u64, ScalarType::I32),
                    span,
                );
                part = Expr::new(
                    ExprKind::Binary(BinaryOp::Shr, Box::new(part), Box::new(k)),
                    span,
                );
            }
            let store = Expr::new(
                ExprKind::Assign(None, Box::new(m.clone()), Box::new(cast(unit, part, span))),
                span,
            );
            seq = Some(match seq {
                None => store,
                Some(s) => Expr::new(ExprKind::Comma(Box::new(s), Box::new(store)), span),
            });
        }
        let read = decode_units(leaf, units, span);
        Ok(match seq {
            Some(s) => ExprKind::Comma(Box::new(s), Box::new(read)),
            None => read.kind,
        })
    }

    /// `++`/`--` on `target`; on a converted leaf ([`leaf_view`]) an integer leaf in one unit
    /// steps its memory scalar (the same bits), a wider integer leaf is `x += 1` (a postfix
    /// step's value is the new value minus one, wrapped to the leaf's type) and a float leaf
    /// is `x += 1` (prefix only: the old value of a postfix step on a float leaf is rejected,
    /// `n` naming it).
    pub fn leaf_incdec(
        &self,
        inc: bool,
        prefix: bool,
        target: Expr,
        n: &Node,
        span: Span,
    ) -> Result<ExprKind, FrontError> {
        let Some((leaf, units)) = leaf_view(&target) else {
            return Ok(ExprKind::IncDec {
                inc,
                prefix,
                target: Box::new(target),
            });
        };
        let op = if inc { BinaryOp::Add } else { BinaryOp::Sub };
        if leaf.is_int() {
            if let [m] = &units[..] {
                let step = Expr::new(
                    ExprKind::IncDec {
                        inc,
                        prefix,
                        target: Box::new((*m).clone()),
                    },
                    span,
                );
                return Ok(decode(leaf, step, span).kind);
            }
            let one = Expr::new(ExprKind::Int(1, leaf), span);
            let new = Expr::new(self.leaf_assign(Some(op), target, one.clone(), span)?, span);
            if prefix {
                return Ok(new.kind);
            }
            let back = if inc { BinaryOp::Sub } else { BinaryOp::Add };
            let old = Expr::new(ExprKind::Binary(back, Box::new(new), Box::new(one)), span);
            return Ok(cast(leaf, old, span).kind);
        }
        if !prefix {
            return Err(unsupported(
                span,
                format!(
                    "postfix `{}` on {} (write `{}x` or `x {}= 1`)",
                    if inc { "++" } else { "--" },
                    self.leaf_name(n),
                    if inc { "++" } else { "--" },
                    if inc { "+" } else { "-" },
                ),
            ));
        }
        let one = Expr::new(ExprKind::Float(1.0, leaf), span);
        self.leaf_assign(Some(op), target, one, span)
    }

    /// Rejects `&x` (an atomic's target, a pointer) when `x` is a converted leaf of a record
    /// in memory of mixed leaf types: memory of unsigned units holds it, not memory of its
    /// type.
    pub fn leaf_address(&self, operand: &Expr, n: &Node, span: Span) -> Result<(), FrontError> {
        match leaf_view(operand) {
            Some((leaf, units)) => {
                let unit = layout::unsigned_of(leaf.size_bytes() / units.len().max(1) as u64)
                    .unwrap_or(mem_of(leaf));
                Err(unsupported(
                    span,
                    format!(
                        "the address of {} (an atomic on it, or a `{}*` to it): the record's \
                         leaves have different types and lie in memory of `{}`",
                        self.leaf_name(n),
                        leaf.c_name(),
                        unit.c_name()
                    ),
                ))
            }
            None => Ok(()),
        }
    }

    /// `field `f` of record `R`` for the operand of the unary operator `n` (`p[i].mass`).
    fn leaf_name(&self, n: &Node) -> String {
        let Some(m) = n.inner.first().map(strip_implicit) else {
            return "a field".to_string();
        };
        let field = m.name().unwrap_or("?");
        let base = m
            .inner
            .first()
            .map(strip_implicit)
            .and_then(|b| b.ty())
            .unwrap_or("?");
        let base = if m.flag("isArrow") {
            base.rsplit_once('*').map_or(base, |p| p.0)
        } else {
            base
        };
        format!(
            "field `{field}` of record `{}`",
            base.trim().trim_start_matches("const ").trim()
        )
    }

    /// `e.f` / `p->f` on a record: the field's expression, or `None` when the base is not
    /// a record.
    pub fn record_member(&self, n: &Node, span: Span) -> Result<Option<Expr>, FrontError> {
        let Some(base) = n.inner.first() else {
            return Ok(None);
        };
        let field = n.name().unwrap_or("");
        let b = strip_implicit(base);
        let to_variable = n.flag("isArrow") && self.local_record_pointee(base).is_some();
        let by_place = to_variable
            || matches!(
                b.kind.as_str(),
                "CXXThisExpr"
                    | "DeclRefExpr"
                    | "MemberExpr"
                    | "CXXMemberCallExpr"
                    | "CXXOperatorCallExpr"
                    | "CXXConstructExpr"
                    | "CXXTemporaryObjectExpr"
                    | "MaterializeTemporaryExpr"
            )
            || b.kind == "CallExpr" && self.is_user_call(b);
        if to_variable || by_place && !(n.flag("isArrow") && b.kind != "CXXThisExpr") {
            if !to_variable
                && self.record(b.ty().unwrap_or("")).is_none()
                && b.kind != "CXXThisExpr"
            {
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
        let key = self
            .record_key_of(if arrow {
                base_ty.rsplit_once('*').map_or(base_ty, |p| p.0)
            } else {
                base_ty
            })
            .unwrap_or_default();
        if self.is_union(&key) {
            // Members share the union's units: each is read through its own view of them.
            let place = if arrow {
                self.pointee_place(base, &key, span)?
            } else {
                self.record_place_of(base, &key, span)?
            };
            return match place.slots.into_iter().nth(index) {
                Some(super::place::Slot::Expr(e)) => Ok(Some(Expr::new(e.kind, span))),
                _ => Err(unsupported(span, format!("member `{field}` of `{key}`"))),
            };
        }
        let leaf = self.leaf_offset(&fields, index) as usize;
        if arrow {
            let (s, _) = self.record_scalars(base, span)?;
            let key = self
                .record_key_of(base_ty.rsplit_once('*').map_or(base_ty, |p| p.0))
                .unwrap_or_default();
            let e = self.elements(s, &key, span)?.into_iter().nth(index);
            if super::place::array_extent(&fields[index].1).is_some() {
                // `p->a` of an array field `a`: a pointer to its first element, which `p->a[i]`
                // indexes, when the elements are the memory's own units (not decoded from
                // units of another type).
                return match e {
                    Some(
                        e @ Expr {
                            kind: ExprKind::Index(..),
                            ..
                        },
                    ) => Ok(Some(super::expr::address_of(e))),
                    _ => Err(unsupported(
                        span,
                        format!("array field `{field}` of a record whose leaves have other types"),
                    )),
                };
            }
            return Ok(e);
        }
        Ok(self.record_fields(base, span)?.into_iter().nth(leaf))
    }
}
