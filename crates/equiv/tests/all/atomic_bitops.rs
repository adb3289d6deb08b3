//! `atomicAnd/Or/Xor` give the same cell whatever order the threads update it in, so
//! equivalence compares them exactly; `atomicInc/Dec` do not (with different bounds, and their
//! old values with any), so a kernel using them is never called `equal` on one schedule.

use warpsafe_equiv::{equiv_sources, EquivConfig};

const OR_MOD: &str = r#"
//--blockDim=64 --gridDim=1
//@ len(x) = 64
//@ len(bits) = 2
__global__ void mark(const unsigned* x, unsigned* bits) {
    unsigned v = x[threadIdx.x] % 64;
    atomicOr(&bits[v / 32], 1u << (v % 32));
    atomicXor(&bits[threadIdx.x % 2], 1u << (threadIdx.x % 32));
}"#;

#[test]
fn bit_atomics_compare_exactly() {
    let masked = OR_MOD
        .replace("% 64;", "& 63u;")
        .replace("1u << (v % 32)", "1u << (v & 31u)");
    let r = equiv_sources(OR_MOD, OR_MOD, &EquivConfig::default()).unwrap();
    assert_eq!(r.verdict, "equal", "{:?}", r.reason);
    // `% 64` against `& 63u` under the bit operations: the algebra may not prove it (unknown),
    // but it is never called different.
    let r = equiv_sources(OR_MOD, &masked, &EquivConfig::default()).unwrap();
    assert!(matches!(r.verdict, "equal" | "unknown"), "{:?}", r.reason);
    // Setting the neighbouring bit is a different bitmap.
    let off = OR_MOD.replace("1u << (v % 32)", "1u << ((v + 1) % 32)");
    let r = equiv_sources(OR_MOD, &off, &EquivConfig::default()).unwrap();
    assert_eq!(r.verdict, "different", "{:?}", r.reason);
}

const RING: &str = r#"
//--blockDim=32 --gridDim=1
//@ len(head) = 1
//@ len(out) = 32
__global__ void take(unsigned* head, unsigned* out) {
    out[threadIdx.x] = atomicInc(&head[0], 7u);
}"#;

#[test]
fn wrapping_counters_are_not_called_equal() {
    let r = equiv_sources(RING, RING, &EquivConfig::default()).unwrap();
    assert_ne!(r.verdict, "equal", "{:?}", r.reason);
    let dec = RING.replace("atomicInc", "atomicDec");
    let r = equiv_sources(&dec, &dec, &EquivConfig::default()).unwrap();
    assert_ne!(r.verdict, "equal", "{:?}", r.reason);
}
