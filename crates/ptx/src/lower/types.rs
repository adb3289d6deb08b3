//! PTX type names (`s32`, `b64`, `f32`, `pred`…) and the thread-code types they run as.

use warpsafe_ir::ScalarType;

/// What kind of values a PTX type holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `.sN`
    Signed,
    /// `.uN`
    Unsigned,
    /// `.bN`: untyped bits (arithmetic treats them as unsigned).
    Bits,
    /// `.fN`
    Float,
    /// `.pred`
    Pred,
}

/// A PTX fundamental type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PtxType {
    pub kind: Kind,
    /// Width in bits (1 for predicates).
    pub bits: u32,
}

impl PtxType {
    /// Parses a type name without the dot (`u32`); `None` for names warpsafe has no model of.
    pub fn parse(name: &str) -> Option<PtxType> {
        let name = name.trim_start_matches('.');
        if name == "pred" {
            return Some(PtxType {
                kind: Kind::Pred,
                bits: 1,
            });
        }
        let (kind, width) = match name.split_at_checked(1)? {
            ("s", w) => (Kind::Signed, w),
            ("u", w) => (Kind::Unsigned, w),
            ("b", w) => (Kind::Bits, w),
            ("f", w) => (Kind::Float, w),
            _ => return None,
        };
        let bits: u32 = width.parse().ok()?;
        let ok = match kind {
            Kind::Float => matches!(bits, 16 | 32 | 64),
            _ => matches!(bits, 8 | 16 | 32 | 64),
        };
        ok.then_some(PtxType { kind, bits })
    }

    /// Size in bytes as stored in memory.
    pub fn bytes(self) -> u64 {
        (self.bits as u64).div_ceil(8)
    }

    /// The thread-code type: 8-, 16-, 32- and 64-bit integers, `f16`, `f32` and `f64`, and
    /// predicates; anything else is an error naming the type.
    pub fn scalar(self) -> Result<ScalarType, String> {
        Ok(match (self.kind, self.bits) {
            (Kind::Pred, _) => ScalarType::Bool,
            (Kind::Signed, 8) => ScalarType::I8,
            (Kind::Unsigned | Kind::Bits, 8) => ScalarType::U8,
            (Kind::Signed, 16) => ScalarType::I16,
            (Kind::Unsigned | Kind::Bits, 16) => ScalarType::U16,
            (Kind::Float, 16) => ScalarType::F16,
            (Kind::Signed, 32) => ScalarType::I32,
            (Kind::Unsigned | Kind::Bits, 32) => ScalarType::U32,
            (Kind::Signed, 64) => ScalarType::I64,
            (Kind::Unsigned | Kind::Bits, 64) => ScalarType::U64,
            (Kind::Float, 32) => ScalarType::F32,
            (Kind::Float, 64) => ScalarType::F64,
            _ => {
                return Err(format!(
                    "{}-bit {} values are not supported",
                    self.bits,
                    self.kind_name()
                ))
            }
        })
    }

    /// The same-width unsigned type (for `lo/ls/hi/hs` comparisons and logical shifts).
    pub fn unsigned(self) -> PtxType {
        match self.kind {
            Kind::Signed | Kind::Bits => PtxType {
                kind: Kind::Unsigned,
                bits: self.bits,
            },
            _ => self,
        }
    }

    fn kind_name(self) -> &'static str {
        match self.kind {
            Kind::Signed => "signed integer",
            Kind::Unsigned => "unsigned integer",
            Kind::Bits => "untyped",
            Kind::Float => "float",
            Kind::Pred => "predicate",
        }
    }
}

/// Width in bits of a thread-code type as a register holds it (predicates: 32, as 0/1).
/// Registers hold a value's bits zero-extended from this width.
pub(crate) fn width(t: ScalarType) -> u32 {
    match t {
        ScalarType::I64 | ScalarType::U64 | ScalarType::F64 => 64,
        ScalarType::I8 | ScalarType::U8 => 8,
        ScalarType::I16 | ScalarType::U16 | ScalarType::F16 => 16,
        _ => 32,
    }
}

/// The integer type of `bits` bits and the given signedness (`bits` is 8, 16, 32 or 64).
pub(crate) fn int_type(bits: u32, signed: bool) -> ScalarType {
    match (bits, signed) {
        (8, true) => ScalarType::I8,
        (8, false) => ScalarType::U8,
        (16, true) => ScalarType::I16,
        (16, false) => ScalarType::U16,
        (64, true) => ScalarType::I64,
        (64, false) => ScalarType::U64,
        (_, true) => ScalarType::I32,
        (_, false) => ScalarType::U32,
    }
}

/// Whether `t` is a signed integer type.
pub(crate) fn is_signed_int(t: ScalarType) -> bool {
    matches!(
        t,
        ScalarType::I8 | ScalarType::I16 | ScalarType::I32 | ScalarType::I64
    )
}
