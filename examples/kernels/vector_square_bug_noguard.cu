// Buggy twin of vector_square.cu: the bound check is missing. The launch has 4096 threads
// for 4000 elements, so the last 96 threads read and write past the end of x.
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(x) = n
//@ requires n <= blockDim.x * gridDim.x
//@ expect oob

__global__ void vector_square(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    x[i] = v * v;
}
