//! Scalar types of kernel values.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The type of every IR value: machine integers, IEEE floats and booleans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScalarType {
    /// Truth value (stored as one byte in memory).
    Bool,
    /// 8-bit signed integer (`signed char`; `char` is signed on our targets).
    I8,
    /// 8-bit unsigned integer (`unsigned char`).
    U8,
    /// 16-bit signed integer (`short`).
    I16,
    /// 16-bit unsigned integer (`unsigned short`).
    U16,
    /// 32-bit signed integer (`int`).
    I32,
    /// 32-bit unsigned integer (`unsigned int`).
    U32,
    /// 64-bit signed integer (`long long`).
    I64,
    /// 64-bit unsigned integer (`unsigned long long`, `size_t`).
    U64,
    /// IEEE binary16 (`__half`).
    F16,
    /// IEEE binary32 (`float`).
    F32,
    /// IEEE binary64 (`double`).
    F64,
}

impl ScalarType {
    /// Every scalar type, in declaration order.
    pub const ALL: [ScalarType; 12] = [
        ScalarType::Bool,
        ScalarType::I8,
        ScalarType::U8,
        ScalarType::I16,
        ScalarType::U16,
        ScalarType::I32,
        ScalarType::U32,
        ScalarType::I64,
        ScalarType::U64,
        ScalarType::F16,
        ScalarType::F32,
        ScalarType::F64,
    ];

    /// Size in bytes when stored in memory.
    pub fn size_bytes(self) -> u64 {
        match self {
            ScalarType::Bool | ScalarType::I8 | ScalarType::U8 => 1,
            ScalarType::I16 | ScalarType::U16 | ScalarType::F16 => 2,
            ScalarType::I32 | ScalarType::U32 | ScalarType::F32 => 4,
            ScalarType::I64 | ScalarType::U64 | ScalarType::F64 => 8,
        }
    }

    /// Width in bits of the value (1 for `bool`).
    pub fn bits(self) -> u32 {
        match self {
            ScalarType::Bool => 1,
            ScalarType::I8 | ScalarType::U8 => 8,
            ScalarType::I16 | ScalarType::U16 | ScalarType::F16 => 16,
            ScalarType::I32 | ScalarType::U32 | ScalarType::F32 => 32,
            ScalarType::I64 | ScalarType::U64 | ScalarType::F64 => 64,
        }
    }

    /// True for the eight integer types.
    pub fn is_int(self) -> bool {
        matches!(
            self,
            ScalarType::I8
                | ScalarType::U8
                | ScalarType::I16
                | ScalarType::U16
                | ScalarType::I32
                | ScalarType::U32
                | ScalarType::I64
                | ScalarType::U64
        )
    }

    /// True for the signed integers `i8`, `i16`, `i32` and `i64`.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            ScalarType::I8 | ScalarType::I16 | ScalarType::I32 | ScalarType::I64
        )
    }

    /// True for `f16`, `f32` and `f64`.
    pub fn is_float(self) -> bool {
        matches!(self, ScalarType::F16 | ScalarType::F32 | ScalarType::F64)
    }

    /// True for the integers narrower than `int` (`i8`, `u8`, `i16`, `u16`), which C promotes
    /// to `int` before any arithmetic.
    pub fn is_small_int(self) -> bool {
        self.is_int() && self.bits() < 32
    }

    /// The integer range of an integer type, as `(min, max)`; `None` for floats and `bool`.
    pub fn int_range(self) -> Option<(i128, i128)> {
        if !self.is_int() {
            return None;
        }
        let n = self.bits();
        Some(if self.is_signed() {
            (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)
        } else {
            (0, (1i128 << n) - 1)
        })
    }

    /// True for integers and floats (everything but `bool`).
    pub fn is_numeric(self) -> bool {
        self != ScalarType::Bool
    }

    /// The IR name: `i32`, `f32`, `bool`, ….
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::Bool => "bool",
            ScalarType::I8 => "i8",
            ScalarType::U8 => "u8",
            ScalarType::I16 => "i16",
            ScalarType::U16 => "u16",
            ScalarType::F16 => "f16",
            ScalarType::I32 => "i32",
            ScalarType::U32 => "u32",
            ScalarType::I64 => "i64",
            ScalarType::U64 => "u64",
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
        }
    }

    /// The CUDA C spelling: `int`, `unsigned char`, `__half`, `float`, ….
    pub fn c_name(self) -> &'static str {
        match self {
            ScalarType::Bool => "bool",
            ScalarType::I8 => "signed char",
            ScalarType::U8 => "unsigned char",
            ScalarType::I16 => "short",
            ScalarType::U16 => "unsigned short",
            ScalarType::F16 => "__half",
            ScalarType::I32 => "int",
            ScalarType::U32 => "unsigned int",
            ScalarType::I64 => "long long",
            ScalarType::U64 => "unsigned long long",
            ScalarType::F32 => "float",
            ScalarType::F64 => "double",
        }
    }

    /// Parses an IR name (`i32`, `f64`, …).
    pub fn from_name(name: &str) -> Option<ScalarType> {
        ScalarType::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_sizes_agree_with_bits() {
        for t in ScalarType::ALL {
            assert_eq!(ScalarType::from_name(t.name()), Some(t));
            if t != ScalarType::Bool {
                assert_eq!(t.size_bytes() * 8, t.bits() as u64, "{t}");
            }
            assert_eq!(
                t.is_int() as u8 + t.is_float() as u8 + (t == ScalarType::Bool) as u8,
                1
            );
        }
        assert_eq!(ScalarType::I8.int_range(), Some((-128, 127)));
        assert_eq!(ScalarType::U16.int_range(), Some((0, 65535)));
        assert!(ScalarType::U8.is_small_int() && !ScalarType::I32.is_small_int());
    }
}
