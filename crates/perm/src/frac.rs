//! Exact permission amounts: non-negative fractions, plus the symbolic `read` share.

use std::fmt;

/// An exact non-negative fraction `num/den` in lowest terms (`den > 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frac {
    num: i64,
    den: i64,
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

impl Frac {
    /// No permission.
    pub const ZERO: Frac = Frac { num: 0, den: 1 };
    /// Full (write) permission.
    pub const ONE: Frac = Frac { num: 1, den: 1 };

    /// `num/den` in lowest terms; `None` when `den` is zero or the value is negative.
    pub fn new(num: i64, den: i64) -> Option<Frac> {
        if den == 0 || (num < 0) != (den < 0) && num != 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        let (num, den) = (num.abs() / g, den.abs() / g);
        Some(Frac { num, den })
    }

    /// The numerator.
    pub fn num(self) -> i64 {
        self.num
    }

    /// The denominator.
    pub fn den(self) -> i64 {
        self.den
    }

    /// The sum, or `None` on arithmetic overflow.
    pub fn checked_add(self, other: Frac) -> Option<Frac> {
        let num = self
            .num
            .checked_mul(other.den)?
            .checked_add(other.num.checked_mul(self.den)?)?;
        Frac::new(num, self.den.checked_mul(other.den)?)
    }

    /// `self` split into `parts` equal shares, or `None` when `parts` is zero.
    pub fn split(self, parts: u32) -> Option<Frac> {
        Frac::new(self.num, self.den.checked_mul(i64::from(parts))?)
    }

    /// True when this amount allows writing (exactly the whole location).
    pub fn is_write(self) -> bool {
        self == Frac::ONE
    }

    /// True when the amount is a valid permission (at most 1).
    pub fn is_valid(self) -> bool {
        self.num <= self.den
    }

    /// True when the amount is positive (allows reading).
    pub fn is_positive(self) -> bool {
        self.num > 0
    }

    /// The SMT-LIB real literal.
    pub fn smt(self) -> String {
        format!("(/ {}.0 {}.0)", self.num, self.den)
    }
}

impl PartialOrd for Frac {
    fn partial_cmp(&self, other: &Frac) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Frac {
    fn cmp(&self, other: &Frac) -> std::cmp::Ordering {
        (i128::from(self.num) * i128::from(other.den))
            .cmp(&(i128::from(other.num) * i128::from(self.den)))
    }
}

impl fmt::Display for Frac {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

/// The amount a permission clause grants: an exact fraction, or `read` (some positive
/// fraction small enough to coexist with every other reader).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Share {
    /// An exact fraction.
    Exact(Frac),
    /// Some positive fraction, chosen small enough.
    Read,
}

impl fmt::Display for Share {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Share::Exact(q) => q.fmt(f),
            Share::Read => f.write_str("read"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Frac {
        Frac::new(n, d).expect("valid fraction")
    }

    #[test]
    fn fractions_add_and_normalise() {
        assert_eq!(q(1, 2).checked_add(q(1, 2)), Some(Frac::ONE));
        assert_eq!(q(1, 3).checked_add(q(1, 6)), Some(q(1, 2)));
        assert_eq!(q(2, 4), q(1, 2));
        assert_eq!(q(3, 4).to_string(), "3/4");
    }

    #[test]
    fn fractions_split_and_compare() {
        assert_eq!(Frac::ONE.split(2), Some(q(1, 2)));
        assert_eq!(q(1, 2).split(2), Some(q(1, 4)));
        assert_eq!(Frac::ONE.split(0), None);
        assert!(q(1, 3) < q(1, 2));
        assert!(q(2, 3).checked_add(q(1, 2)).is_some_and(|s| !s.is_valid()));
        assert!(q(1, 2)
            .checked_add(q(1, 2))
            .is_some_and(|s| s.is_valid() && s.is_write()));
    }

    #[test]
    fn invalid_fractions_are_rejected() {
        assert_eq!(Frac::new(1, 0), None);
        assert_eq!(Frac::new(-1, 2), None);
        assert!(!q(3, 2).is_valid());
        assert!(!Frac::ZERO.is_positive());
    }
}
