//! IEEE binary16 (CUDA's `__half`): storage, exact widening and correctly rounded narrowing.
//!
//! Written here rather than taken from the `half` crate because every crate needs the same
//! rounding and one correctly rounded narrowing from `f64` covers it: an `f16` sum, difference,
//! product, quotient or square root computed in `f64` and rounded once is the correctly rounded
//! `f16` result (53 ≥ 2·11 + 2, so the double rounding is innocuous); `fma` needs
//! round-to-odd in the `f64` step, which [`F16::fma`] does.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// An IEEE binary16 value, stored as its bit pattern. Equality and order are IEEE's (`NaN`
/// equals nothing, `-0 == +0`), like `f32`'s.
#[derive(Clone, Copy, Default)]
pub struct F16(u16);

impl F16 {
    /// Largest finite value, 65504.
    pub const MAX: F16 = F16(0x7bff);
    /// Positive infinity.
    pub const INFINITY: F16 = F16(0x7c00);
    /// A quiet NaN (CUDA's canonical `0x7fff`).
    pub const NAN: F16 = F16(0x7fff);

    /// The value with this bit pattern.
    pub const fn from_bits(bits: u16) -> F16 {
        F16(bits)
    }

    /// The bit pattern.
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// The exact value as an `f64`.
    pub fn to_f64(self) -> f64 {
        let sign = if self.0 & 0x8000 != 0 { -1.0 } else { 1.0 };
        let exp = ((self.0 >> 10) & 0x1f) as i32;
        let frac = (self.0 & 0x3ff) as f64;
        let mag = match exp {
            0 => frac * 2f64.powi(-24),
            0x1f if frac == 0.0 => f64::INFINITY,
            0x1f => return f64::NAN,
            _ => (1024.0 + frac) * 2f64.powi(exp - 25),
        };
        sign * mag
    }

    /// The exact value as an `f32`.
    pub fn to_f32(self) -> f32 {
        self.to_f64() as f32
    }

    /// `x` rounded to the nearest `f16`, ties to even (overflow gives ±∞, NaN stays NaN).
    pub fn from_f64(x: f64) -> F16 {
        if x.is_nan() {
            return F16::NAN;
        }
        let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
        let a = x.abs();
        if a == 0.0 {
            return F16(sign);
        }
        if a >= 65520.0 {
            return F16(sign | 0x7c00);
        }
        // Smallest f16 step at |x|'s binade: 2^-24 for subnormals, 2^(e-10) above.
        let e = if a >= 2f64.powi(-14) {
            a.log2().floor() as i32
        } else {
            -14
        };
        // log2 may be off by one near powers of two; fix e so that 2^e <= a < 2^(e+1).
        let e = if e > -14 && 2f64.powi(e) > a {
            e - 1
        } else if 2f64.powi(e + 1) <= a {
            e + 1
        } else {
            e
        };
        if e > 15 {
            return F16(sign | 0x7c00);
        }
        let ulp = 2f64.powi(e.max(-14) - 10);
        // a / ulp is exact (a power-of-two scaling) unless it underflows, which it cannot here.
        let q = a / ulp;
        let r = round_half_even(q);
        let mag = r * ulp;
        if mag > 65504.0 {
            return F16(sign | 0x7c00);
        }
        F16(sign | encode_exact(mag))
    }

    /// `x` rounded to the nearest `f16`, ties to even.
    pub fn from_f32(x: f32) -> F16 {
        F16::from_f64(x as f64)
    }

    /// True for NaN.
    pub fn is_nan(self) -> bool {
        self.0 & 0x7fff > 0x7c00
    }

    /// `a * b + c` rounded once to `f16`.
    pub fn fma(a: F16, b: F16, c: F16) -> F16 {
        let p = a.to_f64() * b.to_f64(); // exact: 22 significant bits
        let s = p + c.to_f64();
        if !s.is_finite() || p.is_infinite() || c.to_f64().is_infinite() {
            return F16::from_f64(s);
        }
        // Two-sum error of the f64 addition; a nonzero error with an even last bit is
        // nudged toward the error (round-to-odd), so the second rounding is exact.
        let bb = s - p;
        let err = (p - (s - bb)) + (c.to_f64() - bb);
        if err == 0.0 || s.to_bits() & 1 == 1 {
            return F16::from_f64(s);
        }
        let toward_up = (err > 0.0) == (s > 0.0);
        let bits = if s == 0.0 {
            // An exact zero sum has no error; unreachable in practice, kept total.
            s.to_bits()
        } else if toward_up {
            s.to_bits() + 1
        } else {
            s.to_bits() - 1
        };
        F16::from_f64(f64::from_bits(bits))
    }
}

