//! Division by a constant as compilers emit it, decided exactly: when does
//! `floor(x·m / 2^s)` (unsigned) or `floor(x·m / 2^s) + [x·m < 0]` (signed, truncating) equal
//! `x / d` for *every* value `x` of an `n`-bit type? The lowering rewrites a magic-number
//! sequence into a division only when these functions find the divisor.
//!
//! The unsigned test is exact. Write `d = ⌈2^s / m⌉` (the only candidate whose error
//! `e = m·d − 2^s` is not negative) and `x = q·d + r`; then
//! `x·m / 2^s = q + (r·2^s + x·e) / (d·2^s)`, so the quotient is right exactly when
//! `r·2^s + x·e < d·2^s`. Over `0 ≤ x ≤ X` the left side is largest either at `x = X` or at
//! the largest `x ≡ d − 1 (mod d)` (within each run of residues it grows with `r` and with
//! `q`), so two exact big-integer comparisons decide all `2^n` inputs (Granlund and
//! Montgomery, "Division by invariant integers using multiplication", 1994, §4).

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Zero};

/// The divisor `d ≥ 2` such that `floor(x·m / 2^s) == floor(x / d)` for every
/// `0 ≤ x ≤ max`, or `None` when there is none.
pub(crate) fn unsigned_divisor(m: &BigUint, s: u32, max: &BigUint) -> Option<BigUint> {
    if m.is_zero() {
        return None;
    }
    let p = BigUint::one() << s;
    let d = p.div_ceil(m);
    if d < BigUint::from(2u8) {
        return None;
    }
    let e = m * &d - &p;
    holds_below(&d, &e, &p, max, &BigUint::zero()).then_some(d)
}

/// `r·p + x·e < d·p + slack` for every `0 ≤ x ≤ max`, `r = x mod d` (checked at the two
/// extreme points).
fn holds_below(d: &BigUint, e: &BigUint, p: &BigUint, max: &BigUint, slack: &BigUint) -> bool {
    let (q, r) = max.div_rem(d);
    let bound = d * p + slack;
    if &r * p + max * e >= bound {
        return false;
    }
    let last = d - 1u8;
    if r < last && !q.is_zero() {
        // The largest x with residue d − 1.
        let x = max - &r - 1u8;
        if &last * p + x * e >= bound {
            return false;
        }
    }
    true
}

