// Host harness for scripts/gpu_mma_check.sh: runs, on a GPU's tensor cores, the inline
// `ldmatrix`/`mma.sync` kernels of crates/ptx/tests/lower_mma.rs (copied below) and the GEMM of
// examples/equiv/wmma/mma_gemm.cu and its planted-bug twin (built by nvcc with NVIDIA's
// <cuda_fp16.h>), on the inputs in IN_DIR, writing each output to OUT_DIR/NAME.bin.
// Usage: gpu_mma_host IN_DIR OUT_DIR
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_fp16.h>

namespace good {
#include "../examples/equiv/wmma/mma_gemm.cu"
}
namespace bug {
#include "../examples/equiv/wmma/mma_gemm_bug_btrans.cu"
}

// The kernels of crates/ptx/tests/lower_mma.rs.
#define LDM(NAME, SHAPE, N, ROW)                                                              \
__global__ void NAME(const unsigned short* in, unsigned* out) {                               \
    __shared__ __align__(16) unsigned short s[256];                                           \
    for (int k = threadIdx.x; k < 256; k += 32) s[k] = in[k];                                 \
    __syncthreads();                                                                          \
    unsigned addr = (unsigned)__cvta_generic_to_shared(&s[(ROW) * 8]);                        \
    unsigned r[4] = {0, 0, 0, 0};                                                             \
    LOAD_##N(SHAPE)                                                                           \
    for (int j = 0; j < 4; ++j) out[threadIdx.x * 4 + j] = r[j];                              \
}
#define LOAD_1(SHAPE) asm volatile("ldmatrix.sync.aligned.m8n8." SHAPE ".shared.b16 {%0}, [%1];" \
    : "=r"(r[0]) : "r"(addr));
#define LOAD_2(SHAPE) asm volatile("ldmatrix.sync.aligned.m8n8." SHAPE ".shared.b16 {%0,%1}, [%2];" \
    : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
#define LOAD_4(SHAPE) asm volatile("ldmatrix.sync.aligned.m8n8." SHAPE ".shared.b16 {%0,%1,%2,%3}, [%4];" \
    : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
LDM(ldm_x4, "x4", 4, threadIdx.x)
LDM(ldm_x4_trans, "x4.trans", 4, threadIdx.x)
LDM(ldm_x2, "x2", 2, threadIdx.x % 16)
LDM(ldm_x1_trans, "x1.trans", 1, threadIdx.x % 8)

__global__ void mma_m16n8k16(const unsigned short* a, const unsigned short* bt,
                             const float* c, float* d) {
    __shared__ __align__(16) unsigned short sa[256];
    __shared__ __align__(16) unsigned short sb[128];
    int l = threadIdx.x;
    for (int k = l; k < 256; k += 32) sa[k] = a[k];
    for (int k = l; k < 128; k += 32) sb[k] = bt[k];
    __syncthreads();
    int j = l / 8, i = l % 8;
    unsigned aaddr = (unsigned)__cvta_generic_to_shared(&sa[(i + 8 * (j & 1)) * 16 + 8 * (j >> 1)]);
    unsigned baddr = (unsigned)__cvta_generic_to_shared(&sb[i * 16 + 8 * (j & 1)]);
    unsigned a0, a1, a2, a3, b0, b1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(aaddr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                 : "=r"(b0), "=r"(b1) : "r"(baddr));
    int g = l >> 2, t = l & 3;
    float c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1];
    float c2 = c[(g + 8) * 8 + 2 * t], c3 = c[(g + 8) * 8 + 2 * t + 1];
    float d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1),
                   "f"(c0), "f"(c1), "f"(c2), "f"(c3));
    d[g * 8 + 2 * t] = d0;
    d[g * 8 + 2 * t + 1] = d1;
    d[(g + 8) * 8 + 2 * t] = d2;
    d[(g + 8) * 8 + 2 * t + 1] = d3;
}

