//! Integer and float semantics of thread-code arithmetic, computed for all 32 lanes of a warp
//! at once (lanes not executing are masked out by the caller).
//!
//! Integers wrap like CUDA; the flags report signed overflow (for `checked` operations) and
//! division by zero. Floats are IEEE in their own width. Shifts by at least the width give 0
//! (sign fill for signed `>>`); min/max on floats ignore NaN like `fminf`.

use super::special::Special;
use crate::thread::code::{BinaryOp, CmpOp, UnaryOp};
use warpsafe_ir::{MathFn, ScalarType, Value, F16};

/// One value per lane.
pub(crate) type Lanes = [u64; 32];

/// Per-lane results plus the lanes that overflowed and the lanes that divided by zero.
pub(crate) struct Flagged {
    pub value: Lanes,
    pub overflow: u32,
    pub div_zero: u32,
}

const OVF: u8 = 1;
const DZ: u8 = 2;

/// Scalar behaviour shared by the integer and float types.
trait Num: Copy + PartialOrd {
    fn from_bits(b: u64) -> Self;
    fn bits(self) -> u64;
    fn add(self, o: Self, checked: bool) -> (Self, u8);
    fn sub(self, o: Self, checked: bool) -> (Self, u8);
    fn mul(self, o: Self, checked: bool) -> (Self, u8);
    fn div(self, o: Self, checked: bool) -> (Self, u8);
    fn rem(self, o: Self, checked: bool) -> (Self, u8);
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    fn shl(self, o: Self) -> Self;
    fn shr(self, o: Self) -> Self;
    fn min_(self, o: Self) -> Self;
    fn max_(self, o: Self) -> Self;
    fn neg(self, checked: bool) -> (Self, u8);
    fn bitnot(self) -> Self;
}

macro_rules! int_num {
    ($t:ty, $u:ty, $signed:expr) => {
        impl Num for $t {
            #[inline(always)]
            fn from_bits(b: u64) -> Self {
                b as $t
            }
            #[inline(always)]
            fn bits(self) -> u64 {
                self as $u as u64
            }
            #[inline(always)]
            fn add(self, o: Self, checked: bool) -> (Self, u8) {
                let (r, v) = self.overflowing_add(o);
                (r, ((v && checked && $signed) as u8) * OVF)
            }
            #[inline(always)]
            fn sub(self, o: Self, checked: bool) -> (Self, u8) {
                let (r, v) = self.overflowing_sub(o);
                (r, ((v && checked && $signed) as u8) * OVF)
            }
            #[inline(always)]
            fn mul(self, o: Self, checked: bool) -> (Self, u8) {
                let (r, v) = self.overflowing_mul(o);
                (r, ((v && checked && $signed) as u8) * OVF)
            }
            #[inline(always)]
            fn div(self, o: Self, checked: bool) -> (Self, u8) {
                if o == 0 {
                    return (0, DZ);
                }
                let (r, v) = self.overflowing_div(o);
                (r, ((v && checked && $signed) as u8) * OVF)
            }
            #[inline(always)]
            fn rem(self, o: Self, checked: bool) -> (Self, u8) {
                if o == 0 {
                    return (0, DZ);
                }
                let (r, v) = self.overflowing_rem(o);
                (r, ((v && checked && $signed) as u8) * OVF)
            }
            #[inline(always)]
            fn and(self, o: Self) -> Self {
                self & o
            }
            #[inline(always)]
            fn or(self, o: Self) -> Self {
                self | o
            }
            #[inline(always)]
            fn xor(self, o: Self) -> Self {
                self ^ o
            }
            #[inline(always)]
            fn shl(self, o: Self) -> Self {
                let n = o as $u;
                if n >= <$t>::BITS as $u {
                    0
                } else {
                    self << n
                }
            }
            #[inline(always)]
            fn shr(self, o: Self) -> Self {
                let n = o as $u;
                if n >= <$t>::BITS as $u {
                    if self < (0 as $t) {
                        !0
                    } else {
                        0
                    }
                } else {
                    self >> n
                }
            }
            #[inline(always)]
            fn min_(self, o: Self) -> Self {
                Ord::min(self, o)
            }
            #[inline(always)]
            fn max_(self, o: Self) -> Self {
                Ord::max(self, o)
            }
            #[inline(always)]
            fn neg(self, checked: bool) -> (Self, u8) {
                let (r, v) = (0 as $t).overflowing_sub(self);
                (r, ((v && checked && $signed) as u8) * OVF)
            }
            #[inline(always)]
            fn bitnot(self) -> Self {
                !self
            }
        }
    };
}

