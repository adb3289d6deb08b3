// A kernel that reads only .x of the launch variables is checked for 1-D launches: blocks
// that differ only in blockIdx.y would write the same element, which is not a bug of a 1-D
// kernel.
// verify: race=verified bounds=verified exit=0
// verify-args: --block any --grid any
//@ len(y) = n
__global__ void saxpy_1d(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
