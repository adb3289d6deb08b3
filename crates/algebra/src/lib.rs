//! Symbolic terms over the reals and a decision procedure for their equality.
//!
//! Terms live in a hash-consed [`Store`] (exact `BigRational` constants; `+ − × ÷`, `exp`,
//! `log`, `sqrt`, `max`, `min`, `abs`, comparisons and select, machine-integer operations).
//! A [`Normalizer`] turns a term into a canonical quotient of polynomials over atoms, where
//! `exp(a)·exp(b) = exp(a + b)` and `max`/`min` are flattened sets; a [`Checker`] decides
//! equality: identical ids, a random point that may refute (exact rationals, or `f64` when
//! `exp` occurs), the normal forms that prove, and more random points.
//!
//! ```
//! use warpsafe_algebra::{check_equal, Store, Verdict};
//!
//! let mut s = Store::new();
//! let (x, y) = (s.symbol("x", None, false), s.symbol("y", None, false));
//! // (x + y)^2 = x^2 + 2xy + y^2
//! let sum = s.add(x, y);
//! let lhs = s.mul(sum, sum);
//! let (xx, yy, xy) = (s.mul(x, x), s.mul(y, y), s.mul(x, y));
//! let two = s.int(2);
//! let xy2 = s.mul(two, xy);
//! let rhs0 = s.add(xx, xy2);
//! let rhs = s.add(rhs0, yy);
//! assert_eq!(check_equal(&s, lhs, rhs), Verdict::Equal);
//! // but not x^2 + y^2
//! let wrong = s.add(xx, yy);
//! assert_eq!(check_equal(&s, lhs, wrong).name(), "different");
//! ```

mod decide;
mod eval;
mod fxhash;
mod modular;
mod normal;
mod poly;
mod print;
mod rat;
mod rebuild;
mod store;
mod term;

pub use decide::{check_equal, symbols, CheckOptions, Checker, SymValue, Verdict, Witness};
pub use eval::{Assignment, Evaluator, Exact, Narrow};
pub use fxhash::{FxHashMap, FxHasher};
pub use modular::{is_prime, log2_add, sizes, Field, PointEval, Size, Tester, NOT_POLY};
pub use normal::{Atom, Frac, Head, Interrupt, NormalError, Normalizer};
pub use poly::{AtomId, FracId, Mono, Poly, PolyId, Vars};
pub use rat::{rat_from_f64, rat_int, rat_text, rat_to_f64, rat_to_i128, wrap_int};
pub use store::{eval_int_op, ImportMemo, Store};
pub use term::{Cmp, ConstId, Func, Func2, IntOp, Kids, Node, SymId, SymInfo, TermId};

#[cfg(test)]
mod tests;
