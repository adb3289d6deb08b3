// The work-efficient exclusive scan of GPU Gems 3 (ch. 39): each thread loads two elements,
// an up-sweep builds the sum tree in place, the root is cleared and a down-sweep distributes.
// verify: race=verified divergence=verified bounds=verified uninit=verified exit=0
//--blockDim=128 --gridDim=1
//@ len(g_idata) = 256
//@ len(g_odata) = 256
__global__ void prescan(float *g_odata, const float *g_idata) {
    __shared__ float temp[256];
    int thid = threadIdx.x;
    int n = 256;
    int offset = 1;
    temp[2 * thid] = g_idata[2 * thid];
    temp[2 * thid + 1] = g_idata[2 * thid + 1];
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            float t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    g_odata[2 * thid] = temp[2 * thid];
    g_odata[2 * thid + 1] = temp[2 * thid + 1];
}
