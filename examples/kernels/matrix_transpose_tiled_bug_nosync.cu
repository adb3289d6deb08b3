// Buggy twin of matrix_transpose_tiled.cu: the barrier between filling the tile and reading
// it by columns is missing, so a thread reads cells that other warps write concurrently.
// Reads of cells not yet written are also uninitialised-shared reads in this interleaving.
#define TILE_DIM 32
#define BLOCK_ROWS 8
//--blockDim=[32,8] --gridDim=[3,2]
//@ arg rows = 64
//@ arg cols = 96
//@ len(in) = rows * cols
//@ len(out) = rows * cols
//@ requires blockDim.x == 32 && blockDim.y == 8
//@ requires cols == gridDim.x * 32 && rows == gridDim.y * 32
//@ expect race
//@ expect uninit

__global__ void matrix_transpose_tiled(const float* __restrict__ in, float* __restrict__ out,
                                       int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    }

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}
