//! The legacy lock-step warp model orders two accesses of one warp only when both are
//! performed in memory: a warp-synchronous tail on `volatile` shared memory is race-free under
//! lock-step warps, the same tail on plain shared memory races (the compiler may keep the
//! values in registers), as without lock-step (issue 16, item 6).

use crate::common;

use common::*;
use warpsafe_exec::{compile, run, thread_code_text, Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{ArrayId, Category, Kernel, MemRef, ScalarType};

/// The warp tail of `common::warp_tail` (no `__syncwarp()`), its shared array `volatile`
/// when `volatile`.
fn tail(volatile: bool) -> Kernel {
    let mut k = warp_tail(false);
    if volatile {
        let s = k
            .shared
            .iter()
            .position(|a| a.name == "s")
            .expect("the tail's shared array");
        k.contract.volatile.push(MemRef::Shared(ArrayId(s as u32)));
    }
    k
}

fn args() -> Vec<Arg> {
    let x: Vec<i32> = (1..=64).collect();
    vec![
        Arg::Buffer(Buffer::from_i32(&x)),
        Arg::Buffer(Buffer::zeros(ScalarType::I32, 1)),
    ]
}

fn lockstep() -> Options {
    Options {
        lockstep_warps: true,
        ..Options::default()
    }
}

#[test]
fn lowering_marks_accesses_to_volatile_memory() {
    let plain = thread_code_text(&compile(&tail(false)).expect("compiles"));
    assert!(!plain.contains(".volatile"), "{plain}");
    let text = thread_code_text(&compile(&tail(true)).expect("compiles"));
    assert!(text.contains("ld.volatile.i32 m"), "{text}");
    assert!(text.contains("st.volatile.i32 m"), "{text}");
    // The global buffers are not volatile.
    assert!(text.contains("ld.i32 m0["), "{text}");
}

#[test]
fn volatile_warp_tail_is_ordered_under_lockstep() {
    let o = run(
        &tail(true),
        &LaunchConfig::linear(1, 32),
        args(),
        &lockstep(),
    )
    .expect("runs");
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    assert_eq!(buffer(&o, 1).to_i32(), vec![64 * 65 / 2]);
}

#[test]
fn plain_warp_tail_races_under_lockstep() {
    let o = run(
        &tail(false),
        &LaunchConfig::linear(1, 32),
        args(),
        &lockstep(),
    )
    .expect("runs");
    let f = o
        .of(Category::Race)
        .next()
        .expect("a race on the plain warp tail under lock-step warps");
    assert_eq!(f.location.as_ref().map(|l| l.memory.as_str()), Some("s"));
    assert_ne!(f.at.thread, f.other.expect("the other side").thread);
}
