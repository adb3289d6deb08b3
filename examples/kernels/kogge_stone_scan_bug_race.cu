// Buggy twin of kogge_stone_scan.cu: scans in a single buffer, in place. Thread tid reads
// s[tid - offset] while thread tid - offset overwrites it in the same step; a barrier between
// the read and the write is what is missing (the result depends on the interleaving).
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(x) = n
//@ len(y) = n
//@ requires blockDim.x <= 256
//@ requires n <= blockDim.x * gridDim.x
//@ expect race

__global__ void kogge_stone_scan(const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float s[256];

    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    s[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();

    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        if (tid >= offset) {
            s[tid] += s[tid - offset];
        }
        __syncthreads();
    }

    if (i < n) {
        y[i] = s[tid];
    }
}
