//! The simplifier against the evaluator: random terms built twice, once exactly as written
//! (`Term::app_raw`) and once through the folding constructors, must agree on random
//! assignments; and the printer's text must mean the same to z3.

use std::time::Duration;
use warpsafe_terms::{Op, Sort, Term, Value, Var};

type T = Term<Var>;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const BV: Sort = Sort::BitVec(8);

/// A random term of sort `s`, as (exact, simplified).
fn gen(r: &mut Rng, s: Sort, depth: u32) -> (T, T) {
    let leaf = depth == 0 || r.below(4) == 0;
    if leaf {
        let t = match (s, r.below(3)) {
            (Sort::Bool, 0) => T::bool(r.below(2) == 0),
            (Sort::Bool, _) => T::var(["p", "q"][r.below(2) as usize], s),
            (Sort::Int, 0) => T::int(r.below(7) as i128 - 3),
            (Sort::Int, _) => T::var(["a", "b"][r.below(2) as usize], s),
            (_, 0) => T::bv(8, [0, 1, 2, 255, 128, 7][r.below(6) as usize]),
            _ => T::var(["x", "y"][r.below(2) as usize], s),
        };
        return (t.clone(), t);
    }
    let d = depth - 1;
    let ops: &[Op] = match s {
        Sort::Bool => &[
            Op::Not,
            Op::And,
            Op::Or,
            Op::Ite,
            Op::Eq,
            Op::Lt,
            Op::Le,
            Op::Ult,
            Op::Ule,
            Op::Slt,
            Op::Sle,
        ],
        Sort::Int => &[
            Op::Add,
            Op::Sub,
            Op::Mul,
            Op::Neg,
            Op::Div,
            Op::Mod,
            Op::Ite,
        ],
        _ => &[
            Op::Add,
            Op::Sub,
            Op::Mul,
            Op::Neg,
            Op::Udiv,
            Op::Sdiv,
            Op::Urem,
            Op::Srem,
            Op::BvAnd,
            Op::BvOr,
            Op::BvXor,
            Op::BvNot,
            Op::Shl,
            Op::Lshr,
            Op::Ashr,
            Op::Ite,
        ],
    };
    let op = ops[r.below(ops.len() as u64) as usize];
    let arg_sort = match op {
        Op::Not | Op::And | Op::Or => Sort::Bool,
        Op::Lt | Op::Le => Sort::Int,
        Op::Ult | Op::Ule | Op::Slt | Op::Sle => BV,
        Op::Eq => [Sort::Bool, Sort::Int, BV][r.below(3) as usize],
        _ => s,
    };
    let arity = match op {
        Op::Not | Op::Neg | Op::BvNot => 1,
        Op::Ite => 3,
        Op::And | Op::Or => 2 + r.below(2) as usize,
        _ => 2,
    };
    let mut exact = vec![];
    let mut simp = vec![];
    for i in 0..arity {
        let sort = if op == Op::Ite && i == 0 {
            Sort::Bool
        } else {
            arg_sort
        };
        let (e, t) = gen(r, sort, d);
        exact.push(e);
        simp.push(t);
    }
    (T::app_raw(op, exact, s), T::app(op, &simp).expect("arity"))
}

fn env(r: &mut Rng) -> impl Fn(&Var) -> Option<Value> {
    let a = r.below(41) as i128 - 20;
    let b = r.below(41) as i128 - 20;
    let x = r.below(256) as u128;
    let y = [0, 1, 255, 128, r.below(256) as u128][r.below(5) as usize];
    let (p, q) = (r.below(2) == 0, r.below(2) == 0);
    move |v: &Var| {
        Some(match &*v.name {
            "a" => Value::Int(a),
            "b" => Value::Int(b),
            "x" => Value::Bv(8, x),
            "y" => Value::Bv(8, y),
            "p" => Value::Bool(p),
            _ => Value::Bool(q),
        })
    }
}

#[test]
fn simplified_terms_evaluate_like_the_exact_ones() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut compared = 0;
    for i in 0..4000 {
        let s = [Sort::Bool, Sort::Int, BV][i % 3];
        let (exact, simp) = gen(&mut r, s, 4);
        assert_eq!(exact.sort(), simp.sort(), "{exact} vs {simp}");
        for _ in 0..8 {
            let e = env(&mut r);
            let Some(want) = exact.eval(&e) else { continue };
            // Folding may only remove undefinedness (a division by zero folded away), never
            // change a defined value.
            if let Some(got) = simp.eval(&e) {
                assert_eq!(got, want, "{exact}\n  simplified to {simp}");
                compared += 1;
            }
        }
    }
    assert!(compared > 10_000, "only {compared} comparisons");
}

#[test]
fn folding_is_exact_or_left_to_the_solver() {
    let max = T::int(i128::MAX);
    assert_eq!(max.add(&T::int(1)).smt(), format!("(+ {} 1)", i128::MAX));
    assert!(T::int(-i128::MAX).sub(&T::int(1)).as_int().is_none());
    assert_eq!(T::int(2).add(&T::int(3)).as_int(), Some(5));
    assert_eq!(T::int(-7).div(&T::int(2)).as_int(), Some(-4));
    assert_eq!(T::int(-7).modulo(&T::int(2)).as_int(), Some(1));
    let w = T::bv(32, 0xffff_ffff);
    assert_eq!(w.add(&T::bv(32, 1)).as_bv(), Some(0));
    assert_eq!(
        T::bvi(32, -8).ashr(&T::bv(32, 1)).as_bv(),
        Some(0xffff_fffc)
    );
    assert_eq!(
        T::bvi(32, -7).sdiv(&T::bv(32, 2)).as_bv(),
        Some((-3i32) as u32 as u128)
    );
    assert_eq!(T::bvi(8, -1).sext_to(16).as_bv(), Some(0xffff));
    let x = T::var("x", Sort::Int);
    assert!(x.sub(&x).is_value(0));
    assert_eq!(x.le(&x).as_bool(), Some(true));
    assert_eq!(x.lt(&x).as_bool(), Some(false));
    let p = T::var("p", Sort::Bool);
    assert_eq!(T::and_all([p.clone(), T::tt(), p.and(&p)]).smt(), "p");
    assert_eq!(p.not().not().smt(), "p");
    assert_eq!(T::ratio(-1, 2).smt(), "(- (/ 1.0 2.0))");
}

