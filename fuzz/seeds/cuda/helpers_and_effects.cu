__device__ int find(const int* a, int n, int key) {
    if (n <= 0) return -1;
    for (int i = 0; i < n; i++) {
        if (a[i] == key) return i;
    }
    return -1;
}
__global__ void k(const int* a, int* out, float* f, int n) {
    int t = threadIdx.x;
    out[t] = find(a, n, t) + 1;
}
__global__ void q(int* a, int* cnt, int n) {
    int i = threadIdx.x;
    while (atomicAdd(&cnt[0], 1) < n) { a[i] += 1; }
    if (i > 0 && atomicAdd(&cnt[1], 1) > 3) a[0] = 1;
    int v = i > 2 ? atomicAdd(&cnt[2], 1) : 0;
    a[i] = v;
    do { a[i]++; if (i) continue; } while (atomicAdd(&cnt[0], 1) < 5);
    a[a[i]] *= 2;
    a[i++] = a[--i];
}
