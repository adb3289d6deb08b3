// The CUDA samples' multi-vector scalar product (scalarProd), with a smaller accumulator:
// a grid-stride loop over vectors whose body runs a tree reduction with barriers. The
// loop's iterations all execute the same barriers (the nested reduction's trip count is a
// constant), so its barrier intervals line up across threads of a block.
// verify: race=verified divergence=verified uninit=verified exit=0
// verify-args: --block 64 --grid 4 --property race,divergence,uninit --timeout 60
#define ACCUM_N 256
//@ len(d_C) = vectorN
//@ len(d_A) = vectorN * elementN
//@ len(d_B) = vectorN * elementN
//@ requires blockDim.x <= 256
__global__ void scalarProdGPU(float *d_C, float *d_A, float *d_B, int vectorN, int elementN) {
    __shared__ float accumResult[ACCUM_N];
    for (int vec = blockIdx.x; vec < vectorN; vec += gridDim.x) {
        int vectorBase = elementN * vec;
        int vectorEnd = vectorBase + elementN;
        for (int iAccum = threadIdx.x; iAccum < ACCUM_N; iAccum += blockDim.x) {
            float sum = 0;
            for (int pos = vectorBase + iAccum; pos < vectorEnd; pos += ACCUM_N)
                sum += d_A[pos] * d_B[pos];
            accumResult[iAccum] = sum;
        }
        for (int stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            for (int iAccum = threadIdx.x; iAccum < stride; iAccum += blockDim.x)
                accumResult[iAccum] += accumResult[stride + iAccum];
        }
        __syncthreads();
        if (threadIdx.x == 0) d_C[vec] = accumResult[0];
    }
}
