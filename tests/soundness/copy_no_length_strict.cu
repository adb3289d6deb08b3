// The same copy under --strict-bounds: with no declared length, any access may be out of
// bounds.
// verify: bounds=violated exit=1
// verify-args: --block any --grid any --strict-bounds
__global__ void copy(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
