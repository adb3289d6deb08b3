//! Scalar types of kernel values.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The type of every IR value: machine integers, IEEE floats and booleans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScalarType {
    /// Truth value (stored as one byte in memory).
    Bool,
    /// 32-bit signed integer (`int`).
    I32,
    /// 32-bit unsigned integer (`unsigned int`).
    U32,
    /// 64-bit signed integer (`long long`).
    I64,
    /// 64-bit unsigned integer (`unsigned long long`, `size_t`).
    U64,
    /// IEEE binary32 (`float`).
    F32,
    /// IEEE binary64 (`double`).
    F64,
}

impl ScalarType {
    /// Every scalar type, in declaration order.
    pub const ALL: [ScalarType; 7] = [
        ScalarType::Bool,
        ScalarType::I32,
        ScalarType::U32,
        ScalarType::I64,
        ScalarType::U64,
        ScalarType::F32,
        ScalarType::F64,
    ];

    /// Size in bytes when stored in memory.
    pub fn size_bytes(self) -> u64 {
        match self {
            ScalarType::Bool => 1,
            ScalarType::I32 | ScalarType::U32 | ScalarType::F32 => 4,
            ScalarType::I64 | ScalarType::U64 | ScalarType::F64 => 8,
        }
    }

    /// Width in bits of the value (1 for `bool`).
    pub fn bits(self) -> u32 {
        match self {
            ScalarType::Bool => 1,
            ScalarType::I32 | ScalarType::U32 | ScalarType::F32 => 32,
            ScalarType::I64 | ScalarType::U64 | ScalarType::F64 => 64,
        }
    }

    /// True for the four integer types.
    pub fn is_int(self) -> bool {
        matches!(
            self,
            ScalarType::I32 | ScalarType::U32 | ScalarType::I64 | ScalarType::U64
        )
    }

    /// True for `i32` and `i64`.
    pub fn is_signed(self) -> bool {
        matches!(self, ScalarType::I32 | ScalarType::I64)
    }

    /// True for `f32` and `f64`.
    pub fn is_float(self) -> bool {
        matches!(self, ScalarType::F32 | ScalarType::F64)
    }

    /// True for integers and floats (everything but `bool`).
    pub fn is_numeric(self) -> bool {
        self != ScalarType::Bool
    }

    /// The IR name: `i32`, `f32`, `bool`, ….
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::Bool => "bool",
            ScalarType::I32 => "i32",
            ScalarType::U32 => "u32",
            ScalarType::I64 => "i64",
            ScalarType::U64 => "u64",
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
        }
    }

    /// The CUDA C spelling: `int`, `unsigned int`, `float`, ….
    pub fn c_name(self) -> &'static str {
        match self {
            ScalarType::Bool => "bool",
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
