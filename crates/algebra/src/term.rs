//! What a term is: nodes of the hash-consed DAG over the reals and their operators.

use serde::Serialize;

/// A term in a [`Store`](crate::Store): an index into its node table. Equal ids mean equal
/// nodes (hash-consing), hence the same function of the inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct TermId(pub u32);

/// An input symbol of a [`Store`](crate::Store).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct SymId(pub u32);

/// The description of an input symbol: a scalar (`alpha`) or a buffer element (`x[3]`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SymInfo {
    /// Scalar or buffer name.
    pub name: String,
    /// Element index for buffer elements.
    pub index: Option<u64>,
    /// True when the symbol ranges over integers (integer buffers and parameters).
    pub integer: bool,
}

impl std::fmt::Display for SymInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.index {
            Some(i) => write!(f, "{}[{}]", self.name, i),
            None => f.write_str(&self.name),
        }
    }
}

/// Real functions of one argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Func {
    /// `e^x`
    Exp,
    /// natural logarithm
    Log,
    /// square root
    Sqrt,
    /// absolute value
    Abs,
    /// `2^x`
    Exp2,
    /// base-2 logarithm
    Log2,
    /// base-10 logarithm
    Log10,
    /// sine
    Sin,
    /// cosine
    Cos,
    /// tangent
    Tan,
    /// hyperbolic tangent
    Tanh,
    /// round down
    Floor,
    /// round up
    Ceil,
    /// round half away from zero
    Round,
    /// round toward zero
    Trunc,
    /// arc tangent
    Atan,
    /// arc sine
    Asin,
    /// arc cosine
    Acos,
    /// inverse hyperbolic sine
    Asinh,
    /// inverse hyperbolic cosine
    Acosh,
    /// inverse hyperbolic tangent
    Atanh,
    /// real cube root
    Cbrt,
    /// round to the nearest integer, ties to even
    Rint,
    /// error function
    Erf,
    /// complementary error function
    Erfc,
    /// `ln |Γ(x)|`
    Lgamma,
    /// `Γ(x)`
    Tgamma,
    /// `sin(πx)`
    SinPi,
    /// `cos(πx)`
    CosPi,
}

impl Func {
    /// The conventional name (`exp`, `log`, …).
    pub fn name(self) -> &'static str {
        match self {
            Func::Exp => "exp",
            Func::Log => "log",
            Func::Sqrt => "sqrt",
            Func::Abs => "abs",
            Func::Exp2 => "exp2",
            Func::Log2 => "log2",
            Func::Log10 => "log10",
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Tanh => "tanh",
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Round => "round",
            Func::Trunc => "trunc",
            Func::Atan => "atan",
            Func::Asin => "asin",
            Func::Acos => "acos",
            Func::Asinh => "asinh",
            Func::Acosh => "acosh",
            Func::Atanh => "atanh",
            Func::Cbrt => "cbrt",
            Func::Rint => "rint",
            Func::Erf => "erf",
            Func::Erfc => "erfc",
            Func::Lgamma => "lgamma",
            Func::Tgamma => "tgamma",
            Func::SinPi => "sinpi",
            Func::CosPi => "cospi",
        }
    }

    /// True when the function maps rationals to rationals (so exact evaluation works).
    pub fn is_rational(self) -> bool {
        matches!(
            self,
            Func::Abs | Func::Floor | Func::Ceil | Func::Round | Func::Trunc | Func::Rint
        )
    }

    /// Evaluates in `f64`.
    pub fn eval_f64(self, x: f64) -> f64 {
        match self {
            Func::Exp => x.exp(),
            Func::Log => x.ln(),
            Func::Sqrt => x.sqrt(),
            Func::Abs => x.abs(),
            Func::Exp2 => x.exp2(),
            Func::Log2 => x.log2(),
            Func::Log10 => x.log10(),
            Func::Sin => x.sin(),
            Func::Cos => x.cos(),
            Func::Tan => x.tan(),
            Func::Tanh => x.tanh(),
            Func::Floor => x.floor(),
            Func::Ceil => x.ceil(),
            Func::Round => x.round(),
            Func::Trunc => x.trunc(),
            Func::Atan => x.atan(),
            Func::Asin => x.asin(),
            Func::Acos => x.acos(),
            Func::Asinh => x.asinh(),
            Func::Acosh => x.acosh(),
            Func::Atanh => x.atanh(),
            Func::Cbrt => x.cbrt(),
            Func::Rint => x.round_ties_even(),
            Func::Erf => libm::erf(x),
            Func::Erfc => libm::erfc(x),
            Func::Lgamma => libm::lgamma(x),
            Func::Tgamma => libm::tgamma(x),
            Func::SinPi => (std::f64::consts::PI * (x % 2.0)).sin(),
            Func::CosPi => (std::f64::consts::PI * (x % 2.0)).cos(),
        }
    }
}

/// Real functions of two arguments, uninterpreted but for evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Func2 {
    /// `atan2(y, x)`: the angle of the point `(x, y)`.
    Atan2,
    /// `fmod(x, y) = x − trunc(x / y)·y`.
    Fmod,
    /// `remainder(x, y) = x − rint(x / y)·y`.
    Remainder,
    /// `|x|` with the sign of `y` (`y = 0` counts as positive).
    Copysign,
}

