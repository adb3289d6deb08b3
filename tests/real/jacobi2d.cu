// One Jacobi sweep of the 2-D Laplace equation on an nx x ny grid (row-major, fixed boundary):
// each interior point becomes the mean of its four neighbours, read from u and written to
// u_new. Idiom: a 2-D launch with `dim3 block(16, 16)` and a rounded-up `dim3 grid`,
// `blockIdx.y`/`threadIdx.y` rows, an early `return` for boundary and out-of-range threads
// (the kernel has no barrier), and a host loop that ping-pongs the two buffers.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=[16,16] --gridDim=[4,4]
//@ arg nx = 60
//@ arg ny = 50
//@ len(u) = nx * ny
//@ len(u_new) = nx * ny
//@ requires nx >= 3 && ny >= 3 && nx <= 4096 && ny <= 4096
#include <cuda_runtime.h>

__global__ void jacobi_step(const float* __restrict__ u, float* __restrict__ u_new, int nx, int ny)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;  // column
    const int j = blockIdx.y * blockDim.y + threadIdx.y;  // row
    if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1) return;

    const int idx = j * nx + i;
    u_new[idx] = 0.25f * (u[idx - 1] + u[idx + 1] + u[idx - nx] + u[idx + nx]);
}

void jacobi(float* d_u, float* d_tmp, int nx, int ny, int iterations)
{
    const dim3 block(16, 16);
    const dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
    for (int it = 0; it < iterations; ++it) {
        jacobi_step<<<grid, block>>>(d_u, d_tmp, nx, ny);
        float* t = d_u;
        d_u = d_tmp;
        d_tmp = t;
    }
    cudaDeviceSynchronize();
}
