//! Pointer views through clang: memory of one scalar type read and written through a
//! pointer to another (`(unsigned int *)bins`, `(int *)x` on floats, 32-bit words of a byte
//! message, the bytes of 32-bit words). Each kernel runs on the interpreter against values
//! computed here; verify judges it and a buggy twin (a race through the view, a byte past
//! the end, a misaligned word); what a view cannot express is rejected by name.

use crate::common;

use common::{kernel, rejection, z3_missing};
use warpsafe_clang_front::Compiled;
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options as RunOptions, Outcome};
use warpsafe_ir::{Category, Kernel, LengthSpec, Value};
use warpsafe_verify::{verify, Config, DimSpec, Property, Verdict};

const N: usize = 64;

const SOURCE: &str = r#"
//--blockDim=32 --gridDim=2
typedef unsigned char Pixel;

// A histogram counted through an `unsigned int *` view of `int` bins.
__global__ void histogram(const int* data, int* bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int* counts = (unsigned int*)bins;
    if (i < n) atomicAdd(&counts[data[i] & 15], 1u);
}

// Its twin counts without an atomic: threads i and i + 16 step the same bin.
__global__ void histogram_racy(const int* data, int* bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int* counts = (unsigned int*)bins;
    if (i < n) counts[i & 15]++;
}

// A float's sign flipped and its exponent read through its bits.
__global__ void float_bits(float* x, unsigned int* expo, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int* bits = (int*)x;
    if (i < n) {
        expo[i] = (((const unsigned int*)x)[i] >> 23) & 0xff;
        bits[i] ^= 0x80000000;
    }
}

// md5-style: a message of bytes read 32 bits at a time (little-endian).
__global__ void message_words(const unsigned char* msg, unsigned int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int* w = (const unsigned int*)msg;
    if (i < n) out[i] = w[i] + (w[i] >> 16);
}

// Its twin reads one word too many: the bytes past the message.
__global__ void message_words_past(const unsigned char* msg, unsigned int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int* w = (const unsigned int*)msg;
    if (i < n) out[i] = w[i + 1];
}

// Its twin starts one byte in: every word read is misaligned.
__global__ void message_words_misaligned(const unsigned char* msg, unsigned int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int* w = (const unsigned int*)(msg + 1);
    if (i < n - 1) out[i] = w[i];
}

// A shared byte tile filled a word at a time, read back a byte at a time.
__global__ void byte_tile(unsigned char* out, int n) {
    __shared__ unsigned char tile[128];
    ((unsigned int*)tile)[threadIdx.x] = threadIdx.x * 0x01010101u;
    __syncthreads();
    for (int k = 0; k < 4; k++)
        out[blockIdx.x * 128 + 4 * threadIdx.x + k] = tile[4 * (31 - threadIdx.x) + k];
}

// Its twin fills word threadIdx.x / 2: two threads write the same four bytes.
__global__ void byte_tile_racy(unsigned char* out, int n) {
    __shared__ unsigned char tile[128];
    ((unsigned int*)tile)[threadIdx.x / 2] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * 32 + threadIdx.x] = tile[threadIdx.x];
}

// The bytes of 32-bit words (an `unsigned char *` view of `unsigned int` memory).
__global__ void word_bytes(const unsigned int* w, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned char* b = (const unsigned char*)w;
    if (i < n) out[i] = b[i];
}

// CUDA's float atomicMax: a compare-and-swap loop on the float's bits through an `int *`.
__device__ float atomicMaxFloat(float* addr, float val) {
    int* a = (int*)addr;
    int old = *a, assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}

__global__ void float_max(const float* x, float* m, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicMaxFloat(m, x[i]);
}

// The same loop started from a guess: no plain read races with the other threads' swaps.
__global__ void float_max_guess(const float* x, float* m, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int* a = (int*)m;
    int old = __float_as_int(-1.0e30f), assumed;
    if (i < n) {
        do {
            assumed = old;
            old = atomicCAS(a, assumed, __float_as_int(fmaxf(x[i], __int_as_float(assumed))));
        } while (assumed != old);
    }
}

