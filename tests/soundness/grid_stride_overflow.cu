// The same loop without the bound on n: for n near INT_MAX the last `i += stride` overflows
// int (undefined behaviour); the counterexample is exact, though too large to replay.
// verify: race=verified bounds=verified overflow=violated exit=1
// verify-args: --block any --grid any
//@ len(x) = n
//@ len(y) = n
__global__ void saxpy_grid_stride(int n, float a, const float *x, float *y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}
