// A sequential-addressing reduction whose active range shrinks by a shift of two
// (`n >>= 2`), each active thread folding four values.
// verify: race=verified divergence=verified bounds=verified overflow=verified exit=0
//--blockDim=256 --gridDim=4
//@ len(data) = 1024
__global__ void reduce_shrink_shift(float *data) {
    __shared__ float buf[256];
    unsigned t = threadIdx.x;
    buf[t] = data[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned n = 64; n > 0; n >>= 2) {
        if (t < n) {
            buf[t] += buf[t + n] + buf[t + 2 * n] + buf[t + 3 * n];
        }
        __syncthreads();
    }
    if (t == 0) data[blockIdx.x * 256] = buf[0];
}