// Its twin updates the maximum without the atomic.
__global__ void float_max_racy(const float* x, float* m, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int* a = (int*)m;
    if (i < n) *a = __float_as_int(fmaxf(x[i], __int_as_float(*a)));
}

// The programming guide's double atomicAdd for GPUs without one.
__device__ double atomicAddDouble(double* address, double val) {
    unsigned long long int* address_as_ull = (unsigned long long int*)address;
    unsigned long long int old = *address_as_ull, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed,
                        __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__global__ void double_sum(const double* x, double* sum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAddDouble(sum, x[i]);
}

// CUDA's simpleAtomicIntrinsics: wrapping counters kept in `int` memory.
__global__ void wrapping_counters(int* g, int n) {
    atomicInc((unsigned int*)&g[0], 17);
    atomicDec((unsigned int*)&g[1], 137);
}

// cudaMallocPitch rows: a row's byte offset added through `char *`.
__global__ void pitched_rows(float* base, int pitch) {
    float* row = (float*)((char*)base + blockIdx.x * pitch);
    row[threadIdx.x] = row[threadIdx.x] * 2.0f + blockIdx.x;
}

// A pitched row handed to a helper: back at `float *`, the view is an ordinary pointer.
__device__ void scale_row(float* row, float s) { row[threadIdx.x] *= s; }

__global__ void scale_pitched(float* base, int pitch) {
    scale_row((float*)((char*)base + blockIdx.x * pitch), 3.0f);
}

// fluidsGL: rows of `float2` records at a byte pitch, then record pointer arithmetic.
__global__ void pitched_records(float2* v, int pitch) {
    float2* p = (float2*)((char*)v + blockIdx.x * pitch) + threadIdx.x;
    float2 t = *p;
    t.x += 1.0f;
    t.y *= 2.0f;
    *p = t;
}

// Image rows of `Pixel` addressed through `char *` (CUDA's FunctionPointers sample).
__global__ void invert_rows(Pixel* image, int pitch) {
    unsigned char* row = (unsigned char*)(((char*)image) + blockIdx.x * pitch);
    row[threadIdx.x] = 255 - row[threadIdx.x];
}
"#;

fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("reinterpret", name, source)
}

/// Runs `k` on 2 blocks of 32 threads.
fn launch(k: &Kernel, args: Vec<Arg>) -> Outcome {
    run(
        k,
        &LaunchConfig::linear(2, 32),
        args,
        &RunOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", k.name))
}

/// Every buffer argument after a run that found nothing.
fn buffers(k: &Kernel, args: Vec<Arg>) -> Vec<Buffer> {
    common::run_buffers(k, args)
}

/// `p`'s verdict on `k` (2 blocks of 32), buffer `name` holding `n * per` elements for each
/// `(name, per)` in `lens` (a `per` of 0: 16 elements).
fn verdict(k: &Kernel, p: Property, lens: &[(&str, u64)]) -> Verdict {
    let lens: Vec<(&str, u64, u64)> = lens.iter().map(|(b, per)| (*b, *per, 1)).collect();
    verdict_scaled(k, p, &lens)
}

/// `p`'s verdict on `k`, buffer `name` holding `n * num / den` elements for each
/// `(name, num, den)` in `lens` (a `num` of 0: 16 elements).
fn verdict_scaled(k: &Kernel, p: Property, lens: &[(&str, u64, u64)]) -> Verdict {
    use warpsafe_ir::{BinOp, Expr, ExprKind, ScalarType};
    let mut k = k.clone();
    let n = k.param_named("n").expect("n");
    for (name, num, den) in lens {
        let param = k.param_named(name).expect("buffer");
        let n = Expr::new(ExprKind::Param(n), ScalarType::I32).cast(ScalarType::U64);
        let len = match num {
            0 => Expr::u64(16),
            _ => Expr::binary(
                BinOp::Div,
                Expr::binary(BinOp::Mul, n, Expr::u64(*num)),
                Expr::u64(*den),
            ),
        };
        k.contract.lengths.push(LengthSpec { param, len });
    }
    let cfg = Config {
        block: DimSpec::Fixed([32, 1, 1]),
        grid: DimSpec::Fixed([2, 1, 1]),
        properties: vec![p],
        timeout: std::time::Duration::from_secs(60),
        ..Config::default()
    };
    verify(&k, &cfg).result(p).expect("checked").verdict.clone()
}

fn n_arg() -> Arg {
    Arg::Scalar(Value::I32(N as i32))
}

#[test]
fn a_histogram_counts_through_an_unsigned_view_of_int_bins() {
    let c = clang("histogram.cu", SOURCE);
    let k = kernel(&c, "histogram");
    // The bins stay `int` memory; the atomic updates them directly.
    assert!(k.to_string().contains("bins: &mut [i32]"), "{k}");
    let data: Vec<i32> = (0..N as i32).map(|i| i * 7 - 100).collect();
    let got = buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_i32(&data)),
            Arg::Buffer(Buffer::from_i32(&[0; 16])),
            n_arg(),
        ],
    );
    let mut want = [0i32; 16];
    for d in &data {
        want[(d & 15) as usize] += 1;
    }
    assert_eq!(got[1].to_i32(), want);
    let race = verdict(k, Property::Race, &[("data", 1), ("bins", 0)]);
    if z3_missing(&race) {
        eprintln!("z3 not installed: verdicts skipped");
        return;
    }
    assert!(matches!(race, Verdict::Verified), "{race:?}");
    let racy = verdict(kernel(&c, "histogram_racy"), Property::Race, &[]);
    assert!(matches!(racy, Verdict::Violated(_)), "{racy:?}");
}

