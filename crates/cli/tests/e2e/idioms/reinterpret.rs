//! Pointer views the way real kernels write them: counters in `int` memory stepped through
//! `unsigned int *` (CUDA's simpleAtomicIntrinsics), a histogram counted through an unsigned
//! view, CUDA's float `atomicMax` as a compare-and-swap loop on the float's bits, md5-style
//! 32-bit words of a byte message, a shared byte tile filled a word at a time (GPUVerify's
//! pointertests/cast). Each correct kernel has a buggy twin (a race through the view, a word
//! past the message, a misaligned word), checked by `warpsafe verify --frontend clang`
//! against its `// verify:` line.

use super::common::*;

const HISTOGRAM: &str = r#"//--blockDim=128 --gridDim=2
//@ len(data) = 256
//@ len(bins) = 16
// verify: race=verified bounds=verified
__global__ void histogram(const int *data, int *bins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int *counts = (unsigned int *)bins;
    atomicAdd(&counts[data[i] & 15], 1u);
    atomicInc((unsigned int *)&bins[i % 16], 1000u);
}
"#;

const FLOAT_MAX: &str = r#"//--blockDim=128 --gridDim=2
//@ len(x) = 256
//@ len(m) = 1
// verify: race=verified bounds=verified
__global__ void float_max(const float *x, float *m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int *a = (int *)m;
    int old = __float_as_int(-1.0e30f), assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __float_as_int(fmaxf(x[i], __int_as_float(assumed))));
    } while (assumed != old);
}
"#;

const WORDS: &str = r#"//--blockDim=64 --gridDim=4
//@ len(msg) = 1024
//@ len(out) = 256
// verify: race=verified bounds=verified assert=verified
__global__ void message_words(const unsigned char *msg, unsigned int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int *w = (const unsigned int *)msg;
    out[i] = w[i] ^ (w[i] >> 8);
}
"#;

const TILE: &str = r#"//--blockDim=32 --gridDim=4
//@ len(out) = 512
// verify: race=verified bounds=verified
__global__ void byte_tile(unsigned char *out) {
    __shared__ unsigned char tile[128];
    ((unsigned int *)tile)[threadIdx.x] = threadIdx.x * 0x01010101u;
    __syncthreads();
    for (int k = 0; k < 4; k++)
        out[blockIdx.x * 128 + 4 * threadIdx.x + k] = tile[4 * (31 - threadIdx.x) + k];
}
"#;

#[test]
fn views_of_memory_verify_and_their_twins_fail() {
    let kernels = [
        ("histogram.cu", HISTOGRAM.to_string()),
        // A plain increment through the view: threads i and i + 16 step one bin.
        (
            "histogram_bug_plain.cu",
            twin(
                HISTOGRAM,
                "atomicAdd(&counts[data[i] & 15], 1u);",
                "counts[i & 15]++;",
            )
            .replace("race=verified", "race=violated"),
        ),
        ("float_max.cu", FLOAT_MAX.to_string()),
        // The guide's first guess read plainly races with the other threads' swaps.
        (
            "float_max_bug_plain_read.cu",
            twin(FLOAT_MAX, "__float_as_int(-1.0e30f)", "*a")
                .replace("race=verified", "race=violated"),
        ),
        ("message_words.cu", WORDS.to_string()),
        // One word on: the last thread reads four bytes past the message.
        (
            "message_words_bug_past.cu",
            twin(WORDS, "out[i] = w[i] ^ (w[i] >> 8);", "out[i] = w[i + 1];")
                .replace("bounds=verified", "bounds=violated"),
        ),
        // One byte in: every word is misaligned (a fault on a GPU, so a bounds finding),
        // checked at the cast.
        (
            "message_words_bug_misaligned.cu",
            twin(
                WORDS,
                "(const unsigned int *)msg",
                "(const unsigned int *)(msg + 1)",
            )
            .replace(
                "out[i] = w[i] ^ (w[i] >> 8);",
                "if (i < 255) out[i] = w[i];",
            )
            .replace("bounds=verified", "bounds=violated"),
        ),
        ("byte_tile.cu", TILE.to_string()),
        // Word threadIdx.x / 2: two threads write the same four bytes.
        (
            "byte_tile_bug_shared_word.cu",
            twin(
                TILE,
                "((unsigned int *)tile)[threadIdx.x]",
                "((unsigned int *)tile)[threadIdx.x / 2]",
            )
            .replace("race=verified", "race=violated"),
        ),
    ];
    let refs: Vec<(&str, &str)> = kernels.iter().map(|(n, s)| (*n, s.as_str())).collect();
    check_all("reinterpret", &refs);
}
