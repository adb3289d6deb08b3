// The same shrinking range written with a division by four (`w /= 4`) and a signed counter.
// verify: race=verified divergence=verified bounds=verified overflow=verified exit=0
//--blockDim=256 --gridDim=4
//@ len(data) = 1024
__global__ void reduce_shrink_div(float *data) {
    __shared__ float buf[256];
    int t = threadIdx.x;
    buf[t] = data[blockIdx.x * 256 + t];
    __syncthreads();
    for (int w = 64; w > 0; w /= 4) {
        if (t < w) {
            buf[t] += buf[t + w] + buf[t + 2 * w] + buf[t + 3 * w];
        }
        __syncthreads();
    }
    if (t == 0) data[blockIdx.x * 256] = buf[0];
}
