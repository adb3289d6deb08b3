// Strided element-wise work as PyTorch's THC kernels and multi-tensor-apply pass tensors: a
// `TensorInfo` record by value holding the data pointer, the sizes and strides as arrays and
// the number of dimensions, and a batch of output buffers in an array of pointers that each
// row of blocks picks by `blockIdx.y`.
// Idiom: arrays inside a by-value kernel parameter (scalars read in a loop over the
// dimensions, pointers picked by a block index), index arithmetic from sizes and strides.
// verify: race=verified divergence=verified
//--blockDim=128 --gridDim=[4,3]
#include <cuda_runtime.h>

#define MAX_DIMS 4
#define BATCH 3

struct TensorInfo {
    const float *data;
    unsigned sizes[MAX_DIMS];
    unsigned strides[MAX_DIMS];
    int dims;
};

struct Batch {
    float *out[BATCH];
    int n;
};

__global__ void scale_strided(TensorInfo in, Batch b, float alpha)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.n)
        return;
    const int dims = in.dims < 1 ? 1 : in.dims < MAX_DIMS ? in.dims : MAX_DIMS;
    unsigned rest = i;
    unsigned off = 0;
    for (int d = dims - 1; d >= 0; d--) {
        const unsigned size = in.sizes[d] > 0 ? in.sizes[d] : 1;
        off += (rest % size) * in.strides[d];
        rest /= size;
    }
    b.out[blockIdx.y][i] = alpha * in.data[off];
}
