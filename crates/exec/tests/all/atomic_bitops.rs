//! `atomicAnd/Or/Xor/Inc/Dec` in the interpreter: many threads update one cell (in global or
//! shared memory) and each keeps the old value it got. The results are checked against CUDA's
//! definitions computed here in Rust: the final cell, and that the old values are those of
//! *some* one-at-a-time order of the updates (every atomic sees exactly the previous one).

use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options, Outcome};
use warpsafe_ir::{
    check_kernel, AtomicOp, BinOp, Builtin, Dim, Expr, Kernel, KernelBuilder, MemRef, ScalarType,
    StmtKind,
};

/// `old[i] = atomicOP(&cell[0], vals[i])` for every thread `i`; with `shared`, the update goes
/// to a `__shared__` cell that thread 0 loads from `cell[0]` first and writes back last
/// (one block).
fn one_cell(op: AtomicOp, ty: ScalarType, shared: bool) -> Kernel {
    let mut b = KernelBuilder::new("one_cell");
    let cell = b.buffer_param("cell", ty, true);
    let vals = b.buffer_param("vals", ty, false);
    let olds = b.buffer_param("olds", ty, true);
    let i = b.let_("i", b.global_index(Dim::X));
    let first = Expr::binary(
        BinOp::Eq,
        Expr::builtin(Builtin::ThreadIdx(Dim::X)),
        Expr::u32(0),
    );
    let target = if shared {
        let s = MemRef::Shared(b.shared_array("s", ty, vec![1]));
        let v = b.load(MemRef::Global(cell), vec![Expr::u32(0)]);
        b.if_(first.clone(), |b| b.store(s, vec![Expr::u32(0)], v));
        b.push(StmtKind::SyncThreads);
        s
    } else {
        MemRef::Global(cell)
    };
    let old = b.declare("old", ty);
    b.push(StmtKind::Let {
        var: old,
        init: None,
    });
    let v = b.load(MemRef::Global(vals), vec![b.var(i)]);
    b.push(StmtKind::Atomic {
        dst: Some(old),
        op,
        mem: target,
        indices: vec![Expr::u32(0)],
        value: v,
        compare: None,
    });
    b.store(MemRef::Global(olds), vec![b.var(i)], b.var(old));
    if shared {
        b.push(StmtKind::SyncThreads);
        let v = b.load(target, vec![Expr::u32(0)]);
        b.if_(first, |b| {
            b.store(MemRef::Global(cell), vec![Expr::u32(0)], v)
        });
    }
    let k = b.finish();
    check_kernel(&k).expect("well typed");
    k
}

/// CUDA's stored value for `op` (all values as `u64` bits of the cell's type).
fn cuda(op: AtomicOp, old: u64, v: u64) -> u64 {
    match op {
        AtomicOp::And => old & v,
        AtomicOp::Or => old | v,
        AtomicOp::Xor => old ^ v,
        AtomicOp::Inc => {
            let (o, v) = (old as u32, v as u32);
            u64::from(if o >= v { 0 } else { o + 1 })
        }
        AtomicOp::Dec => {
            let (o, v) = (old as u32, v as u32);
            u64::from(if o == 0 || o > v { v } else { o - 1 })
        }
        _ => unreachable!(),
    }
}

/// Runs `op` with one thread per value (blocks of at most 64) starting from `init`; returns the
/// final cell and every thread's old value.
fn launch(op: AtomicOp, ty: ScalarType, shared: bool, init: u64, vals: &[u64]) -> (u64, Vec<u64>) {
    let n = vals.len() as u32;
    let cfg = if shared {
        LaunchConfig::linear(1, n)
    } else {
        LaunchConfig::linear(n / n.min(64), n.min(64))
    };
    assert_eq!(cfg.grid[0] * cfg.block[0], n);
    let buf = |data: Vec<u64>| match ty {
        ScalarType::U32 => Buffer::from_u32(&data.iter().map(|&x| x as u32).collect::<Vec<_>>()),
        ScalarType::I32 => Buffer::from_i32(&data.iter().map(|&x| x as i32).collect::<Vec<_>>()),
        ScalarType::U64 => Buffer::from_u64(&data),
        ScalarType::I64 => Buffer::from_i64(&data.iter().map(|&x| x as i64).collect::<Vec<_>>()),
        _ => unreachable!(),
    };
    let args = vec![
        Arg::Buffer(buf(vec![init])),
        Arg::Buffer(buf(vals.to_vec())),
        Arg::Buffer(buf(vec![0; vals.len()])),
    ];
    let out: Outcome =
        run(&one_cell(op, ty, shared), &cfg, args, &Options::default()).expect("launch");
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let read = |i: usize| -> Vec<u64> {
        let Arg::Buffer(b) = &out.args[i] else {
            panic!("argument {i} is a scalar")
        };
        match ty {
            ScalarType::U32 => b.to_u32().into_iter().map(u64::from).collect(),
            ScalarType::I32 => b.to_i32().into_iter().map(|x| x as u32 as u64).collect(),
            ScalarType::U64 => b.to_u64(),
            ScalarType::I64 => b.to_i64().into_iter().map(|x| x as u64).collect(),
            _ => unreachable!(),
        }
    };
    (read(0)[0], read(2))
}