__global__ void mma_m16n8k8_f16(const unsigned short* a, const unsigned short* b,
                                const unsigned* c, unsigned* d) {
    __shared__ __align__(16) unsigned short sa[128];
    __shared__ __align__(16) unsigned short sb[64];
    int l = threadIdx.x;
    for (int k = l; k < 128; k += 32) sa[k] = a[k];
    for (int k = l; k < 64; k += 32) sb[k] = b[k];
    __syncthreads();
    unsigned aaddr = (unsigned)__cvta_generic_to_shared(&sa[(l % 16) * 8]);
    unsigned baddr = (unsigned)__cvta_generic_to_shared(&sb[(l % 8) * 8]);
    unsigned a0, a1, b0;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                 : "=r"(a0), "=r"(a1) : "r"(aaddr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                 : "=r"(b0) : "r"(baddr));
    int g = l >> 2, t = l & 3;
    unsigned c0 = c[g * 4 + t], c1 = c[(g + 8) * 4 + t];
    unsigned d0, d1;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};"
                 : "=r"(d0), "=r"(d1) : "r"(a0), "r"(a1), "r"(b0), "r"(c0), "r"(c1));
    d[g * 4 + t] = d0;
    d[(g + 8) * 4 + t] = d1;
}

#define CHECK(x)                                                                               \
    do {                                                                                       \
        cudaError_t e = (x);                                                                   \
        if (e != cudaSuccess) {                                                                \
            std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));                       \
            std::exit(1);                                                                      \
        }                                                                                      \
    } while (0)

static std::vector<char> slurp(const std::string &path)
{
    std::vector<char> v;
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        std::exit(1);
    }
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        v.insert(v.end(), buf, buf + n);
    std::fclose(f);
    return v;
}

static std::string in_dir, out_dir;

static void *up(const char *name)
{
    std::vector<char> v = slurp(in_dir + "/" + name);
    void *p;
    CHECK(cudaMalloc(&p, v.size()));
    CHECK(cudaMemcpy(p, v.data(), v.size(), cudaMemcpyHostToDevice));
    return p;
}

static void *zeros(size_t bytes)
{
    void *p;
    CHECK(cudaMalloc(&p, bytes));
    CHECK(cudaMemset(p, 0, bytes));
    return p;
}

static void down(const char *name, void *p, size_t bytes)
{
    CHECK(cudaDeviceSynchronize());
    std::vector<char> v(bytes);
    CHECK(cudaMemcpy(v.data(), p, bytes, cudaMemcpyDeviceToHost));
    FILE *f = std::fopen((out_dir + "/" + name).c_str(), "wb");
    std::fwrite(v.data(), 1, bytes, f);
    std::fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: gpu_mma_host IN_DIR OUT_DIR\n");
        return 2;
    }
    in_dir = argv[1];
    out_dir = argv[2];
    void *ldm_in = up("ldm_in.bin");
    void (*ldms[4])(const unsigned short *, unsigned *) = {ldm_x4, ldm_x4_trans, ldm_x2, ldm_x1_trans};
    const char *ldm_names[4] = {"ldm_x4.bin", "ldm_x4_trans.bin", "ldm_x2.bin", "ldm_x1_trans.bin"};
    for (int k = 0; k < 4; ++k) {
        void *o = zeros(128 * 4);
        ldms[k]<<<1, 32>>>((const unsigned short *)ldm_in, (unsigned *)o);
        CHECK(cudaGetLastError());
        down(ldm_names[k], o, 128 * 4);
    }
    {
        void *d = zeros(128 * 4);
        mma_m16n8k16<<<1, 32>>>((const unsigned short *)up("m16_a.bin"),
                                (const unsigned short *)up("m16_bt.bin"),
                                (const float *)up("m16_c.bin"), (float *)d);
        CHECK(cudaGetLastError());
        down("mma_m16n8k16.bin", d, 128 * 4);
    }
    {
        void *d = zeros(64 * 4);
        mma_m16n8k8_f16<<<1, 32>>>((const unsigned short *)up("m8_a.bin"),
                                   (const unsigned short *)up("m8_b.bin"),
                                   (const unsigned *)up("m8_c.bin"), (unsigned *)d);
        CHECK(cudaGetLastError());
        down("mma_m16n8k8_f16.bin", d, 64 * 4);
    }
    for (int k = 0; k < 2; ++k) {
        void *c = up("gemm_c.bin");
        const half *a = (const half *)up("gemm_a.bin"), *b = (const half *)up("gemm_b.bin");
        if (k == 0)
            good::mma_gemm<<<dim3(2, 4), dim3(128, 1)>>>(a, b, (float *)c, 64, 64, 64, 1.5f, -0.5f);
        else
            bug::mma_gemm<<<dim3(2, 4), dim3(128, 1)>>>(a, b, (float *)c, 64, 64, 64, 1.5f, -0.5f);
        CHECK(cudaGetLastError());
        down(k == 0 ? "mma_gemm.bin" : "mma_gemm_bug_btrans.bin", c, 4096 * 4);
    }
    std::printf("ran 8 kernels\n");
    return 0;
}