int_num!(i8, u8, true);
int_num!(u8, u8, false);
int_num!(i16, u16, true);
int_num!(u16, u16, false);
int_num!(i32, u32, true);
int_num!(u32, u32, false);
int_num!(i64, u64, true);
int_num!(u64, u64, false);

macro_rules! float_num {
    ($t:ty, $bits:ty) => {
        impl Num for $t {
            #[inline(always)]
            fn from_bits(b: u64) -> Self {
                <$t>::from_bits(b as $bits)
            }
            #[inline(always)]
            fn bits(self) -> u64 {
                self.to_bits() as u64
            }
            #[inline(always)]
            fn add(self, o: Self, _: bool) -> (Self, u8) {
                (self + o, 0)
            }
            #[inline(always)]
            fn sub(self, o: Self, _: bool) -> (Self, u8) {
                (self - o, 0)
            }
            #[inline(always)]
            fn mul(self, o: Self, _: bool) -> (Self, u8) {
                (self * o, 0)
            }
            #[inline(always)]
            fn div(self, o: Self, _: bool) -> (Self, u8) {
                (self / o, 0)
            }
            #[inline(always)]
            fn rem(self, o: Self, _: bool) -> (Self, u8) {
                (self % o, 0)
            }
            fn and(self, _: Self) -> Self {
                self
            }
            fn or(self, _: Self) -> Self {
                self
            }
            fn xor(self, _: Self) -> Self {
                self
            }
            fn shl(self, _: Self) -> Self {
                self
            }
            fn shr(self, _: Self) -> Self {
                self
            }
            #[inline(always)]
            fn min_(self, o: Self) -> Self {
                self.min(o)
            }
            #[inline(always)]
            fn max_(self, o: Self) -> Self {
                self.max(o)
            }
            #[inline(always)]
            fn neg(self, _: bool) -> (Self, u8) {
                (-self, 0)
            }
            fn bitnot(self) -> Self {
                self
            }
        }
    };
}

float_num!(f32, u32);
float_num!(f64, u64);

/// `f16` arithmetic: each operation computed exactly enough in `f64` and rounded once to
/// `f16` (correct rounding for + − × ÷, as `__hadd` and friends).
impl Num for F16 {
    #[inline(always)]
    fn from_bits(b: u64) -> Self {
        F16::from_bits(b as u16)
    }
    #[inline(always)]
    fn bits(self) -> u64 {
        self.to_bits() as u64
    }
    fn add(self, o: Self, _: bool) -> (Self, u8) {
        (F16::from_f64(self.to_f64() + o.to_f64()), 0)
    }
    fn sub(self, o: Self, _: bool) -> (Self, u8) {
        (F16::from_f64(self.to_f64() - o.to_f64()), 0)
    }
    fn mul(self, o: Self, _: bool) -> (Self, u8) {
        (F16::from_f64(self.to_f64() * o.to_f64()), 0)
    }
    fn div(self, o: Self, _: bool) -> (Self, u8) {
        (F16::from_f64(self.to_f64() / o.to_f64()), 0)
    }
    fn rem(self, o: Self, _: bool) -> (Self, u8) {
        (F16::from_f64(self.to_f64() % o.to_f64()), 0)
    }
    fn and(self, _: Self) -> Self {
        self
    }
    fn or(self, _: Self) -> Self {
        self
    }
    fn xor(self, _: Self) -> Self {
        self
    }
    fn shl(self, _: Self) -> Self {
        self
    }
    fn shr(self, _: Self) -> Self {
        self
    }
    fn min_(self, o: Self) -> Self {
        F16::from_f64(self.to_f64().min(o.to_f64()))
    }
    fn max_(self, o: Self) -> Self {
        F16::from_f64(self.to_f64().max(o.to_f64()))
    }
    fn neg(self, _: bool) -> (Self, u8) {
        (F16::from_bits(self.to_bits() ^ 0x8000), 0)
    }
    fn bitnot(self) -> Self {
        self
    }
}

