/* warpsafe device headers: <curand_kernel.h> (cuRAND device API): generator
 * states, curand_init and the distributions, declared for the default
 * XORWOW generator and for Philox4_32_10, MRG32k3a and MTGP32. */
#ifndef WARPSAFE_CURAND_KERNEL_H
#define WARPSAFE_CURAND_KERNEL_H
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
/* MTGP32: one state shared by a block, set up on the host. Its parameter
 * table (a pointer field `k` in cuRAND) is host-prepared and read-only, so it
 * is left out: no device code here reads it. */
struct mtgp32_kernel_params;
typedef struct mtgp32_kernel_params mtgp32_kernel_params_t;
struct curandStateMtgp32 {
  unsigned int s[1024];
  int offset;
  int pIdx;
  int precise_double_flag;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateMtgp32 curandStateMtgp32_t;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

/* The device API below has bodies that are a sound over-approximation of
 * cuRAND's: every output is an arbitrary value of its range (nothing about
 * the sequence is modelled), and every call reads and writes the state it is
 * given, so two threads that share one state race, as they do with cuRAND.
 * curand_init writes every field with an arbitrary value (never a constant:
 * two writes of one constant would be a benign race). */

#pragma clang attribute push(__attribute__((device)), apply_to = function)

/* ---- initialisation and skipping --------------------------------------- */

/* body: every field of the state, arbitrary */
inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                        unsigned long long offset, curandStateXORWOW_t *state) {
  state->d = __warpsafe_arbitrary_u32();
  for (int i = 0; i < 5; i++) {
    unsigned int v = __warpsafe_arbitrary_u32();
    state->v[i] = v;
  }
  state->boxmuller_flag = __warpsafe_arbitrary_i32();
  state->boxmuller_flag_double = __warpsafe_arbitrary_i32();
  float extra = __warpsafe_arbitrary_f32();
  double extra_double = __warpsafe_arbitrary_f64();
  state->boxmuller_extra = extra;
  state->boxmuller_extra_double = extra_double;
}
/* body: every field of the state, arbitrary */
inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                        unsigned long long offset, curandStatePhilox4_32_10_t *state) {
  state->ctr.x = __warpsafe_arbitrary_u32();
  state->ctr.y = __warpsafe_arbitrary_u32();
  state->ctr.z = __warpsafe_arbitrary_u32();
  state->ctr.w = __warpsafe_arbitrary_u32();
  state->output.x = __warpsafe_arbitrary_u32();
  state->output.y = __warpsafe_arbitrary_u32();
  state->output.z = __warpsafe_arbitrary_u32();
  state->output.w = __warpsafe_arbitrary_u32();
  state->key.x = __warpsafe_arbitrary_u32();
  state->key.y = __warpsafe_arbitrary_u32();
  state->STATE = __warpsafe_arbitrary_u32();
  state->boxmuller_flag = __warpsafe_arbitrary_i32();
  state->boxmuller_flag_double = __warpsafe_arbitrary_i32();
  float extra = __warpsafe_arbitrary_f32();
  double extra_double = __warpsafe_arbitrary_f64();
  state->boxmuller_extra = extra;
  state->boxmuller_extra_double = extra_double;
}
/* body: every field of the state, arbitrary */
inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                        unsigned long long offset, curandStateMRG32k3a_t *state) {
  for (int i = 0; i < 3; i++) {
    unsigned int s1 = __warpsafe_arbitrary_u32();
    unsigned int s2 = __warpsafe_arbitrary_u32();
    state->s1[i] = s1;
    state->s2[i] = s2;
  }
  state->boxmuller_flag = __warpsafe_arbitrary_i32();
  state->boxmuller_flag_double = __warpsafe_arbitrary_i32();
  float extra = __warpsafe_arbitrary_f32();
  double extra_double = __warpsafe_arbitrary_f64();
  state->boxmuller_extra = extra;
  state->boxmuller_extra_double = extra_double;
}
/* body: reads and writes the state */
inline void skipahead(unsigned long long n, curandStateXORWOW_t *state) {
  state->d = state->d ^ __warpsafe_arbitrary_u32();
}
/* body: reads and writes the state */
inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *state) {
  state->d = state->d ^ __warpsafe_arbitrary_u32();
}

/* ---- 32-bit outputs ------------------------------------------------------ */

