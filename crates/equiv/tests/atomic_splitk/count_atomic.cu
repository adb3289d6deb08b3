// The same count, as real code takes it: every thread adds one with atomicAdd.
//--blockDim=64 --gridDim=4
//@ len(x) = 256
//@ len(count) = 1
//@ init(count) = 0
__global__ void count_all(const float* x, unsigned int* count)
{
    atomicAdd(count, 1u);
}
