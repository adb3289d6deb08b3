//! Sorts: booleans, mathematical integers and reals, bit-vectors, and integer-indexed arrays.

use std::fmt;

/// The sort of a term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    /// `Bool`.
    Bool,
    /// Mathematical integers.
    Int,
    /// Real numbers (floats, as fast-math compilers assume).
    Real,
    /// `(_ BitVec w)`.
    BitVec(u32),
    /// `(Array Int e)`: memory contents, indexed by integers.
    Array(Elem),
}

/// The element sort of an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Elem {
    /// Booleans.
    Bool,
    /// Integers.
    Int,
    /// Reals.
    Real,
}

impl Sort {
    /// The bit width (1 for `Bool`, 0 for the unbounded sorts).
    pub fn width(self) -> u32 {
        match self {
            Sort::Bool => 1,
            Sort::BitVec(w) => w,
            _ => 0,
        }
    }

    /// True for the sorts arithmetic applies to: integers, reals, bit-vectors.
    pub fn is_numeric(self) -> bool {
        matches!(self, Sort::Int | Sort::Real | Sort::BitVec(_))
    }

    /// The array of elements of sort `e` (`None` when `e` cannot be an element).
    pub fn array_of(e: Sort) -> Option<Sort> {
        Some(Sort::Array(match e {
            Sort::Bool => Elem::Bool,
            Sort::Int => Elem::Int,
            Sort::Real => Elem::Real,
            _ => return None,
        }))
    }

    /// The element sort of an array sort.
    pub fn elem(self) -> Option<Sort> {
        match self {
            Sort::Array(Elem::Bool) => Some(Sort::Bool),
            Sort::Array(Elem::Int) => Some(Sort::Int),
            Sort::Array(Elem::Real) => Some(Sort::Real),
            _ => None,
        }
    }
}

/// The SMT-LIB spelling.
impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("Bool"),
            Sort::Int => f.write_str("Int"),
            Sort::Real => f.write_str("Real"),
            Sort::BitVec(w) => write!(f, "(_ BitVec {w})"),
            Sort::Array(_) => write!(f, "(Array Int {})", self.elem().unwrap_or(Sort::Int)),
        }
    }
}
