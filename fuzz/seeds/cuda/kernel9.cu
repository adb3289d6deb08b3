
#define USE_FAST
__global__ void misc(float* out, const double* in, int n) {
    __shared__ int count;
    float acc[4] = {1.0f, 2.0f};
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    atomicAdd(&count, 1);
    __syncthreads();
#ifdef USE_FAST
    float s = __expf(static_cast<float>(in[0]));
#else
    float s = exp(in[0]);
#endif
    for (int i = 0; i < 4; ++i) acc[i] += s * (float)count;
    out[threadIdx.x] = fmaxf(acc[0], acc[3]) + sqrtf(2) + (float)sqrt(in[1]) + min(n, 3) + abs(-n);
}
