//! How a record lies in memory, leaf by leaf: a record (nested records and array fields
//! included) flattened depth-first in declaration order to its *leaf* scalars (`struct Body
//! { float3 pos; float3 vel; }` has the six leaves `pos.x` … `vel.z`), each at the byte offset
//! C's rules give it (each field at a multiple of its alignment, the size a multiple of the
//! record's alignment, `__align__`/`alignas` read from clang's `AlignedAttr`).
//!
//! Memory holding records is memory of one *unit* scalar, and a leaf lies at the unit of its
//! byte offset, so padding is units no leaf names and two leaves share a unit only when they
//! share bytes:
//! - leaves of one type: the unit is that type (`struct __align__(64) { unsigned a, b; }` is 16
//!   `unsigned` per record, leaves at units 0 and 1);
//! - leaves of different types: the unit is the unsigned integer of the smallest leaf's size
//!   (`u32` for `{ float3 pos; float mass; int id; }`, `u8` for `{ short x; char z; }`),
//!   each leaf converted at its access (`Layout::view`); a leaf wider than the unit is its
//!   units read and written together, little-endian (a `short` in `u8` memory is two bytes), so
//!   races are judged on the bytes themselves.

use super::{types, Unit};
use crate::node::Node;
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

/// A record's memory layout as units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The type of the memory's units: the type every leaf shares, or the unsigned integer
    /// of the smallest leaf's size when their types differ (see `view`).
    pub scalar: ScalarType,
    /// The number of units per record (its size over the unit's).
    pub leaves: u64,
    /// The unit each leaf starts at, in memory order.
    pub starts: Vec<u64>,
    /// Per unit, the type of the leaf starting there (`None`: padding, or a later unit of a
    /// wider leaf), when the leaves' types differ: memory of unsigned units whose leaves are
    /// converted at each access. `None` when the leaves share one type.
    pub view: Option<Vec<Option<ScalarType>>>,
}

/// A record's bytes: size, alignment, each field's offset and every leaf's offset and type.
#[derive(Debug, Clone, Default)]
pub struct Bytes {
    /// `sizeof`.
    pub size: u64,
    /// `alignof`.
    pub align: u64,
    /// Byte offset of each field, in declaration order.
    pub fields: Vec<u64>,
    /// Byte offset and type of each leaf, depth-first.
    pub leaves: Vec<(u64, ScalarType)>,
}

fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

/// The value of an `AlignedAttr` among `n`'s children, in bytes.
fn aligned_attr(n: &Node) -> Option<u64> {
    n.inner
        .iter()
        .filter(|c| c.kind == "AlignedAttr")
        .filter_map(|a| a.inner.first()?.str("value")?.parse().ok())
        .max()
}

fn is_union_decl(decl: &Node) -> bool {
    decl.str("tagUsed") == Some("union")
}

/// The leaves of a union whose members have the leaves `members` (offsets from the union's
/// start): its memory units, since members share bytes. The unit is the type every leaf
/// shares, else the unsigned integer of the smallest leaf's size; a member is read through a
/// view of those units ([`Unit::member_view`]).
fn union_units(
    key: &str,
    members: &[(u64, ScalarType)],
    size: u64,
    span: Span,
) -> Result<Vec<(u64, ScalarType)>, FrontError> {
    let Some(&(_, first)) = members.first() else {
        return Err(unsupported(
            span,
            format!("the empty union `{key}` in memory"),
        ));
    };
    let unit = if members.iter().all(|&(_, t)| t == first) {
        first
    } else {
        if let Some(&(o, t)) = members.iter().find(|&&(_, t)| t == ScalarType::F16) {
            return Err(unsupported(
                span,
                format!(
                    "union `{key}` in memory with the half-precision leaf at byte {o} (`{}`) \
                     among leaves of other types",
                    t.c_name()
                ),
            ));
        }
        let small = members
            .iter()
            .map(|&(_, t)| t.size_bytes())
            .min()
            .unwrap_or(1);
        unsigned_of(small)
            .ok_or_else(|| unsupported(span, format!("union `{key}`: leaf of {small} bytes")))?
    };
    let step = unit.size_bytes().max(1);
    if !size.is_multiple_of(step) {
        return Err(unsupported(
            span,
            format!("union `{key}` of {size} bytes in {step}-byte units"),
        ));
    }
    Ok((0..size / step).map(|k| (k * step, unit)).collect())
}

