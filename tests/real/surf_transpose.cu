// Transpose of a float image between two surface objects, as interop code (CUDA arrays
// shared with a graphics API) writes it: `surf2Dread` the texel at (x, y) of the source and
// `surf2Dwrite` it at (y, x) of the destination. Surface x coordinates are in bytes, hence
// `x * sizeof(float)`; the default boundary mode traps on an out-of-range coordinate, so the
// ragged-edge guard is what keeps the accesses in bounds.
// Idiom: `cudaSurfaceObject_t` parameters, byte x coordinates, `surf2Dread(&v, …)`,
// `cudaArraySurfaceLoadStore` arrays, `cudaCreateSurfaceObject`.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=[16,16] --gridDim=[5,4]
//@ arg width = 80
//@ arg height = 50
//@ extent(src) = width, height
//@ extent(dst) = height, width
//@ requires width >= 1 && height >= 1 && width <= 4096 && height <= 4096
#include <cuda_runtime.h>
#include <cstring>

__global__ void transpose_surf(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float v;
        surf2Dread(&v, src, x * (int)sizeof(float), y);
        surf2Dwrite(v, dst, y * (int)sizeof(float), x);
    }
}

cudaSurfaceObject_t surface_of(cudaArray_t array)
{
    cudaResourceDesc res;
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaSurfaceObject_t s = 0;
    cudaCreateSurfaceObject(&s, &res);
    return s;
}

void transpose(cudaArray_t in, cudaArray_t out, int width, int height)
{
    cudaSurfaceObject_t src = surface_of(in), dst = surface_of(out);
    const dim3 block(16, 16);
    const dim3 grid((width + 15) / 16, (height + 15) / 16);
    transpose_surf<<<grid, block>>>(src, dst, width, height);
    cudaDestroySurfaceObject(src);
    cudaDestroySurfaceObject(dst);
}
