//! Field mode: the symbolic executor computes each float as its value at one random point of
//! a prime field ([`SVal::F`]) instead of building its term, so a kernel pair whose outputs
//! are polynomials of the inputs (+, −, ×, FMA, division by constants; integer control flow
//! and addresses) is compared at the cost of a concrete run, in memory that does not grow
//! with the run. Anything outside that fragment (a comparison of floats, `exp`, `max`, a
//! bit reinterpretation, integer input data, a term) is a [`Refusal`]: the check then runs
//! on terms as before. Equal values at every point prove equality up to the Schwartz–Zippel
//! bound; a difference, a finding or a refusal sends the pair to the exact road, which finds
//! the counterexample.

use crate::value::SVal;
use warpsafe_algebra::{PointEval, Size};
use warpsafe_exec::thread::code::{BinaryOp, CmpOp, UnaryOp};
use warpsafe_ir::{MathFn, ScalarType, Value};

/// Why field mode cannot run a kernel (it then runs on terms).
pub(crate) type Refusal = String;

/// Heights and denominators are packed in sixteenths of a bit, rounded up: fine enough that
/// a sum of many products keeps its true height within a few bits, coarse enough for 4096
/// bits.
const SCALE: f32 = 16.0;

fn bits(x: f32) -> u16 {
    if x.is_finite() && x >= 0.0 {
        (x * SCALE).ceil().min(u16::MAX as f32) as u16
    } else {
        u16::MAX
    }
}

/// `v` with the bounds of `s` (rounded up).
pub(crate) fn pack(v: u64, s: Size) -> SVal {
    SVal::F {
        v,
        deg: s.degree.min(u16::MAX as u32) as u16,
        h: bits(s.height),
        d: bits(s.denom),
    }
}

/// The bounds of a field value.
pub(crate) fn size_of(v: SVal) -> Option<Size> {
    match v {
        SVal::F { deg, h, d, .. } => Some(Size {
            degree: deg as u32,
            height: h as f32 / SCALE,
            denom: d as f32 / SCALE,
        }),
        _ => None,
    }
}

/// The float constant with the bits `bits` of type `ty`.
pub(crate) fn constant(ev: &PointEval, ty: ScalarType, bits: u64) -> Result<SVal, Refusal> {
    let f = Value::from_bits(ty, bits).as_f64();
    let (v, s) = ev
        .float(f)
        .ok_or_else(|| format!("the constant {f} (no field element)"))?;
    Ok(pack(v, s))
}

/// The input symbol `name[index]` (or scalar `name`).
pub(crate) fn symbol(ev: &PointEval, name: &str, index: Option<u64>) -> SVal {
    pack(ev.symbol(name, index), Size::SYMBOL)
}

/// `v` (a value of type `ty`) as a field element with its bounds.
fn operand(ev: &PointEval, ty: ScalarType, v: SVal) -> Result<(u64, Size), Refusal> {
    match v {
        SVal::F { v: x, .. } => Ok((x, size_of(v).unwrap_or_default())),
        SVal::C(b) if ty.is_float() => {
            let f = Value::from_bits(ty, b).as_f64();
            ev.float(f)
                .ok_or_else(|| format!("the constant {f} (no field element)"))
        }
        SVal::C(b) => {
            // The exact integer (a large one has no exact f64).
            let i = Value::from_bits(ty, b).as_i128().unwrap_or(0);
            ev.rational(&num_rational::BigRational::from_integer(i.into()))
                .ok_or_else(|| format!("the constant {i} (no field element)"))
        }
        SVal::T(_) => Err("a term in field mode".into()),
        SVal::Input | SVal::Uninit => Err("an unread cell in field mode".into()),
    }
}

/// A field value in integer arithmetic (a float's bits reused as an integer through memory):
/// integers wrap, field elements do not.
fn integer_guard(ty: ScalarType) -> Result<(), Refusal> {
    if ty.is_float() {
        Ok(())
    } else {
        Err(format!("{ty:?} arithmetic on a float value"))
    }
}

/// `a op b` for floats.
pub(crate) fn binary(
    ev: &PointEval,
    op: BinaryOp,
    ty: ScalarType,
    a: SVal,
    b: SVal,
) -> Result<SVal, Refusal> {
    integer_guard(ty)?;
    let ((x, sx), (y, sy)) = (operand(ev, ty, a)?, operand(ev, ty, b)?);
    Ok(match op {
        BinaryOp::Add => pack(ev.add(x, y), Size::of_sum(sx, sy)),
        BinaryOp::Sub => pack(ev.sub(x, y), Size::of_sum(sx, sy)),
        BinaryOp::Mul => pack(ev.mul(x, y), Size::of_product(sx, sy)),
        BinaryOp::Div if sy.degree == 0 => {
            let inv = ev.inv(y).ok_or_else(|| "a division by zero".to_string())?;
            pack(ev.mul(x, inv), Size::of_quotient(sx, sy))
        }
        BinaryOp::Div => return Err("a division by a value of the input data".into()),
        other => return Err(format!("the float operation {other:?}")),
    })
}

