//! What a launch is given: grid and block dimensions, arguments and buffers.

use crate::ExecError;
use serde::Serialize;
use warpsafe_ir::{Kernel, ParamKind, ScalarType, Value};

/// Grid and block dimensions and the dynamic shared memory of a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LaunchConfig {
    /// Blocks per grid in x, y, z.
    pub grid: [u32; 3],
    /// Threads per block in x, y, z.
    pub block: [u32; 3],
    /// Bytes of `extern __shared__` memory per block.
    pub dynamic_shared_bytes: u64,
}

impl LaunchConfig {
    /// A 1-D launch of `grid` blocks of `block` threads.
    pub fn linear(grid: u32, block: u32) -> LaunchConfig {
        LaunchConfig {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
            dynamic_shared_bytes: 0,
        }
    }

    /// Threads per block.
    pub fn threads_per_block(&self) -> u64 {
        self.block.iter().map(|&d| d as u64).product()
    }

    /// Blocks in the grid.
    pub fn num_blocks(&self) -> u64 {
        self.grid.iter().map(|&d| d as u64).product()
    }

    /// Checks the limits CUDA imposes (compute capability 7.0 and later).
    pub fn validate(&self) -> Result<(), ExecError> {
        let bad = |m: String| Err(ExecError::InvalidLaunch(m));
        if self.grid.contains(&0) || self.block.contains(&0) {
            return bad(format!(
                "dimensions must be at least 1 (grid {:?}, block {:?})",
                self.grid, self.block
            ));
        }
        let [bx, by, bz] = self.block;
        if bx > 1024 || by > 1024 || bz > 64 {
            return bad(format!(
                "block {:?} exceeds the per-dimension limits [1024, 1024, 64]",
                self.block
            ));
        }
        if self.threads_per_block() > 1024 {
            return bad(format!(
                "block {:?} has {} threads; the limit is 1024",
                self.block,
                self.threads_per_block()
            ));
        }
        let [gx, gy, gz] = self.grid;
        if gx > i32::MAX as u32 || gy > 65535 || gz > 65535 {
            return bad(format!(
                "grid {:?} exceeds the limits [2^31-1, 65535, 65535]",
                self.grid
            ));
        }
        if self.dynamic_shared_bytes > 1 << 24 {
            return bad(format!(
                "{} bytes of dynamic shared memory is more than any GPU has",
                self.dynamic_shared_bytes
            ));
        }
        Ok(())
    }
}

/// A global buffer: element type and one raw bit pattern per element (as registers hold them).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Buffer {
    /// Element type.
    pub elem: ScalarType,
    /// Raw bits per element, zero-extended to 64 bits.
    pub data: Vec<u64>,
}

macro_rules! buffer_conv {
    ($from:ident, $to:ident, $t:ty, $st:ident, $v:ident) => {
        #[doc = concat!("A `", stringify!($t), "` buffer holding `values`.")]
        pub fn $from(values: &[$t]) -> Buffer {
            Buffer {
                elem: ScalarType::$st,
                data: values.iter().map(|&x| Value::$v(x).to_bits()).collect(),
            }
        }

        #[doc = concat!("The elements read as `", stringify!($t), "` (bits reinterpreted, whatever the element type).")]
        pub fn $to(&self) -> Vec<$t> {
            self.data
                .iter()
                .map(|&b| match Value::from_bits(ScalarType::$st, b) {
                    Value::$v(x) => x,
                    _ => Default::default(),
                })
                .collect()
        }
    };
}

impl Buffer {
    buffer_conv!(from_f32, to_f32, f32, F32, F32);
    buffer_conv!(from_f64, to_f64, f64, F64, F64);
    buffer_conv!(from_i32, to_i32, i32, I32, I32);
    buffer_conv!(from_u32, to_u32, u32, U32, U32);
    buffer_conv!(from_i64, to_i64, i64, I64, I64);
    buffer_conv!(from_u64, to_u64, u64, U64, U64);
    buffer_conv!(from_i8, to_i8, i8, I8, I8);
    buffer_conv!(from_u8, to_u8, u8, U8, U8);
    buffer_conv!(from_i16, to_i16, i16, I16, I16);
    buffer_conv!(from_u16, to_u16, u16, U16, U16);
    buffer_conv!(from_f16, to_f16, warpsafe_ir::F16, F16, F16);

    /// `n` zero elements of type `elem`.
    pub fn zeros(elem: ScalarType, n: usize) -> Buffer {
        Buffer {
            elem,
            data: vec![0; n],
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// True when the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Element `i` as a typed value (zero of the type when out of range).
    pub fn get(&self, i: usize) -> Value {
        Value::from_bits(self.elem, self.data.get(i).copied().unwrap_or(0))
    }
}

/// A launch argument: a scalar value or a global buffer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Arg {
    /// A scalar passed by value.
    Scalar(Value),
    /// A global buffer (returned, possibly modified, in [`Outcome::args`](crate::Outcome::args)).
    Buffer(Buffer),
}

/// Checks that `args` match the kernel's parameters one for one.
pub(crate) fn check_args(kernel: &Kernel, args: &[Arg]) -> Result<(), ExecError> {
    if args.len() != kernel.params.len() {
        return Err(ExecError::ArgCount {
            kernel: kernel.name.clone(),
            expected: kernel.params.len(),
            found: args.len(),
        });
    }
    for (p, a) in kernel.params.iter().zip(args) {
        let mismatch = |expected: String, found: String| ExecError::ArgType {
            param: p.name.clone(),
            expected,
            found,
        };
        match (p.kind, a) {
            (ParamKind::Scalar(t), Arg::Scalar(v)) if v.ty() == t => {}
            (ParamKind::Scalar(t), Arg::Scalar(v)) => {
                return Err(mismatch(
                    format!("a {t} scalar"),
                    format!("a {} scalar", v.ty()),
                ))
            }
            (ParamKind::Scalar(t), Arg::Buffer(b)) => {
                return Err(mismatch(
                    format!("a {t} scalar"),
                    format!("a {} buffer", b.elem),
                ))
            }
            (ParamKind::Buffer { elem, .. }, Arg::Buffer(b)) if b.elem == elem => {}
            (ParamKind::Buffer { elem, .. }, Arg::Buffer(b)) => {
                return Err(mismatch(
                    format!("a {elem} buffer"),
                    format!("a {} buffer", b.elem),
                ))
            }
            (ParamKind::Buffer { elem, .. }, Arg::Scalar(v)) => {
                return Err(mismatch(
                    format!("a {elem} buffer"),
                    format!("a {} scalar", v.ty()),
                ))
            }
        }
    }
    Ok(())
}