impl Func2 {
    /// The C name.
    pub fn name(self) -> &'static str {
        match self {
            Func2::Atan2 => "atan2",
            Func2::Fmod => "fmod",
            Func2::Remainder => "remainder",
            Func2::Copysign => "copysign",
        }
    }

    /// True when the function maps rationals to rationals (so exact evaluation works).
    pub fn is_rational(self) -> bool {
        self != Func2::Atan2
    }

    /// Evaluates in `f64`.
    pub fn eval_f64(self, x: f64, y: f64) -> f64 {
        match self {
            Func2::Atan2 => x.atan2(y),
            Func2::Fmod => x % y,
            Func2::Remainder => libm::remainder(x, y),
            // Over the reals there is no −0: a zero sign source is positive.
            Func2::Copysign if y == 0.0 => x.abs(),
            Func2::Copysign => x.copysign(y),
        }
    }
}

/// Comparisons; their terms are `1` when true and `0` when false.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Cmp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
}

impl Cmp {
    /// The C spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
        }
    }

    /// Decides the comparison from an ordering of the operands.
    pub fn holds(self, o: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            Cmp::Eq => o == Equal,
            Cmp::Ne => o != Equal,
            Cmp::Lt => o == Less,
            Cmp::Le => o != Greater,
        }
    }
}

/// Integer operations without a polynomial meaning (kept as uninterpreted atoms but
/// evaluated exactly); `bits`/`signed` give the machine type they wrap in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum IntOp {
    /// Truncating division.
    Div,
    /// Remainder with the sign of the dividend.
    Rem,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Left shift.
    Shl,
    /// Right shift (arithmetic for signed types).
    Shr,
    /// Reduction to the machine type (wrap-around), a unary use with `b == a`.
    Wrap,
}

/// Index of a rational constant in a [`Store`](crate::Store)'s constant table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct ConstId(pub u32);

/// The operands of a node (at most three), without allocating.
#[derive(Clone, Copy, Debug)]
pub struct Kids {
    ids: [TermId; 3],
    n: u8,
}

impl std::ops::Deref for Kids {
    type Target = [TermId];
    fn deref(&self) -> &[TermId] {
        &self.ids[..self.n as usize]
    }
}

/// One node of the term DAG. Operands are [`TermId`]s of the same store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// An exact rational constant (see [`Store::constant_value`](crate::Store::constant_value)).
    Const(ConstId),
    /// `+∞` (true) or `−∞` (false), as IEEE arithmetic produces them.
    Inf(bool),
    /// Not a number (a result with no real value, such as `∞ − ∞`).
    NaN,
    /// An input symbol.
    Sym(SymId),
    /// `a + b`
    Add(TermId, TermId),
    /// `a − b`
    Sub(TermId, TermId),
    /// `a · b`
    Mul(TermId, TermId),
    /// `a / b` over the reals.
    Div(TermId, TermId),
    /// `−a`
    Neg(TermId),
    /// `f(a)`
    Fn(Func, TermId),
    /// `g(a, b)`
    Fn2(Func2, TermId, TermId),
    /// `a^b`
    Pow(TermId, TermId),
    /// `max(a, b)`
    Max(TermId, TermId),
    /// `min(a, b)`
    Min(TermId, TermId),
    /// `a op b` as 0/1.
    Cmp(Cmp, TermId, TermId),
    /// Logical negation of a 0/1 term.
    Not(TermId),
    /// Logical and of 0/1 terms.
    And(TermId, TermId),
    /// Logical or of 0/1 terms.
    Or(TermId, TermId),
    /// `c ? a : b` with `c` a 0/1 term.
    Select(TermId, TermId, TermId),
    /// An integer operation of a machine type of `bits` bits.
    Int(IntOp, u8, bool, TermId, TermId),
    /// A value the program could not give meaning to (an uninitialised read, …), numbered.
    Opaque(u32),
}

impl Node {
    /// The operands, in order.
    pub fn children(&self) -> Kids {
        let z = TermId(0);
        let (ids, n) = match *self {
            Node::Const(_) | Node::Inf(_) | Node::NaN | Node::Sym(_) | Node::Opaque(_) => {
                ([z; 3], 0)
            }
            Node::Neg(a) | Node::Fn(_, a) | Node::Not(a) => ([a, z, z], 1),
            Node::Add(a, b)
            | Node::Sub(a, b)
            | Node::Mul(a, b)
            | Node::Div(a, b)
            | Node::Pow(a, b)
            | Node::Fn2(_, a, b)
            | Node::Max(a, b)
            | Node::Min(a, b)
            | Node::Cmp(_, a, b)
            | Node::And(a, b)
            | Node::Or(a, b)
            | Node::Int(_, _, _, a, b) => ([a, b, z], 2),
            Node::Select(c, a, b) => ([c, a, b], 3),
        };
        Kids { ids, n }
    }
}
