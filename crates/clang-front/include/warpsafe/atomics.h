/* warpsafe device headers: atomic functions with the overloads the
 * Programming Guide documents ("Atomic Functions"), in device scope and with
 * the `_block` and `_system` scope variants. atomicInc / atomicDec wrap at
 * `val` as documented; atomicCAS on unsigned short needs sm_70. The half and
 * bfloat16 overloads of atomicAdd are in cuda_fp16.h / cuda_bf16.h. */
#ifndef WARPSAFE_ATOMICS_H
#define WARPSAFE_ATOMICS_H

#pragma clang system_header

#pragma clang attribute push(__attribute__((device)), apply_to = function)

/* device scope */
int atomicAdd(int *address, int val);
unsigned int atomicAdd(unsigned int *address, unsigned int val);
unsigned long long int atomicAdd(unsigned long long int *address, unsigned long long int val);
float atomicAdd(float *address, float val);
double atomicAdd(double *address, double val);
int atomicSub(int *address, int val);
unsigned int atomicSub(unsigned int *address, unsigned int val);
int atomicExch(int *address, int val);
unsigned int atomicExch(unsigned int *address, unsigned int val);
unsigned long long int atomicExch(unsigned long long int *address, unsigned long long int val);
float atomicExch(float *address, float val);
int atomicMin(int *address, int val);
unsigned int atomicMin(unsigned int *address, unsigned int val);
long long int atomicMin(long long int *address, long long int val);
unsigned long long int atomicMin(unsigned long long int *address, unsigned long long int val);
int atomicMax(int *address, int val);
unsigned int atomicMax(unsigned int *address, unsigned int val);
long long int atomicMax(long long int *address, long long int val);
unsigned long long int atomicMax(unsigned long long int *address, unsigned long long int val);
unsigned int atomicInc(unsigned int *address, unsigned int val);
unsigned int atomicDec(unsigned int *address, unsigned int val);
int atomicAnd(int *address, int val);
unsigned int atomicAnd(unsigned int *address, unsigned int val);
unsigned long long int atomicAnd(unsigned long long int *address, unsigned long long int val);
int atomicOr(int *address, int val);
unsigned int atomicOr(unsigned int *address, unsigned int val);
unsigned long long int atomicOr(unsigned long long int *address, unsigned long long int val);
int atomicXor(int *address, int val);
unsigned int atomicXor(unsigned int *address, unsigned int val);
unsigned long long int atomicXor(unsigned long long int *address, unsigned long long int val);
int atomicCAS(int *address, int compare, int val);
unsigned int atomicCAS(unsigned int *address, unsigned int compare, unsigned int val);
unsigned long long int atomicCAS(unsigned long long int *address, unsigned long long int compare, unsigned long long int val);
unsigned short int atomicCAS(unsigned short int *address, unsigned short int compare, unsigned short int val);

/* thread-block scope */
int atomicAdd_block(int *address, int val);
unsigned int atomicAdd_block(unsigned int *address, unsigned int val);
unsigned long long int atomicAdd_block(unsigned long long int *address, unsigned long long int val);
float atomicAdd_block(float *address, float val);
double atomicAdd_block(double *address, double val);
int atomicSub_block(int *address, int val);
unsigned int atomicSub_block(unsigned int *address, unsigned int val);
int atomicExch_block(int *address, int val);
unsigned int atomicExch_block(unsigned int *address, unsigned int val);
unsigned long long int atomicExch_block(unsigned long long int *address, unsigned long long int val);
float atomicExch_block(float *address, float val);
int atomicMin_block(int *address, int val);
unsigned int atomicMin_block(unsigned int *address, unsigned int val);
long long int atomicMin_block(long long int *address, long long int val);
unsigned long long int atomicMin_block(unsigned long long int *address, unsigned long long int val);
int atomicMax_block(int *address, int val);
unsigned int atomicMax_block(unsigned int *address, unsigned int val);
long long int atomicMax_block(long long int *address, long long int val);
unsigned long long int atomicMax_block(unsigned long long int *address, unsigned long long int val);
unsigned int atomicInc_block(unsigned int *address, unsigned int val);
unsigned int atomicDec_block(unsigned int *address, unsigned int val);
int atomicAnd_block(int *address, int val);
unsigned int atomicAnd_block(unsigned int *address, unsigned int val);
unsigned long long int atomicAnd_block(unsigned long long int *address, unsigned long long int val);
int atomicOr_block(int *address, int val);
unsigned int atomicOr_block(unsigned int *address, unsigned int val);
unsigned long long int atomicOr_block(unsigned long long int *address, unsigned long long int val);
int atomicXor_block(int *address, int val);
unsigned int atomicXor_block(unsigned int *address, unsigned int val);
unsigned long long int atomicXor_block(unsigned long long int *address, unsigned long long int val);
int atomicCAS_block(int *address, int compare, int val);
unsigned int atomicCAS_block(unsigned int *address, unsigned int compare, unsigned int val);
unsigned long long int atomicCAS_block(unsigned long long int *address, unsigned long long int compare, unsigned long long int val);
unsigned short int atomicCAS_block(unsigned short int *address, unsigned short int compare, unsigned short int val);

/* system scope */
int atomicAdd_system(int *address, int val);
unsigned int atomicAdd_system(unsigned int *address, unsigned int val);
unsigned long long int atomicAdd_system(unsigned long long int *address, unsigned long long int val);
float atomicAdd_system(float *address, float val);
double atomicAdd_system(double *address, double val);
int atomicSub_system(int *address, int val);
unsigned int atomicSub_system(unsigned int *address, unsigned int val);
int atomicExch_system(int *address, int val);
unsigned int atomicExch_system(unsigned int *address, unsigned int val);
unsigned long long int atomicExch_system(unsigned long long int *address, unsigned long long int val);
float atomicExch_system(float *address, float val);
int atomicMin_system(int *address, int val);
unsigned int atomicMin_system(unsigned int *address, unsigned int val);
long long int atomicMin_system(long long int *address, long long int val);
unsigned long long int atomicMin_system(unsigned long long int *address, unsigned long long int val);
int atomicMax_system(int *address, int val);
unsigned int atomicMax_system(unsigned int *address, unsigned int val);
long long int atomicMax_system(long long int *address, long long int val);
unsigned long long int atomicMax_system(unsigned long long int *address, unsigned long long int val);
unsigned int atomicInc_system(unsigned int *address, unsigned int val);
unsigned int atomicDec_system(unsigned int *address, unsigned int val);
int atomicAnd_system(int *address, int val);
unsigned int atomicAnd_system(unsigned int *address, unsigned int val);
unsigned long long int atomicAnd_system(unsigned long long int *address, unsigned long long int val);
int atomicOr_system(int *address, int val);
unsigned int atomicOr_system(unsigned int *address, unsigned int val);
unsigned long long int atomicOr_system(unsigned long long int *address, unsigned long long int val);
int atomicXor_system(int *address, int val);
unsigned int atomicXor_system(unsigned int *address, unsigned int val);
unsigned long long int atomicXor_system(unsigned long long int *address, unsigned long long int val);
int atomicCAS_system(int *address, int compare, int val);
unsigned int atomicCAS_system(unsigned int *address, unsigned int compare, unsigned int val);
unsigned long long int atomicCAS_system(unsigned long long int *address, unsigned long long int compare, unsigned long long int val);
unsigned short int atomicCAS_system(unsigned short int *address, unsigned short int compare, unsigned short int val);

#pragma clang attribute pop

#endif /* WARPSAFE_ATOMICS_H */
