// Texture objects (2D, bilinear) and a legacy 1D texture reference.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> texRef;

__global__ void transformKernel(float *output, cudaTextureObject_t texObj, int width,
                                int height, float theta) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float u = x / (float)width - 0.5f;
  float v = y / (float)height - 0.5f;
  float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
  float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;
  output[y * width + x] = tex2D<float>(texObj, tu, tv) + tex1Dfetch(texRef, (int)x);
}

__global__ void fetchKernel(float4 *out, cudaTextureObject_t tex, cudaSurfaceObject_t surf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = tex1Dfetch<float4>(tex, i);
    float s = surf2Dread<float>(surf, i * 4, 0);
    surf2Dwrite(s * 2.0f, surf, i * 4, 0);
  }
}

int main() {
  const int width = 512, height = 512;
  size_t size = width * height * sizeof(float);
  float *hData = (float *)malloc(size);
  cudaChannelFormatDesc channelDesc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaChannelFormatDesc desc2 = cudaCreateChannelDesc<float>();
  (void)desc2;
  cudaArray_t cuArray;
  cudaMallocArray(&cuArray, &channelDesc, width, height);
  cudaMemcpy2DToArray(cuArray, 0, 0, hData, width * sizeof(float), width * sizeof(float), height,
                      cudaMemcpyHostToDevice);

  struct cudaResourceDesc resDesc;
  memset(&resDesc, 0, sizeof(resDesc));
  resDesc.resType = cudaResourceTypeArray;
  resDesc.res.array.array = cuArray;
  struct cudaTextureDesc texDesc;
  memset(&texDesc, 0, sizeof(texDesc));
  texDesc.addressMode[0] = cudaAddressModeWrap;
  texDesc.addressMode[1] = cudaAddressModeWrap;
  texDesc.filterMode = cudaFilterModeLinear;
  texDesc.readMode = cudaReadModeElementType;
  texDesc.normalizedCoords = 1;
  cudaTextureObject_t texObj = 0;
  cudaCreateTextureObject(&texObj, &resDesc, &texDesc, NULL);

  float *dLinear, *output;
  cudaMalloc(&dLinear, size);
  cudaMalloc(&output, size);
  texRef.filterMode = cudaFilterModePoint;
  texRef.normalized = false;
  cudaBindTexture(0, texRef, dLinear, size);

  dim3 threadsperBlock(16, 16);
  dim3 numBlocks((width + 15) / 16, (height + 15) / 16);
  transformKernel<<<numBlocks, threadsperBlock>>>(output, texObj, width, height, 0.5f);
  cudaMemcpy(hData, output, size, cudaMemcpyDeviceToHost);

  cudaUnbindTexture(texRef);
  cudaDestroyTextureObject(texObj);
  cudaFreeArray(cuArray);
  cudaFree(output);
  free(hData);
  return 0;
}
