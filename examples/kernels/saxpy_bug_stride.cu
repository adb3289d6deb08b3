// Buggy twin of saxpy.cu: the grid-stride loop steps by blockDim.x instead of
// blockDim.x * gridDim.x, so the blocks' ranges overlap and several blocks read-modify-write
// the same y[i] with nothing ordering them (and y gets a*x added several times).
//--blockDim=128 --gridDim=8
//@ arg n = 4000
//@ arg a = 2.0
//@ len(x) = n
//@ len(y) = n
//@ requires n <= 2147483647 - blockDim.x * gridDim.x
//@ expect race

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x) {
        y[i] = a * x[i] + y[i];
    }
}
