//! warpsafe's one index-term language: the integer, real and bit-vector arithmetic that the
//! analyses (`verify`, `functional`, `induct`, `perm`) reason about, as sorted, `Arc`-shared
//! terms. Every constructor folds constants and applies the identities the analyses rely on,
//! so [`Term::app`] is the one simplifier; [`Term::smt`] / [`Term::smt_shared`] /
//! [`Term::write_named`] the one printer to SMT-LIB; [`Term::eval`] the reference semantics;
//! [`Term::signed_overflow`] / [`Term::unsigned_wrap`] say when machine arithmetic wraps.
//! Each analysis keeps only its own symbol payload (the `S` in [`Term<S>`], see [`Symbol`]);
//! [`Var`] is the plain one.
//!
//! ```
//! use warpsafe_terms::{Sort, Term, Value};
//! let x = Term::var("x", Sort::BitVec(32));
//! let four = Term::bv(32, 2).add(&Term::bv(32, 2));
//! let t = x.mul(&Term::bv(32, 1)).add(&four);
//! assert_eq!(t.smt(), "(bvadd x (_ bv4 32))");
//! let v = t.eval(&|_| Some(Value::Bv(32, u32::MAX as u128)));
//! assert_eq!(v, Some(Value::Bv(32, 3)));
//! ```

mod build;
mod eval;
mod fold;
mod op;
mod overflow;
mod print;
mod sort;
mod term;
mod walk;

pub use eval::Value;
pub use fold::{mask, to_signed};
pub use op::Op;
pub use sort::{Elem, Sort};
pub use term::{Node, Symbol, Term, Var};