/// The divisor `d` (`|d| ≥ 2`, fitting an `n`-bit signed type) such that
/// `floor(x·m / 2^s) + [x·m < 0] == x / d` (C's truncating division) for every `n`-bit
/// signed `x`, or `None` when this sufficient test does not establish one.
///
/// With `a = |m|`, `d' = ⌈2^s / a⌉` and `e = a·d' − 2^s`: for `x·m ≥ 0` the unsigned condition
/// on `|x|` gives the quotient; for `x·m < 0`, `y = |x|`, the result is
/// `−(⌈y·a / 2^s⌉ − 1) = −⌊(y·a − 1) / 2^s⌋`, which equals `−⌊y / d'⌋` when
/// `0 ≤ r·2^s + y·e − d' < d'·2^s` (`r = y mod d'`): the upper bound is the unsigned one with
/// slack `d'`, the lower one holds when `e ≥ 1` (multiples of `d'`) and `d' ≤ 2^s` (other
/// residues). `|x|` reaches `2^(n−1)` only on the side where `x` is negative.
pub(crate) fn signed_divisor(m: &BigInt, s: u32, n: u32) -> Option<BigInt> {
    let (sign, a) = (m.sign(), m.magnitude());
    if sign == Sign::NoSign || n == 0 {
        return None;
    }
    let p = BigUint::one() << s;
    let d = p.div_ceil(a);
    let half = BigUint::one() << (n - 1);
    if d < BigUint::from(2u8) || d >= half || d > p {
        return None;
    }
    let e = a * &d - &p;
    let below = &half - 1u8;
    // The largest |x| with x·m ≥ 0 and with x·m < 0.
    let (same, opposite) = if sign == Sign::Plus {
        (&below, &half)
    } else {
        (&half, &below)
    };
    if e.is_zero()
        || !holds_below(&d, &e, &p, same, &BigUint::zero())
        || !holds_below(&d, &e, &p, opposite, &d)
    {
        return None;
    }
    Some(BigInt::from_biguint(sign, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(v: u128) -> BigUint {
        BigUint::from(v)
    }

    /// Every `n`-bit input, by brute force.
    fn unsigned_exhaustive(m: u64, s: u32, n: u32, d: u64) -> bool {
        (0..1u64 << n).all(|x| ((x as u128 * m as u128) >> s) as u64 == x / d)
    }

    fn signed_exhaustive(m: i64, s: u32, n: u32, d: i64) -> bool {
        let lo = -(1i64 << (n - 1));
        (lo..-lo).all(|x| {
            let p = x as i128 * m as i128;
            let q = (p >> s) as i64 + i64::from(p < 0);
            q == x / d
        })
    }

    #[test]
    fn unsigned_test_is_exact_on_every_8_bit_magic() {
        // For every multiplier and shift of an 8-bit division, the test accepts exactly the
        // (m, s) whose quotient brute force confirms for all 256 inputs.
        let max = big(255);
        let mut accepted = 0;
        for s in 0..=17u32 {
            for m in 1..(1u64 << 10) {
                let got = unsigned_divisor(&big(m as u128), s, &max);
                let d = (1u64 << s).div_ceil(m);
                let truth = d >= 2 && unsigned_exhaustive(m, s, 8, d);
                assert_eq!(got.is_some(), truth, "m={m} s={s}");
                if let Some(d_got) = got {
                    assert_eq!(d_got, big(d as u128));
                    accepted += 1;
                }
            }
        }
        assert!(accepted > 100);
    }

    #[test]
    fn signed_test_is_exact_on_every_8_bit_magic() {
        let mut accepted = 0;
        for s in 0..=16u32 {
            for m in -(1i64 << 9)..(1i64 << 9) {
                let got = signed_divisor(&BigInt::from(m), s, 8);
                let d = if m == 0 {
                    0
                } else {
                    ((1i64 << s) + m.abs() - 1) / m.abs() * m.signum()
                };
                let truth = (2..128).contains(&d.abs()) && signed_exhaustive(m, s, 8, d);
                assert_eq!(got.is_some(), truth, "m={m} s={s} d={d}");
                if let Some(d_got) = got {
                    assert_eq!(d_got, BigInt::from(d));
                    accepted += 1;
                }
            }
        }
        assert!(accepted > 100);
    }

    #[test]
    fn nvrtc_magics_are_proved() {
        let u64max = big(u64::MAX as u128);
        let u32max = big(u32::MAX as u128);
        // x % 65521 on u64 (add-indicator form): m = 2^64 + M, s = 64 + 1 + 15.
        let m = (BigUint::one() << 64u32) + big(4223091239536077);
        assert_eq!(unsigned_divisor(&m, 80, &u64max), Some(big(65521)));
        // x / 10 on u64: mul.hi by 0xCCCC…CCCD, shr 3.
        assert_eq!(
            unsigned_divisor(&big(0xCCCC_CCCC_CCCC_CCCD), 67, &u64max),
            Some(big(10))
        );
        // x / 7 on u32 (add-indicator form): m = 2^32 + 613566757, s = 32 + 1 + 2.
        assert_eq!(
            unsigned_divisor(&big((1 << 32) + 613566757), 35, &u32max),
            Some(big(7))
        );
        // x / 7 on i32: mul.hi.s32 by -1840700269, add x, shr.s 2, add the sign bit.
        let m = BigInt::from(-1840700269i64 + (1i64 << 32));
        assert_eq!(signed_divisor(&m, 34, 32), Some(BigInt::from(7)));
        // x / 3 on i32: no shift, the sign bit of the high half added.
        assert_eq!(
            signed_divisor(&BigInt::from(1431655766), 32, 32),
            Some(BigInt::from(3))
        );
        // x / -5 on i32.
        assert_eq!(
            signed_divisor(&BigInt::from(-1717986919i64), 33, 32),
            Some(BigInt::from(-5))
        );
    }

    #[test]
    fn wrong_magics_are_rejected() {
        let u64max = big(u64::MAX as u128);
        let u32max = big(u32::MAX as u128);
        // The add-indicator magic for 65521 used without the indicator.
        assert_eq!(unsigned_divisor(&big(4223091239536077), 79, &u64max), None);
        // Off by one in the last digit.
        let m = (BigUint::one() << 64u32) + big(4223091239536076);
        assert_eq!(unsigned_divisor(&m, 80, &u64max), None);
        // The 32-bit magic for 7 without the indicator is right for small x only.
        assert_eq!(unsigned_divisor(&big(613566757), 32, &u32max), None);
        assert_eq!(
            unsigned_divisor(&big(613566757), 32, &big(1000)),
            Some(big(7))
        );
        // A signed magic one too small.
        let m = BigInt::from(-1840700270i64 + (1i64 << 32));
        assert_eq!(signed_divisor(&m, 34, 32), None);
    }
}