fn round_half_even(q: f64) -> f64 {
    let f = q.floor();
    let d = q - f;
    if d > 0.5 || (d == 0.5 && f % 2.0 != 0.0) {
        f + 1.0
    } else {
        f
    }
}

/// The bits of a nonnegative value that is exactly representable as a finite `f16`.
fn encode_exact(mag: f64) -> u16 {
    if mag < 2f64.powi(-14) {
        return (mag / 2f64.powi(-24)) as u16;
    }
    let mut e = -14;
    while 2f64.powi(e + 1) <= mag {
        e += 1;
    }
    let frac = (mag / 2f64.powi(e - 10)) as u16 - 1024;
    (((e + 15) as u16) << 10) | frac
}

impl PartialEq for F16 {
    fn eq(&self, o: &F16) -> bool {
        self.to_f64() == o.to_f64()
    }
}

impl PartialOrd for F16 {
    fn partial_cmp(&self, o: &F16) -> Option<std::cmp::Ordering> {
        self.to_f64().partial_cmp(&o.to_f64())
    }
}

impl fmt::Debug for F16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_f32())
    }
}

impl fmt::Display for F16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_f32())
    }
}

/// Serialised as the (exact) `f32` number, so JSON shows `1.5`, not a bit pattern.
impl Serialize for F16 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_f32().serialize(s)
    }
}

