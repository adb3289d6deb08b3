// Single-precision a*x plus y, y[i] = a * x[i] + y[i], with a grid-stride loop: each of the
// 1024 threads handles about four elements, stepping by the size of the whole grid.
//--blockDim=128 --gridDim=8
//@ arg n = 4000
//@ arg a = 2.0
//@ len(x) = n
//@ len(y) = n
//@ requires n <= 2147483647 - blockDim.x * gridDim.x

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}