#[inline(always)]
fn map2<T: Num>(a: &Lanes, b: &Lanes, f: impl Fn(T, T) -> (T, u8)) -> Flagged {
    let mut value = [0u64; 32];
    let mut flags = [0u8; 32];
    for i in 0..32 {
        let (r, fl) = f(T::from_bits(a[i]), T::from_bits(b[i]));
        value[i] = r.bits();
        flags[i] = fl;
    }
    collect_flags(value, &flags)
}

#[inline(always)]
fn map2_plain<T: Num>(a: &Lanes, b: &Lanes, f: impl Fn(T, T) -> T) -> Flagged {
    let mut value = [0u64; 32];
    for i in 0..32 {
        value[i] = f(T::from_bits(a[i]), T::from_bits(b[i])).bits();
    }
    Flagged {
        value,
        overflow: 0,
        div_zero: 0,
    }
}

fn collect_flags(value: Lanes, flags: &[u8; 32]) -> Flagged {
    let mut overflow = 0u32;
    let mut div_zero = 0u32;
    for (i, &f) in flags.iter().enumerate() {
        overflow |= ((f & OVF != 0) as u32) << i;
        div_zero |= ((f & DZ != 0) as u32) << i;
    }
    Flagged {
        value,
        overflow,
        div_zero,
    }
}

fn binary_t<T: Num>(op: BinaryOp, c: bool, a: &Lanes, b: &Lanes) -> Flagged {
    match op {
        BinaryOp::Add => map2::<T>(a, b, |x, y| x.add(y, c)),
        BinaryOp::Sub => map2::<T>(a, b, |x, y| x.sub(y, c)),
        BinaryOp::Mul => map2::<T>(a, b, |x, y| x.mul(y, c)),
        BinaryOp::Div => map2::<T>(a, b, |x, y| x.div(y, c)),
        BinaryOp::Rem => map2::<T>(a, b, |x, y| x.rem(y, c)),
        BinaryOp::And => map2_plain::<T>(a, b, |x, y| x.and(y)),
        BinaryOp::Or => map2_plain::<T>(a, b, |x, y| x.or(y)),
        BinaryOp::Xor => map2_plain::<T>(a, b, |x, y| x.xor(y)),
        BinaryOp::Shl => map2_plain::<T>(a, b, |x, y| x.shl(y)),
        BinaryOp::Shr => map2_plain::<T>(a, b, |x, y| x.shr(y)),
        BinaryOp::Min => map2_plain::<T>(a, b, |x, y| x.min_(y)),
        BinaryOp::Max => map2_plain::<T>(a, b, |x, y| x.max_(y)),
    }
}

/// `a op b` on every lane, as type `ty`.
pub(crate) fn binary(op: BinaryOp, ty: ScalarType, checked: bool, a: &Lanes, b: &Lanes) -> Flagged {
    match ty {
        ScalarType::I8 => binary_t::<i8>(op, checked, a, b),
        ScalarType::U8 => binary_t::<u8>(op, checked, a, b),
        ScalarType::I16 => binary_t::<i16>(op, checked, a, b),
        ScalarType::U16 => binary_t::<u16>(op, checked, a, b),
        ScalarType::F16 => binary_t::<F16>(op, checked, a, b),
        ScalarType::I32 => binary_t::<i32>(op, checked, a, b),
        ScalarType::U32 => binary_t::<u32>(op, checked, a, b),
        ScalarType::I64 => binary_t::<i64>(op, checked, a, b),
        ScalarType::U64 => binary_t::<u64>(op, checked, a, b),
        ScalarType::F32 => binary_t::<f32>(op, checked, a, b),
        ScalarType::F64 => binary_t::<f64>(op, checked, a, b),
        ScalarType::Bool => {
            let mut r = binary_t::<u32>(op, false, a, b);
            for v in &mut r.value {
                *v &= 1;
            }
            r.div_zero = 0;
            r
        }
    }
}

