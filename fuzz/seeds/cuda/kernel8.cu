
#include <cuda.h>
#define TILE_DIM 32
#define BLOCK_ROWS 8
const int N_ELEMS = 1024;
//--blockDim=[32,8]
//@ len(odata) = width * height
//@ len(idata) = width * height
extern "C" __global__ void transpose(float* odata, const float* idata, int width, int height) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void kogge_stone(float* data, int n) {
    __shared__ float buf[256];
    unsigned int t = threadIdx.x;
    buf[t] = t < n ? data[t] : 0.0f;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        float v = 0;
        if (t >= stride) v = buf[t - stride];
        __syncthreads();
        buf[t] += v;
        __syncthreads();
    }
    if (t < n) data[t] = buf[t];
}

__global__ void blelloch(int* g, int n) {
    extern __shared__ int temp[];
    int thid = threadIdx.x;
    int offset = 1;
    temp[2 * thid] = g[2 * thid];
    temp[2 * thid + 1] = g[2 * thid + 1];
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) { temp[n - 1] = 0; }
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    g[2 * thid] = temp[2 * thid];
    g[2 * thid + 1] = temp[2 * thid + 1] + N_ELEMS - N_ELEMS;
}
