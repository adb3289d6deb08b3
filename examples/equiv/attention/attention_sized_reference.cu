// Attention reference of the sized family: O = softmax(scale · Q K^T) V for one head, N queries
// and keys of dimension D, one thread per query row (its scores, their maximum, exponentials,
// the weighted sum of V). The sizes are the macros N and D (defaults 64 and 32), as a user
// sets them: `warpsafe equiv -D N=128 -D D=64 attention_sized_reference.cu
// attention_sized_flash.cu`. The launch and the buffer lengths (cudaMalloc) come from the host
// code below; `scale` (1/sqrt(D) in practice) is a parameter of the host function, so it
// stays symbolic.
#include <cuda_runtime.h>
#include <math.h>

#ifndef N
#define N 64
#endif
#ifndef D
#define D 32
#endif

__global__ void attention_sized_reference(const float* __restrict__ Q,
                                          const float* __restrict__ K,
                                          const float* __restrict__ V, float* __restrict__ O,
                                          float scale)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s[N];
    float m = -INFINITY;
    for (int j = 0; j < N; j++) {
        float acc = 0.0f;
        for (int c = 0; c < D; c++) acc += Q[i * D + c] * K[j * D + c];
        s[j] = acc * scale;
        m = fmaxf(m, s[j]);
    }
    float l = 0.0f;
    for (int j = 0; j < N; j++) {
        s[j] = expf(s[j] - m);
        l += s[j];
    }
    for (int c = 0; c < D; c++) {
        float o = 0.0f;
        for (int j = 0; j < N; j++) o += s[j] * V[j * D + c];
        O[i * D + c] = o / l;
    }
}

void attention(float scale)
{
    float *Q, *K, *V, *O;
    cudaMalloc(&Q, N * D * sizeof(float));
    cudaMalloc(&K, N * D * sizeof(float));
    cudaMalloc(&V, N * D * sizeof(float));
    cudaMalloc(&O, N * D * sizeof(float));
    attention_sized_reference<<<1, N>>>(Q, K, V, O, scale);
}