#[test]
fn a_float_is_negated_and_its_exponent_read_through_its_bits() {
    let c = clang("float_bits.cu", SOURCE);
    let k = kernel(&c, "float_bits");
    let x: Vec<f32> = (0..N).map(|i| (i as f32 - 20.0) * 1.75).collect();
    let got = buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_f32(&x)),
            Arg::Buffer(Buffer::from_u32(&[0; N])),
            n_arg(),
        ],
    );
    let neg: Vec<u32> = x.iter().map(|v| (-v).to_bits()).collect();
    let got_bits: Vec<u32> = got[0].to_f32().iter().map(|v| v.to_bits()).collect();
    assert_eq!(got_bits, neg);
    let expo: Vec<u32> = x.iter().map(|v| (v.to_bits() >> 23) & 0xff).collect();
    assert_eq!(got[1].to_u32(), expo);
}

/// The message bytes 0, 1, 2, … as little-endian words.
fn message() -> Vec<u8> {
    (0..4 * N + 4).map(|i| (i * 37 + 11) as u8).collect()
}

fn word(m: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([m[at], m[at + 1], m[at + 2], m[at + 3]])
}

#[test]
fn a_byte_message_is_read_as_little_endian_words() {
    let c = clang("message_words.cu", SOURCE);
    let k = kernel(&c, "message_words");
    let m = message();
    let got = buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_u8(&m[..4 * N])),
            Arg::Buffer(Buffer::from_u32(&[0; N])),
            n_arg(),
        ],
    );
    let want: Vec<u32> = (0..N)
        .map(|i| word(&m, 4 * i).wrapping_add(word(&m, 4 * i) >> 16))
        .collect();
    assert_eq!(got[1].to_u32(), want);
    let lens = [("msg", 4), ("out", 1)];
    let bounds = verdict(k, Property::Bounds, &lens);
    if z3_missing(&bounds) {
        eprintln!("z3 not installed: verdicts skipped");
        return;
    }
    assert!(matches!(bounds, Verdict::Verified), "{bounds:?}");
    let race = verdict(k, Property::Race, &lens);
    assert!(matches!(race, Verdict::Verified), "{race:?}");
    let assert = verdict(k, Property::Assert, &lens);
    assert!(matches!(assert, Verdict::Verified), "{assert:?}");
}