impl<'de> Deserialize<'de> for F16 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<F16, D::Error> {
        f64::deserialize(d).map(F16::from_f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bit-exact reference: round `x` to 11 significant bits by integer arithmetic.
    fn reference(x: f32) -> u16 {
        let b = x.to_bits();
        let sign = ((b >> 16) & 0x8000) as u16;
        let exp = ((b >> 23) & 0xff) as i32;
        let man = b & 0x7f_ffff;
        if exp == 0xff {
            return sign | if man == 0 { 0x7c00 } else { 0x7fff };
        }
        if exp == 0 {
            return sign; // f32 subnormals are far below half the smallest f16 subnormal
        }
        let m = (man | 0x80_0000) as u64; // value = m * 2^(exp-150)
        let e = exp - 127;
        // Target quantum: 2^(max(e,-14)-10).
        let q = e.max(-14) - 10;
        let shift = q - (exp - 150); // bits to drop
        let (mut r, rem, half) = if shift >= 64 {
            (0u64, m, u64::MAX)
        } else {
            (m >> shift, m & ((1u64 << shift) - 1), 1u64 << (shift - 1))
        };
        if shift < 64 && (rem > half || (rem == half && r & 1 == 1)) {
            r += 1;
        }
        // r * 2^q; rebuild the encoding.
        let mut e2 = q + 10;
        if r >= 2048 {
            r >>= 1;
            e2 += 1;
        }
        if r < 1024 {
            return sign | r as u16; // subnormal
        }
        if e2 > 15 {
            return sign | 0x7c00;
        }
        sign | (((e2 + 15) as u16) << 10) | (r as u16 - 1024)
    }

    #[test]
    fn narrowing_matches_an_integer_reference_on_many_f32s() {
        // Every f32 with a 13-bit mantissa prefix around the f16 range, plus tie cases.
        let mut n = 0;
        for exp in 90u32..=160 {
            for hi in 0u32..(1 << 9) {
                for lo in [0u32, 1, 0x1fff, 0x1000, 0x0fff, 0x1001, 0x2000] {
                    for s in [0u32, 1] {
                        let bits = (s << 31) | (exp << 23) | (hi << 14) | (lo & 0x3fff);
                        let x = f32::from_bits(bits);
                        assert_eq!(
                            F16::from_f32(x).to_bits(),
                            reference(x),
                            "x = {x:e} ({bits:#x})"
                        );
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 400_000);
    }

    #[test]
    fn every_f16_round_trips() {
        for b in 0u16..=u16::MAX {
            let h = F16::from_bits(b);
            if h.is_nan() {
                assert!(h.to_f64().is_nan());
                continue;
            }
            assert_eq!(F16::from_f64(h.to_f64()).to_bits(), b, "{b:#x}");
            assert_eq!(F16::from_f32(h.to_f32()).to_bits(), b, "{b:#x}");
        }
    }

    #[test]
    fn known_values() {
        assert_eq!(F16::from_f32(1.0).to_bits(), 0x3c00);
        assert_eq!(F16::from_f32(65504.0).to_bits(), 0x7bff);
        assert_eq!(F16::from_f32(65519.99).to_bits(), 0x7bff);
        assert_eq!(F16::from_f32(65520.0).to_bits(), 0x7c00); // the tie rounds to even: ∞
        assert_eq!(F16::from_f32(5.960_464_5e-8).to_bits(), 0x0001); // 2^-24
        assert_eq!(F16::from_f64(2f64.powi(-25)).to_bits(), 0x0000); // tie to even: 0
        assert_eq!(F16::from_f64(3.0 * 2f64.powi(-26)).to_bits(), 0x0001);
        assert_eq!(F16::from_f64(-0.0).to_bits(), 0x8000);
        assert_eq!(F16::from_f32(0.1).to_bits(), 0x2e66);
        assert_eq!(F16::from_f32(1.0 + 1.0 / 2048.0).to_bits(), 0x3c00); // tie to even
        assert_eq!(F16::from_f32(1.0 + 3.0 / 2048.0).to_bits(), 0x3c02);
        assert_eq!(F16::from_bits(0x3555).to_f64(), 0.333_251_953_125);
        assert!(F16::NAN != F16::NAN);
        assert!(F16::from_bits(0x8000) == F16::from_bits(0));
    }

    #[test]
    fn narrowing_from_f64_rounds_once() {
        // 1 + 2^-11 + 2^-40 is just above the tie: f64 -> f16 must round up, while going
        // through f32 would first lose the 2^-40 and then round the tie to even (down).
        let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(F16::from_f64(x).to_bits(), 0x3c01);
        assert_eq!(F16::from_f32(x as f32).to_bits(), 0x3c00);
    }

    #[test]
    fn fma_rounds_once() {
        // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20; adding -2^-9 leaves 1 + 2^-20, which rounds to 1.
        let a = F16::from_f64(1.0 + 2f64.powi(-10));
        let c = F16::from_f64(-(2f64.powi(-9)));
        assert_eq!(F16::fma(a, a, c).to_f64(), 1.0);
        // Against exact integer arithmetic on a grid of awkward operands.
        for ab in [0x3c01u16, 0x3bff, 0x4001, 0x0401, 0x7bff, 0x0001, 0xbc03] {
            for bb in [0x3c01u16, 0x3bfe, 0x4403, 0x0203, 0x3555] {
                for cb in [0x0000u16, 0x8001, 0x1400, 0x9401, 0xbc00, 0x7bff] {
                    let (a, b, c) = (F16(ab), F16(bb), F16(cb));
                    let got = F16::fma(a, b, c);
                    let want = exact_fma(a, b, c);
                    assert_eq!(got.to_bits(), want.to_bits(), "{ab:#x} {bb:#x} {cb:#x}");
                }
            }
        }
    }

    /// fma by integer arithmetic: every finite f16 is an integer multiple of 2^-24.
    fn exact_fma(a: F16, b: F16, c: F16) -> F16 {
        let scale = 2f64.powi(24);
        let ai = (a.to_f64() * scale) as i128;
        let bi = (b.to_f64() * scale) as i128;
        let ci = (c.to_f64() * scale) as i128;
        // value = (ai*bi + ci*2^24) * 2^-48
        let n = ai * bi + ci * (1i128 << 24);
        if n == 0 {
            return F16::from_f64(a.to_f64() * b.to_f64() + c.to_f64());
        }
        // Round n * 2^-48 to f16 by finding its binade exactly.
        let neg = n < 0;
        let m = n.unsigned_abs();
        let top = 127 - m.leading_zeros() as i32; // 2^top <= m < 2^(top+1)
        let e = (top - 48).max(-14); // f16 exponent
        if e > 15 {
            return F16::from_f64(if neg { -1e10 } else { 1e10 });
        }
        let shift = (e - 10) + 48; // quantum 2^(e-10) in units of 2^-48
        let (mut q, rem) = (m >> shift, m & ((1u128 << shift) - 1));
        let half = 1u128 << (shift - 1);
        if rem > half || (rem == half && q & 1 == 1) {
            q += 1;
        }
        let v = q as f64 * 2f64.powi(e - 10);
        F16::from_f64(if neg { -v } else { v })
    }
}