/// `op a` for floats.
pub(crate) fn unary(ev: &PointEval, op: UnaryOp, ty: ScalarType, a: SVal) -> Result<SVal, Refusal> {
    integer_guard(ty)?;
    let (x, s) = operand(ev, ty, a)?;
    match op {
        UnaryOp::Neg => Ok(pack(ev.neg(x), s)),
        other => Err(format!("the float operation {other:?}")),
    }
}

/// A comparison of floats: no order in a field.
pub(crate) fn compare(op: CmpOp) -> Refusal {
    format!("a comparison of floating-point values ({op:?})")
}

/// `(to) v` where `from` or `to` is a float type: the same real between floats, an integer
/// constant into a float; a float into an integer has no field meaning.
pub(crate) fn cast(
    ev: &PointEval,
    from: ScalarType,
    to: ScalarType,
    v: SVal,
) -> Result<SVal, Refusal> {
    if !to.is_float() {
        return Err(format!("a conversion of a float to {to:?}"));
    }
    let (x, s) = operand(ev, from, v)?;
    Ok(pack(x, s))
}

/// A math function of floats: FMA is `a · b + c` over the reals; the rest leave the fragment.
pub(crate) fn math(
    ev: &PointEval,
    f: MathFn,
    ty: ScalarType,
    args: [SVal; 3],
) -> Result<SVal, Refusal> {
    match f {
        MathFn::Fma => {
            let p = binary(ev, BinaryOp::Mul, ty, args[0], args[1])?;
            binary(ev, BinaryOp::Add, ty, p, args[2])
        }
        other => Err(format!("the function {other:?}")),
    }
}

/// True when an instruction of type `ty` on `vals` runs in the field: a float type, or a
/// field value among its operands.
pub(crate) fn applies(ty: ScalarType, vals: &[SVal]) -> bool {
    ty.is_float() || vals.iter().any(|v| matches!(v, SVal::F { .. }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_algebra::{Store, Tester};

    #[test]
    fn a_field_value_is_as_small_as_any_other_value() {
        assert_eq!(std::mem::size_of::<SVal>(), 16);
    }

    #[test]
    fn field_arithmetic_agrees_with_the_terms() {
        // alpha · (a · b) + beta · c with alpha = 1.5, beta = 0.5, by FMA and by terms.
        let tester = Tester::new(9, 1);
        let ev = tester.point(0).expect("one point");
        let f32c = |x: f32| constant(&ev, ScalarType::F32, x.to_bits() as u64).expect("finite");
        let (a, b, c) = (
            symbol(&ev, "a", Some(0)),
            symbol(&ev, "b", Some(3)),
            symbol(&ev, "c", Some(1)),
        );
        let ab = binary(&ev, BinaryOp::Mul, ScalarType::F32, a, b).expect("mul");
        let bc = binary(&ev, BinaryOp::Mul, ScalarType::F32, f32c(0.5), c).expect("mul");
        let r = math(&ev, MathFn::Fma, ScalarType::F32, [f32c(1.5), ab, bc]).expect("fma");
        let mut st = Store::new();
        let (ta, tb, tc) = (
            st.symbol("a", Some(0), false),
            st.symbol("b", Some(3), false),
            st.symbol("c", Some(1), false),
        );
        let (k15, k05) = (st.float(1.5), st.float(0.5));
        let tab = st.mul(ta, tb);
        let t1 = st.mul(k15, tab);
        let t2 = st.mul(k05, tc);
        let t = st.add(t1, t2);
        let want = tester.values(&st, &[t]);
        let SVal::F { v, deg, .. } = r else {
            panic!("a field value: {r:?}");
        };
        assert_eq!(want[0].as_deref(), Some(&[v][..]));
        assert_eq!(deg, 2);
    }

    #[test]
    fn operations_outside_the_fragment_are_refused() {
        let tester = Tester::new(5, 1);
        let ev = tester.point(0).expect("one point");
        let x = symbol(&ev, "x", Some(0));
        let ty = ScalarType::F32;
        assert!(binary(&ev, BinaryOp::Max, ty, x, x).is_err());
        assert!(binary(&ev, BinaryOp::Div, ty, x, x).is_err());
        let zero = constant(&ev, ty, 0f32.to_bits() as u64).expect("zero");
        assert!(binary(&ev, BinaryOp::Div, ty, x, zero).is_err());
        assert!(math(&ev, MathFn::Exp, ty, [x, x, x]).is_err());
        assert!(cast(&ev, ty, ScalarType::I32, x).is_err());
        assert!(constant(&ev, ty, f32::INFINITY.to_bits() as u64).is_err());
        assert!(unary(&ev, UnaryOp::BitNot, ty, x).is_err());
        // A float's value reused as an integer wraps there, which the field cannot.
        assert!(binary(&ev, BinaryOp::Add, ScalarType::I32, x, x).is_err());
        assert!(unary(&ev, UnaryOp::Neg, ScalarType::U32, x).is_err());
        let half = constant(&ev, ty, 2f32.to_bits() as u64).expect("two");
        assert!(binary(&ev, BinaryOp::Div, ty, x, half).is_ok());
    }
}
