// A plain copy with no `len` contract, as GPUVerify and Faial users write it: bounds are
// verified under the inferred requirement len(out) >= gridDim.x * blockDim.x.
// verify: race=verified bounds=verified overflow=verified exit=0
// verify-args: --block any --grid any
__global__ void copy(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
