//! Typed scalar constants: literals in the IR, launch arguments, buffer elements.

use crate::ScalarType;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A scalar constant together with its type.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "lowercase")]
pub enum Value {
    /// A `bool`.
    Bool(bool),
    /// An `i32`.
    I32(i32),
    /// A `u32`.
    U32(u32),
    /// An `i64`.
    I64(i64),
    /// A `u64`.
    U64(u64),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
}

impl Value {
    /// The type of this value.
    pub fn ty(self) -> ScalarType {
        match self {
            Value::Bool(_) => ScalarType::Bool,
            Value::I32(_) => ScalarType::I32,
            Value::U32(_) => ScalarType::U32,
            Value::I64(_) => ScalarType::I64,
            Value::U64(_) => ScalarType::U64,
            Value::F32(_) => ScalarType::F32,
            Value::F64(_) => ScalarType::F64,
        }
    }

    /// The raw bit pattern, zero-extended to 64 bits (the register format of thread code).
    pub fn to_bits(self) -> u64 {
        match self {
            Value::Bool(b) => b as u64,
            Value::I32(v) => v as u32 as u64,
            Value::U32(v) => v as u64,
            Value::I64(v) => v as u64,
            Value::U64(v) => v,
            Value::F32(v) => v.to_bits() as u64,
            Value::F64(v) => v.to_bits(),
        }
    }

    /// Rebuilds a value of type `ty` from a register bit pattern (upper bits ignored).
    pub fn from_bits(ty: ScalarType, bits: u64) -> Value {
        match ty {
            ScalarType::Bool => Value::Bool(bits & 1 != 0),
            ScalarType::I32 => Value::I32(bits as u32 as i32),
            ScalarType::U32 => Value::U32(bits as u32),
            ScalarType::I64 => Value::I64(bits as i64),
            ScalarType::U64 => Value::U64(bits),
            ScalarType::F32 => Value::F32(f32::from_bits(bits as u32)),
            ScalarType::F64 => Value::F64(f64::from_bits(bits)),
        }
    }

    /// The zero of type `ty`.
    pub fn zero(ty: ScalarType) -> Value {
        Value::from_bits(ty, 0)
    }

    /// An integer constant of type `ty`, wrapping as a C cast would; floats convert exactly or round.
    pub fn from_i128(ty: ScalarType, v: i128) -> Value {
        match ty {
            ScalarType::Bool => Value::Bool(v != 0),
            ScalarType::I32 => Value::I32(v as i32),
            ScalarType::U32 => Value::U32(v as u32),
            ScalarType::I64 => Value::I64(v as i64),
            ScalarType::U64 => Value::U64(v as u64),
            ScalarType::F32 => Value::F32(v as f32),
            ScalarType::F64 => Value::F64(v as f64),
        }
    }

    /// A float constant of type `ty` (integers truncate toward zero, saturating).
    pub fn from_f64(ty: ScalarType, v: f64) -> Value {
        match ty {
            ScalarType::Bool => Value::Bool(v != 0.0),
            ScalarType::I32 => Value::I32(v as i32),
            ScalarType::U32 => Value::U32(v as u32),
            ScalarType::I64 => Value::I64(v as i64),
            ScalarType::U64 => Value::U64(v as u64),
            ScalarType::F32 => Value::F32(v as f32),
            ScalarType::F64 => Value::F64(v),
        }
    }

    /// The value as a mathematical integer, if it is an integer or a bool.
    pub fn as_i128(self) -> Option<i128> {
        match self {
            Value::Bool(b) => Some(b as i128),
            Value::I32(v) => Some(v as i128),
            Value::U32(v) => Some(v as i128),
            Value::I64(v) => Some(v as i128),
            Value::U64(v) => Some(v as i128),
            Value::F32(_) | Value::F64(_) => None,
        }
    }

    /// The value as an `f64` (exact for every type but 64-bit integers beyond 2^53).
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Bool(b) => b as u8 as f64,
            Value::I32(v) => v as f64,
            Value::U32(v) => v as f64,
            Value::I64(v) => v as f64,
            Value::U64(v) => v as f64,
            Value::F32(v) => v as f64,
            Value::F64(v) => v,
        }
    }

    /// Converts to type `ty` with C cast semantics.
    pub fn cast(self, ty: ScalarType) -> Value {
        match self.as_i128() {
            Some(i) if ty != ScalarType::Bool => Value::from_i128(ty, i),
            _ if ty == ScalarType::Bool => Value::Bool(self.to_bits() != 0 && self.as_f64() != 0.0),
            _ => Value::from_f64(ty, self.as_f64()),
        }
    }

    /// Parses text as a value of type `ty` (`true`, `-3`, `0x10`, `2.5`).
    pub fn parse(ty: ScalarType, text: &str) -> Option<Value> {
        let t = text.trim();
        if ty == ScalarType::Bool {
            return match t {
                "true" | "1" => Some(Value::Bool(true)),
                "false" | "0" => Some(Value::Bool(false)),
                _ => None,
            };
        }
        if ty.is_float() {
            let v: f64 = t.trim_end_matches(['f', 'F']).parse().ok()?;
            return Some(Value::from_f64(ty, v));
        }
        let (neg, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let mag = if let Some(hex) = digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            i128::from_str_radix(hex, 16).ok()?
        } else {
            digits.parse::<i128>().ok()?
        };
        let v = if neg { -mag } else { mag };
        let (min, max): (i128, i128) = match ty {
            ScalarType::I32 => (i32::MIN as i128, i32::MAX as i128),
            ScalarType::U32 => (0, u32::MAX as i128),
            ScalarType::I64 => (i64::MIN as i128, i64::MAX as i128),
            _ => (0, u64::MAX as i128),
        };
        (min..=max).contains(&v).then(|| Value::from_i128(ty, v))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::I32(v) => write!(f, "{v}"),
            Value::U32(v) => write!(f, "{v}u"),
            Value::I64(v) => write!(f, "{v}ll"),
            Value::U64(v) => write!(f, "{v}ull"),
            Value::F32(v) => write!(f, "{v:?}f"),
            Value::F64(v) => write!(f, "{v:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip_every_type() {
        let vals = [
            Value::Bool(true),
            Value::I32(-7),
            Value::U32(u32::MAX),
            Value::I64(i64::MIN),
            Value::U64(42),
            Value::F32(-1.5),
            Value::F64(0.1),
        ];
        for v in vals {
            assert_eq!(Value::from_bits(v.ty(), v.to_bits()), v);
        }
    }

    #[test]
    fn parse_checks_range() {
        assert_eq!(Value::parse(ScalarType::U32, "-1"), None);
        assert_eq!(Value::parse(ScalarType::I32, "-1"), Some(Value::I32(-1)));
        assert_eq!(Value::parse(ScalarType::U32, "0x10"), Some(Value::U32(16)));
        assert_eq!(Value::parse(ScalarType::F32, "2.5f"), Some(Value::F32(2.5)));
        assert_eq!(Value::parse(ScalarType::I32, "4294967296"), None);
    }

    #[test]
    fn cast_follows_c() {
        assert_eq!(Value::I32(-1).cast(ScalarType::U32), Value::U32(u32::MAX));
        assert_eq!(Value::F32(2.9).cast(ScalarType::I32), Value::I32(2));
        assert_eq!(Value::U32(3).cast(ScalarType::F64), Value::F64(3.0));
        assert_eq!(Value::F32(0.0).cast(ScalarType::Bool), Value::Bool(false));
    }
}
