// BUG (planted): the tile load is guarded by `j <= n`: in the last tile thread 58 of every block
// reads pos[n], one past the end (bounds).
// All-pairs gravitational acceleration over shared-memory tiles, written with a small vector
// class: `struct Vec3` with member `operator+`, `operator-`, `operator*` (by a scalar),
// compound `operator+=` returning `*this`, a const `dot`, and a free `operator*` with the
// scalar first. Positions are loaded a tile at a time into `__shared__ Vec3 tile[BLOCK]` and
// every thread accumulates its body's acceleration. Idiom: value types with operator
// overloads, records in global and shared memory, `const Vec3&` parameters, `rsqrtf`.
// verify: bounds=violated exit=1
//--blockDim=64 --gridDim=4
//@ len(pos) = n
//@ len(acc) = n
//@ arg n = 250
//@ requires n <= 1048576
#include <cuda_runtime.h>

#define BLOCK 64

struct Vec3 {
    float x, y, z;

    Vec3() = default;
    __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}

    __device__ Vec3 operator+(const Vec3& o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
    __device__ Vec3 operator-(const Vec3& o) const { return Vec3(x - o.x, y - o.y, z - o.z); }
    __device__ Vec3 operator*(float s) const { return Vec3(x * s, y * s, z * s); }
    __device__ Vec3& operator+=(const Vec3& o)
    {
        x += o.x;
        y += o.y;
        z += o.z;
        return *this;
    }
    __device__ float dot(const Vec3& o) const { return x * o.x + y * o.y + z * o.z; }
};

__device__ __forceinline__ Vec3 operator*(float s, const Vec3& v) { return v * s; }

__global__ void accelerations(const Vec3* __restrict__ pos, Vec3* __restrict__ acc, int n,
                              float softening)
{
    __shared__ Vec3 tile[BLOCK];
    const int i = blockIdx.x * BLOCK + threadIdx.x;
    Vec3 me(0.0f, 0.0f, 0.0f);
    if (i < n)
        me = pos[i];
    Vec3 a(0.0f, 0.0f, 0.0f);
    for (int base = 0; base < n; base += BLOCK) {
        const int j = base + threadIdx.x;
        if (j <= n)
            tile[threadIdx.x] = pos[j];
        else
            tile[threadIdx.x] = Vec3(0.0f, 0.0f, 0.0f);
        __syncthreads();
        for (int k = 0; k < BLOCK; ++k) {
            const Vec3 d = tile[k] - me;
            const float inv = rsqrtf(d.dot(d) + softening);
            a += (inv * inv * inv) * d;
        }
        __syncthreads();
    }
    if (i < n)
        acc[i] = a;
}
