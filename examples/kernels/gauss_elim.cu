// One elimination step of F4's linear algebra over F_p, p = 65521 (the largest 16-bit prime):
// with a reduced pivot row whose leading entry sits in column pcol, every row r of the matrix
// subtracts mat[r][pcol] times the pivot row, modulo p. One thread per row. Entries are kept in
// [0, p); products of two entries exceed 32 bits, so the arithmetic is done in 64 bits.
#define P 65521ull
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

__global__ void gauss_elim(unsigned int* __restrict__ mat, const unsigned int* __restrict__ pivot_row,
                           int nrows, int ncols, int pcol)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= nrows) {
        return;
    }
    unsigned long long factor = mat[row * ncols + pcol];
    for (int col = 0; col < ncols; ++col) {
        unsigned long long prod = factor * pivot_row[col] % P;
        mat[row * ncols + col] = (unsigned int)((mat[row * ncols + col] + P - prod) % P);
    }
}
