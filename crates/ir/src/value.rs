//! Typed scalar constants: literals in the IR, launch arguments, buffer elements.

use crate::{ScalarType, F16};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A scalar constant together with its type.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "lowercase")]
pub enum Value {
    /// A `bool`.
    Bool(bool),
    /// An `i8`.
    I8(i8),
    /// A `u8`.
    U8(u8),
    /// An `i16`.
    I16(i16),
    /// A `u16`.
    U16(u16),
    /// An `i32`.
    I32(i32),
    /// A `u32`.
    U32(u32),
    /// An `i64`.
    I64(i64),
    /// A `u64`.
    U64(u64),
    /// An `f16`.
    F16(F16),
    /// An `f32`.
    F32(#[serde(with = "ieee")] f32),
    /// An `f64`.
    F64(#[serde(with = "ieee")] f64),
}

/// Floats in JSON: a number when finite, else `"inf"`, `"-inf"` or `"nan"` (JSON has no
/// infinities; `serde_json` would write `null` and fail to read it back).
mod ieee {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// A float as JSON holds it.
    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Repr {
        Number(f64),
        Word(String),
    }

    pub fn serialize<T, S>(v: &T, s: S) -> Result<S::Ok, S::Error>
    where
        T: Into<f64> + Copy + Serialize,
        S: Serializer,
    {
        let x: f64 = (*v).into();
        match x {
            _ if x.is_nan() => "nan".serialize(s),
            f64::INFINITY => "inf".serialize(s),
            f64::NEG_INFINITY => "-inf".serialize(s),
            _ => v.serialize(s),
        }
    }

    pub fn deserialize<'de, T: FromF64, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let v = match Repr::deserialize(d)? {
            Repr::Number(v) => v,
            Repr::Word(w) => match w.as_str() {
                "inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                "nan" => f64::NAN,
                _ => return Err(serde::de::Error::custom(format!("`{w}` is not a number"))),
            },
        };
        Ok(T::from_f64(v))
    }

    /// `f32` or `f64` from the `f64` JSON holds.
    pub trait FromF64 {
        fn from_f64(v: f64) -> Self;
    }
    impl FromF64 for f32 {
        fn from_f64(v: f64) -> f32 {
            v as f32
        }
    }
    impl FromF64 for f64 {
        fn from_f64(v: f64) -> f64 {
            v
        }
    }
}

impl Value {
    /// The type of this value.
    pub fn ty(self) -> ScalarType {
        match self {
            Value::Bool(_) => ScalarType::Bool,
            Value::I8(_) => ScalarType::I8,
            Value::U8(_) => ScalarType::U8,
            Value::I16(_) => ScalarType::I16,
            Value::U16(_) => ScalarType::U16,
            Value::F16(_) => ScalarType::F16,
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
            Value::I8(v) => v as u8 as u64,
            Value::U8(v) => v as u64,
            Value::I16(v) => v as u16 as u64,
            Value::U16(v) => v as u64,
            Value::F16(v) => v.to_bits() as u64,
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
            ScalarType::I8 => Value::I8(bits as u8 as i8),
            ScalarType::U8 => Value::U8(bits as u8),
            ScalarType::I16 => Value::I16(bits as u16 as i16),
            ScalarType::U16 => Value::U16(bits as u16),
            ScalarType::F16 => Value::F16(F16::from_bits(bits as u16)),
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
            ScalarType::I8 => Value::I8(v as i8),
            ScalarType::U8 => Value::U8(v as u8),
            ScalarType::I16 => Value::I16(v as i16),
            ScalarType::U16 => Value::U16(v as u16),
            ScalarType::F16 => Value::F16(F16::from_f64(v as f64)),
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
            ScalarType::I8 => Value::I8(v as i8),
            ScalarType::U8 => Value::U8(v as u8),
            ScalarType::I16 => Value::I16(v as i16),
            ScalarType::U16 => Value::U16(v as u16),
            ScalarType::F16 => Value::F16(F16::from_f64(v)),
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
            Value::I8(v) => Some(v as i128),
            Value::U8(v) => Some(v as i128),
            Value::I16(v) => Some(v as i128),
            Value::U16(v) => Some(v as i128),
            Value::I32(v) => Some(v as i128),
            Value::U32(v) => Some(v as i128),
            Value::I64(v) => Some(v as i128),
            Value::U64(v) => Some(v as i128),
            Value::F16(_) | Value::F32(_) | Value::F64(_) => None,
        }
    }

