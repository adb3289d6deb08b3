
__global__ void conv(float* x, double* d, long long* l, unsigned n) {
    int i = threadIdx.x;
    unsigned u = i + n;
    long long big = i * 3ll;
    float f = x[i] * 2.0;
    double g = x[i] * 1.0f;
    bool b = i < 3;
    int c = (i < 3) + b;
    x[i] = f; d[i] = g; l[i] = big + u + c;
    int post = i++;
    l[0] = post;
}
