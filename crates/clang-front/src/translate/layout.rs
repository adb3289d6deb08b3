//! How a record lies in memory, leaf by leaf: a record (nested records included) flattened
//! depth-first in declaration order to its *leaf* scalars (`struct Body { float3 pos;
//! float3 vel; }` has the six leaves `pos.x` … `vel.z`). Memory holding records is memory of
//! their one leaf type, which is only the truth when the leaves lie back to back: the byte
//! layout is computed with C's rules (each field at a multiple of its alignment, the size a
//! multiple of the record's alignment, `__align__`/`alignas` read from clang's
//! `AlignedAttr`) and a record with padding is rejected rather than mis-modelled.
//!
//! Leaves of different types of one size (`float`, `int` and `unsigned int`; or `double`,
//! `long long` and `unsigned long long`) lie in memory of the unsigned integer of that size,
//! each leaf converted at its access (`Layout::view`); leaves of different sizes are
//! rejected.

use super::{types, Unit};
use crate::node::Node;
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

/// A record's memory layout as scalars.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The type of the memory's scalars: the type every leaf shares, or the unsigned
    /// integer of the leaves' one size when their types differ (see `view`).
    pub scalar: ScalarType,
    /// The number of leaves (scalars per record).
    pub leaves: u64,
    /// Every leaf's own type, in memory order, when the leaves have different types of one
    /// size (`struct Particle { float3 pos; float mass; int id; }`): memory of `u32`/`u64`
    /// whose leaves are converted at each access. `None` when the leaves share one type.
    pub view: Option<Vec<ScalarType>>,
}

/// The leaves met so far while walking a record, and the record the walk started at.
struct Walk<'k> {
    top: &'k str,
    first: Option<(ScalarType, String)>,
    leaves: u64,
    types: Vec<ScalarType>,
    mixed: bool,
}

/// True for the leaf types a record in memory may mix with another of the same size:
/// they are stored as the unsigned integer of that size.
fn mixable(t: ScalarType) -> bool {
    use ScalarType::*;
    matches!(t, F32 | I32 | U32 | F64 | I64 | U64)
}

fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

/// ` (in `top`)` when the record `key` is nested in another one.
fn within(key: &str, top: &str) -> String {
    if key == top {
        String::new()
    } else {
        format!(" (in `{top}`)")
    }
}

/// The value of an `AlignedAttr` among `n`'s children, in bytes.
fn aligned_attr(n: &Node) -> Option<u64> {
    n.inner
        .iter()
        .filter(|c| c.kind == "AlignedAttr")
        .filter_map(|a| a.inner.first()?.str("value")?.parse().ok())
        .max()
}