#[test]
fn a_word_past_the_message_is_out_of_bounds_byte_by_byte() {
    let c = clang("message_words_past.cu", SOURCE);
    let k = kernel(&c, "message_words_past");
    let m = message();
    let out = launch(
        k,
        vec![
            Arg::Buffer(Buffer::from_u8(&m[..4 * N])),
            Arg::Buffer(Buffer::from_u32(&[0; N])),
            n_arg(),
        ],
    );
    assert!(out.of(Category::Oob).next().is_some(), "{:?}", out.findings);
    let bounds = verdict(k, Property::Bounds, &[("msg", 4), ("out", 1)]);
    if z3_missing(&bounds) {
        return;
    }
    assert!(matches!(bounds, Verdict::Violated(_)), "{bounds:?}");
}

#[test]
fn a_misaligned_word_view_is_a_finding_at_its_cast() {
    let c = clang("message_words_misaligned.cu", SOURCE);
    let k = kernel(&c, "message_words_misaligned");
    let m = message();
    let out = launch(
        k,
        vec![
            Arg::Buffer(Buffer::from_u8(&m[..4 * N])),
            Arg::Buffer(Buffer::from_u32(&[0; N])),
            n_arg(),
        ],
    );
    // A misaligned access faults on a GPU: an out-of-bounds finding.
    let found: Vec<_> = out.of(Category::Oob).collect();
    assert!(!found.is_empty(), "{:?}", out.findings);
    assert!(
        found[0].message.contains("misaligned access"),
        "{:?}",
        found[0]
    );
    let at = &SOURCE[found[0].at.span.range()];
    assert!(at.contains("(const unsigned int*)(msg + 1)"), "{at}");
    let v = verdict(k, Property::Bounds, &[("msg", 4), ("out", 1)]);
    if z3_missing(&v) {
        return;
    }
    assert!(matches!(v, Verdict::Violated(_)), "{v:?}");
}

#[test]
fn a_shared_byte_tile_is_filled_by_words_and_read_by_bytes() {
    let c = clang("byte_tile.cu", SOURCE);
    let k = kernel(&c, "byte_tile");
    assert!(k.to_string().contains("u8[128]"), "{k}");
    let got = buffers(k, vec![Arg::Buffer(Buffer::from_u8(&[0; 256])), n_arg()]);
    let want: Vec<u8> = (0..256).map(|j| (31 - (j % 128) / 4) as u8).collect();
    assert_eq!(got[0].to_u8(), want);
    let race = verdict(k, Property::Race, &[]);
    if z3_missing(&race) {
        return;
    }
    assert!(matches!(race, Verdict::Verified), "{race:?}");
    // Without the barrier, a thread reads bytes another thread writes.
    let src = SOURCE.replacen("    __syncthreads();\n    for", "    for", 1);
    assert_ne!(src, SOURCE);
    let c2 = clang("byte_tile_nobarrier.cu", &src);
    let racy = verdict(kernel(&c2, "byte_tile"), Property::Race, &[]);
    assert!(matches!(racy, Verdict::Violated(_)), "{racy:?}");
}

#[test]
fn two_threads_writing_one_word_through_a_byte_view_race() {
    let c = clang("byte_tile_racy.cu", SOURCE);
    let k = kernel(&c, "byte_tile_racy");
    let out = launch(k, vec![Arg::Buffer(Buffer::from_u8(&[0; 64])), n_arg()]);
    assert!(
        out.of(Category::Race).next().is_some(),
        "{:?}",
        out.findings
    );
    let race = verdict(k, Property::Race, &[]);
    if z3_missing(&race) {
        return;
    }
    assert!(matches!(race, Verdict::Violated(_)), "{race:?}");
}