/// The old values are those of one order of the updates: starting from `init`, some not yet
/// used thread saw the current value, and the cell then holds CUDA's result of its update.
/// The values are chosen so that at most one thread can take each step when `unique`; with
/// equal operands (inc/dec) any thread that saw the current value is as good as another.
fn assert_linearizable(op: AtomicOp, mask: u64, init: u64, vals: &[u64], olds: &[u64], last: u64) {
    let mut used = vec![false; vals.len()];
    let mut cur = init;
    for step in 0..vals.len() {
        let seen: Vec<usize> = (0..vals.len())
            .filter(|&t| !used[t] && olds[t] == cur)
            .collect();
        let Some(&t) = seen.first() else {
            panic!("{op:?} step {step}: no thread saw {cur:#x}; olds {olds:x?}");
        };
        used[t] = true;
        cur = cuda(op, cur, vals[t]) & mask;
    }
    assert_eq!(last, cur, "{op:?}: final cell");
}

#[test]
fn or_and_xor_on_one_cell_in_global_and_shared_memory() {
    let n = 192usize;
    // Each update sets, clears or flips bits no other update touches, so every value the cell
    // goes through is new and the order is recoverable from the old values.
    let or_vals: Vec<u64> = (0..n).map(|t| 1u64 << (t % 64)).collect();
    for shared in [false, true] {
        // u64: 64 distinct bits, each set by three threads (the later two change nothing, but
        // they then saw a value with that bit already set, which the check below enforces).
        let (last, olds) = launch(AtomicOp::Or, ScalarType::U64, shared, 0, &or_vals);
        assert_eq!(last, u64::MAX);
        for (t, &o) in olds.iter().enumerate() {
            // Every bit an old value has was set by some thread, and the value only grows.
            assert_eq!(o & last, o, "thread {t}");
        }
        // Exactly one of the three threads per bit saw it clear.
        for bit in 0..64 {
            let clear = (0..n)
                .filter(|&t| t % 64 == bit && olds[t] & (1 << bit) == 0)
                .count();
            assert_eq!(clear, 1, "bit {bit}");
        }

        let vals: Vec<u64> = (0..64).map(|t| !(1u64 << t)).collect();
        let (last, olds) = launch(AtomicOp::And, ScalarType::U64, shared, u64::MAX, &vals);
        assert_eq!(last, 0);
        assert_linearizable(AtomicOp::And, u64::MAX, u64::MAX, &vals, &olds, last);

        let vals: Vec<u64> = (0..32).map(|t| 1u64 << t).collect();
        let (last, olds) = launch(AtomicOp::Or, ScalarType::U32, shared, 0, &vals);
        assert_eq!(last, u64::from(u32::MAX));
        assert_linearizable(AtomicOp::Or, u32::MAX as u64, 0, &vals, &olds, last);

        // Xor on int, with negative operands: flips of distinct bits of a starting pattern.
        let vals: Vec<u64> = (0..32).map(|t| (1u32 << t) as u64).collect();
        let init = 0x5a5a_5a5a_u64;
        let (last, olds) = launch(AtomicOp::Xor, ScalarType::I32, shared, init, &vals);
        assert_eq!(last, init ^ u64::from(u32::MAX));
        assert_linearizable(AtomicOp::Xor, u32::MAX as u64, init, &vals, &olds, last);

        // Xor on long long: the same thread count as bits, starting at -1.
        let vals: Vec<u64> = (0..64).map(|t| 1u64 << t).collect();
        let (last, olds) = launch(AtomicOp::Xor, ScalarType::I64, shared, u64::MAX, &vals);
        assert_eq!(last, 0);
        assert_linearizable(AtomicOp::Xor, u64::MAX, u64::MAX, &vals, &olds, last);
    }
}

