// BUG (planted): the merge loop has no barrier between levels, so a thread reads a partner's
// partial while the partner is still writing it (race).
// Per-row mean and variance with Welford's online algorithm: a `struct Welford` whose
// constructor, `push`, `merge` and const `variance()` are `__device__` members, one object per
// thread over a strided slice of the row, then a tree of merges over partials kept in shared
// memory (one array per member, since the members have different types), and thread 0
// storing the row's mean and variance. Idiom: a value class with mutating and const member
// functions, `this->` and implicit member access, a member taking another object by const
// reference, member-function calls on a local and on a temporary built from shared memory.
// verify: race=violated exit=1
//--blockDim=128 --gridDim=8
//@ len(x) = rows * cols
//@ len(mean) = rows
//@ len(var) = rows
//@ arg rows = 8
//@ arg cols = 1000
//@ requires rows == 8
//@ requires cols > 0 && cols <= 1048576
#include <cuda_runtime.h>

constexpr int kThreads = 128;

struct Welford {
    float mean;
    float m2;
    int count;

    __device__ Welford() : mean(0.0f), m2(0.0f), count(0) {}
    __device__ Welford(float m, float s, int n) : mean(m), m2(s), count(n) {}

    __device__ void push(float v)
    {
        count += 1;
        const float delta = v - mean;
        mean += delta / count;
        m2 += delta * (v - mean);
    }

    __device__ void merge(const Welford& other)
    {
        if (other.count == 0) return;
        const int n = count + other.count;
        const float delta = other.mean - mean;
        mean = this->mean + delta * other.count / n;
        m2 = m2 + other.m2 + delta * delta * count * other.count / n;
        count = n;
    }

    __device__ float variance() const { return count > 1 ? m2 / count : 0.0f; }
};

__global__ void row_stats(const float* __restrict__ x, float* __restrict__ mean,
                          float* __restrict__ var, int rows, int cols)
{
    __shared__ float s_mean[kThreads];
    __shared__ float s_m2[kThreads];
    __shared__ int s_count[kThreads];

    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    Welford acc;
    for (int c = tid; c < cols; c += kThreads)
        acc.push(x[row * cols + c]);
    s_mean[tid] = acc.mean;
    s_m2[tid] = acc.m2;
    s_count[tid] = acc.count;
    __syncthreads();

    for (int stride = kThreads / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            Welford mine(s_mean[tid], s_m2[tid], s_count[tid]);
            mine.merge(Welford(s_mean[tid + stride], s_m2[tid + stride], s_count[tid + stride]));
            s_mean[tid] = mine.mean;
            s_m2[tid] = mine.m2;
            s_count[tid] = mine.count;
        }
    }
    if (tid == 0) {
        Welford total(s_mean[0], s_m2[0], s_count[0]);
        mean[row] = total.mean;
        var[row] = total.variance();
    }
}

void launch_row_stats(const float* x, float* mean, float* var, int rows, int cols)
{
    row_stats<<<rows, kThreads>>>(x, mean, var, rows, cols);
}
