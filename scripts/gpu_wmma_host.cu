// Host harness for scripts/gpu_wmma_check.sh: runs the warp-matrix kernels of
// tests/gpu/wmma_variants.cu and examples/equiv/wmma/wmma_gemm.cu on a GPU's tensor cores
// (built by nvcc with NVIDIA's <mma.h>) on the inputs in IN_DIR and writes each kernel's
// output to OUT_DIR/NAME.bin. Usage: gpu_wmma_host IN_DIR OUT_DIR
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../tests/gpu/wmma_variants.cu"
#include "../examples/equiv/wmma/wmma_gemm.cu"

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

static void *upload(const std::vector<char> &v)
{
    void *p;
    CHECK(cudaMalloc(&p, v.size()));
    CHECK(cudaMemcpy(p, v.data(), v.size(), cudaMemcpyHostToDevice));
    return p;
}

static void save(const std::string &path, const void *dev, size_t bytes)
{
    std::vector<char> v(bytes);
    CHECK(cudaMemcpy(v.data(), dev, bytes, cudaMemcpyDeviceToHost));
    FILE *f = std::fopen(path.c_str(), "wb");
    std::fwrite(v.data(), 1, bytes, f);
    std::fclose(f);
}

typedef void (*FloatKernel)(const half *, const half *, const float *, float *);

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s IN_DIR OUT_DIR\n", argv[0]);
        return 2;
    }
    std::string in = argv[1], out = argv[2];
    const half *a = (const half *)upload(slurp(in + "/a.bin"));
    const half *b = (const half *)upload(slurp(in + "/b.bin"));
    const float *cf = (const float *)upload(slurp(in + "/cf.bin"));
    const half *ch = (const half *)upload(slurp(in + "/ch.bin"));
    float *df;
    half *dh;
    CHECK(cudaMalloc(&df, 1024 * sizeof(float)));
    CHECK(cudaMalloc(&dh, 1024 * sizeof(half)));
    struct { const char *name; FloatKernel k; } kernels[] = {
        {"m16n16k16_row_col_row", m16n16k16_row_col_row},
        {"m16n16k16_col_row_col", m16n16k16_col_row_col},
        {"m16n16k16_row_row_col", m16n16k16_row_row_col},
        {"m16n16k16_col_col_row", m16n16k16_col_col_row},
        {"m32n8k16_row_col_row", m32n8k16_row_col_row},
        {"m32n8k16_col_row_col", m32n8k16_col_row_col},
        {"m8n32k16_row_col_row", m8n32k16_row_col_row},
        {"m8n32k16_col_row_col", m8n32k16_col_row_col},
    };
    for (auto &k : kernels) {
        CHECK(cudaMemset(df, 0, 1024 * sizeof(float)));
        k.k<<<1, 32>>>(a, b, cf, df);
        CHECK(cudaDeviceSynchronize());
        save(out + "/" + k.name + ".bin", df, 1024 * sizeof(float));
    }
    CHECK(cudaMemset(dh, 0, 1024 * sizeof(half)));
    m16n16k16_half_row_col_row<<<1, 32>>>(a, b, ch, dh);
    CHECK(cudaDeviceSynchronize());
    save(out + "/m16n16k16_half_row_col_row.bin", dh, 1024 * sizeof(half));

    const half *ga = (const half *)upload(slurp(in + "/ga.bin"));
    const half *gb = (const half *)upload(slurp(in + "/gb.bin"));
    float *gc = (float *)upload(slurp(in + "/gc.bin"));
    wmma_gemm<<<dim3(1, 1), dim3(128, 4)>>>(ga, gb, gc, 64, 64, 64, 0.75f, -1.5f);
    CHECK(cudaDeviceSynchronize());
    save(out + "/wmma_gemm.bin", gc, 4096 * sizeof(float));
    std::printf("ran 10 kernels\n");
    return 0;
}