/// Every thread updates with the same `v`, so the old values are `init, f(init), f(f(init)), …`
/// in whatever order the threads ran, and the cell ends at `f` applied `n` times.
fn counter(op: AtomicOp, init: u32, v: u32, n: usize, shared: bool) {
    let vals = vec![u64::from(v); n];
    let (last, olds) = launch(op, ScalarType::U32, shared, u64::from(init), &vals);
    let mut want = Vec::with_capacity(n);
    let mut cur = u64::from(init);
    for _ in 0..n {
        want.push(cur);
        cur = cuda(op, cur, u64::from(v));
    }
    assert_eq!(last, cur, "{op:?} from {init} with {v}");
    let mut got = olds.clone();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want, "{op:?} from {init} with {v}");
    assert_linearizable(op, u32::MAX as u64, u64::from(init), &vals, &olds, last);
}

#[test]
fn inc_wraps_to_zero_after_its_bound() {
    for shared in [false, true] {
        // 0,1,..,5,0,1,..: 128 increments wrap 21 times and end at 128 % 6 = 2.
        counter(AtomicOp::Inc, 0, 5, 128, shared);
        // Above the bound: the first increment stores 0.
        counter(AtomicOp::Inc, 100, 5, 64, shared);
        // A bound of 0 keeps the cell at 0; the largest bound is a plain wrapping counter.
        counter(AtomicOp::Inc, 7, 0, 32, shared);
        counter(AtomicOp::Inc, u32::MAX - 40, u32::MAX, 64, shared);
    }
    let (last, olds) = launch(AtomicOp::Inc, ScalarType::U32, false, 3, &[5; 128]);
    assert_eq!(last, (3 + 128) % 6);
    assert_eq!(olds.iter().filter(|&&o| o == 5).count(), 21);
    assert!(olds.iter().all(|&o| o <= 5));
}

#[test]
fn dec_reloads_its_bound_at_zero_and_above_it() {
    for shared in [false, true] {
        // 3,2,1,0,9,8,..: at 0 the cell goes back to the bound.
        counter(AtomicOp::Dec, 3, 9, 128, shared);
        // Above the bound: the first decrement stores the bound.
        counter(AtomicOp::Dec, 50, 7, 64, shared);
        // A bound of 0 keeps the cell at 0.
        counter(AtomicOp::Dec, 0, 0, 32, shared);
        counter(AtomicOp::Dec, 0, u32::MAX, 64, shared);
    }
    let (last, olds) = launch(AtomicOp::Dec, ScalarType::U32, false, 0, &[7; 128]);
    // 0 → 7 → 6 … → 0: a cycle of 8; 128 decrements end back at 0.
    assert_eq!(last, 0);
    assert_eq!(olds.iter().filter(|&&o| o == 0).count(), 16);
}

#[test]
fn typecheck_keeps_inc_dec_to_32_bit_ints_and_bit_ops_to_integers() {
    for (op, ty, ok) in [
        (AtomicOp::Inc, ScalarType::U32, true),
        (AtomicOp::Inc, ScalarType::I32, true),
        (AtomicOp::Inc, ScalarType::I64, false),
        (AtomicOp::Dec, ScalarType::U64, false),
        (AtomicOp::And, ScalarType::I64, true),
        (AtomicOp::Or, ScalarType::F32, false),
        (AtomicOp::Xor, ScalarType::F64, false),
    ] {
        let mut b = KernelBuilder::new("k");
        let c = b.buffer_param("c", ty, true);
        let one = Expr::u32(1).cast(ty);
        b.push(StmtKind::Atomic {
            dst: None,
            op,
            mem: MemRef::Global(c),
            indices: vec![Expr::u32(0)],
            value: one,
            compare: None,
        });
        let r = check_kernel(&b.finish());
        assert_eq!(r.is_ok(), ok, "{op:?} on {ty}: {r:?}");
        if let Err(e) = r {
            let msg = format!("{e:?}");
            assert!(msg.contains(op.c_name()), "{msg}");
        }
    }
}
