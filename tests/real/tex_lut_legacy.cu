// Tone mapping of 8-bit pixels through a 256-entry lookup table bound to a legacy texture
// reference, as pre-CUDA-12 image code wrote it: a file-scope `texture<float, 1,
// cudaReadModeElementType>`, bound to linear memory with `cudaBindTexture`, read with
// `tex1Dfetch` at an integer coordinate. The reference is a read-only buffer parameter of the
// kernel named after it, so the header gives its length like any buffer's.
// Idiom: `texture<>` reference, `tex1Dfetch(ref, i)` with an `unsigned char` index,
// grid-stride loop, `cudaBindTexture`/`cudaUnbindTexture`.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=128 --gridDim=8
//@ len(pixels) = n
//@ len(out) = n
//@ len(toneLut) = 256
//@ requires n >= 0 && n <= 1 << 24
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> toneLut;

__global__ void tone_map(const unsigned char* __restrict__ pixels, float* __restrict__ out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = tex1Dfetch(toneLut, pixels[i]);
    }
}

void apply_tone_curve(const float* d_curve, const unsigned char* d_pixels, float* d_out, int n)
{
    cudaBindTexture(nullptr, toneLut, d_curve, 256 * sizeof(float));
    tone_map<<<8, 128>>>(d_pixels, d_out, n);
    cudaUnbindTexture(toneLut);
}
