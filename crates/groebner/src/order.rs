//! Monomial orders: graded reverse lexicographic, lexicographic, and block (elimination)
//! orders of two grevlex blocks.

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
    /// Elimination order of two blocks: the first `k` variables, compared by grevlex, outweigh
    /// the others (compared by grevlex when the first block ties). A Gröbner basis for it
    /// contains one of the ideal's intersection with the ring of the other variables.
    Block(u16),
}

impl Order {
    /// The order's family name: `grevlex`, `lex` or `block`.
    pub fn name(self) -> &'static str {
        match self {
            Order::Grevlex => "grevlex",
            Order::Lex => "lex",
            Order::Block(_) => "block",
        }
    }
}

/// The order as [`Order::from_str`] accepts it (`block:K` for a block order).
impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Block(k) => write!(f, "block:{k}"),
            o => f.write_str(o.name()),
        }
    }
}

impl FromStr for Order {
    type Err = String;

    fn from_str(s: &str) -> Result<Order, String> {
        match s {
            "grevlex" | "degrevlex" | "dp" => Ok(Order::Grevlex),
            "lex" | "plex" | "lp" => Ok(Order::Lex),
            _ => match s.strip_prefix("block:").map(str::parse::<u16>) {
                Some(Ok(k)) if k >= 1 => Ok(Order::Block(k)),
                _ => Err(format!(
                    "unknown monomial order `{s}` (expected grevlex, lex or block:K with K >= 1)"
                )),
            },
        }
    }
}

/// Compares two exponent vectors with total degrees `da` and `db` in `order`.
#[inline]
pub(crate) fn cmp_exps(order: Order, a: &[u16], da: u32, b: &[u16], db: u32) -> Ordering {
    match order {
        Order::Grevlex => grevlex(a, da, b, db),
        Order::Lex => a.cmp(b),
        Order::Block(k) => {
            let k = usize::from(k).min(a.len());
            let ((a1, a2), (b1, b2)) = (a.split_at(k), b.split_at(k));
            let deg = |e: &[u16]| e.iter().map(|&x| u32::from(x)).sum::<u32>();
            let (da1, db1) = (deg(a1), deg(b1));
            grevlex(a1, da1, b1, db1).then_with(|| grevlex(a2, da - da1, b2, db - db1))
        }
    }
}

/// Grevlex on exponent vectors of total degrees `da` and `db`.
#[inline]
fn grevlex(a: &[u16], da: u32, b: &[u16], db: u32) -> Ordering {
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

    #[test]
    fn block_order_eliminates_the_first_block() {
        let b = Order::Block(1);
        // x outweighs any power of y and z; within a block, grevlex.
        assert_eq!(c(b, &[1, 0, 0], &[0, 5, 5]), Ordering::Greater);
        assert_eq!(c(b, &[1, 0, 1], &[1, 2, 0]), Ordering::Less);
        assert_eq!(c(b, &[0, 1, 1], &[0, 2, 0]), Ordering::Less);
        assert_eq!(c(b, &[2, 1, 0], &[2, 1, 0]), Ordering::Equal);
        // Block(n) is grevlex.
        let (u, v) = (&[1, 0, 1][..], &[0, 2, 0][..]);
        assert_eq!(c(Order::Block(3), u, v), c(Order::Grevlex, u, v));
        assert_eq!("block:2".parse::<Order>(), Ok(Order::Block(2)));
        assert_eq!(Order::Block(2).to_string(), "block:2");
        assert!("block:0".parse::<Order>().is_err());
        assert!("block:x".parse::<Order>().is_err());
    }
}
