//! Constant folding: bit-vector arithmetic with wrap-around (SMT-LIB semantics), integer
//! arithmetic only where the result is exact.

use crate::Op;

/// The mask of the low `w` bits.
pub fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// The two's-complement value of the `w`-bit pattern `v`.
pub fn to_signed(w: u32, v: u128) -> i128 {
    if w >= 128 || w == 0 {
        return v as i128;
    }
    if v >> (w - 1) & 1 == 1 {
        (v | !mask(w)) as i128
    } else {
        v as i128
    }
}

/// The folded constant of a binary bit-vector operator on `w`-bit constants: a bit-vector
/// (`Ok`) or a boolean (`Err`), or `None` where SMT-LIB's value is not folded here
/// (division by zero, signed operations at 128 bits).
pub fn bv_bin(op: Op, w: u32, x: u128, y: u128) -> Option<Result<u128, bool>> {
    let m = mask(w);
    let (sx, sy) = (to_signed(w, x), to_signed(w, y));
    let bv = |v: u128| Some(Ok(v & m));
    match op {
        Op::Add => bv(x.wrapping_add(y)),
        Op::Sub => bv(x.wrapping_sub(y)),
        Op::Mul => bv(x.wrapping_mul(y)),
        Op::Udiv if y != 0 => bv(x / y),
        Op::Urem if y != 0 => bv(x % y),
        Op::Sdiv if y != 0 && w < 128 => bv(sx.wrapping_div(sy) as u128),
        Op::Srem if y != 0 && w < 128 => bv(sx.wrapping_rem(sy) as u128),
        Op::BvAnd => bv(x & y),
        Op::BvOr => bv(x | y),
        Op::BvXor => bv(x ^ y),
        Op::Shl => bv(if y >= w as u128 { 0 } else { x << y }),
        Op::Lshr => bv(if y >= w as u128 { 0 } else { x >> y }),
        Op::Ashr if w < 128 => {
            let s = if y >= w as u128 { w - 1 } else { y as u32 };
            bv((sx >> s) as u128)
        }
        Op::Ult => Some(Err(x < y)),
        Op::Ule => Some(Err(x <= y)),
        Op::Slt => Some(Err(sx < sy)),
        Op::Sle => Some(Err(sx <= sy)),
        _ => None,
    }
}

/// The folded value of an integer operator, when it is exact and not `i128::MIN` (so that
/// negating or dividing a folded constant cannot overflow either).
pub fn int_bin(op: Op, x: i128, y: i128) -> Option<i128> {
    let v = match op {
        Op::Add => x.checked_add(y),
        Op::Sub => x.checked_sub(y),
        Op::Mul => x.checked_mul(y),
        Op::Div if y != 0 => x.checked_div_euclid(y),
        Op::Mod if y != 0 => x.checked_rem_euclid(y),
        _ => None,
    }?;
    (v != i128::MIN).then_some(v)
}
