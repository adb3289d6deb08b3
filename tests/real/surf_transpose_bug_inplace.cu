// The surface transpose of `surf_transpose.cu` done in place on a square image, a shortcut
// that looks harmless because each thread reads its texel before writing.
// Planted bug: thread (x, y) writes texel (y, x) while thread (y, x) reads it, with no
// barrier between them (and they may sit in different blocks): a race on the surface.
// verify: race=violated exit=1
//--blockDim=[16,16] --gridDim=[4,4]
//@ arg n = 64
//@ extent(img) = n, n
//@ requires n >= 1 && n <= 4096
#include <cuda_runtime.h>

__global__ void transpose_in_place(cudaSurfaceObject_t img, int n)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n) {
        float v;
        surf2Dread(&v, img, x * 4, y);
        surf2Dwrite(v, img, y * 4, x);
    }
}

void transpose_square(cudaSurfaceObject_t img, int n)
{
    transpose_in_place<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(img, n);
}
