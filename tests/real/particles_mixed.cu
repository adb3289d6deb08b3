// Gravitational potential and a drift step over particles kept as an array of structs whose
// fields have different types, as simulation and course codes write them:
// `struct Particle { float3 pos; float mass; int id; }` (a position, a mass, a species or
// cell id). Each block loads a tile of positions and masses into shared `float4`s, every
// thread sums the softened potential on its particle, then writes the potential and the
// drifted particle, field by field, to the other buffer of a double-buffered pair. Idiom:
// a record in global memory whose leaves mix float and int (memory of 4-byte words, each
// leaf converted at its access), a float3 sub-record copied into a local, an int field
// copied.
// verify: race=verified divergence=verified bounds=verified
//--blockDim=64 --gridDim=4
//@ len(in) = n
//@ len(out) = n
//@ len(phi) = n
//@ arg n = 250
//@ arg dt = 0.01
//@ arg eps2 = 0.0025
//@ requires n <= 1048576
#include <cuda_runtime.h>

#define BLOCK 64

struct Particle {
    float3 pos;
    float mass;
    int id;
};

__global__ void potential_drift(const Particle* __restrict__ in, Particle* __restrict__ out,
                                float* __restrict__ phi, int n, float dt, float eps2)
{
    __shared__ float4 tile[BLOCK];
    const int i = blockIdx.x * BLOCK + threadIdx.x;
    float3 me = make_float3(0.0f, 0.0f, 0.0f);
    if (i < n)
        me = in[i].pos;
    float acc = 0.0f;
    for (int base = 0; base < n; base += BLOCK) {
        const int j = base + threadIdx.x;
        if (j < n)
            tile[threadIdx.x] = make_float4(in[j].pos.x, in[j].pos.y, in[j].pos.z, in[j].mass);
        else
            tile[threadIdx.x] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        __syncthreads();
        for (int k = 0; k < BLOCK; ++k) {
            const float dx = tile[k].x - me.x;
            const float dy = tile[k].y - me.y;
            const float dz = tile[k].z - me.z;
            acc -= tile[k].w * rsqrtf(dx * dx + dy * dy + dz * dz + eps2);
        }
        __syncthreads();
    }
    if (i < n) {
        phi[i] = acc;
        const float m = in[i].mass;
        out[i].pos.x = me.x + dt * acc * me.x / m;
        out[i].pos.y = me.y + dt * acc * me.y / m;
        out[i].pos.z = me.z + dt * acc * me.z / m;
        out[i].mass = m;
        out[i].id = in[i].id;
    }
}
