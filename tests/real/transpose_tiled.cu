// Tiled transpose of a height x width row-major matrix of any shape (odata is width x height):
// a 32 x 8 block moves a 32 x 32 tile through shared memory, each thread four rows, with a
// padded tile `tile[TILE][TILE + 1]` against bank conflicts and guards for the ragged edge
// tiles. Idiom: `constexpr int` tile sizes at namespace scope, a 2-D `dim3` launch with a
// rounded-up grid, guards on both the load and the store phase.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=[32,8] --gridDim=[3,2]
//@ arg width = 80
//@ arg height = 50
//@ len(idata) = width * height
//@ len(odata) = width * height
//@ requires width > 0 && height > 0 && width <= 4096 && height <= 4096
#include <cuda_runtime.h>

constexpr int TILE = 32;
constexpr int BLOCK_ROWS = 8;

__global__ void transpose(float* __restrict__ odata, const float* __restrict__ idata,
                          int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];

    __syncthreads();

    // Swap the block offsets; each thread now walks a column of the tile.
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose_launch(float* d_out, const float* d_in, int width, int height)
{
    const dim3 block(TILE, BLOCK_ROWS);
    const dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    transpose<<<grid, block>>>(d_out, d_in, width, height);
}
