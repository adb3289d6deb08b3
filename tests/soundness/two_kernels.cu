// Two kernels in one file: the first is correct, the second races. Both are checked.
// verify[scale]: race=verified bounds=verified
// verify[shift_left]: race=violated
// verify: exit=1
//--blockDim=128 --gridDim=4
//@ len(x) = 512
__global__ void scale(float *x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = 2.0f * x[i];
}

__global__ void shift_left(float *x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < 512) x[i] = x[i + 1];
}
