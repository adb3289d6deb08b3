// Element-wise vector addition, one thread per element: c[i] = a[i] + b[i].
// n is deliberately not a multiple of the launch width, so the bound check matters.
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(a) = n
//@ len(b) = n
//@ len(c) = n
//@ requires n <= blockDim.x * gridDim.x

__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b,
                           float* __restrict__ c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
