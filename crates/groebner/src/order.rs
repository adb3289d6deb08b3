//! Monomial orders: graded reverse lexicographic and lexicographic.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// A monomial order on exponent vectors (variables ordered as declared, first is largest).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Order {
    /// Graded reverse lexicographic order (total degree, then smallest last exponent wins).
    #[default]
    Grevlex,
    /// Pure lexicographic order.
    Lex,
}

impl Order {
    /// The order's name as accepted by [`Order::from_str`].
    pub fn name(self) -> &'static str {
        match self {
            Order::Grevlex => "grevlex",
            Order::Lex => "lex",
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Order {
    type Err = String;

    fn from_str(s: &str) -> Result<Order, String> {
        match s {
            "grevlex" | "degrevlex" | "dp" => Ok(Order::Grevlex),
            "lex" | "plex" | "lp" => Ok(Order::Lex),
            _ => Err(format!(
                "unknown monomial order `{s}` (expected grevlex or lex)"
            )),
        }
    }
}

/// Compares two exponent vectors with total degrees `da` and `db` in `order`.
#[inline]
pub(crate) fn cmp_exps(order: Order, a: &[u16], da: u32, b: &[u16], db: u32) -> Ordering {
    match order {
        Order::Grevlex => {
            if da != db {
                return da.cmp(&db);
            }
            for k in (0..a.len()).rev() {
                if a[k] != b[k] {
                    return b[k].cmp(&a[k]);
                }
            }
            Ordering::Equal
        }
        Order::Lex => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(o: Order, a: &[u16], b: &[u16]) -> Ordering {
        let d = |e: &[u16]| e.iter().map(|&x| u32::from(x)).sum();
        cmp_exps(o, a, d(a), b, d(b))
    }

    #[test]
    fn grevlex_and_lex() {
        // x*z < y^2 in grevlex (x > y > z), x*z > y^2 in lex.
        assert_eq!(c(Order::Grevlex, &[1, 0, 1], &[0, 2, 0]), Ordering::Less);
        assert_eq!(c(Order::Lex, &[1, 0, 1], &[0, 2, 0]), Ordering::Greater);
        assert_eq!(c(Order::Grevlex, &[0, 0, 2], &[1, 1, 0]), Ordering::Less);
        assert_eq!(c(Order::Grevlex, &[2, 0, 0], &[1, 1, 0]), Ordering::Greater);
        assert_eq!("lex".parse::<Order>(), Ok(Order::Lex));
    }
}
