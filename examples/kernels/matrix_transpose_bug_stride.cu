// Buggy twin of matrix_transpose.cu: the output index uses the input's row stride
// (`x * cols + y` instead of `x * rows + y`), which only works for square matrices; for this
// 48 x 64 matrix the last columns land past the end of out.
//--blockDim=[16,16] --gridDim=[4,3]
//@ arg rows = 48
//@ arg cols = 64
//@ len(in) = rows * cols
//@ len(out) = rows * cols
//@ requires cols <= blockDim.x * gridDim.x
//@ requires rows <= blockDim.y * gridDim.y
//@ requires (unsigned long long)rows * cols <= 2147483647
//@ expect oob

__global__ void matrix_transpose(const float* __restrict__ in, float* __restrict__ out,
                                 int rows, int cols)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < cols && y < rows) {
        out[x * cols + y] = in[y * cols + x];
    }
}
