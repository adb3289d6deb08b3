//! Plain-Rust reference implementations of the example kernels in `examples/kernels`.
//!
//! Each reference receives the kernel's arguments (scalars and the initial contents of every
//! buffer) in an [`Env`] and updates the writable buffers to what the kernel must leave there.
//! References state what a kernel computes, not how: sums are taken in `f64` in natural order,
//! and the comparison allows for the reordering a parallel kernel does.

pub mod gauss;
pub mod matrix;
pub mod reduce;
pub mod scan;
pub mod vector;

use std::collections::BTreeMap;

/// The contents of one buffer, typed by its element type.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// `float`
    F32(Vec<f32>),
    /// `double`
    F64(Vec<f64>),
    /// `int`
    I32(Vec<i32>),
    /// `unsigned int`
    U32(Vec<u32>),
    /// `long long`
    I64(Vec<i64>),
    /// `unsigned long long`
    U64(Vec<u64>),
}

impl Data {
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Data::F32(v) => v.len(),
            Data::F64(v) => v.len(),
            Data::I32(v) => v.len(),
            Data::U32(v) => v.len(),
            Data::I64(v) => v.len(),
            Data::U64(v) => v.len(),
        }
    }
}

/// A kernel's launch and arguments, by parameter name.
#[derive(Clone, Debug)]
pub struct Env {
    /// `blockDim`
    pub block: [u32; 3],
    /// `gridDim`
    pub grid: [u32; 3],
    /// Scalar arguments (every scalar the examples use is exact in `f64`).
    pub scalars: BTreeMap<String, f64>,
    /// Buffer arguments.
    pub buffers: BTreeMap<String, Data>,
}

/// A reference implementation: updates the writable buffers of `Env` in place.
pub type Reference = fn(&mut Env);

impl Env {
    fn scalar(&self, name: &str) -> f64 {
        *self
            .scalars
            .get(name)
            .unwrap_or_else(|| panic!("reference needs scalar argument `{name}`"))
    }

    /// An integer scalar argument.
    pub fn int(&self, name: &str) -> i64 {
        self.scalar(name) as i64
    }

    /// An integer scalar argument used as a size or index.
    pub fn usize(&self, name: &str) -> usize {
        let v = self.int(name);
        assert!(v >= 0, "`{name}` = {v} is negative");
        v as usize
    }

    /// A floating-point scalar argument.
    pub fn float(&self, name: &str) -> f32 {
        self.scalar(name) as f32
    }

    fn buffer(&self, name: &str) -> &Data {
        self.buffers
            .get(name)
            .unwrap_or_else(|| panic!("reference needs buffer `{name}`"))
    }

    fn buffer_mut(&mut self, name: &str) -> &mut Data {
        self.buffers
            .get_mut(name)
            .unwrap_or_else(|| panic!("reference needs buffer `{name}`"))
    }

    /// A `float` buffer.
    pub fn f32(&self, name: &str) -> &[f32] {
        match self.buffer(name) {
            Data::F32(v) => v,
            other => panic!("buffer `{name}` is not float: {other:?}"),
        }
    }

    /// A `float` buffer, for writing.
    pub fn f32_mut(&mut self, name: &str) -> &mut [f32] {
        match self.buffer_mut(name) {
            Data::F32(v) => v,
            _ => panic!("buffer `{name}` is not float"),
        }
    }

    /// An `unsigned int` buffer.
    pub fn u32(&self, name: &str) -> &[u32] {
        match self.buffer(name) {
            Data::U32(v) => v,
            other => panic!("buffer `{name}` is not unsigned int: {other:?}"),
        }
    }

    /// An `unsigned int` buffer, for writing.
    pub fn u32_mut(&mut self, name: &str) -> &mut [u32] {
        match self.buffer_mut(name) {
            Data::U32(v) => v,
            _ => panic!("buffer `{name}` is not unsigned int"),
        }
    }

    /// `blockDim.x`
    pub fn block_x(&self) -> usize {
        self.block[0] as usize
    }

    /// `gridDim.x`
    pub fn grid_x(&self) -> usize {
        self.grid[0] as usize
    }
}