impl Unit<'_> {
    /// The memory layout of the record type `ty` (through `const`, references, namespaces),
    /// `None` when `ty` is no record; rejected when its leaves have different types, when a
    /// field is an array, a pointer or a reference, or when C's layout has padding.
    pub fn layout_of(&self, ty: &str, span: Span) -> Result<Option<Layout>, FrontError> {
        match self.record_key_of(ty) {
            Some(key) => self.layout(&key, span).map(Some),
            None => Ok(None),
        }
    }

    /// The memory layout of the record `key` (see [`Unit::layout_of`]).
    pub fn layout(&self, key: &str, span: Span) -> Result<Layout, FrontError> {
        let mut w = Walk {
            top: key,
            first: None,
            leaves: 0,
            types: vec![],
            mixed: false,
        };
        self.walk_layout(key, &mut w, span)?;
        match w.first {
            Some((first, _)) if w.mixed => Ok(Layout {
                scalar: if first.size_bytes() == 8 {
                    ScalarType::U64
                } else {
                    ScalarType::U32
                },
                leaves: w.leaves,
                view: Some(w.types),
            }),
            Some((scalar, _)) => Ok(Layout {
                scalar,
                leaves: w.leaves,
                view: None,
            }),
            None => Err(unsupported(
                span,
                format!("the empty record `{key}` in memory"),
            )),
        }
    }

    /// Size and alignment in bytes of the record `key`, its leaves added to `w`.
    fn walk_layout(&self, key: &str, w: &mut Walk, span: Span) -> Result<(u64, u64), FrontError> {
        let fields = self
            .records
            .get(key)
            .cloned()
            .ok_or_else(|| unsupported(span, format!("record `{key}`")))?;
        let decl = self.record_decls.get(key).copied();
        let mut align = decl.and_then(aligned_attr).unwrap_or(1);
        let mut offset = 0u64;
        for (name, ty) in &fields {
            let (size, a) = self.field_bytes(key, name, ty, w, span)?;
            let a = a.max(decl.and_then(|d| field_align(d, name)).unwrap_or(1));
            if !offset.is_multiple_of(a) {
                return Err(unsupported(
                    span,
                    format!(
                        "record `{key}`{} in memory with alignment padding before field `{name}` \
                         (at byte {offset}, aligned to {a}): its scalars would not lie where its bytes do",
                        within(key, w.top)
                    ),
                ));
            }
            offset += size;
            align = align.max(a);
        }
        if !offset.is_multiple_of(align) {
            return Err(unsupported(
                span,
                format!(
                    "record `{key}`{} in memory with tail padding ({offset} bytes of fields, \
                     aligned to {align}): its scalars would not lie where its bytes do",
                    within(key, w.top)
                ),
            ));
        }
        Ok((offset, align))
    }

    /// Size and alignment of field `name` of type `ty` in record `key`.
    fn field_bytes(
        &self,
        key: &str,
        name: &str,
        ty: &str,
        w: &mut Walk,
        span: Span,
    ) -> Result<(u64, u64), FrontError> {
        let odd = |what: &str| {
            unsupported(
                span,
                format!(
                    "{what}field `{name}` (`{ty}`) of record `{key}`{} in memory",
                    within(key, w.top)
                ),
            )
        };
        if types::strip_reference(ty).1 {
            return Err(odd("reference "));
        }
        if ty.contains('[') {
            return Err(odd("array "));
        }
        if let Some(inner) = self.record_key_of(ty) {
            return self.walk_layout(&inner, w, span);
        }
        let t = types::scalar_or_pointer(ty, span)
            .ok()
            .filter(|t| !t.ptr)
            .and_then(|t| t.base)
            .ok_or_else(|| odd(if ty.contains('*') { "pointer " } else { "" }))?;
        match &w.first {
            None => w.first = Some((t, format!("{key}::{name}"))),
            Some((c, _))
                if *c != t && mixable(*c) && mixable(t) && c.size_bytes() == t.size_bytes() =>
            {
                w.mixed = true;
            }
            Some((c, at)) if *c != t => {
                return Err(unsupported(
                    span,
                    format!(
                        "record `{}` in memory whose leaves have different types \
                         (`{}` for `{at}`, `{}` for `{key}::{name}`)",
                        w.top,
                        c.c_name(),
                        t.c_name()
                    ),
                ))
            }
            Some(_) => {}
        }
        w.leaves += 1;
        w.types.push(t);
        let size = t.size_bytes();
        Ok((size, size))
    }

    /// The number of leaf scalars of a value of type `ty`: a record's leaves (nested records
    /// counted through), a one-dimensional array's extent, else one.
    pub fn leaf_count(&self, ty: &str) -> u64 {
        if types::strip_reference(ty).1 {
            return 1;
        }
        if let Some(n) = super::place::array_extent(ty) {
            return n;
        }
        let Some(key) = self.record_key_of(ty) else {
            return 1;
        };
        let fields = self.records.get(&key).cloned().unwrap_or_default();
        fields.iter().map(|(_, t)| self.leaf_count(t)).sum()
    }

    /// Where field `index` of `fields` starts among the record's leaves.
    pub fn leaf_offset(&self, fields: &super::aggregate::Fields, index: usize) -> u64 {
        fields[..index.min(fields.len())]
            .iter()
            .map(|(_, t)| self.leaf_count(t))
            .sum()
    }
}

/// The `__align__` of field `name` in the record declaration `decl`.
fn field_align(decl: &Node, name: &str) -> Option<u64> {
    decl.inner
        .iter()
        .find(|c| c.kind == "FieldDecl" && c.name() == Some(name))
        .and_then(aligned_attr)
}