#[test]
fn shared_subterms_print_once() {
    // A chain where each step uses the previous one three times: 2^20 copies when spelled
    // out, 20 definitions when shared.
    let a = T::var("a", Sort::Int);
    let mut t = a.clone();
    for _ in 0..20 {
        t = T::ite(&T::int(0).le(&t), &t, &t.neg());
    }
    let text = t.smt_shared();
    assert!(text.len() < 2000, "{}", text.len());
    assert!(text.starts_with("(let ((t!0 "), "{text}");
    // Under a quantifier the body names its own subterms.
    let i = T::var("i", Sort::Int);
    let s = i.add(&a);
    let sq = s.mul(&s);
    let f = T::forall(vec![i.clone()], sq.le(&sq.add(&T::int(1))));
    assert_eq!(
        f.smt_shared(),
        "(forall ((i Int)) (let ((t!0 (+ i a))) (let ((t!1 (* t!0 t!0))) (<= t!1 (+ t!1 1)))))"
    );
}

/// z3 agrees that the simplified and the exact forms are equal (both printers).
#[test]
fn z3_agrees_the_printed_forms_are_equal() {
    if !warpsafe_smt::available() {
        eprintln!("z3 not installed: skipped");
        return;
    }
    let mut r = Rng(42);
    for i in 0..12 {
        let s = [Sort::Bool, Sort::Int, BV][i % 3];
        let (exact, simp) = gen(&mut r, s, 4);
        // Division by zero is unspecified in SMT-LIB for integers: compare only where both
        // sides use no integer division (bit-vector division is total).
        let text = exact.smt();
        if text.contains("(div ") || text.contains("(mod ") {
            continue;
        }
        let mut script = String::new();
        for (n, s) in [("a", "Int"), ("b", "Int"), ("p", "Bool"), ("q", "Bool")] {
            script.push_str(&format!("(declare-const {n} {s})\n"));
        }
        script.push_str("(declare-const x (_ BitVec 8))\n(declare-const y (_ BitVec 8))\n");
        script.push_str(&format!(
            "(assert (not (= {} {})))\n(check-sat)\n",
            exact.smt_shared(),
            simp.smt()
        ));
        let answer = warpsafe_smt::check("terms-test", &script, Duration::from_secs(20));
        assert!(
            matches!(answer, warpsafe_smt::Answer::Unsat),
            "{answer:?}\n{script}"
        );
    }
}

#[test]
fn caller_named_subterms_print_as_their_names() {
    use std::collections::HashMap;
    let (a, i) = (T::var("a", Sort::Int), T::var("i", Sort::Int));
    let s = a.add(&T::int(1));
    let t = s.mul(&s).le(&s);
    let mut names = HashMap::new();
    names.insert(s.id(), "d0".to_string());
    let mut out = String::new();
    t.write_named(&names, &mut out);
    assert_eq!(out, "(<= (* d0 d0) d0)");
    // No names: the plain text.
    let mut plain = String::new();
    t.write_named(&HashMap::new(), &mut plain);
    assert_eq!(plain, t.smt());
    // A quantifier body does not use the caller's names: it spells its terms out (naming its
    // own shared ones), so a name never stands for a term over a bound symbol.
    let f = T::forall(vec![i.clone()], i.add(&a).le(&s));
    let mut q = String::new();
    f.and(&s.le(&a)).write_named(&names, &mut q);
    assert_eq!(q, "(and (forall ((i Int)) (<= (+ i a) (+ a 1))) (<= d0 a))");
}

#[test]
fn free_symbols_are_distinct_by_name_and_skip_bound_ones() {
    let (a, b, i) = (
        T::var("a", Sort::Int),
        T::var("b", Sort::Int),
        T::var("i", Sort::Int),
    );
    // Two separately built symbols named `a` count once.
    let t = a.add(&b).le(&T::var("a", Sort::Int).mul(&i));
    let f = T::forall(vec![i.clone()], t.clone());
    let names = |xs: Vec<T>| xs.iter().map(T::smt).collect::<Vec<_>>();
    assert_eq!(names(t.free_syms()), ["a", "b", "i"]);
    assert_eq!(names(f.free_syms()), ["a", "b"]);
    assert_eq!(names(f.and(&i.le(&a)).free_syms()), ["a", "b", "i"]);
}

#[test]
fn model_values_become_constants_of_the_sort() {
    assert_eq!(
        T::from_bits(Sort::Bool, 0).and_then(|t| t.as_bool()),
        Some(false)
    );
    assert_eq!(
        T::from_bits(Sort::Bool, 2).and_then(|t| t.as_bool()),
        Some(true)
    );
    assert_eq!(T::from_bits(BV, 0x1ff).and_then(|t| t.as_bv()), Some(0xff));
    assert_eq!(T::from_bits(BV, 7).map(|t| t.sort()), Some(BV));
    assert!(T::from_bits(Sort::Int, 1).is_none());
    assert!(T::from_bits(Sort::Real, 1).is_none());
}
