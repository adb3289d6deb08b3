
__device__ int find(const int* a, int n, int key) {
    if (n <= 0) return -1;
    for (int i = 0; i < n; i++) {
        if (a[i] == key) return i;
    }
    return -1;
}
__device__ float clampf(float x) { return x < 0.0f ? 0.0f : x; }
__global__ void k(const int* a, int* out, float* f, int n) {
    int t = threadIdx.x;
    out[t] = find(a, n, t) + 1;
    f[t] = clampf(f[t]);
}
