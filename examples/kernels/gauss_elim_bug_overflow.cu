// Buggy twin of gauss_elim.cu: the modular product is computed in `int`. Entries are below
// p = 65521, so factor * pivot_row[col] reaches 65520^2 > 2^31 - 1: signed overflow (undefined
// behaviour in C, a wrong residue in practice). With random entries in [0, p) about half of the
// products overflow.
#define P 65521
//--blockDim=64 --gridDim=4
//@ arg nrows = 256
//@ arg ncols = 64
//@ arg pcol = 3
//@ len(mat) = nrows * ncols
//@ len(pivot_row) = ncols
//@ requires nrows <= blockDim.x * gridDim.x
//@ requires pcol >= 0 && pcol < ncols
//@ requires (unsigned long long)nrows * ncols <= 2147483647
//@ deny overflow
//@ expect overflow

__global__ void gauss_elim(int* __restrict__ mat, const int* __restrict__ pivot_row,
                           int nrows, int ncols, int pcol)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= nrows) {
        return;
    }
    int factor = mat[row * ncols + pcol];
    for (int col = 0; col < ncols; ++col) {
        mat[row * ncols + col] = (mat[row * ncols + col] + P - factor * pivot_row[col] % P) % P;
    }
}
