// Buggy twin of vector_add.cu: the bound check is off by one (`i <= n`), so the thread
// with i == n reads a[n], b[n] and writes c[n], one past the end of every buffer.
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(a) = n
//@ len(b) = n
//@ len(c) = n
//@ requires n <= blockDim.x * gridDim.x
//@ expect oob

__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b,
                           float* __restrict__ c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) {
        c[i] = a[i] + b[i];
    }
}
