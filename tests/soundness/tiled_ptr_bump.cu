// A tiled loop that advances its input pointer by a tile every iteration (`A += 64`), as
// SGEMM kernels bump A, B and C. The pointer bump is a 64-bit loop-carried offset.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=64 --gridDim=4
//@ len(A) = n
//@ len(out) = 256
//@ requires n % 64 == 0
__global__ void tiled_ptr_bump(const float *A, float *out, int n) {
    __shared__ float tile[64];
    float acc = 0.0f;
    for (int t = 0; t < n; t += 64) {
        tile[threadIdx.x] = A[threadIdx.x];
        __syncthreads();
        acc += tile[(threadIdx.x + 1) % 64];
        __syncthreads();
        A += 64;
    }
    out[blockIdx.x * 64 + threadIdx.x] = acc;
}
