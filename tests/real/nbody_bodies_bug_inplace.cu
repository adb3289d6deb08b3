// BUG (planted): the step is written in place (`in[i].pos = me.pos`) instead of to the other
// buffer: a block that has finished its tiles overwrites positions that other blocks are still
// loading into their tiles (race between blocks).
// One leapfrog step of an all-pairs n-body simulation over an array of structs of vector
// types, as the CUDA samples' and course codes' `struct Body { float3 pos; float3 vel; }`:
// each block loads a tile of positions (`tile[threadIdx.x] = in[j].pos`, a sub-record copy)
// into shared memory, every thread sums the softened accelerations on its body, then writes
// the advanced body to the other buffer of a double-buffered pair (`out[i] = me`). Idiom:
// nested records (float3 fields) in global memory, a nested local copied by value, a
// device function taking a float3 by value and returning one, `__shared__ float3`.
// verify: race=violated exit=1
//--blockDim=64 --gridDim=4
//@ len(in) = n
//@ arg n = 250
//@ arg dt = 0.01
//@ arg eps2 = 0.0025
//@ requires n <= 1048576
#include <cuda_runtime.h>

#define BLOCK 64

struct Body {
    float3 pos;
    float3 vel;
};

__device__ __forceinline__ float3 pull(float3 me, float3 other, float3 acc, float eps2)
{
    const float dx = other.x - me.x;
    const float dy = other.y - me.y;
    const float dz = other.z - me.z;
    const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + eps2);
    const float s = inv * inv * inv;
    acc.x += dx * s;
    acc.y += dy * s;
    acc.z += dz * s;
    return acc;
}

__global__ void nbody_step(Body* in, int n, float dt, float eps2)
{
    __shared__ float3 tile[BLOCK];
    const int i = blockIdx.x * BLOCK + threadIdx.x;
    Body me = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
    if (i < n)
        me = in[i];
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);
    for (int base = 0; base < n; base += BLOCK) {
        const int j = base + threadIdx.x;
        if (j < n)
            tile[threadIdx.x] = in[j].pos;
        else
            tile[threadIdx.x] = me.pos;
        __syncthreads();
        for (int k = 0; k < BLOCK; ++k)
            acc = pull(me.pos, tile[k], acc, eps2);
        __syncthreads();
    }
    if (i < n) {
        me.vel.x += acc.x * dt;
        me.vel.y += acc.y * dt;
        me.vel.z += acc.z * dt;
        me.pos.x += me.vel.x * dt;
        me.pos.y += me.vel.y * dt;
        me.pos.z += me.vel.z * dt;
        in[i].pos = me.pos;
        in[i].vel = me.vel;
    }
}
