
__global__ void hist(unsigned int* bins, const int* keys, int* slots, float* sums) {
    int i = threadIdx.x;
    unsigned int old = atomicAdd(&bins[keys[i]], 1);
    slots[i] = old;
    atomicAdd(&sums[0], 1);
    int prev = atomicCAS(&slots[0], 0, i);
    float v = sums[i];
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffff, v, o);
    if (prev == 0) sums[i] = v;
}
