//! The C math functions Rust's `std` lacks (`erf`, `lgamma`, `remainder`, `sinpi`, …), for
//! `f32` and `f64`, through the pure-Rust `libm` (a port of musl's) where it has them.
//!
//! The methods carry distinct names: `std` has unstable inherent `erf`/`gamma` methods that
//! would shadow a trait method of the same name.

/// One float width's special functions.
pub(crate) trait Special: Sized {
    /// The error function.
    fn erf_libm(self) -> Self;
    /// `1 − erf(x)`, accurate where `erf(x)` is near 1.
    fn erfc_libm(self) -> Self;
    /// `ln |Γ(x)|`.
    fn lgamma_libm(self) -> Self;
    /// `Γ(x)`.
    fn tgamma_libm(self) -> Self;
    /// IEEE `remainder`: `x − n·y`, `n` the integer nearest `x / y` (ties to even).
    fn remainder_libm(self, y: Self) -> Self;
    /// `10^x`.
    fn exp10_libm(self) -> Self;
    /// `x · 2^n`, `n` given as a float and saturated to `i32`.
    fn ldexp_libm(self, n: Self) -> Self;
    /// `x − y` when positive, `+0` otherwise, NaN when either is NaN.
    fn fdim_libm(self, y: Self) -> Self;
    /// `sin(πx)`.
    fn sin_pi(self) -> Self;
    /// `cos(πx)`.
    fn cos_pi(self) -> Self;
}

impl Special for f64 {
    fn erf_libm(self) -> f64 {
        libm::erf(self)
    }
    fn erfc_libm(self) -> f64 {
        libm::erfc(self)
    }
    fn lgamma_libm(self) -> f64 {
        libm::lgamma(self)
    }
    fn tgamma_libm(self) -> f64 {
        libm::tgamma(self)
    }
    fn remainder_libm(self, y: f64) -> f64 {
        libm::remainder(self, y)
    }
    fn exp10_libm(self) -> f64 {
        libm::exp10(self)
    }
    fn ldexp_libm(self, n: f64) -> f64 {
        libm::scalbn(self, n as i32)
    }
    fn fdim_libm(self, y: f64) -> f64 {
        libm::fdim(self, y)
    }
    fn sin_pi(self) -> f64 {
        sin_pi(self)
    }
    fn cos_pi(self) -> f64 {
        cos_pi(self)
    }
}

impl Special for f32 {
    fn erf_libm(self) -> f32 {
        libm::erff(self)
    }
    fn erfc_libm(self) -> f32 {
        libm::erfcf(self)
    }
    fn lgamma_libm(self) -> f32 {
        libm::lgammaf(self)
    }
    fn tgamma_libm(self) -> f32 {
        libm::tgammaf(self)
    }
    fn remainder_libm(self, y: f32) -> f32 {
        libm::remainderf(self, y)
    }
    fn exp10_libm(self) -> f32 {
        libm::exp10f(self)
    }
    fn ldexp_libm(self, n: f32) -> f32 {
        libm::scalbnf(self, n as i32)
    }
    fn fdim_libm(self, y: f32) -> f32 {
        libm::fdimf(self, y)
    }
    fn sin_pi(self) -> f32 {
        sin_pi(self as f64) as f32
    }
    fn cos_pi(self) -> f32 {
        cos_pi(self as f64) as f32
    }
}

/// `sin(πx)`: the argument is reduced exactly (`%` and Sterbenz subtractions) into
/// `[0, 1/2]` before it is multiplied by π, so integers give exactly `±0` and half-integers
/// `±1`.
fn sin_pi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let mut a = x.abs() % 2.0;
    let mut sign = x.signum();
    if a >= 1.0 {
        a -= 1.0;
        sign = -sign;
    }
    if a > 0.5 {
        a = 1.0 - a;
    }
    sign * (std::f64::consts::PI * a).sin()
}

/// `cos(πx)` by the same exact reduction: `cos(πa) = sin(π(1/2 − a))` for `a ≥ 1/4`.
fn cos_pi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let mut a = x.abs() % 2.0;
    let mut sign = 1.0;
    if a >= 1.0 {
        a -= 1.0;
        sign = -1.0;
    }
    if a < 0.25 {
        return sign * (std::f64::consts::PI * a).cos();
    }
    let r = sign * sin_pi(0.5 - a);
    // cos(π/2 + kπ) is +0, not the sign of the reduced argument.
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pi_multiples_are_exact() {
        assert_eq!(sin_pi(1.0), 0.0);
        assert_eq!(sin_pi(-3.0), 0.0);
        assert_eq!(sin_pi(0.5), 1.0);
        assert_eq!(sin_pi(-2.5), -1.0);
        assert_eq!(sin_pi(1.5), -1.0);
        assert_eq!(cos_pi(0.0), 1.0);
        assert_eq!(cos_pi(1.0), -1.0);
        assert_eq!(cos_pi(0.5), 0.0);
        assert_eq!(cos_pi(-7.0), -1.0);
        assert!(sin_pi(f64::INFINITY).is_nan() && cos_pi(f64::NAN).is_nan());
    }

    #[test]
    fn pi_functions_agree_with_sin_and_cos() {
        for i in -400..400 {
            let x = i as f64 * 0.013_7 + 0.001;
            let (s, c) = (std::f64::consts::PI * x).sin_cos();
            assert!((sin_pi(x) - s).abs() < 1e-14, "sinpi({x})");
            assert!((cos_pi(x) - c).abs() < 1e-14, "cospi({x})");
        }
    }

    #[test]
    fn libm_functions_at_known_points() {
        assert_eq!(0.0f64.erf_libm(), 0.0);
        assert!((1.0f64.erf_libm() - 0.842_700_792_949_714_9).abs() < 1e-15);
        assert!((1.0f32.erfc_libm() - 0.157_299_2).abs() < 1e-6);
        assert_eq!(5.0f64.tgamma_libm(), 24.0);
        assert_eq!(1.0f32.lgamma_libm(), 0.0);
        assert_eq!(5.5f64.remainder_libm(2.0), -0.5);
        assert_eq!(2.0f32.exp10_libm(), 100.0);
        assert_eq!(3.0f64.ldexp_libm(4.0), 48.0);
        assert_eq!(1.0f32.fdim_libm(3.0), 0.0);
        assert_eq!(3.0f32.fdim_libm(1.0), 2.0);
    }
}
