// A 3x3 box blur of a single-channel float image read through a texture object, as image
// pipelines write it: the host wraps a pitched allocation in a cudaResourceDesc/cudaTextureDesc
// pair (point filtering, clamp addressing, unnormalized coordinates), the kernel samples
// tex2D<float> at texel centres (x + 0.5f) and lets the clamp mode handle the image border.
// Idiom: `cudaTextureObject_t` parameter, `tex2D<float>`, 2-D launch with a ragged-edge guard,
// `memset` of the descriptors, `cudaCreateTextureObject`/`cudaDestroyTextureObject`.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=[16,16] --gridDim=[5,4]
//@ arg width = 80
//@ arg height = 50
//@ extent(img) = width, height
//@ len(out) = width * height
//@ requires width >= 1 && height >= 1 && width <= 4096 && height <= 4096
#include <cuda_runtime.h>
#include <cstring>

__global__ void box_blur3(cudaTextureObject_t img, float* __restrict__ out, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;

    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            // Texel centres; the clamp address mode repeats the edge outside the image.
            sum += tex2D<float>(img, x + dx + 0.5f, y + dy + 0.5f);
        }
    }
    out[y * width + x] = sum * (1.0f / 9.0f);
}

void blur(const float* d_image, size_t pitch_bytes, float* d_out, int width, int height)
{
    cudaResourceDesc res;
    memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = const_cast<float*>(d_image);
    res.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    res.res.pitch2D.width = width;
    res.res.pitch2D.height = height;
    res.res.pitch2D.pitchInBytes = pitch_bytes;

    cudaTextureDesc desc;
    memset(&desc, 0, sizeof(desc));
    desc.addressMode[0] = cudaAddressModeClamp;
    desc.addressMode[1] = cudaAddressModeClamp;
    desc.filterMode = cudaFilterModePoint;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 0;

    cudaTextureObject_t tex = 0;
    cudaCreateTextureObject(&tex, &res, &desc, nullptr);
    const dim3 block(16, 16);
    const dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    box_blur3<<<grid, block>>>(tex, d_out, width, height);
    cudaDestroyTextureObject(tex);
}