#[test]
fn the_bytes_of_words_are_read_little_endian() {
    let c = clang("word_bytes.cu", SOURCE);
    let k = kernel(&c, "word_bytes");
    let w: Vec<u32> = (0..N as u32 / 4)
        .map(|i| (0x0403_0201 * (i + 1)) ^ 0x8000_0000)
        .collect();
    let got = buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_u32(&w)),
            Arg::Buffer(Buffer::from_u8(&[0; N])),
            n_arg(),
        ],
    );
    let want: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(got[1].to_u8(), want);
    // Byte i is in word i / 4: n words are more than enough.
    let bounds = verdict_scaled(k, Property::Bounds, &[("w", 1, 1), ("out", 1, 1)]);
    if z3_missing(&bounds) {
        return;
    }
    assert!(matches!(bounds, Verdict::Verified), "{bounds:?}");
    // n / 4 words (rounded down) leave the last bytes of an odd n past the end.
    let short = verdict_scaled(k, Property::Bounds, &[("w", 1, 4), ("out", 1, 1)]);
    assert!(matches!(short, Verdict::Violated(_)), "{short:?}");
}

#[test]
fn image_rows_are_addressed_through_a_char_view() {
    let c = clang("invert_rows.cu", SOURCE);
    let k = kernel(&c, "invert_rows");
    let img: Vec<u8> = (0..2 * 40).map(|i| (i * 3) as u8).collect();
    let got = buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_u8(&img)),
            Arg::Scalar(Value::I32(40)),
        ],
    );
    let want: Vec<u8> = img
        .iter()
        .enumerate()
        .map(|(i, p)| if i % 40 < 32 { 255 - p } else { *p })
        .collect();
    assert_eq!(got[0].to_u8(), want);
}

#[test]
fn the_float_max_loop_compares_and_swaps_the_float_bits() {
    let c = clang("float_max.cu", SOURCE);
    let x: Vec<f32> = (0..N)
        .map(|i| ((i * 37) % 61) as f32 * -0.5 + 7.25)
        .collect();
    let want = x.iter().cloned().fold(-1000.0f32, f32::max);
    let args = || {
        vec![
            Arg::Buffer(Buffer::from_f32(&x)),
            Arg::Buffer(Buffer::from_f32(&[-1000.0])),
            n_arg(),
        ]
    };
    let k = kernel(&c, "float_max_guess");
    assert!(k.to_string().contains("atomicCAS(&m["), "{k}");
    let got = buffers(k, args());
    assert_eq!(got[1].to_f32(), vec![want]);
    // The guide's loop starts with a plain read of the float, which races with the other
    // threads' swaps (atomics are ordered only among themselves); the maximum still lands.
    let k = kernel(&c, "float_max");
    let out = launch(k, args());
    let Some(Arg::Buffer(m)) = out.args.get(1) else {
        panic!("m");
    };
    assert_eq!(m.to_f32(), vec![want]);
    let races: Vec<_> = out.of(Category::Race).collect();
    assert!(
        !races.is_empty() && races.iter().all(|f| f.message.contains("atomic")),
        "{races:?}"
    );
    let lens = [("x", 1), ("m", 0)];
    let race = verdict(kernel(&c, "float_max_guess"), Property::Race, &lens);
    if z3_missing(&race) {
        return;
    }
    assert!(matches!(race, Verdict::Verified), "{race:?}");
    let read = verdict(k, Property::Race, &lens);
    assert!(matches!(read, Verdict::Violated(_)), "{read:?}");
    let racy = verdict(kernel(&c, "float_max_racy"), Property::Race, &lens);
    assert!(matches!(racy, Verdict::Violated(_)), "{racy:?}");
}

#[test]
fn the_double_add_loop_sums_exactly() {
    let c = clang("double_sum.cu", SOURCE);
    let k = kernel(&c, "double_sum");
    let x: Vec<f64> = (0..N).map(|i| i as f64 * 0.25 - 3.0).collect();
    let out = launch(
        k,
        vec![
            Arg::Buffer(Buffer::from_f64(&x)),
            Arg::Buffer(Buffer::from_f64(&[100.0])),
            n_arg(),
        ],
    );
    let Some(Arg::Buffer(sum)) = out.args.get(1) else {
        panic!("sum");
    };
    // Quarter steps add exactly in any order; the loop's first plain read is the only
    // finding (a read racing with the swaps).
    assert_eq!(sum.to_f64(), vec![100.0 + x.iter().sum::<f64>()]);
    assert!(
        out.findings
            .iter()
            .all(|f| f.category == Category::Race && f.message.contains("atomic")),
        "{:?}",
        out.findings
    );
}