fn unary_t<T: Num>(op: UnaryOp, c: bool, a: &Lanes) -> Flagged {
    let mut value = [0u64; 32];
    let mut flags = [0u8; 32];
    for i in 0..32 {
        let x = T::from_bits(a[i]);
        let (r, f) = match op {
            UnaryOp::Neg => x.neg(c),
            UnaryOp::BitNot | UnaryOp::Not => (x.bitnot(), 0),
        };
        value[i] = r.bits();
        flags[i] = f;
    }
    collect_flags(value, &flags)
}

/// `op a` on every lane, as type `ty`.
pub(crate) fn unary(op: UnaryOp, ty: ScalarType, checked: bool, a: &Lanes) -> Flagged {
    if op == UnaryOp::Not || ty == ScalarType::Bool {
        let mut value = [0u64; 32];
        for i in 0..32 {
            value[i] = match op {
                UnaryOp::Neg => a[i] & 1,
                _ => (a[i] & 1) ^ 1,
            };
        }
        return Flagged {
            value,
            overflow: 0,
            div_zero: 0,
        };
    }
    match ty {
        ScalarType::I8 => unary_t::<i8>(op, checked, a),
        ScalarType::U8 => unary_t::<u8>(op, checked, a),
        ScalarType::I16 => unary_t::<i16>(op, checked, a),
        ScalarType::U16 => unary_t::<u16>(op, checked, a),
        ScalarType::I32 => unary_t::<i32>(op, checked, a),
        ScalarType::U32 => unary_t::<u32>(op, checked, a),
        ScalarType::I64 => unary_t::<i64>(op, checked, a),
        ScalarType::U64 => unary_t::<u64>(op, checked, a),
        ScalarType::F16 => unary_t::<F16>(op, checked, a),
        ScalarType::F32 => unary_t::<f32>(op, checked, a),
        ScalarType::F64 | ScalarType::Bool => unary_t::<f64>(op, checked, a),
    }
}

fn cmp_t<T: Num>(op: CmpOp, a: &Lanes, b: &Lanes) -> Lanes {
    let f = map2_plain::<u64>(a, b, |x, y| {
        let (x, y) = (T::from_bits(x), T::from_bits(y));
        (match op {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
            CmpOp::Gt => x > y,
            CmpOp::Ge => x >= y,
        }) as u64
    });
    f.value
}

/// `a op b` on every lane as a `bool` (0 or 1), comparing as type `ty` (IEEE for floats).
pub(crate) fn compare(op: CmpOp, ty: ScalarType, a: &Lanes, b: &Lanes) -> Lanes {
    match ty {
        ScalarType::I8 => cmp_t::<i8>(op, a, b),
        ScalarType::U8 => cmp_t::<u8>(op, a, b),
        ScalarType::I16 => cmp_t::<i16>(op, a, b),
        ScalarType::U16 => cmp_t::<u16>(op, a, b),
        ScalarType::F16 => cmp_t::<F16>(op, a, b),
        ScalarType::I32 => cmp_t::<i32>(op, a, b),
        ScalarType::U32 | ScalarType::Bool => cmp_t::<u32>(op, a, b),
        ScalarType::I64 => cmp_t::<i64>(op, a, b),
        ScalarType::U64 => cmp_t::<u64>(op, a, b),
        ScalarType::F32 => cmp_t::<f32>(op, a, b),
        ScalarType::F64 => cmp_t::<f64>(op, a, b),
    }
}

/// Converts one register value from `from` to `to` with C semantics: integers wrap to the
/// target width, float→int truncates toward zero (saturating, NaN gives 0), narrowing floats
/// round to nearest even, and anything nonzero (NaN included) is `true`.
pub(crate) fn cast(from: ScalarType, to: ScalarType, bits: u64) -> u64 {
    if from == to {
        return bits;
    }
    Value::from_bits(from, bits).cast(to).to_bits()
}

