//! `goto` and the memory builtins (`memcpy`, `memset`) the way real kernels use them: a
//! forward jump out of nested search loops, a block-uniform early exit past a barrier, a
//! jump to the end of a loop iteration, copies of structs and floats with `memcpy`, a shared
//! histogram cleared with `memset`; also types spelled through a template's member typedef.
//! Each correct kernel has a buggy twin, checked by `warpsafe verify --frontend clang`
//! against its `// verify:` line.

use super::common::*;

/// (file name, source) of every kernel.
const KERNELS: &[(&str, &str)] = &[
    // Leaving two search loops at the first match: each thread writes its own slot.
    (
        "search_exit.cu",
        r#"//--blockDim=64 --gridDim=4
// verify: race=verified
__global__ void first_match(const int *keys, const int *table, int *slot, int n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int key = keys[t];
  int found = -1;
  for (int b = 0; b < 16; b++) {
    for (int w = 0; w < 4; w++) {
      if (table[b * 4 + w] == key) {
        found = b * 4 + w;
        goto done;
      }
    }
  }
done:
  slot[t] = found;
}
"#,
    ),
    (
        "search_exit_bug_shared_slot.cu",
        r#"//--blockDim=64 --gridDim=4
// verify: race=violated
__global__ void first_match(const int *keys, const int *table, int *slot, int n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int key = keys[t];
  int found = -1;
  for (int b = 0; b < 16; b++) {
    for (int w = 0; w < 4; w++) {
      if (table[b * 4 + w] == key) {
        found = b * 4 + w;
        goto done;
      }
    }
  }
done:
  slot[blockIdx.x] = found;
}
"#,
    ),
    // A block with nothing to do jumps to the end: every thread of the block does, so the
    // barrier it skips is skipped by all of them.
    (
        "skip_uniform.cu",
        r#"//--blockDim=128 --gridDim=8
// verify: divergence=verified race=verified
__global__ void smooth(float *data, int tiles) {
  __shared__ float tile[128];
  if (blockIdx.x >= tiles)
    goto out;
  tile[threadIdx.x] = data[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  data[blockIdx.x * 128 + threadIdx.x] = 0.5f * (tile[threadIdx.x] + tile[(threadIdx.x + 1) % 128]);
out:
  return;
}
"#,
    ),
    (
        "skip_uniform_bug_per_thread.cu",
        r#"//--blockDim=128 --gridDim=8
// verify: divergence=violated
__global__ void smooth(float *data, int tiles) {
  __shared__ float tile[128];
  if (blockIdx.x * 128 + threadIdx.x >= tiles)
    goto out;
  tile[threadIdx.x] = data[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  data[blockIdx.x * 128 + threadIdx.x] = 0.5f * (tile[threadIdx.x] + tile[(threadIdx.x + 1) % 128]);
out:
  return;
}
"#,
    ),
    // `goto next_row` ends one row early; the label is reached again on every row.
    (
        "next_row.cu",
        r#"//--blockDim=32 --gridDim=1
// verify: race=verified bounds=verified
__global__ void clip_rows(float *m) {
  __shared__ float acc[32];
  acc[threadIdx.x] = 0.0f;
  for (int r = 0; r < 8; r++) {
    for (int c = 0; c < 4; c++) {
      float v = m[r * 128 + threadIdx.x * 4 + c];
      if (v < 0.0f)
        goto next_row;
      acc[threadIdx.x] += v;
    }
  next_row:
    __syncwarp();
  }
  m[threadIdx.x] = acc[threadIdx.x];
}
"#,
    ),
    (
        "next_row_bug_neighbour.cu",
        r#"//--blockDim=32 --gridDim=1
// verify: race=violated
__global__ void clip_rows(float *m) {
  __shared__ float acc[32];
  acc[threadIdx.x] = 0.0f;
  for (int r = 0; r < 8; r++) {
    for (int c = 0; c < 4; c++) {
      float v = m[r * 128 + threadIdx.x * 4 + c];
      if (v < 0.0f)
        goto next_row;
      acc[threadIdx.x] += v;
    }
  next_row:
    acc[(threadIdx.x + 1) % 32] += 1.0f;
  }
  m[threadIdx.x] = acc[threadIdx.x];
}
"#,
    ),
    // A snapshot of an array of structs, one `memcpy` per element: race-free and in bounds.
    (
        "copy_structs.cu",
        r#"//--blockDim=64 --gridDim=2
// verify: race=verified bounds=verified
#include <string.h>
struct Particle { float pos[3]; float mass; int id; };
__global__ void snapshot(const Particle *live, Particle *saved, int n) {
  __requires(n == 128);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    memcpy(&saved[i], &live[i], sizeof(Particle));
}
"#,
    ),
    // Two elements per thread: thread i also writes element i + 1, its neighbour's.
    (
        "copy_structs_bug_one_too_many.cu",
        r#"//--blockDim=64 --gridDim=2
// verify: race=violated
#include <string.h>
struct Particle { float pos[3]; float mass; int id; };
__global__ void snapshot(const Particle *live, Particle *saved, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    memcpy(&saved[i], &live[i], 2 * sizeof(Particle));
}
"#,
    ),
    // Each thread stages four floats into its slice of a shared tile.
    (
        "stage_tile.cu",
        r#"//--blockDim=32 --gridDim=1
// verify: race=verified bounds=verified
__global__ void stage(const float *in, float *out) {
  __shared__ float tile[32 * 4];
  float *mine = tile + threadIdx.x * 4;
  __builtin_memcpy(mine, in + threadIdx.x * 4, 4 * sizeof(float));
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x * 4 + 5) % 128];
}
"#,
    ),
    // Five floats per slice: the last thread writes past the tile.
    (
        "stage_tile_bug_past_the_tile.cu",
        r#"//--blockDim=32 --gridDim=1
// verify: bounds=violated
__global__ void stage(const float *in, float *out) {
  __shared__ float tile[32 * 4];
  float *mine = tile + threadIdx.x * 4;
  __builtin_memcpy(mine, in + threadIdx.x * 4, 5 * sizeof(float));
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x * 4 + 5) % 128];
}
"#,
    ),
    // One thread clears a shared histogram with `memset(local, 0, sizeof(local))`.
    (
        "clear_hist.cu",
        r#"//--blockDim=256 --gridDim=1
// verify: race=verified uninit=verified
__global__ void histogram(const unsigned char *data, unsigned *bins, int n) {
  __shared__ unsigned local[256];
  if (threadIdx.x == 0)
    memset(local, 0, sizeof(local));
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  bins[threadIdx.x] = local[threadIdx.x];
}
"#,
    ),
    // The same without the barrier after the clear: the clear races with the counting.
    (
        "clear_hist_bug_no_barrier.cu",
        r#"//--blockDim=256 --gridDim=1
// verify: race=violated
__global__ void histogram(const unsigned char *data, unsigned *bins, int n) {
  __shared__ unsigned local[256];
  if (threadIdx.x == 0)
    memset(local, 0, sizeof(local));
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  bins[threadIdx.x] = local[threadIdx.x];
}
"#,
    ),
    // An nbody-style template kernel whose types are spelled through a member typedef
    // (`typename vec4<T>::Type` is `float4` for `float`).
    (
        "member_typedef.cu",
        r#"//--blockDim=64 --gridDim=2
// verify: race=verified bounds=verified
template <typename T> struct vec4 { typedef T Type; };
template <> struct vec4<float> { typedef float4 Type; };
template <typename T>
__global__ void integrate(typename vec4<T>::Type *pos, const typename vec4<T>::Type *vel, T dt, int n) {
  __requires(n == 128);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  typename vec4<T>::Type p = pos[i];
  p.x += vel[i].x * dt;
  p.y += vel[i].y * dt;
  p.z += vel[i].z * dt;
  pos[i] = p;
}
template __global__ void integrate<float>(float4 *, const float4 *, float, int);
"#,
    ),
    (
        "member_typedef_bug_half_index.cu",
        r#"//--blockDim=64 --gridDim=2
// verify: race=violated
template <typename T> struct vec4 { typedef T Type; };
template <> struct vec4<float> { typedef float4 Type; };
template <typename T>
__global__ void integrate(typename vec4<T>::Type *pos, const typename vec4<T>::Type *vel, T dt, int n) {
  __requires(n == 128);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  typename vec4<T>::Type p = pos[i];
  p.x += vel[i].x * dt;
  p.y += vel[i].y * dt;
  p.z += vel[i].z * dt;
  pos[i / 2] = p;
}
template __global__ void integrate<float>(float4 *, const float4 *, float, int);
"#,
    ),
];

#[test]
fn goto_and_memory_builtin_idioms_get_their_expected_verdicts() {
    check_all("gotos_memops", KERNELS);
}