#[test]
fn wrapping_counters_in_int_memory_step_as_unsigned() {
    let c = clang("wrapping_counters.cu", SOURCE);
    let k = kernel(&c, "wrapping_counters");
    assert!(k.to_string().contains("g: &mut [i32]"), "{k}");
    let got = buffers(k, vec![Arg::Buffer(Buffer::from_i32(&[0, 0])), n_arg()]);
    // 64 increments modulo 18; 0 → 137 then 63 decrements.
    assert_eq!(got[0].to_i32(), vec![64 % 18, 137 - 63]);
}

#[test]
fn pitched_rows_step_by_bytes_and_must_stay_aligned() {
    let c = clang("pitched_rows.cu", SOURCE);
    let k = kernel(&c, "pitched_rows");
    // Rows of 40 floats: a pitch of 160 bytes.
    let m: Vec<f32> = (0..80).map(|i| i as f32 * 0.5).collect();
    let got = buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_f32(&m)),
            Arg::Scalar(Value::I32(160)),
        ],
    );
    let want: Vec<f32> = m
        .iter()
        .enumerate()
        .map(|(i, v)| {
            if i % 40 < 32 {
                v * 2.0 + (i / 40) as f32
            } else {
                *v
            }
        })
        .collect();
    assert_eq!(got[0].to_f32(), want);
    // A pitch of 162 bytes leaves row 1 two bytes off a float: a fault on a GPU.
    let out = launch(
        k,
        vec![
            Arg::Buffer(Buffer::from_f32(&m)),
            Arg::Scalar(Value::I32(162)),
        ],
    );
    let found: Vec<_> = out.of(Category::Oob).collect();
    assert!(!found.is_empty(), "{:?}", out.findings);
    assert!(found.iter().all(|f| f.at.block == [1, 0, 0]), "{found:?}");
    let k = kernel(&c, "scale_pitched");
    let got = buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_f32(&m)),
            Arg::Scalar(Value::I32(160)),
        ],
    );
    let want: Vec<f32> = m
        .iter()
        .enumerate()
        .map(|(i, v)| if i % 40 < 32 { v * 3.0 } else { *v })
        .collect();
    assert_eq!(got[0].to_f32(), want);
}

/// The rejection of kernel `name` in `src`: its message and spanned text.
fn rejected(src: &str, name: &str) -> (String, String) {
    let c = clang(&format!("{name}.cu"), src);
    let (m, at) = rejection(&c, src, name);
    (m, at.to_string())
}

#[test]
fn what_a_view_cannot_express_is_rejected_by_name() {
    let src = r#"
__device__ void bump(unsigned int* c) { c[0] += 1; }
__device__ unsigned int first_word(const unsigned char* p) { return *(const unsigned int*)p; }
__global__ void min_unsigned(int* g) { atomicMin((unsigned int*)&g[0], threadIdx.x); }
__global__ void byte_store(unsigned int* w) { ((unsigned char*)w)[threadIdx.x] = 1; }
__global__ void passed_on(int* g) { bump((unsigned int*)g); }
__global__ void unknown_alignment(const unsigned char* m, unsigned int* out) {
    out[threadIdx.x] = first_word(m + threadIdx.x);
}
__global__ void add_float_bits(float* f) { atomicAdd((int*)f, 1); }
"#;
    let (m, at) = rejected(src, "min_unsigned");
    assert!(
        m.contains("`atomicMin` through a `unsigned int *` view of `int` memory"),
        "{m}"
    );
    assert!(at.starts_with("atomicMin("), "{at}");
    let (m, at) = rejected(src, "byte_store");
    assert!(
        m.contains("a store through a `unsigned char *` view of `unsigned int` memory"),
        "{m}"
    );
    assert!(at.contains("= 1"), "{at}");
    // A view passed to a helper is that helper's parameter (inlined where it is called).
    let c = clang("passed_on.cu", src);
    assert!(c.module.kernel("passed_on").is_some(), "{:?}", c.rejected);
    let (m, at) = rejected(src, "unknown_alignment");
    assert!(m.contains("alignment is unknown"), "{m}");
    assert!(at.contains("(const unsigned int*)p"), "{at}");
    let (m, _) = rejected(src, "add_float_bits");
    assert!(
        m.contains("`atomicAdd` on the `int` bits of `float` memory"),
        "{m}"
    );
}