    /// The value as an `f64` (exact for every type but 64-bit integers beyond 2^53).
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Bool(b) => b as u8 as f64,
            Value::I8(v) => v as f64,
            Value::U8(v) => v as f64,
            Value::I16(v) => v as f64,
            Value::U16(v) => v as f64,
            Value::F16(v) => v.to_f64(),
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
        let (min, max) = ty.int_range()?;
        (min..=max).contains(&v).then(|| Value::from_i128(ty, v))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::I8(v) => write!(f, "{v}i8"),
            Value::U8(v) => write!(f, "{v}u8"),
            Value::I16(v) => write!(f, "{v}i16"),
            Value::U16(v) => write!(f, "{v}u16"),
            Value::F16(v) => write!(f, "{v:?}h"),
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
            Value::I8(-128),
            Value::U8(255),
            Value::I16(-2),
            Value::U16(40000),
            Value::F16(F16::from_f32(-0.5)),
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

    #[test]
    fn narrow_integers_wrap_and_truncate_like_c() {
        // (unsigned char)(200 + 100) == 44, (short)40000 == -25536, (signed char)200 == -56.
        assert_eq!(Value::I32(300).cast(ScalarType::U8), Value::U8(44));
        assert_eq!(Value::I32(40000).cast(ScalarType::I16), Value::I16(-25536));
        assert_eq!(Value::U32(200).cast(ScalarType::I8), Value::I8(-56));
        assert_eq!(Value::I8(-1).cast(ScalarType::U32), Value::U32(u32::MAX));
        assert_eq!(Value::U8(255).cast(ScalarType::I32), Value::I32(255));
        assert_eq!(Value::I16(-2).cast(ScalarType::U16), Value::U16(65534));
        assert_eq!(Value::F32(-3.7).cast(ScalarType::I8), Value::I8(-3));
        assert_eq!(Value::F32(1e9).cast(ScalarType::U8), Value::U8(255));
        assert_eq!(Value::parse(ScalarType::U8, "256"), None);
        assert_eq!(Value::parse(ScalarType::I8, "-128"), Some(Value::I8(-128)));
        assert_eq!(Value::I8(-1).to_bits(), 0xff);
    }

    #[test]
    fn half_conversions_round_to_nearest_even() {
        assert_eq!(Value::F32(0.1).cast(ScalarType::F16).to_bits(), 0x2e66);
        assert_eq!(Value::I32(2049).cast(ScalarType::F16).as_f64(), 2048.0);
        assert_eq!(Value::I32(2051).cast(ScalarType::F16).as_f64(), 2052.0);
        assert_eq!(
            Value::I32(70000).cast(ScalarType::F16).as_f64(),
            f64::INFINITY
        );
        assert_eq!(
            Value::F16(F16::from_f32(2.5)).cast(ScalarType::I32),
            Value::I32(2)
        );
        assert_eq!(
            Value::parse(ScalarType::F16, "0.1"),
            Some(Value::F16(F16::from_bits(0x2e66)))
        );
    }

    #[test]
    fn new_types_serialise_readably() {
        for v in [
            Value::I8(-5),
            Value::U8(200),
            Value::I16(-300),
            Value::U16(65535),
            Value::F16(F16::from_f32(1.5)),
        ] {
            let text = serde_json::to_string(&v).expect("serialises");
            assert_eq!(
                serde_json::from_str::<Value>(&text).expect("parses"),
                v,
                "{text}"
            );
        }
        let text = serde_json::to_string(&Value::F16(F16::from_f32(1.5))).expect("serialises");
        assert_eq!(text, r#"{"type":"f16","value":1.5}"#);
    }
}
