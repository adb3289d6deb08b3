// Naive matrix transpose with 2-D blocks: out (cols x rows) = transpose of in (rows x cols),
// both row-major; thread (x, y) moves in[y][x] to out[x][y]. The matrix is not square, so
// mixing up the two strides is caught.
//--blockDim=[16,16] --gridDim=[4,3]
//@ arg rows = 48
//@ arg cols = 64
//@ len(in) = rows * cols
//@ len(out) = rows * cols
//@ requires cols <= blockDim.x * gridDim.x
//@ requires rows <= blockDim.y * gridDim.y
//@ requires (unsigned long long)rows * cols <= 2147483647

__global__ void matrix_transpose(const float* __restrict__ in, float* __restrict__ out,
                                 int rows, int cols)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x; // column of in
    int y = blockIdx.y * blockDim.y + threadIdx.y; // row of in
    if (x < cols && y < rows) {
        out[x * rows + y] = in[y * cols + x];
    }
}
