//! 8- and 16-bit integers are bit-vectors of their own width: indices that wrap at 8 bits
//! are bounded by 256, `char` arithmetic happens in `int` (no overflow), conversions truncate.

use warpsafe_ir::Kernel;
use warpsafe_verify::{verify, Config, DimSpec, Property, Verdict};

fn kernel(src: &str) -> Kernel {
    warpsafe_cuda_front::compile(src)
        .unwrap_or_else(|e| panic!("{e:?}"))
        .kernels
        .remove(0)
}

fn check(src: &str, props: &[Property]) -> Vec<Verdict> {
    let k = kernel(src);
    let cfg = Config {
        block: k.contract.block_dim.map_or(DimSpec::Any, DimSpec::Fixed),
        grid: k.contract.grid_dim.map_or(DimSpec::Any, DimSpec::Fixed),
        properties: props.to_vec(),
        timeout: std::time::Duration::from_secs(30),
        ..Config::default()
    };
    verify(&k, &cfg)
        .results
        .into_iter()
        .map(|r| r.verdict)
        .collect()
}

fn verified(v: &Verdict) -> bool {
    matches!(v, Verdict::Verified)
}

fn violated(v: &Verdict) -> bool {
    matches!(v, Verdict::Violated(_))
}

const HISTOGRAM: &str = r#"
//@ len(data) = n
//@ len(hist) = 256
__global__ void histogram(const unsigned char* data, unsigned int* hist, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&hist[data[i]], 1u);
    }
}
"#;

#[test]
fn byte_histogram_is_race_free_and_in_bounds() {
    let v = check(
        HISTOGRAM,
        &[Property::Race, Property::Bounds, Property::Overflow],
    );
    assert!(v.iter().all(verified), "{v:?}");
}

#[test]
fn histogram_with_too_few_bins_is_out_of_bounds() {
    // Any byte value may come in: 255 bins are one too few.
    let src = HISTOGRAM.replace("len(hist) = 256", "len(hist) = 255");
    let v = check(&src, &[Property::Bounds]);
    assert!(!verified(&v[0]), "{v:?}");
    // A plain (non-atomic) increment of the bin races between threads with equal bytes.
    let racy = HISTOGRAM.replace("atomicAdd(&hist[data[i]], 1u);", "hist[data[i]] += 1u;");
    let v = check(&racy, &[Property::Race, Property::Bounds]);
    assert!(!verified(&v[0]), "{v:?}");
    assert!(verified(&v[1]), "{v:?}");
}

/// The index `(unsigned char)(threadIdx.x + 200)` wraps at 256: it never reaches 256, for
/// any block size, and every value below 256 is reached.
const WRAPPED_INDEX: &str = r#"
//@ len(out) = 256
//@ requires gridDim.x == 1
__global__ void wrapped(int* out) {
    unsigned char j = threadIdx.x + 200;
    if (threadIdx.x < 256) out[j] = threadIdx.x;
}
"#;

#[test]
fn an_unsigned_char_index_wraps_at_256() {
    let v = check(
        WRAPPED_INDEX,
        &[Property::Bounds, Property::Race, Property::Overflow],
    );
    assert!(v.iter().all(verified), "{v:?}");
    // 255 elements: j == 255 is reached (threadIdx.x == 55): exactly out of bounds.
    let short = WRAPPED_INDEX.replace("len(out) = 256", "len(out) = 255");
    let v = check(&short, &[Property::Bounds]);
    assert!(violated(&v[0]), "{v:?}");
    // Without the guard, threads 0 and 256 write one cell: a race (two threads, one byte).
    let unguarded = WRAPPED_INDEX.replace("if (threadIdx.x < 256) ", "");
    let v = check(&unguarded, &[Property::Race]);
    assert!(violated(&v[0]), "{v:?}");
}

#[test]
fn char_arithmetic_happens_in_int() {
    // c * c * c for a signed char is at most 128^3 in magnitude: no int overflow; the sum of
    // two shorts cannot overflow int either. The store back to a short truncates, defined.
    let src = r#"
__global__ void k(const signed char* a, const short* b, short* out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = a[i] * a[i] * a[i] + b[i] + b[i];
}
"#;
    let v = check(src, &[Property::Overflow]);
    assert!(verified(&v[0]), "{v:?}");
    // The product of two unsigned shorts is computed in (signed) int: 65535 * 65535 overflows.
    let src = r#"
__global__ void k(const unsigned short* a, unsigned int* out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = a[i] * a[i];
}
"#;
    let v = check(src, &[Property::Overflow]);
    assert!(!verified(&v[0]), "{v:?}");
}

#[test]
fn short_index_truncates_and_sign_extends() {
    // (short)40000 is negative: using it as an index is out of bounds for every buffer.
    let src = r#"
//@ len(out) = 65536
__global__ void k(int* out) {
    short s = 40000 + threadIdx.x;
    out[s] = 1;
}
"#;
    let v = check(src, &[Property::Bounds]);
    assert!(violated(&v[0]), "{v:?}");
    // As unsigned short it is 40000 + tid below 65536 for tid < 25536: in bounds.
    let src = r#"
//@ len(out) = 65536
//@ requires blockDim.x <= 1024
__global__ void k(int* out) {
    unsigned short s = 40000 + threadIdx.x;
    out[s] = 1;
}
"#;
    let v = check(src, &[Property::Bounds]);
    assert!(verified(&v[0]), "{v:?}");
}

#[test]
fn half_data_is_opaque_but_indices_are_exact() {
    // A half axpy: the float values never matter for races or bounds.
    let src = r#"
//@ len(x) = n
//@ len(y) = n
__global__ void haxpy(int n, __half a, const __half* x, __half* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __hadd(__hmul(a, x[i]), y[i]);
}
"#;
    let v = check(src, &[Property::Race, Property::Bounds]);
    assert!(v.iter().all(verified), "{v:?}");
    let buggy = src.replace("if (i < n)", "if (i <= n)");
    let v = check(&buggy, &[Property::Race, Property::Bounds]);
    assert!(verified(&v[0]) && violated(&v[1]), "{v:?}");
}
