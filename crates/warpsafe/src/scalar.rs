//! The Rust types a kernel can compute with, and how they map to IR scalar types.

use warpsafe_ir::{ScalarType, Value};

mod sealed {
    pub trait Sealed {}
}

/// A kernel scalar type: `bool`, `i32`, `u32`, `i64`, `u64`, `f32` or `f64`.
pub trait Scalar:
    Copy + Default + PartialEq + PartialOrd + std::fmt::Debug + sealed::Sealed
{
    /// The IR type.
    const TYPE: ScalarType;
    /// The value as an IR constant.
    fn to_value(self) -> Value;
    /// The value from a register bit pattern (as buffers hold it).
    fn from_bits(bits: u64) -> Self;
}

/// An integer kernel type (`i32`, `u32`, `i64`, `u64`).
pub trait Int: Scalar {
    /// The value as a mathematical integer.
    fn to_i128(self) -> i128;
    /// The integer `v`, wrapping.
    fn from_i128(v: i128) -> Self;
}

/// A floating-point kernel type (`f32`, `f64`).
pub trait Float: Scalar {}

/// A numeric kernel type (every scalar but `bool`).
pub trait Number: Scalar {}

macro_rules! scalar {
    ($t:ty, $st:ident) => {
        impl sealed::Sealed for $t {}
        impl Scalar for $t {
            const TYPE: ScalarType = ScalarType::$st;
            fn to_value(self) -> Value {
                Value::$st(self)
            }
            fn from_bits(bits: u64) -> Self {
                match Value::from_bits(ScalarType::$st, bits) {
                    Value::$st(x) => x,
                    _ => Default::default(),
                }
            }
        }
    };
}

macro_rules! int {
    ($($t:ty => $st:ident),*) => {$(
        scalar!($t, $st);
        impl Number for $t {}
        impl Int for $t {
            fn to_i128(self) -> i128 {
                self as i128
            }
            fn from_i128(v: i128) -> Self {
                v as $t
            }
        }
    )*};
}

scalar!(bool, Bool);
int!(i32 => I32, u32 => U32, i64 => I64, u64 => U64);
scalar!(f32, F32);
scalar!(f64, F64);
impl Number for f32 {}
impl Number for f64 {}
impl Float for f32 {}
impl Float for f64 {}
