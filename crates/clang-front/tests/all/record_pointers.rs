//! Arithmetic on pointers to records through clang (`MatchCoord *r = coords + start;`
//! stepped by `r++` in a loop's update, `r -= 2`, `q = p++`, `last - first`), as MUMmerGPU's
//! kernels walk their output: a pointer to records is a pointer to their first scalar, so a
//! step of one record is the record's units. The lowered kernel runs on the interpreter
//! against the same walk in Rust.

use crate::common;

use common::kernel;
use warpsafe_exec::{Arg, Buffer};
use warpsafe_ir::Value;

const N: usize = 64;
const PER: usize = 3;

const SOURCE: &str = r#"
//--blockDim=32 --gridDim=2
struct MatchCoord { unsigned int node; short edge; };
__global__ void walk(MatchCoord *coords, const int *starts, int *dist, int per) {
    int i = blockIdx.x * 32 + threadIdx.x;
    MatchCoord *r = coords + starts[i];
    MatchCoord *first = r;
    for (int k = 0; k < per; k++, r++) {
        r->node = i * 100 + k;
        r->edge = (short)-k;
    }
    MatchCoord *last = r - 1;
    last->edge += 7;
    r -= 2;
    ++r;
    r->node += 1000;
    MatchCoord *p = first;
    MatchCoord *q = p++;
    q->node += 5;
    dist[i] = (int)(last - first) * 10 + (int)(p - q);
}
"#;

#[test]
fn a_pointer_to_records_steps_by_whole_records() {
    let c = common::clang_in("record_pointers", "walk.cu", SOURCE);
    let k = kernel(&c, "walk");
    // `MatchCoord` is an `unsigned` and a `short` (and 2 bytes of padding): 4 `u16` units.
    let starts: Vec<i32> = (0..N as i32).map(|i| i * PER as i32).collect();
    let got = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_u16(&vec![0; N * PER * 4])),
            Arg::Buffer(Buffer::from_i32(&starts)),
            Arg::Buffer(Buffer::from_i32(&[0; N])),
            Arg::Scalar(Value::I32(PER as i32)),
        ],
    );
    let mut want = vec![(0u32, 0i16); N * PER];
    for i in 0..N {
        let base = i * PER;
        for k in 0..PER {
            want[base + k] = ((i * 100 + k) as u32, -(k as i16));
        }
        want[base + PER - 1].1 += 7;
        want[base + PER - 1].0 += 1000;
        want[base].0 += 5;
    }
    let units = got[0].to_u16();
    let have: Vec<(u32, i16)> = units
        .chunks(4)
        .map(|c| (c[0] as u32 | (c[1] as u32) << 16, c[2] as i16))
        .collect();
    assert_eq!(have, want);
    assert_eq!(got[2].to_i32(), vec![(PER as i32 - 1) * 10 + 1; N]);
}

const STORE_ONCE: &str = r#"
//--blockDim=32 --gridDim=2
struct Pixel { unsigned long long data; unsigned short tag; };
__device__ unsigned long long bump(unsigned int *c) { return atomicAdd(c, 1u) * 3ull; }
__global__ void fill(Pixel *px, unsigned int *counter) {
    int i = blockIdx.x * 32 + threadIdx.x;
    px[i].tag = (unsigned short)i;
    px[i].data = bump(counter);
}
"#;

#[test]
fn a_call_stored_into_a_wide_field_of_byte_addressed_records_runs_once() {
    let c = common::clang_in("record_pointers", "fill.cu", STORE_ONCE);
    let k = kernel(&c, "fill");
    // `Pixel` mixes 8- and 2-byte leaves: 8 `u16` units, `data` the first four.
    let got = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_u16(&vec![0; N * 8])),
            Arg::Buffer(Buffer::from_u32(&[0])),
        ],
    );
    assert_eq!(got[1].to_u32(), vec![N as u32], "one atomic per thread");
    let units = got[0].to_u16();
    let mut data: Vec<u64> = units
        .chunks(8)
        .map(|c| (0..4).map(|j| (c[j] as u64) << (16 * j)).sum())
        .collect();
    let tags: Vec<u16> = units.chunks(8).map(|c| c[4]).collect();
    assert_eq!(tags, (0..N as u16).collect::<Vec<_>>());
    data.sort_unstable();
    assert_eq!(data, (0..N as u64).map(|k| 3 * k).collect::<Vec<_>>());
}