/// Applies `f` to floats of one width (the same table for `f32` and `f64`).
macro_rules! float_math {
    ($f:expr, $a:expr, $b:expr, $c:expr) => {
        match $f {
            MathFn::Abs => $a.abs(),
            MathFn::Exp | MathFn::FastExp => $a.exp(),
            MathFn::Exp2 => $a.exp2(),
            MathFn::Log => $a.ln(),
            MathFn::Log2 => $a.log2(),
            MathFn::Log10 => $a.log10(),
            MathFn::Sqrt => $a.sqrt(),
            MathFn::Rsqrt => 1.0 / $a.sqrt(),
            MathFn::Pow => $a.powf($b),
            MathFn::Fma => $a.mul_add($b, $c),
            MathFn::Sin => $a.sin(),
            MathFn::Cos => $a.cos(),
            MathFn::Tan => $a.tan(),
            MathFn::Tanh => $a.tanh(),
            MathFn::Floor => $a.floor(),
            MathFn::Ceil => $a.ceil(),
            MathFn::Round => $a.round(),
            MathFn::Trunc => $a.trunc(),
            MathFn::Atan => $a.atan(),
            MathFn::Asin => $a.asin(),
            MathFn::Acos => $a.acos(),
            MathFn::Sinh => $a.sinh(),
            MathFn::Cosh => $a.cosh(),
            MathFn::Asinh => $a.asinh(),
            MathFn::Acosh => $a.acosh(),
            MathFn::Atanh => $a.atanh(),
            MathFn::Cbrt => $a.cbrt(),
            MathFn::Expm1 => $a.exp_m1(),
            MathFn::Log1p => $a.ln_1p(),
            MathFn::Exp10 => $a.exp10_libm(),
            // CUDA rounds to nearest even unless told otherwise.
            MathFn::Rint => $a.round_ties_even(),
            MathFn::Erf => $a.erf_libm(),
            MathFn::Erfc => $a.erfc_libm(),
            MathFn::Lgamma => $a.lgamma_libm(),
            MathFn::Tgamma => $a.tgamma_libm(),
            MathFn::SinPi => $a.sin_pi(),
            MathFn::CosPi => $a.cos_pi(),
            MathFn::Atan2 => $a.atan2($b),
            // Rust's `%` on floats is C's `fmod` (exact, the sign of the dividend).
            MathFn::Fmod => $a % $b,
            MathFn::Remainder => $a.remainder_libm($b),
            MathFn::Hypot => $a.hypot($b),
            MathFn::Copysign => $a.copysign($b),
            MathFn::Fdim => $a.fdim_libm($b),
            MathFn::Ldexp => $a.ldexp_libm($b),
            // Handled by `math` before the float table.
            MathFn::Bits => $a,
        }
    };
}

/// A math intrinsic on one lane; `args` unused beyond the function's arity.
pub(crate) fn math(f: MathFn, ty: ScalarType, args: [u64; 3]) -> u64 {
    if f == MathFn::Bits {
        // Registers hold a value's bit pattern: a reinterpretation keeps it, cut to `ty`.
        return Value::from_bits(ty, args[0]).to_bits();
    }
    match ty {
        ScalarType::F32 => {
            let [a, b, c] = args.map(|x| f32::from_bits(x as u32));
            float_math!(f, a, b, c).to_bits() as u64
        }
        ScalarType::F64 => {
            let [a, b, c] = args.map(f64::from_bits);
            float_math!(f, a, b, c).to_bits()
        }
        // Half math as CUDA's h-functions: computed wider, rounded once (fma exactly once).
        ScalarType::F16 => {
            let [a, b, c] = args.map(|x| F16::from_bits(x as u16));
            if f == MathFn::Fma {
                return F16::fma(a, b, c).to_bits() as u64;
            }
            let [a, b, c] = [a, b, c].map(F16::to_f64);
            F16::from_f64(float_math!(f, a, b, c)).to_bits() as u64
        }
        ScalarType::I8 => (args[0] as u8 as i8).wrapping_abs() as u8 as u64,
        ScalarType::I16 => (args[0] as u16 as i16).wrapping_abs() as u16 as u64,
        ScalarType::I32 => (args[0] as u32 as i32).wrapping_abs() as u32 as u64,
        ScalarType::I64 => (args[0] as i64).wrapping_abs() as u64,
        _ => args[0],
    }
}

