// Twin of asm_ldg_v4_copy.cu: the loop runs while `i <= n4`, so the thread that reaches
// i = n4 loads `src[4 * n4 .. 4 * n4 + 3]` and stores to `dst` past the end (bounds).
// verify: bounds=violated exit=1
//--blockDim=128 --gridDim=2
//@ arg n4 = 300
//@ len(src) = 4 * n4
//@ len(dst) = 4 * n4
//@ requires n4 >= 0 && n4 <= 1048576
#include <cuda_runtime.h>

__global__ void copy_v4_asm(const float* __restrict__ src, float* __restrict__ dst, int n4)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n4; i += blockDim.x * gridDim.x) {
        float a, b, c, d;
        asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
                     : "=f"(a), "=f"(b), "=f"(c), "=f"(d)
                     : "l"(src + 4 * i));
        asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};"
                     :
                     : "l"(dst + 4 * i), "f"(a), "f"(b), "f"(c), "f"(d)
                     : "memory");
        asm volatile("" ::: "memory");
    }
}

void copy(const float* src, float* dst, int n4)
{
    copy_v4_asm<<<2, 128>>>(src, dst, n4);
}
