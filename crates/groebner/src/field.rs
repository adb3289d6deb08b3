//! Arithmetic in the prime field F_p for primes p < 2^31.

/// The prime field F_p; elements are `u32` residues in `[0, p)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Field {
    p: u32,
}

impl Field {
    /// The field with `p` elements; `p` must be a prime below 2^31 (checked by the callers).
    pub(crate) fn new(p: u32) -> Field {
        debug_assert!(is_prime(u64::from(p)) && p < (1 << 31));
        Field { p }
    }

    /// The characteristic.
    #[inline]
    pub(crate) fn p(self) -> u32 {
        self.p
    }

    #[inline]
    pub(crate) fn add(self, a: u32, b: u32) -> u32 {
        let s = a + b;
        if s >= self.p {
            s - self.p
        } else {
            s
        }
    }

    #[inline]
    pub(crate) fn neg(self, a: u32) -> u32 {
        if a == 0 {
            0
        } else {
            self.p - a
        }
    }

    #[inline]
    pub(crate) fn mul(self, a: u32, b: u32) -> u32 {
        ((u64::from(a) * u64::from(b)) % u64::from(self.p)) as u32
    }

    /// Reduces an arbitrary 64-bit value.
    #[inline]
    pub(crate) fn reduce(self, x: u64) -> u32 {
        (x % u64::from(self.p)) as u32
    }

    /// The residue of a signed integer.
    pub(crate) fn residue(self, x: i64) -> u32 {
        x.rem_euclid(i64::from(self.p)) as u32
    }

    /// The inverse of a nonzero element (extended Euclid); 0 maps to 0.
    pub(crate) fn inv(self, a: u32) -> u32 {
        let (mut r0, mut r1) = (i64::from(self.p), i64::from(a));
        let (mut t0, mut t1) = (0i64, 1i64);
        while r1 != 0 {
            let q = r0 / r1;
            (r0, r1) = (r1, r0 - q * r1);
            (t0, t1) = (t1, t0 - q * t1);
        }
        if r0 != 1 {
            return 0;
        }
        self.residue(t0)
    }
}

/// Deterministic primality test by trial division (inputs are below 2^32).
pub(crate) fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    let mut d = 2u64;
    while d * d <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_and_ops() {
        for p in [2u32, 3, 65521, 2147483647] {
            let f = Field::new(p);
            for a in [1u32, 2, p - 1, p / 2 + 1] {
                let a = a % p;
                if a == 0 {
                    continue;
                }
                assert_eq!(f.mul(a, f.inv(a)), 1, "p={p} a={a}");
                assert_eq!(f.add(a, f.neg(a)), 0);
            }
        }
        assert!(is_prime(65521) && is_prime(2147483647) && !is_prime(65535) && !is_prime(1));
    }
}