/* body: an arbitrary output; reads and writes the state */
inline unsigned int curand(curandStateXORWOW_t *state) {
  unsigned int r = __warpsafe_arbitrary_u32();
  state->d = state->d ^ r;
  return r;
}
/* body: an arbitrary output; reads and writes the state */
inline unsigned int curand(curandStatePhilox4_32_10_t *state) {
  unsigned int r = __warpsafe_arbitrary_u32();
  state->STATE = state->STATE ^ r;
  return r;
}
/* body: an arbitrary output; reads and writes the state */
inline unsigned int curand(curandStateMRG32k3a_t *state) {
  unsigned int r = __warpsafe_arbitrary_u32();
  state->s1[0] = state->s1[0] ^ r;
  return r;
}
/* body: an arbitrary output. Up to 256 threads of a block draw from one MTGP32
 * state together, each from its own word: thread t (flattened index) reads
 * and writes word t % 256, so more than 256 threads, or two blocks, on one
 * state race, as they do with cuRAND. */
inline unsigned int curand(curandStateMtgp32_t *state) {
  unsigned int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned int r = __warpsafe_arbitrary_u32();
  state->s[t % 256] = state->s[t % 256] ^ r;
  return r;
}
/* body: an arbitrary output; one thread of the block reads and writes the
 * state's offset */
inline unsigned int curand_mtgp32_single(curandStateMtgp32_t *state) {
  unsigned int r = __warpsafe_arbitrary_u32();
  state->offset = state->offset ^ (int)r;
  return r;
}
/* body: an arbitrary output; reads and writes word `index` of the state */
inline unsigned int curand_mtgp32_specific(curandStateMtgp32_t *state, unsigned char index,
                                           unsigned char n) {
  unsigned int r = __warpsafe_arbitrary_u32();
  state->s[index] = state->s[index] ^ r;
  return r;
}
/* body: four arbitrary outputs */
inline uint4 curand4(curandStatePhilox4_32_10_t *state) {
  uint4 r;
  r.x = curand(state);
  r.y = curand(state);
  r.z = curand(state);
  r.w = curand(state);
  return r;
}

/* ---- uniform: any float in (0, 1] ----------------------------------------- */

/* Any float of (0, 1] from the bits `r`: the 24-bit grid ((r >> 8) + 1) *
 * 2^-24 (what cuRAND's own conversion yields), or, on an arbitrary choice, the
 * bits themselves when they are such a float; so every float of (0, 1] is a
 * possible output. (The choice is an arbitrary word being 0, so the
 * interpreter's runs draw from the grid, a uniform distribution.) */
inline float __warpsafe_uniform_of(unsigned int r) {
  float f = __uint_as_float(r);
  if (__warpsafe_arbitrary_u32() == 0u && f > 0.0f && f <= 1.0f)
    return f;
  return (float)((r >> 8) + 1u) * (1.0f / 16777216.0f);
}
/* Any double of (0, 1] from the bits `r`, as above with a 53-bit grid. */
inline double __warpsafe_uniform_double_of(unsigned long long r) {
  double f = __longlong_as_double((long long)r);
  if (__warpsafe_arbitrary_u32() == 0u && f > 0.0 && f <= 1.0)
    return f;
  return (double)((r >> 11) + 1ull) * (1.0 / 9007199254740992.0);
}

/* body: any float of (0, 1] */
inline float curand_uniform(curandStateXORWOW_t *state) {
  return __warpsafe_uniform_of(curand(state));
}
/* body: any float of (0, 1] */
inline float curand_uniform(curandStatePhilox4_32_10_t *state) {
  return __warpsafe_uniform_of(curand(state));
}
/* body: any float of (0, 1] */
inline float curand_uniform(curandStateMRG32k3a_t *state) {
  return __warpsafe_uniform_of(curand(state));
}
/* body: any float of (0, 1] */
inline float curand_uniform(curandStateMtgp32_t *state) {
  return __warpsafe_uniform_of(curand(state));
}
/* body: four floats of (0, 1] */
inline float4 curand_uniform4(curandStatePhilox4_32_10_t *state) {
  float4 r;
  r.x = curand_uniform(state);
  r.y = curand_uniform(state);
  r.z = curand_uniform(state);
  r.w = curand_uniform(state);
  return r;
}
/* body: any double of (0, 1] */
inline double curand_uniform_double(curandStateXORWOW_t *state) {
  unsigned long long hi = curand(state);
  return __warpsafe_uniform_double_of(hi << 32 | curand(state));
}
/* body: any double of (0, 1] */
inline double curand_uniform_double(curandStatePhilox4_32_10_t *state) {
  unsigned long long hi = curand(state);
  return __warpsafe_uniform_double_of(hi << 32 | curand(state));
}
/* body: any double of (0, 1] */
inline double curand_uniform_double(curandStateMRG32k3a_t *state) {
  unsigned long long hi = curand(state);
  return __warpsafe_uniform_double_of(hi << 32 | curand(state));
}

