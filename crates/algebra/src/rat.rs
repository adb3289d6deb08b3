//! Exact rational helpers: conversions between machine floats and `BigRational`.

use crate::term::Func2;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The exact value of a finite float (`None` for infinities and NaN).
pub fn rat_from_f64(v: f64) -> Option<BigRational> {
    BigRational::from_float(v)
}

/// The nearest `f64` (infinite when out of range).
pub fn rat_to_f64(q: &BigRational) -> f64 {
    q.to_f64().unwrap_or_else(|| {
        if q.is_zero() {
            0.0
        } else if q > &BigRational::zero() {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        }
    })
}

/// The rational `n`.
pub fn rat_int(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

/// The integer value of `q` when it is an integer that fits an `i128`.
pub fn rat_to_i128(q: &BigRational) -> Option<i128> {
    if q.is_integer() {
        q.to_integer().to_i128()
    } else {
        None
    }
}

/// The integer nearest `q`, ties to even (C's `rint` in the default rounding mode).
pub fn rat_rint(q: &BigRational) -> BigRational {
    let f = q.floor();
    let half = BigRational::new(1.into(), 2.into());
    let up = f.clone() + BigRational::one();
    match (q - &f).cmp(&half) {
        std::cmp::Ordering::Less => f,
        std::cmp::Ordering::Greater => up,
        std::cmp::Ordering::Equal if f.to_integer().is_even() => f,
        std::cmp::Ordering::Equal => up,
    }
}

/// `g(x, y)` for a rational two-argument function, exactly (`None` when undefined: a zero
/// divisor, or `atan2`, which is not rational).
pub fn rat_func2(g: Func2, x: &BigRational, y: &BigRational) -> Option<BigRational> {
    match g {
        Func2::Atan2 => None,
        Func2::Fmod | Func2::Remainder if y.is_zero() => None,
        Func2::Fmod => Some(x - (x / y).trunc() * y),
        Func2::Remainder => Some(x - rat_rint(&(x / y)) * y),
        Func2::Copysign if y.is_negative() => Some(-x.abs()),
        Func2::Copysign => Some(x.abs()),
    }
}

/// `q` as short text: `3`, `-1/8`.
pub fn rat_text(q: &BigRational) -> String {
    if q.is_integer() {
        q.to_integer().to_string()
    } else {
        format!("{}/{}", q.numer(), q.denom())
    }
}

/// Wraps an exact integer into a machine type of `bits` bits (two's complement when `signed`).
pub fn wrap_int(v: i128, bits: u8, signed: bool) -> i128 {
    if bits >= 128 {
        return v;
    }
    if bits > 0 {
        // The low `bits` bits, sign- or zero-extended (the symbolic executor wraps every
        // integer result; an i128 remainder was a library call).
        let shift = 128 - bits as u32;
        return if signed {
            (v << shift) >> shift
        } else {
            ((v as u128) << shift >> shift) as i128
        };
    }
    let m = 1i128 << bits;
    let r = v.rem_euclid(m);
    if signed && r >= m / 2 {
        r - m
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::wrap_int;

    /// The remainder definition the shifts replace.
    fn by_remainder(v: i128, bits: u8, signed: bool) -> i128 {
        let m = 1i128 << bits;
        let r = v.rem_euclid(m);
        if signed && r >= m / 2 {
            r - m
        } else {
            r
        }
    }

    #[test]
    fn wrapping_by_shifts_is_the_remainder() {
        let mut x: u64 = 0x1234_5678_9abc_def1;
        let mut samples = vec![0i128, 1, -1, i128::MAX, i128::MIN, 255, 256, -129, 1 << 40];
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            samples.push(((x as i128) << 64 | x as i128) >> (x % 100));
        }
        for &v in &samples {
            for bits in [1u8, 7, 8, 16, 31, 32, 33, 63, 64, 100, 126] {
                for signed in [false, true] {
                    assert_eq!(
                        wrap_int(v, bits, signed),
                        by_remainder(v, bits, signed),
                        "{v} in {bits} bits, signed {signed}"
                    );
                }
            }
        }
    }
}
