//! What the kernel language means: each test records a small kernel, runs it on the CPU
//! backend and compares with the Rust meaning of the same code.
#![allow(clippy::needless_range_loop)]

use warpsafe::ir::{Category, ExprKind, ScalarType, StmtKind};
use warpsafe::prelude::*;

fn cpu() -> Backend {
    Backend::cpu()
}

#[kernel]
fn casts(out_i: &mut [i32], out_u: &mut [u32], out_f: &mut [f32], out_l: &mut [i64]) {
    let t = thread_idx().x;
    if t == 0 {
        out_i[0] = -7.9f32 as i32;
        out_i[1] = 3_000_000_000u32 as i32;
        out_i[2] = true as i32;
        out_u[0] = -1i32 as u32;
        out_u[1] = 5_000_000_000u64 as u32;
        out_f[0] = 7u32 as f32 / 2.0;
        out_f[1] = (1.0f64 / 3.0) as f32;
        out_l[0] = -5i32 as i64 * 1_000_000_000;
        out_l[1] = u32::MAX as i64 + 1;
    }
}

#[test]
fn casts_follow_rust_as() {
    let (mut i, mut u, mut f, mut l) = (vec![0; 3], vec![0; 2], vec![0.0; 2], vec![0; 2]);
    let r = casts::launch(&cpu(), 1, 1, &mut i, &mut u, &mut f, &mut l).unwrap();
    assert!(r.is_clean(), "{r}");
    assert_eq!(i, vec![-7, 3_000_000_000u32 as i32, 1]);
    assert_eq!(u, vec![u32::MAX, 5_000_000_000u64 as u32]);
    assert_eq!(f, vec![3.5, (1.0f64 / 3.0) as f32]);
    assert_eq!(l, vec![-5_000_000_000, u32::MAX as i64 + 1]);
}

#[kernel]
fn int_ops(a: i32, b: i32, c: u64, out: &mut [i64]) {
    if thread_idx().x == 0 {
        out[0] = (a / b) as i64;
        out[1] = (a % b) as i64;
        out[2] = (a >> 1) as i64;
        out[3] = ((a as u32) >> 1) as i64;
        out[4] = (c << 3u32) as i64;
        out[5] = (!a) as i64;
        out[6] = (a & 0xff) as i64 | ((a ^ b) as i64) << 8;
        out[7] = a.min(b).max(-100) as i64;
        out[8] = a.abs() as i64 + (c % 7) as i64;
        out[9] = (if a < b { a } else { b }) as i64;
    }
}

#[test]
fn integer_operators_match_rust() {
    let (a, b, c) = (-37i32, 5i32, 123_456_789_012u64);
    let mut out = vec![0i64; 10];
    int_ops::launch(&cpu(), 1, 32, a, b, c, &mut out).unwrap();
    let want = vec![
        (a / b) as i64,
        (a % b) as i64,
        (a >> 1) as i64,
        ((a as u32) >> 1) as i64,
        (c << 3u32) as i64,
        (!a) as i64,
        (a & 0xff) as i64 | ((a ^ b) as i64) << 8,
        a.min(b).max(-100) as i64,
        a.abs() as i64 + (c % 7) as i64,
        a.min(b) as i64,
    ];
    assert_eq!(out, want);
}

#[kernel]
fn inferred(out: &mut [f32], big: &mut [u64]) {
    let mut sum = 0.0;
    let mut k = 0;
    while k < 4 {
        sum += out[k];
        k += 1;
    }
    let half = 0.5;
    out[4] = sum * half;
    let mut acc = 1;
    for _ in 0..3 {
        acc *= 1000;
    }
    big[0] = acc * 10_000_000;
}

#[test]
fn unsuffixed_literals_take_their_types_from_use() {
    let k = inferred::ir();
    // `sum` and `half` are f32 (from `out`), `acc` is u64 (from `big`), `k` is i32 by default.
    let ty = |name: &str| k.vars.iter().find(|v| v.name == name).map(|v| v.ty);
    assert_eq!(ty("sum"), Some(ScalarType::F32));
    assert_eq!(ty("half"), Some(ScalarType::F32));
    assert_eq!(ty("acc"), Some(ScalarType::U64));
    assert_eq!(ty("k"), Some(ScalarType::I32));
    let mut out = vec![1.0, 2.0, 3.0, 4.0, 0.0];
    let mut big = vec![0u64];
    inferred::launch(&cpu(), 1, 1, &mut out, &mut big).unwrap();
    assert_eq!(out[4], 5.0);
    assert_eq!(big[0], 10_000_000_000_000_000);
}

