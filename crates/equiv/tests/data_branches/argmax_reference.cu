// Index of the largest of 8 values per row, the first on ties: one thread per row.
//--blockDim=4 --gridDim=1
//@ len(x) = 32
//@ len(best) = 4
__global__ void argmax_rows(const float* x, int* best)
{
    int r = threadIdx.x;
    int b = 0;
    float m = x[r * 8];
    for (int j = 1; j < 8; j++) {
        if (x[r * 8 + j] > m) {
            m = x[r * 8 + j];
            b = j;
        }
    }
    best[r] = b;
}
