// Softmax of each row (one block per row, one thread per element): the row maximum and the
// sum of exponentials by tree reductions in a shared buffer, barriers between steps.
//--blockDim=128 --gridDim=4
//@ arg n = 128
//@ len(x) = n * gridDim.x
//@ len(y) = n * gridDim.x
//@ requires n == blockDim.x

__global__ void softmax_naive(const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float buf[128];
    int row = blockIdx.x;
    int tid = threadIdx.x;
    float v = x[row * n + tid];
    buf[tid] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) buf[tid] = fmaxf(buf[tid], buf[tid + s]);
        __syncthreads();
    }
    float m = buf[0];
    __syncthreads();
    float e = expf(v - m);
    buf[tid] = e;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) buf[tid] += buf[tid + s];
        __syncthreads();
    }
    y[row * n + tid] = e / buf[0];
}
