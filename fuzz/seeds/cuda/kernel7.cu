
__global__ void q(int* a, int* cnt, int n) {
    int i = threadIdx.x;
    while (atomicAdd(&cnt[0], 1) < n) { a[i] += 1; }
    if (i > 0 && atomicAdd(&cnt[1], 1) > 3) a[0] = 1;
    int v = i > 2 ? atomicAdd(&cnt[2], 1) : 0;
    a[i] = v;
}
