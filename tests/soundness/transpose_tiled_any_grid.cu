// The tiled transpose for every grid (rows and cols follow from it): no two blocks write one
// element. (Its bounds obligations are still too hard for the solver with a symbolic grid.)
// verify: race=verified divergence=verified uninit=verified
// verify-args: --grid any --property race,divergence,uninit
// Tiled matrix transpose through shared memory (the CUDA samples' transposeNoBankConflicts):
// a 32 x 8 block moves a 32 x 32 tile, each thread four rows of it. The tile has one column of
// padding so that reading it by columns hits 32 different banks. in is rows x cols, out is
// cols x rows, both row-major.
#define TILE_DIM 32
#define BLOCK_ROWS 8
//--blockDim=[32,8]
//@ arg rows = 64
//@ arg cols = 96
//@ len(in) = rows * cols
//@ len(out) = rows * cols
//@ requires blockDim.x == 32 && blockDim.y == 8
//@ requires cols == gridDim.x * 32 && rows == gridDim.y * 32

__global__ void matrix_transpose_tiled(const float* __restrict__ in, float* __restrict__ out,
                                       int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    }

    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}