#[kernel]
fn loops(out: &mut [u32]) {
    let t = thread_idx().x;
    let mut s = 0u32;
    for i in (t..100).step_by(7) {
        if i % 3 == 0 {
            continue;
        }
        if i > 80 {
            break;
        }
        s += i;
    }
    let mut n = 0u32;
    loop {
        n += 1;
        if n * n > s {
            break;
        }
    }
    let mut w = 10u32;
    while w > 0 {
        w -= 3u32.min(w);
    }
    out[t] = s * 1000 + n + w;
}

#[test]
fn loops_step_by_break_continue() {
    let mut out = vec![0u32; 32];
    loops::launch(&cpu(), 1, 32, &mut out).unwrap();
    for (t, &got) in out.iter().enumerate() {
        let mut s = 0u32;
        for i in (t as u32..100).step_by(7) {
            if i % 3 == 0 {
                continue;
            }
            if i > 80 {
                break;
            }
            s += i;
        }
        let mut n = 0u32;
        loop {
            n += 1;
            if n * n > s {
                break;
            }
        }
        assert_eq!(got, s * 1000 + n, "thread {t}");
    }
}

#[kernel]
fn range_bound_evaluated_once(out: &mut [i32]) {
    let mut end = 5;
    let mut count = 0;
    for _i in 0..end {
        end += 1;
        count += 1;
    }
    out[0] = count;
    out[1] = end;
}

#[test]
fn range_end_is_evaluated_once_as_in_rust() {
    let mut out = vec![0; 2];
    range_bound_evaluated_once::launch(&cpu(), 1, 1, &mut out).unwrap();
    assert_eq!(out, vec![5, 10]);
}

#[kernel]
fn reverse_block(input: &[f32], out: &mut [f32]) {
    let tile = shared::<f32, 64>();
    let t = thread_idx().x;
    let base = block_idx().x * 64;
    tile[t] = input[base + t];
    sync_threads();
    out[base + t] = tile[63 - t];
}

#[kernel]
fn reverse_block_racy(input: &[f32], out: &mut [f32]) {
    let tile = shared::<f32, 64>();
    let t = thread_idx().x;
    let base = block_idx().x * 64;
    tile[t] = input[base + t];
    out[base + t] = tile[63 - t];
}

#[test]
fn shared_memory_with_barrier_is_clean_and_its_buggy_twin_races() {
    let input: Vec<f32> = (0..128).map(|i| i as f32).collect();
    let mut out = vec![0.0; 128];
    let r = reverse_block::launch(&cpu(), 2, 64, &input, &mut out).unwrap();
    assert!(r.is_clean(), "{r}");
    for b in 0..2 {
        for t in 0..64 {
            assert_eq!(out[b * 64 + t], input[b * 64 + 63 - t]);
        }
    }
    let err = reverse_block_racy::launch(&cpu(), 2, 64, &input, &mut out).unwrap_err();
    let report = err.report().expect("findings");
    assert!(report.has(Category::Race), "{report}");
}

#[kernel]
fn histogram(data: &[u32], bins: &mut [u32], old_sum: &mut [u64], n: u32) {
    let i = block_idx().x * block_dim().x + thread_idx().x;
    if i < n {
        let old = atomic_add(&mut bins[data[i] % 8], 1);
        atomic_add(&mut old_sum[0], old as u64);
        atomic_max(&mut bins[8], data[i]);
    }
}

#[test]
fn atomics_count_and_return_old_values() {
    let data: Vec<u32> = (0..500u32).map(|i| i * 7 % 101).collect();
    let mut bins = vec![0u32; 9];
    let mut old_sum = vec![0u64];
    let r = histogram::launch(&cpu(), 2, 256, &data, &mut bins, &mut old_sum, 500).unwrap();
    assert!(r.is_clean(), "{r}");
    for b in 0..8 {
        assert_eq!(
            bins[b],
            data.iter().filter(|&&d| d % 8 == b as u32).count() as u32
        );
    }
    assert_eq!(bins[8], *data.iter().max().unwrap());
    // Each bin's old values are 0..count-1 in some order.
    let want: u64 = (0..8).map(|b| (0..bins[b] as u64).sum::<u64>()).sum();
    assert_eq!(old_sum[0], want);
}

#[kernel]
fn warp_sum(x: &[f32], out: &mut [f32]) {
    let t = thread_idx().x;
    let mut v = x[t];
    let mut offset = 16u32;
    while offset > 0 {
        v += shfl_down_sync(0xffffffff, v, offset);
        offset /= 2;
    }
    let from_xor = shfl_xor_sync(0xffffffff, x[t], 1);
    let first = shfl_sync(0xffffffff, v, 0);
    out[t] = from_xor;
    if lane_id() == 0 {
        out[64 + t / 32] = first;
    }
}

