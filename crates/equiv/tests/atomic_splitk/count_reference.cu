// The number of threads whose input element is counted: every one (a reference count).
//--blockDim=64 --gridDim=4
//@ len(x) = 256
//@ len(count) = 1
//@ init(count) = 0
__global__ void count_all(const float* x, unsigned int* count)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        count[0] = gridDim.x * blockDim.x;
}
