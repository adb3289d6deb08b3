//! Findings inside code the optimiser rewrites: out-of-bounds accesses, overflow, races and
//! uninitialised reads in unrolled loops and in local arrays are reported exactly as in the
//! kernel as written (same categories, sites, spans, threads, locations and counts), and the
//! buffers come back bit for bit equal.

use warpsafe_exec::thread::lower::lower_kernel;
use warpsafe_exec::{compile, run_program, Arg, Buffer, LaunchConfig, Options, Program};
use warpsafe_ir::{BinOp, Builtin, Category, Dim, Expr, Kernel, KernelBuilder, MemRef, ScalarType};

#[path = "../../../ir/tests/support/spanned.rs"]
mod spanned;
use spanned::spanned;

fn tid() -> Expr {
    Expr::builtin(Builtin::ThreadIdx(Dim::X)).cast(ScalarType::I32)
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::binary(op, a, b)
}

/// Runs `k` as written and optimised; both must agree. Returns the optimised run's findings'
/// categories.
fn same_outcome(k: &Kernel, cfg: LaunchConfig, args: Vec<Arg>) -> Vec<Category> {
    let plain = Program::from_parts(k.clone(), lower_kernel(k).expect("lowers"));
    let fast = compile(k).expect("compiles");
    assert_ne!(
        plain.code().insts,
        fast.code().insts,
        "the optimiser should rewrite `{}`",
        k.name
    );
    let opts = Options {
        parallel: false,
        ..Options::default()
    };
    let want = run_program(&plain, &cfg, args.clone(), &opts).expect("runs as written");
    let got = run_program(&fast, &cfg, args, &opts).expect("runs optimised");
    assert_eq!(want.findings, got.findings, "findings of `{}`", k.name);
    for (a, b) in want.args.iter().zip(&got.args) {
        if let (Arg::Buffer(a), Arg::Buffer(b)) = (a, b) {
            assert_eq!(a.data, b.data, "a buffer of `{}`", k.name);
        }
    }
    assert!(
        got.stats.thread_instructions < want.stats.thread_instructions,
        "{} vs {}",
        got.stats.thread_instructions,
        want.stats.thread_instructions
    );
    got.findings.iter().map(|f| f.category).collect()
}

#[test]
fn out_of_bounds_stores_in_an_unrolled_loop_are_the_same() {
    let mut b = KernelBuilder::new("oob_unrolled");
    let y = b.buffer_param("y", ScalarType::I32, true);
    b.for_range("i", Expr::i32(0), Expr::i32(8), Expr::i32(1), |b, i| {
        let at = bin(BinOp::Add, bin(BinOp::Mul, tid(), Expr::i32(8)), i.clone());
        b.store(MemRef::Global(y), vec![at], i);
    });
    let k = spanned(b.finish());
    let args = vec![Arg::Buffer(Buffer::from_i32(&[0; 60]))];
    let cats = same_outcome(&k, LaunchConfig::linear(1, 8), args);
    assert!(cats.contains(&Category::Oob), "{cats:?}");
}

#[test]
fn overflow_in_an_unrolled_loop_is_the_same() {
    let mut b = KernelBuilder::new("overflow_unrolled");
    let y = b.buffer_param("y", ScalarType::I32, true);
    b.contract_mut().deny.push(Category::Overflow);
    let x = b.let_("x", bin(BinOp::Add, tid(), Expr::i32(7)));
    b.for_range("i", Expr::i32(0), Expr::i32(6), Expr::i32(1), |b, _| {
        let next = bin(BinOp::Mul, b.var(x), Expr::i32(1000));
        b.assign(x, next);
    });
    b.store(MemRef::Global(y), vec![tid()], b.var(x));
    let k = spanned(b.finish());
    let args = vec![Arg::Buffer(Buffer::from_i32(&[0; 32]))];
    let cats = same_outcome(&k, LaunchConfig::linear(1, 32), args);
    assert!(cats.contains(&Category::Overflow), "{cats:?}");
}

#[test]
fn a_shared_race_in_an_unrolled_loop_is_the_same() {
    let mut b = KernelBuilder::new("race_unrolled");
    let y = b.buffer_param("y", ScalarType::I32, true);
    let s = b.shared_array("s", ScalarType::I32, vec![64]);
    b.for_range("i", Expr::i32(0), Expr::i32(4), Expr::i32(1), |b, i| {
        let at = bin(BinOp::Rem, bin(BinOp::Add, tid(), i.clone()), Expr::i32(64));
        b.store(MemRef::Shared(s), vec![at], i);
    });
    let v = b.load(MemRef::Shared(s), vec![tid()]);
    b.store(MemRef::Global(y), vec![tid()], v);
    let k = spanned(b.finish());
    let args = vec![Arg::Buffer(Buffer::from_i32(&[0; 64]))];
    let cats = same_outcome(&k, LaunchConfig::linear(1, 64), args);
    assert!(cats.contains(&Category::Race), "{cats:?}");
}

#[test]
fn local_arrays_that_keep_their_memory_report_the_same() {
    let mut b = KernelBuilder::new("locals");
    let y = b.buffer_param("y", ScalarType::F32, true);
    let regs = b.local_array("regs", ScalarType::F32, vec![4]);
    let oob = b.local_array("oob", ScalarType::F32, vec![4]);
    let unset = b.local_array("unset", ScalarType::F32, vec![4]);
    b.for_range("i", Expr::i32(0), Expr::i32(4), Expr::i32(1), |b, i| {
        let v = i.clone().cast(ScalarType::F32);
        b.store(MemRef::Local(regs), vec![i.clone()], v.clone());
        let past = bin(BinOp::Add, i.clone(), Expr::i32(1));
        b.store(MemRef::Local(oob), vec![past], v);
    });
    b.store(MemRef::Local(unset), vec![Expr::i32(0)], Expr::f32(1.0));
    b.for_range("j", Expr::i32(0), Expr::i32(4), Expr::i32(1), |b, j| {
        let sum = bin(
            BinOp::Add,
            b.load(MemRef::Local(regs), vec![j.clone()]),
            b.load(MemRef::Local(unset), vec![j.clone()]),
        );
        let at = bin(BinOp::Add, bin(BinOp::Mul, tid(), Expr::i32(4)), j);
        b.store(MemRef::Global(y), vec![at], sum);
    });
    let k = spanned(b.finish());
    let args = vec![Arg::Buffer(Buffer::from_f32(&[0.0; 64]))];
    let cats = same_outcome(&k, LaunchConfig::linear(1, 16), args);
    assert!(cats.contains(&Category::Oob), "{cats:?}");
    assert!(cats.contains(&Category::Uninit), "{cats:?}");
    let fast = compile(&k).expect("compiles");
    let names: Vec<&str> = fast
        .kernel()
        .locals
        .iter()
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(names, ["oob", "unset"], "only `regs` becomes variables");
}
