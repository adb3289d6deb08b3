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
/* MTGP32: one state shared by a block, set up on the host. */
struct mtgp32_kernel_params;
typedef struct mtgp32_kernel_params mtgp32_kernel_params_t;
struct curandStateMtgp32 {
  unsigned int s[1024];
  int offset;
  int pIdx;
  mtgp32_kernel_params_t *k;
  int precise_double_flag;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateMtgp32 curandStateMtgp32_t;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

#pragma clang attribute push(__attribute__((device)), apply_to = function)

void curand_init(unsigned long long seed, unsigned long long subsequence,
                 unsigned long long offset, curandStateXORWOW_t *state);
void curand_init(unsigned long long seed, unsigned long long subsequence,
                 unsigned long long offset, curandStatePhilox4_32_10_t *state);
void curand_init(unsigned long long seed, unsigned long long subsequence,
                 unsigned long long offset, curandStateMRG32k3a_t *state);
void skipahead(unsigned long long n, curandStateXORWOW_t *state);
void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *state);

unsigned int curand(curandStateXORWOW_t *state);
unsigned int curand(curandStatePhilox4_32_10_t *state);
unsigned int curand(curandStateMRG32k3a_t *state);
unsigned int curand(curandStateMtgp32_t *state);
unsigned int curand_mtgp32_single(curandStateMtgp32_t *state);
unsigned int curand_mtgp32_specific(curandStateMtgp32_t *state, unsigned char index,
                                    unsigned char n);
uint4 curand4(curandStatePhilox4_32_10_t *state);

float curand_uniform(curandStateXORWOW_t *state);
float curand_uniform(curandStatePhilox4_32_10_t *state);
float curand_uniform(curandStateMRG32k3a_t *state);
float curand_uniform(curandStateMtgp32_t *state);
float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
double curand_uniform_double(curandStateXORWOW_t *state);
double curand_uniform_double(curandStatePhilox4_32_10_t *state);
double curand_uniform_double(curandStateMRG32k3a_t *state);

float curand_normal(curandStateXORWOW_t *state);
float curand_normal(curandStatePhilox4_32_10_t *state);
float curand_normal(curandStateMRG32k3a_t *state);
float curand_normal(curandStateMtgp32_t *state);
float2 curand_normal2(curandStateXORWOW_t *state);
float2 curand_normal2(curandStatePhilox4_32_10_t *state);
float4 curand_normal4(curandStatePhilox4_32_10_t *state);
double curand_normal_double(curandStateXORWOW_t *state);
double curand_normal_double(curandStatePhilox4_32_10_t *state);
double curand_normal_double(curandStateMRG32k3a_t *state);

float curand_log_normal(curandStateXORWOW_t *state, float mean, float stddev);
float curand_log_normal(curandStatePhilox4_32_10_t *state, float mean, float stddev);
double curand_log_normal_double(curandStateXORWOW_t *state, double mean, double stddev);
unsigned int curand_poisson(curandStateXORWOW_t *state, double lambda);
unsigned int curand_poisson(curandStatePhilox4_32_10_t *state, double lambda);

#pragma clang attribute pop

#endif /* WARPSAFE_CURAND_KERNEL_H */