#[test]
fn shuffles_reduce_a_warp() {
    let x: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let mut out = vec![0.0; 66];
    let r = warp_sum::launch(&cpu(), 1, 64, &x, &mut out).unwrap();
    assert!(r.is_clean(), "{r}");
    for t in 0..64 {
        assert_eq!(out[t], x[t ^ 1]);
    }
    assert_eq!(out[64], (0..32).sum::<i32>() as f32);
    assert_eq!(out[65], (32..64).sum::<i32>() as f32);
}

#[kernel_fn]
fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

#[kernel_fn]
fn clamp_store(out: &mut [f32], i: u32, v: f32) {
    out[i] = v.clamp(0.0, 1.0);
}

#[kernel_fn]
fn triangle(n: u32) -> u32 {
    let mut s = 0;
    for k in 0..n + 1 {
        s += k;
    }
    s
}

#[kernel]
fn helpers(a: &[f32], b: &[f32], out: &mut [f32], tri: &mut [u32]) {
    let i = thread_idx().x;
    let v = lerp(a[i], b[i], 0.25);
    clamp_store(out, i, v);
    tri[i] = triangle(i) + triangle(2);
}

#[test]
fn helpers_are_inlined_and_also_callable_on_the_host() {
    let a: Vec<f32> = (0..32).map(|i| i as f32 / 32.0).collect();
    let b: Vec<f32> = (0..32).map(|i| 1.5 - i as f32 / 16.0).collect();
    let mut out = vec![0.0; 32];
    let mut tri = vec![0; 32];
    helpers::launch(&cpu(), 1, 32, &a, &b, &mut out, &mut tri).unwrap();
    for i in 0..32 {
        assert_eq!(out[i], lerp(a[i], b[i], 0.25).clamp(0.0, 1.0));
        assert_eq!(tri[i], triangle(i as u32) + 3);
    }
    // No call remains in the IR: the helpers were inlined.
    let printed = helpers::ir().to_string();
    assert!(!printed.contains("lerp("), "{printed}");
}

#[kernel]
fn select_and_branches(x: &[i32], out: &mut [i32], counter: &mut [i32]) {
    let i = thread_idx().x;
    let v = x[i];
    let sign = if v < 0 {
        -1
    } else if v == 0 {
        0
    } else {
        1
    };
    let big = if v > 10 {
        let d = v - 10;
        d * 2
    } else {
        v
    };
    let bumped = v > 0 && atomic_add(&mut counter[0], 1) >= 0;
    out[i] = sign * 1000 + big + bumped as i32 * 100000;
}

#[test]
fn if_expressions_and_short_circuit_side_effects() {
    let x: Vec<i32> = (0..32).map(|i| i - 10).collect();
    let mut out = vec![0; 32];
    let mut counter = vec![0];
    select_and_branches::launch(&cpu(), 1, 32, &x, &mut out, &mut counter).unwrap();
    for i in 0..32 {
        let v = x[i];
        let big = if v > 10 { (v - 10) * 2 } else { v };
        assert_eq!(out[i], v.signum() * 1000 + big + (v > 0) as i32 * 100000);
    }
    // The atomic ran only where `v > 0` (short-circuit).
    assert_eq!(counter[0], x.iter().filter(|&&v| v > 0).count() as i32);
    // The first `if` is a select, not a branch.
    let k = select_and_branches::ir();
    let sign = k
        .body
        .iter()
        .find(|s| matches!(&s.kind, StmtKind::Let { var, .. } if k.var(*var).name == "sign"));
    let Some(StmtKind::Let { init: Some(e), .. }) = sign.map(|s| &s.kind) else {
        panic!("no sign")
    };
    assert!(matches!(e.kind, ExprKind::Select(..)));
}

#[kernel]
fn local_arrays(out: &mut [f32]) {
    let t = thread_idx().x;
    let mut acc = [0.0f32; 4];
    let w = [1.0, 2.0, 3.0, 4.0];
    for k in 0..4u32 {
        acc[k] += w[k] * t as f32;
    }
    let mut m = [[0u32; 3]; 2];
    m[1][2] = t;
    out[t] = acc[0] + acc[1] + acc[2] + acc[3] + m[1][2] as f32 + m[0][0] as f32;
}

#[test]
fn local_arrays_are_initialised() {
    let mut out = vec![0.0; 8];
    let r = local_arrays::launch(&cpu(), 1, 8, &mut out).unwrap();
    assert!(r.is_clean(), "{r}");
    for t in 0..8 {
        assert_eq!(out[t], 10.0 * t as f32 + t as f32);
    }
}

