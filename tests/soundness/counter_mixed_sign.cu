// A counter kept unsigned but stepped and compared as int (how NVRTC's PTX reads
// `for (int t = 0; t < n / 16; ++t)` once lifted): `t = (unsigned)((int)t + 1)`. The step is
// not an induction in the variable's own type; summarising it as one claimed an exact
// out-of-bounds read at A[34359738384] and an exact wrap-around that no execution has.
// verify: race=verified divergence=verified bounds=!violated overflow=!violated exit=3
//--blockDim=16 --gridDim=1
//@ arg n = 64
//@ len(A) = n
//@ requires n >= 16 && n % 16 == 0
__global__ void counter_mixed_sign(float* A, int n)
{
    float s = 0.0f;
    unsigned t = 0u;
    do {
        s += A[(int)t * 16 + threadIdx.x];
        t = (unsigned)((int)t + 1);
    } while ((int)t < n / 16);
    __syncthreads();
    A[threadIdx.x] = s;
}
