// Buggy twin of dot_product.cu: the reduction's barrier was moved inside `if (tid < s)`, so at
// every level only the lower half of the still-active threads arrives at it.
//--blockDim=256 --gridDim=8
//@ arg n = 4000
//@ len(x) = n
//@ len(y) = n
//@ len(partial) = gridDim.x
//@ requires n <= 2147483647 - blockDim.x * gridDim.x
//@ requires blockDim.x == 256
//@ expect divergence

__global__ void dot_product(const float* __restrict__ x, const float* __restrict__ y,
                            float* __restrict__ partial, int n)
{
    __shared__ float cache[256];

    int tid = threadIdx.x;
    float temp = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
        temp += x[i] * y[i];
    }
    cache[tid] = temp;
    __syncthreads();

    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            cache[tid] += cache[tid + s];
            __syncthreads();
        }
    }

    if (tid == 0) {
        partial[blockIdx.x] = cache[0];
    }
}