/* ---- normal: Box-Muller over two uniforms ---------------------------------- */

/* Box-Muller's first output for the uniforms u1, u2 of (0, 1]. */
inline float __warpsafe_box_muller(float u1, float u2) {
  return sqrtf(-2.0f * logf(u1)) * cosf(6.2831853071795865f * u2);
}
inline double __warpsafe_box_muller_double(double u1, double u2) {
  return sqrt(-2.0 * log(u1)) * cos(6.2831853071795865 * u2);
}

/* body: Box-Muller over two uniforms */
inline float curand_normal(curandStateXORWOW_t *state) {
  float u1 = curand_uniform(state);
  return __warpsafe_box_muller(u1, curand_uniform(state));
}
/* body: Box-Muller over two uniforms */
inline float curand_normal(curandStatePhilox4_32_10_t *state) {
  float u1 = curand_uniform(state);
  return __warpsafe_box_muller(u1, curand_uniform(state));
}
/* body: Box-Muller over two uniforms */
inline float curand_normal(curandStateMRG32k3a_t *state) {
  float u1 = curand_uniform(state);
  return __warpsafe_box_muller(u1, curand_uniform(state));
}
/* body: Box-Muller over two uniforms */
inline float curand_normal(curandStateMtgp32_t *state) {
  float u1 = curand_uniform(state);
  return __warpsafe_box_muller(u1, curand_uniform(state));
}
/* body: two normals */
inline float2 curand_normal2(curandStateXORWOW_t *state) {
  float2 r;
  r.x = curand_normal(state);
  r.y = curand_normal(state);
  return r;
}
/* body: two normals */
inline float2 curand_normal2(curandStatePhilox4_32_10_t *state) {
  float2 r;
  r.x = curand_normal(state);
  r.y = curand_normal(state);
  return r;
}
/* body: four normals */
inline float4 curand_normal4(curandStatePhilox4_32_10_t *state) {
  float4 r;
  r.x = curand_normal(state);
  r.y = curand_normal(state);
  r.z = curand_normal(state);
  r.w = curand_normal(state);
  return r;
}
/* body: Box-Muller over two uniforms */
inline double curand_normal_double(curandStateXORWOW_t *state) {
  double u1 = curand_uniform_double(state);
  return __warpsafe_box_muller_double(u1, curand_uniform_double(state));
}
/* body: Box-Muller over two uniforms */
inline double curand_normal_double(curandStatePhilox4_32_10_t *state) {
  double u1 = curand_uniform_double(state);
  return __warpsafe_box_muller_double(u1, curand_uniform_double(state));
}
/* body: Box-Muller over two uniforms */
inline double curand_normal_double(curandStateMRG32k3a_t *state) {
  double u1 = curand_uniform_double(state);
  return __warpsafe_box_muller_double(u1, curand_uniform_double(state));
}

/* body: exp of a normal */
inline float curand_log_normal(curandStateXORWOW_t *state, float mean, float stddev) {
  return expf(mean + stddev * curand_normal(state));
}
/* body: exp of a normal */
inline float curand_log_normal(curandStatePhilox4_32_10_t *state, float mean, float stddev) {
  return expf(mean + stddev * curand_normal(state));
}
/* body: exp of a normal */
inline double curand_log_normal_double(curandStateXORWOW_t *state, double mean,
                                       double stddev) {
  return exp(mean + stddev * curand_normal_double(state));
}
/* body: an arbitrary count */
inline unsigned int curand_poisson(curandStateXORWOW_t *state, double lambda) {
  return curand(state);
}
/* body: an arbitrary count */
inline unsigned int curand_poisson(curandStatePhilox4_32_10_t *state, double lambda) {
  return curand(state);
}

#pragma clang attribute pop

#endif /* WARPSAFE_CURAND_KERNEL_H */
