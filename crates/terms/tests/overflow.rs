//! The overflow conditions against exact arithmetic: on every pair of 8-bit operands, the
//! folded condition on constants and the evaluated condition on symbols both say `true`
//! exactly when the signed (or unsigned) result leaves the 8-bit range.

use warpsafe_terms::{Op, Sort, Term, Value, Var};

type T = Term<Var>;

fn exact(op: Op, x: i64, y: i64) -> i64 {
    match op {
        Op::Add => x + y,
        Op::Sub => x - y,
        _ => x * y,
    }
}

#[test]
fn conditions_hold_exactly_when_the_result_leaves_the_range() {
    let (a, b) = (T::var("a", Sort::BitVec(8)), T::var("b", Sort::BitVec(8)));
    for op in [Op::Add, Op::Sub, Op::Mul] {
        let signed = a.signed_overflow(op, &b).expect("bit-vector operands");
        let unsigned = a.unsigned_wrap(op, &b).expect("bit-vector operands");
        for x in 0u128..256 {
            for y in 0u128..256 {
                let s = exact(op, x as u8 as i8 as i64, y as u8 as i8 as i64);
                let u = exact(op, x as i64, y as i64);
                let want_s = !(-128..128).contains(&s);
                let want_u = !(0..256).contains(&u);
                let (cx, cy) = (T::bv(8, x), T::bv(8, y));
                let folded_s = cx.signed_overflow(op, &cy).and_then(|t| t.as_bool());
                let folded_u = cx.unsigned_wrap(op, &cy).and_then(|t| t.as_bool());
                assert_eq!(folded_s, Some(want_s), "{op:?} signed {x} {y}");
                assert_eq!(folded_u, Some(want_u), "{op:?} unsigned {x} {y}");
                let env = |v: &Var| Some(Value::Bv(8, if &*v.name == "a" { x } else { y }));
                assert_eq!(signed.eval(&env), Some(Value::Bool(want_s)));
                assert_eq!(unsigned.eval(&env), Some(Value::Bool(want_u)));
            }
        }
    }
}

#[test]
fn other_operators_and_sorts_have_no_condition() {
    let a = T::var("a", Sort::BitVec(32));
    assert!(a.signed_overflow(Op::Udiv, &a).is_none());
    assert!(a.unsigned_wrap(Op::Shl, &a).is_none());
    let n = T::var("n", Sort::Int);
    assert!(n.signed_overflow(Op::Add, &n).is_none());
    assert!(T::tt().unsigned_wrap(Op::Add, &T::ff()).is_none());
}

#[test]
fn wide_operands_fold_too() {
    let big = T::bv(32, 65520);
    let small = T::bv(32, 100);
    assert_eq!(
        big.signed_overflow(Op::Mul, &big).and_then(|t| t.as_bool()),
        Some(true)
    );
    assert_eq!(
        small
            .signed_overflow(Op::Mul, &small)
            .and_then(|t| t.as_bool()),
        Some(false)
    );
    assert_eq!(
        small.unsigned_wrap(Op::Sub, &big).and_then(|t| t.as_bool()),
        Some(true)
    );
    let max = T::bv(64, u64::MAX as u128);
    assert_eq!(
        max.unsigned_wrap(Op::Add, &T::bv(64, 1))
            .and_then(|t| t.as_bool()),
        Some(true)
    );
    assert_eq!(
        T::bvi(64, -1)
            .signed_overflow(Op::Add, &T::bv(64, 1))
            .and_then(|t| t.as_bool()),
        Some(false)
    );
}
