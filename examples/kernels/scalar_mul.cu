// Multiplies a vector by a scalar in place, x[i] *= alpha. Each thread owns a contiguous
// chunk of per_thread elements; the last chunk is clipped to n.
//--blockDim=128 --gridDim=8
//@ arg n = 4000
//@ arg alpha = 3.0
//@ arg per_thread = 4
//@ len(x) = n
//@ requires per_thread > 0
//@ requires n <= blockDim.x * gridDim.x * per_thread
//@ requires (unsigned long long)blockDim.x * gridDim.x * per_thread <= 2147483647

__global__ void scalar_mul(float* x, float alpha, int n, int per_thread)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int begin = t * per_thread;
    int end = min(begin + per_thread, n);
    for (int i = begin; i < end; ++i) {
        x[i] *= alpha;
    }
}