/// The result of an atomic update of `old` with `val` (and `cmp` for CAS), as type `ty`.
pub(crate) fn atomic(
    op: warpsafe_ir::AtomicOp,
    ty: ScalarType,
    old: u64,
    val: u64,
    cmp: u64,
) -> u64 {
    use warpsafe_ir::AtomicOp as A;
    let one = |o: BinaryOp| binary(o, ty, false, &[old; 32], &[val; 32]).value[0];
    match op {
        A::Add => one(BinaryOp::Add),
        A::Sub => one(BinaryOp::Sub),
        A::Max => one(BinaryOp::Max),
        A::Min => one(BinaryOp::Min),
        A::Exch => val,
        A::Cas => {
            if old == cmp {
                val
            } else {
                old
            }
        }
        A::And => one(BinaryOp::And),
        A::Or => one(BinaryOp::Or),
        A::Xor => one(BinaryOp::Xor),
        // atomicInc/atomicDec: `u32` memory, or `i32` memory read as `u32` (typeck checks),
        // compared unsigned; CAS compares bits, which for float memory is CUDA's bit compare.
        A::Inc => {
            let (o, v) = (old as u32, val as u32);
            (if o >= v { 0 } else { o + 1 }) as u64
        }
        A::Dec => {
            let (o, v) = (old as u32, val as u32);
            (if o == 0 || o > v { v } else { o - 1 }) as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bin1(op: BinaryOp, ty: ScalarType, a: u64, b: u64) -> (u64, bool, bool) {
        let r = binary(op, ty, true, &[a; 32], &[b; 32]);
        (r.value[0], r.overflow & 1 != 0, r.div_zero & 1 != 0)
    }

    #[test]
    fn integer_semantics_follow_cuda() {
        let i = |v: i32| v as u32 as u64;
        assert_eq!(
            bin1(BinaryOp::Add, ScalarType::I32, i(i32::MAX), i(1)),
            (i(i32::MIN), true, false)
        );
        assert_eq!(
            bin1(BinaryOp::Add, ScalarType::U32, u32::MAX as u64, 1),
            (0, false, false)
        );
        assert_eq!(
            bin1(BinaryOp::Div, ScalarType::I32, i(-7), i(2)),
            (i(-3), false, false)
        );
        assert_eq!(
            bin1(BinaryOp::Rem, ScalarType::I32, i(-7), i(2)),
            (i(-1), false, false)
        );
        assert_eq!(
            bin1(BinaryOp::Div, ScalarType::I32, i(5), i(0)),
            (0, false, true)
        );
        assert!(bin1(BinaryOp::Div, ScalarType::I32, i(i32::MIN), i(-1)).1);
        assert_eq!(
            bin1(BinaryOp::Shl, ScalarType::U32, 1, 32),
            (0, false, false)
        );
        assert_eq!(
            bin1(BinaryOp::Shr, ScalarType::I32, i(-8), i(40)),
            (i(-1), false, false)
        );
        assert_eq!(
            bin1(BinaryOp::Shr, ScalarType::I32, i(-8), i(1)),
            (i(-4), false, false)
        );
    }

    fn f(v: f32) -> u64 {
        v.to_bits() as u64
    }

    #[test]
    fn float_semantics_are_ieee() {
        assert_eq!(
            bin1(BinaryOp::Min, ScalarType::F32, f(f32::NAN), f(2.0)).0,
            f(2.0)
        );
        assert_eq!(
            bin1(BinaryOp::Div, ScalarType::F32, f(1.0), f(0.0)).0,
            f(f32::INFINITY)
        );
        assert_eq!(
            cast(ScalarType::F32, ScalarType::I32, f(1e20)),
            i32::MAX as u32 as u64
        );
        assert_eq!(cast(ScalarType::F32, ScalarType::U32, f(-3.0)), 0);
        assert_eq!(
            cast(ScalarType::I32, ScalarType::I64, (-2i32) as u32 as u64),
            (-2i64) as u64
        );
        assert_eq!(
            cast(ScalarType::I64, ScalarType::I32, (-2i64) as u64),
            (-2i32) as u32 as u64
        );
        let nan_is_true = cast(ScalarType::F32, ScalarType::Bool, f(f32::NAN));
        assert_eq!(nan_is_true, 1);
        assert_eq!(cast(ScalarType::F32, ScalarType::I32, f(f32::NAN)), 0);
        assert_eq!(
            cast(ScalarType::F32, ScalarType::F64, f(0.1)),
            (0.1f32 as f64).to_bits()
        );
        assert_eq!(
            cast(ScalarType::F64, ScalarType::F32, 0.1f64.to_bits()),
            f(0.1)
        );
    }

    #[test]
    fn narrow_integers_wrap_at_their_width() {
        // Flags are for the (unpromoted) narrow op itself; frontends promote before arithmetic.
        assert_eq!(
            bin1(BinaryOp::Add, ScalarType::U8, 200, 100),
            (44, false, false)
        );
        assert_eq!(
            bin1(BinaryOp::Add, ScalarType::I8, 127, 1),
            (0x80, true, false)
        );
        assert_eq!(
            bin1(BinaryOp::Shr, ScalarType::I16, 0x8000, 15),
            (0xffff, false, false)
        );
        assert!(bin1(BinaryOp::Div, ScalarType::I8, 0x80, 0xff).1);
        assert_eq!(cast(ScalarType::I32, ScalarType::U8, 300), 44);
        assert_eq!(
            cast(ScalarType::I32, ScalarType::I16, 40000),
            (-25536i16) as u16 as u64
        );
        assert_eq!(cast(ScalarType::I8, ScalarType::I32, 0xff), u32::MAX as u64);
        assert_eq!(cast(ScalarType::U8, ScalarType::I32, 0xff), 255);
        assert_eq!(cast(ScalarType::I16, ScalarType::U64, 0xfffe), u64::MAX - 1);
        assert_eq!(
            compare(CmpOp::Lt, ScalarType::I8, &[0xff; 32], &[1; 32])[0],
            1
        );
        assert_eq!(
            compare(CmpOp::Lt, ScalarType::U8, &[0xff; 32], &[1; 32])[0],
            0
        );
    }

    #[test]
    fn half_ops_round_after_every_operation() {
        let h = |v: f32| F16::from_f32(v).to_bits() as u64;
        // 2048 + 1 is a tie in f16 (spacing 2): rounds to even, 2048.
        assert_eq!(
            bin1(BinaryOp::Add, ScalarType::F16, h(2048.0), h(1.0)).0,
            h(2048.0)
        );
        assert_eq!(
            bin1(BinaryOp::Add, ScalarType::F16, h(2048.0), h(3.0)).0,
            h(2052.0)
        );
        assert_eq!(
            bin1(BinaryOp::Mul, ScalarType::F16, h(300.0), h(300.0)).0,
            0x7c00
        );
        assert_eq!(
            bin1(BinaryOp::Div, ScalarType::F16, h(1.0), h(3.0)).0,
            0x3555
        );
        assert_eq!(
            cast(ScalarType::F16, ScalarType::F32, 0x3555),
            f(0.333_251_95)
        );
        assert_eq!(cast(ScalarType::F32, ScalarType::F16, f(0.1)), 0x2e66);
        assert_eq!(
            cast(ScalarType::F16, ScalarType::I32, h(-2.75)),
            (-2i32) as u32 as u64
        );
        assert_eq!(cast(ScalarType::U8, ScalarType::F16, 255), h(255.0));
        assert_eq!(
            unary(UnaryOp::Neg, ScalarType::F16, false, &[h(1.5); 32]).value[0],
            h(-1.5)
        );
        assert_eq!(
            compare(CmpOp::Lt, ScalarType::F16, &[h(-1.0); 32], &[h(0.5); 32])[0],
            1
        );
        assert_eq!(
            math(MathFn::Sqrt, ScalarType::F16, [h(2.0), 0, 0]),
            h(std::f32::consts::SQRT_2)
        );
    }
}
