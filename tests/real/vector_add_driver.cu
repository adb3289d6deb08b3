// vectorAdd loaded and launched through the CUDA driver API: an extern "C" kernel found by
// cuModuleGetFunction, CUdeviceptr buffers from cuMemAlloc, arguments through a void* array
// passed to cuLaunchKernel. Idiom: <cuda.h> host code with a CUresult check macro.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=128 --gridDim=8
//@ len(a) = n
//@ len(b) = n
//@ len(c) = n
//@ arg n = 1000
#include <cstdio>
#include <cuda.h>

extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

#define CU_CHECK(call)                                                          \
    do {                                                                        \
        CUresult r_ = (call);                                                   \
        if (r_ != CUDA_SUCCESS) {                                               \
            const char* msg_ = nullptr;                                         \
            cuGetErrorString(r_, &msg_);                                        \
            fprintf(stderr, "CUDA driver error \"%s\" at %s:%d\n",              \
                    msg_ ? msg_ : "unknown", __FILE__, __LINE__);               \
            return 1;                                                           \
        }                                                                       \
    } while (0)

int main()
{
    int n = 1000;
    const int threads = 128;
    size_t bytes = n * sizeof(float);
    static float h_a[1000], h_b[1000], h_c[1000];
    for (int i = 0; i < n; ++i) {
        h_a[i] = 0.5f * i;
        h_b[i] = 2.0f - i;
    }

    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction vecAdd;
    CU_CHECK(cuInit(0));
    CU_CHECK(cuDeviceGet(&dev, 0));
    CU_CHECK(cuCtxCreate(&ctx, 0, dev));
    CU_CHECK(cuModuleLoad(&mod, "vector_add_driver.ptx"));
    CU_CHECK(cuModuleGetFunction(&vecAdd, mod, "vector_add"));

    CUdeviceptr d_a, d_b, d_c;
    CU_CHECK(cuMemAlloc(&d_a, bytes));
    CU_CHECK(cuMemAlloc(&d_b, bytes));
    CU_CHECK(cuMemAlloc(&d_c, bytes));
    CU_CHECK(cuMemcpyHtoD(d_a, h_a, bytes));
    CU_CHECK(cuMemcpyHtoD(d_b, h_b, bytes));

    void* args[] = {&d_a, &d_b, &d_c, &n};
    unsigned blocks = (n + threads - 1) / threads;
    CU_CHECK(cuLaunchKernel(vecAdd, blocks, 1, 1, threads, 1, 1, 0, nullptr, args, nullptr));
    CU_CHECK(cuCtxSynchronize());
    CU_CHECK(cuMemcpyDtoH(h_c, d_c, bytes));

    for (int i = 0; i < n; ++i) {
        if (h_c[i] != h_a[i] + h_b[i]) {
            fprintf(stderr, "mismatch at %d\n", i);
            return 1;
        }
    }
    CU_CHECK(cuMemFree(d_a));
    CU_CHECK(cuMemFree(d_b));
    CU_CHECK(cuMemFree(d_c));
    CU_CHECK(cuCtxDestroy(ctx));
    printf("Test PASSED\n");
    return 0;
}
