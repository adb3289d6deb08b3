//! The interpreted operators the analyses share, and their SMT-LIB spelling.

use crate::Sort;

/// Interpreted operators. `Add`, `Sub`, `Mul` and `Neg` apply to integers, reals and
/// bit-vectors alike (the operands' sort picks `+` or `bvadd`); the others belong to one
/// theory each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Negation.
    Not,
    /// Conjunction (any number of operands).
    And,
    /// Disjunction (any number of operands).
    Or,
    /// `ite`.
    Ite,
    /// `=`.
    Eq,
    /// `+` / `bvadd`.
    Add,
    /// `-` / `bvsub`.
    Sub,
    /// `*` / `bvmul`.
    Mul,
    /// Unary `-` / `bvneg`.
    Neg,
    /// Integer `div` (Euclidean: the remainder is non-negative).
    Div,
    /// Integer `mod` (in `[0, |b|)`).
    Mod,
    /// Real division `/`.
    RDiv,
    /// `to_real`.
    ToReal,
    /// `to_int` (floor).
    ToInt,
    /// `<` on integers and reals.
    Lt,
    /// `<=` on integers and reals.
    Le,
    /// `bvudiv`.
    Udiv,
    /// `bvsdiv`.
    Sdiv,
    /// `bvurem`.
    Urem,
    /// `bvsrem`.
    Srem,
    /// `bvand`.
    BvAnd,
    /// `bvor`.
    BvOr,
    /// `bvxor`.
    BvXor,
    /// `bvnot`.
    BvNot,
    /// `bvshl`.
    Shl,
    /// `bvlshr`.
    Lshr,
    /// `bvashr`.
    Ashr,
    /// `bvult`.
    Ult,
    /// `bvule`.
    Ule,
    /// `bvslt`.
    Slt,
    /// `bvsle`.
    Sle,
    /// `(_ extract hi lo)`.
    Extract(u32, u32),
    /// `(_ zero_extend n)`.
    Zext(u32),
    /// `(_ sign_extend n)`.
    Sext(u32),
    /// Array read `select`.
    Select,
    /// Array write `store`.
    Store,
}

impl Op {
    /// The SMT-LIB spelling of the operator applied to operands of sort `arg`.
    pub fn smt_name(self, arg: Sort) -> String {
        let bv = matches!(arg, Sort::BitVec(_));
        let s = match self {
            Op::Not => "not",
            Op::And => "and",
            Op::Or => "or",
            Op::Ite => "ite",
            Op::Eq => "=",
            Op::Add if bv => "bvadd",
            Op::Add => "+",
            Op::Sub if bv => "bvsub",
            Op::Sub => "-",
            Op::Mul if bv => "bvmul",
            Op::Mul => "*",
            Op::Neg if bv => "bvneg",
            Op::Neg => "-",
            Op::Div => "div",
            Op::Mod => "mod",
            Op::RDiv => "/",
            Op::ToReal => "to_real",
            Op::ToInt => "to_int",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Udiv => "bvudiv",
            Op::Sdiv => "bvsdiv",
            Op::Urem => "bvurem",
            Op::Srem => "bvsrem",
            Op::BvAnd => "bvand",
            Op::BvOr => "bvor",
            Op::BvXor => "bvxor",
            Op::BvNot => "bvnot",
            Op::Shl => "bvshl",
            Op::Lshr => "bvlshr",
            Op::Ashr => "bvashr",
            Op::Ult => "bvult",
            Op::Ule => "bvule",
            Op::Slt => "bvslt",
            Op::Sle => "bvsle",
            Op::Extract(h, l) => return format!("(_ extract {h} {l})"),
            Op::Zext(n) => return format!("(_ zero_extend {n})"),
            Op::Sext(n) => return format!("(_ sign_extend {n})"),
            Op::Select => "select",
            Op::Store => "store",
        };
        s.to_string()
    }

    /// True for the comparisons (boolean result from non-boolean operands).
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            Op::Eq | Op::Lt | Op::Le | Op::Ult | Op::Ule | Op::Slt | Op::Sle
        )
    }
}