/// The unsigned integer of `bytes` bytes.
pub(super) fn unsigned_of(bytes: u64) -> Option<ScalarType> {
    Some(match bytes {
        1 => ScalarType::U8,
        2 => ScalarType::U16,
        4 => ScalarType::U32,
        8 => ScalarType::U64,
        _ => return None,
    })
}

impl Unit<'_> {
    /// The memory layout of the record type `ty` (through `const`, references, namespaces),
    /// `None` when `ty` is no record; rejected when a field is a pointer or a reference, an
    /// array of unknown or several extents, or a half-precision leaf among leaves of other
    /// types.
    pub fn layout_of(&self, ty: &str, span: Span) -> Result<Option<Layout>, FrontError> {
        match self.record_key_of(ty) {
            Some(key) => self.layout(&key, span).map(Some),
            None => Ok(None),
        }
    }

    /// The memory layout of the record `key` (see [`Unit::layout_of`]).
    pub fn layout(&self, key: &str, span: Span) -> Result<Layout, FrontError> {
        let b = self.record_bytes(key, key, span)?;
        let Some(&(_, first)) = b.leaves.first() else {
            return Err(unsupported(
                span,
                format!("the empty record `{key}` in memory"),
            ));
        };
        let same = b.leaves.iter().all(|&(_, t)| t == first);
        let unit = if same {
            first.size_bytes()
        } else {
            b.leaves
                .iter()
                .map(|&(_, t)| t.size_bytes())
                .min()
                .unwrap_or(1)
        };
        let starts: Vec<u64> = b.leaves.iter().map(|&(o, _)| o / unit).collect();
        let units = b.size / unit;
        if same {
            return Ok(Layout {
                scalar: first,
                leaves: units,
                starts,
                view: None,
            });
        }
        if let Some(&(o, t)) = b
            .leaves
            .iter()
            .find(|&&(_, t)| matches!(t, ScalarType::F16))
        {
            return Err(unsupported(
                span,
                format!(
                    "record `{key}` in memory with the half-precision leaf at byte {o} \
                     (`{}`) among leaves of other types",
                    t.c_name()
                ),
            ));
        }
        let scalar = unsigned_of(unit)
            .ok_or_else(|| unsupported(span, format!("record `{key}`: leaf of {unit} bytes")))?;
        let mut view = vec![None; units as usize];
        for (&(_, t), &at) in b.leaves.iter().zip(&starts) {
            if let Some(v) = view.get_mut(at as usize) {
                *v = Some(t);
            }
        }
        Ok(Layout {
            scalar,
            leaves: units,
            starts,
            view: Some(view),
        })
    }

    /// The bytes of the record `key` (`top` is the record the question started at, for
    /// messages).
    pub(super) fn record_bytes(
        &self,
        key: &str,
        top: &str,
        span: Span,
    ) -> Result<Bytes, FrontError> {
        let fields = self
            .records
            .get(key)
            .cloned()
            .ok_or_else(|| unsupported(span, format!("record `{key}`")))?;
        let decl = self.record_decls.get(key).copied();
        let mut out = Bytes {
            align: decl.and_then(aligned_attr).unwrap_or(1),
            ..Bytes::default()
        };
        let union = decl.is_some_and(is_union_decl);
        let mut offset = 0u64;
        let mut members = vec![];
        for (name, ty) in &fields {
            let (size, a, leaves) = self.field_bytes(key, top, name, ty, span)?;
            let a = a.max(decl.and_then(|d| field_align(d, name)).unwrap_or(1));
            out.align = out.align.max(a);
            if union {
                out.fields.push(0);
                members.extend(leaves);
                offset = offset.max(size);
                continue;
            }
            offset = offset.div_ceil(a) * a;
            out.fields.push(offset);
            out.leaves
                .extend(leaves.into_iter().map(|(o, t)| (o + offset, t)));
            offset += size;
        }
        out.size = offset.div_ceil(out.align) * out.align;
        if union {
            out.leaves = union_units(key, &members, out.size, span)?;
        }
        Ok(out)
    }

    /// True when the record `key` is a union.
    pub(super) fn is_union(&self, key: &str) -> bool {
        self.record_decls.get(key).is_some_and(|d| is_union_decl(d))
    }

    /// How the member of type `ty` of a union lies in memory of `mem` units: `None` when its
    /// leaves are the units themselves, else the type of the leaf starting at each unit.
    pub(super) fn member_view(
        &self,
        key: &str,
        name: &str,
        ty: &str,
        mem: ScalarType,
        span: Span,
    ) -> Result<Option<Vec<Option<ScalarType>>>, FrontError> {
        let (size, _, leaves) = self.field_bytes(key, key, name, ty, span)?;
        if leaves.iter().all(|&(_, t)| t == mem) {
            return Ok(None);
        }
        let unit = mem.size_bytes().max(1);
        let mut view = vec![None; size.div_ceil(unit) as usize];
        for (o, t) in leaves {
            if !o.is_multiple_of(unit) || t.size_bytes() < unit || matches!(t, ScalarType::F16) {
                return Err(unsupported(
                    span,
                    format!(
                        "member `{name}` of the union `{key}` in memory: its `{}` at byte {o} \
                         is not made of whole {unit}-byte units",
                        t.c_name()
                    ),
                ));
            }
            if let Some(v) = view.get_mut((o / unit) as usize) {
                *v = Some(t);
            }
        }
        Ok(Some(view))
    }

    /// Size, alignment and leaves (offsets from the field's start) of field `name` of type
    /// `ty` in record `key`.
    #[allow(clippy::type_complexity)]
    fn field_bytes(
        &self,
        key: &str,
        top: &str,
        name: &str,
        ty: &str,
        span: Span,
    ) -> Result<(u64, u64, Vec<(u64, ScalarType)>), FrontError> {
        let odd = |what: &str| {
            let within = if key == top {
                String::new()
            } else {
                format!(" (in `{top}`)")
            };
            unsupported(
                span,
                format!("{what}field `{name}` (`{ty}`) of record `{key}`{within} in memory"),
            )
        };
        if types::strip_reference(ty).1 {
            return Err(odd("reference "));
        }
        if let Some((elem, _)) = ty.split_once('[') {
            let n = super::place::array_extent(ty).ok_or_else(|| odd("array "))?;
            let (size, a, leaves) = self.field_bytes(key, top, name, elem.trim(), span)?;
            let all = (0..n)
                .flat_map(|k| leaves.iter().map(move |&(o, t)| (o + k * size, t)))
                .collect();
            return Ok((size * n, a, all));
        }
        if let Some(inner) = self.record_key_of(ty) {
            let b = self.record_bytes(&inner, top, span)?;
            return Ok((b.size, b.align, b.leaves));
        }
        let t = types::scalar_or_pointer(ty, span)
            .ok()
            .filter(|t| !t.ptr)
            .and_then(|t| t.base)
            .ok_or_else(|| odd(if ty.contains('*') { "pointer " } else { "" }))?;
        let size = t.size_bytes();
        Ok((size, size, vec![(0, t)]))
    }

    /// The unit each field of record `key` starts at, in memory of `unit`-byte units.
    pub(super) fn field_units(
        &self,
        key: &str,
        unit: u64,
        span: Span,
    ) -> Result<Vec<u64>, FrontError> {
        let b = self.record_bytes(key, key, span)?;
        Ok(b.fields.iter().map(|o| o / unit.max(1)).collect())
    }

    /// The unit each leaf of record `key` starts at, in memory of `unit`-byte units.
    pub(super) fn leaf_units(
        &self,
        key: &str,
        unit: u64,
        span: Span,
    ) -> Result<Vec<u64>, FrontError> {
        let b = self.record_bytes(key, key, span)?;
        Ok(b.leaves.iter().map(|(o, _)| o / unit.max(1)).collect())
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