#[test]
fn pitched_rows_of_records_start_at_a_whole_record() {
    let c = clang("pitched_records.cu", SOURCE);
    let k = kernel(&c, "pitched_records");
    // Rows of 40 `float2`: a pitch of 320 bytes; the buffer holds the records' floats.
    let m: Vec<f32> = (0..160).map(|i| i as f32).collect();
    let got = buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_f32(&m)),
            Arg::Scalar(Value::I32(320)),
        ],
    );
    let want: Vec<f32> = m
        .iter()
        .enumerate()
        .map(|(i, v)| match (i / 2 % 40 < 32, i % 2) {
            (true, 0) => v + 1.0,
            (true, _) => v * 2.0,
            _ => *v,
        })
        .collect();
    assert_eq!(got[0].to_f32(), want);
    // 324 bytes: row 1 starts inside a record (on a float); 322: not even on a float.
    for pitch in [324, 322] {
        let out = launch(
            k,
            vec![
                Arg::Buffer(Buffer::from_f32(&m)),
                Arg::Scalar(Value::I32(pitch)),
            ],
        );
        let found: Vec<_> = out.of(Category::Oob).collect();
        assert!(!found.is_empty(), "pitch {pitch}: {:?}", out.findings);
        assert!(found.iter().all(|f| f.at.block == [1, 0, 0]), "{found:?}");
    }
}

const VIEW_PARAMS: &str = r#"
//--blockDim=32 --gridDim=2
// A helper hashing 32-bit words, called with a word view of a byte message (as the md5
// kernels of the ispass2009 benchmarks pass `(unsigned int *)(input + chunk)`), then with
// plain words: the parameter is the view for the first call only.
__device__ unsigned int mix(const unsigned int *w, int k) {
    unsigned int h = 0;
    for (int j = 0; j < k; j++)
        h = h * 31u + w[j];
    return h;
}
__global__ void hash_bytes(const unsigned char *msg, const unsigned int *words,
                           unsigned int *out) {
    int i = blockIdx.x * 32 + threadIdx.x;
    const unsigned int *view = (const unsigned int *)(msg + 8 * i);
    out[2 * i] = mix(view, 2);
    out[2 * i + 1] = mix(words + 2 * i, 2);
}
"#;

#[test]
fn a_word_view_of_bytes_passed_to_a_helper_is_read_as_words_there() {
    let c = clang("view_params.cu", VIEW_PARAMS);
    let k = kernel(&c, "hash_bytes");
    let msg: Vec<u8> = (0..8 * N).map(|b| (b * 37 % 251) as u8).collect();
    let words: Vec<u32> = (0..2 * N as u32)
        .map(|w| w.wrapping_mul(0x0101_0101))
        .collect();
    let got = buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_u8(&msg)),
            Arg::Buffer(Buffer::from_u32(&words)),
            Arg::Buffer(Buffer::from_u32(&vec![0; 2 * N])),
        ],
    );
    let mix = |w: &[u32]| {
        w.iter()
            .fold(0u32, |h, &x| h.wrapping_mul(31).wrapping_add(x))
    };
    let want: Vec<u32> = (0..N)
        .flat_map(|i| {
            let view: Vec<u32> = msg[8 * i..8 * i + 8]
                .chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            [mix(&view), mix(&words[2 * i..2 * i + 2])]
        })
        .collect();
    assert_eq!(got[2].to_u32(), want);
}