#[kernel]
fn math(x: &[f32], out: &mut [f32]) {
    let i = thread_idx().x;
    let v = x[i];
    out[i] = v.sqrt()
        + v.exp().ln()
        + v.powf(2.0)
        + v.mul_add(2.0, 1.0)
        + sqrt(v)
        + v.max(0.5).min(2.0)
        + (-v).abs()
        + v.floor();
}

#[test]
fn math_methods_and_functions() {
    let x: Vec<f32> = (1..=8).map(|i| i as f32 * 0.37).collect();
    let mut out = vec![0.0; 8];
    math::launch(&cpu(), 1, 8, &x, &mut out).unwrap();
    for i in 0..8 {
        let v = x[i];
        let want = v.sqrt()
            + v.exp().ln()
            + v.powf(2.0)
            + v.mul_add(2.0, 1.0)
            + v.sqrt()
            + v.clamp(0.5, 2.0)
            + (-v).abs()
            + v.floor();
        assert!((out[i] - want).abs() < 1e-4, "{} vs {want}", out[i]);
    }
}

#[kernel]
fn library(x: &[f32], out: &mut [f32]) {
    let i = thread_idx().x;
    let v = x[i];
    let w = x[7 - i];
    out[i] = v.atan() + v.asinh() + v.cbrt() + v.exp_m1() + v.ln_1p() + v.round_ties_even();
    out[i + 8] = v.atan2(w) + v.hypot(w) + w.copysign(v) + v.sinh() + v.cosh() + v.atanh();
}

#[test]
fn library_methods_run_as_rust_computes_them() {
    let x: Vec<f32> = (0..8).map(|i| i as f32 * 0.125 - 0.4).collect();
    let mut out = vec![0.0; 16];
    library::launch(&cpu(), 1, 8, &x, &mut out).unwrap();
    for i in 0..8 {
        let (v, w) = (x[i], x[7 - i]);
        let a = v.atan() + v.asinh() + v.cbrt() + v.exp_m1() + v.ln_1p() + v.round_ties_even();
        let b = v.atan2(w) + v.hypot(w) + w.copysign(v) + v.sinh() + v.cosh() + v.atanh();
        assert_eq!((out[i], out[i + 8]), (a, b), "x = {v}");
    }
}

#[kernel]
fn overflowing(a: i32, out: &mut [i32]) {
    out[0] = a * a;
}

#[test]
fn signed_overflow_wraps_with_a_warning() {
    let mut out = vec![0];
    let r = overflowing::launch(&cpu(), 1, 1, 65520, &mut out).unwrap();
    assert_eq!(out[0], 65520i32.wrapping_mul(65520));
    assert!(r.has(Category::Overflow), "{r}");
    let denied = overflowing::launch(&cpu().deny(Category::Overflow), 1, 1, 65520, &mut out);
    assert!(matches!(denied, Err(LaunchError::Findings(_))));
}

#[kernel]
fn contract(n: u32, out: &mut [u32]) {
    requires(n <= 64);
    let i = thread_idx().x;
    assert_kernel(i < 64);
    if i < n {
        out[i] = i;
    }
}

#[test]
fn requires_and_assert_become_assume_and_assert() {
    let k = contract::ir();
    assert!(matches!(k.body[0].kind, StmtKind::Assume(_)));
    assert!(k
        .body
        .iter()
        .any(|s| matches!(s.kind, StmtKind::Assert(..))));
    let mut out = vec![0; 64];
    contract::launch(&cpu(), 1, 64, 64, &mut out).unwrap();
    let err = contract::launch(&cpu(), 1, 65, 64, &mut out).unwrap_err();
    assert!(
        err.report().is_some_and(|r| r.has(Category::Assert)),
        "{err}"
    );
}

#[test]
fn spans_point_into_this_file() {
    let k = reverse_block::ir();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/semantics.rs"))
        .unwrap();
    let sync = k
        .body
        .iter()
        .find(|s| matches!(s.kind, StmtKind::SyncThreads))
        .unwrap();
    assert_eq!(&text[sync.span.range()], "sync_threads()");
    assert!(reverse_block::source_file().ends_with("semantics.rs"));
}

#[test]
fn auto_backend_says_which_engine_ran() {
    let input: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let mut out = vec![0.0; 64];
    let r = reverse_block::launch(&Backend::auto(), 1, 64, &input, &mut out).unwrap();
    assert!(r.reason.is_some());
    assert_eq!(out[0], 63.0);
}

#[test]
fn bad_launches_are_errors() {
    let input = vec![0.0f32; 64];
    let mut out = vec![0.0; 64];
    let e = reverse_block::launch(&cpu(), 1, 2048, &input, &mut out).unwrap_err();
    assert!(matches!(e, LaunchError::Exec(_)), "{e}");
}
