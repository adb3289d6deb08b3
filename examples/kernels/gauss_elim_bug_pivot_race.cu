// Buggy twin of gauss_elim.cu: the pivot row is taken from the matrix itself (row prow) and its
// own thread is not told to skip it, so thread prow rewrites the pivot row while every other
// thread reads it.
#define P 65521ull
//--blockDim=64 --gridDim=4
//@ arg nrows = 256
//@ arg ncols = 64
//@ arg prow = 5
//@ arg pcol = 3
//@ len(mat) = nrows * ncols
//@ requires nrows <= blockDim.x * gridDim.x
//@ requires prow >= 0 && prow < nrows
//@ requires pcol >= 0 && pcol < ncols
//@ requires (unsigned long long)nrows * ncols <= 2147483647
//@ deny overflow
//@ expect race

__global__ void gauss_elim(unsigned int* __restrict__ mat, int nrows, int ncols, int prow, int pcol)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= nrows) {
        return;
    }
    const unsigned int* pivot_row = mat + prow * ncols;
    unsigned long long factor = mat[row * ncols + pcol];
    for (int col = 0; col < ncols; ++col) {
        unsigned long long prod = factor * pivot_row[col] % P;
        mat[row * ncols + col] = (unsigned int)((mat[row * ncols + col] + P - prod) % P);
    }
}
