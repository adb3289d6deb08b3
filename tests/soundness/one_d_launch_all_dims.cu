// The same kernel checked for every launch shape (--grid any,any,any): blocks that differ in
// blockIdx.y write the same y[i].
// verify: race=violated exit=1
// verify-args: --block any --grid any,any,any
//@ len(y) = n
__global__ void saxpy_1d(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
