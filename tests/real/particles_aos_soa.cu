// Particle integration in both data layouts: array-of-structs (`struct Particle` with six float
// fields, passed as `Particle* p`, read into a local copy, updated, written back whole) and
// struct-of-arrays (`struct Particles` holding device pointers, passed to the kernel by value).
// Idiom: user structs as kernel parameters and locals, member access through `.` and `[]`,
// struct copy assignment, early `return` for the tail threads (no barriers follow).
// verify: race=verified divergence=verified exit=0
// verify[integrate_aos]: bounds=verified
//--blockDim=256 --gridDim=4
//@ len(p) = n
//@ arg n = 1000
#include <cuda_runtime.h>

struct Particle {
    float x, y, z;
    float vx, vy, vz;
};

struct Particles {  // SoA view: every pointer has n elements
    float* x;
    float* y;
    float* vx;
    float* vy;
};

__global__ void integrate_aos(Particle* p, int n, float dt)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle q = p[i];
    q.vy -= 9.81f * dt;
    q.x += q.vx * dt;
    q.y += q.vy * dt;
    q.z += q.vz * dt;
    p[i] = q;
}

__global__ void integrate_soa(Particles ps, int n, float dt)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        ps.vy[i] -= 9.81f * dt;
        ps.x[i] += ps.vx[i] * dt;
        ps.y[i] += ps.vy[i] * dt;
    }
}

void step(Particle* d_aos, Particles d_soa, int n, float dt)
{
    const int threads = 256, blocks = (n + threads - 1) / threads;
    integrate_aos<<<blocks, threads>>>(d_aos, n, dt);
    integrate_soa<<<blocks, threads>>>(d_soa, n, dt);
}
