// The unsigned countdown idiom `for (unsigned i = n; i-- > 0;)`: `i` wraps to UINT_MAX in the
// iteration that leaves the loop, which is legal and never used.
// verify: race=verified divergence=verified bounds=verified overflow=verified exit=0
//--blockDim=64 --gridDim=1
//@ len(a) = n
__global__ void countdown(int *a, unsigned n) {
    for (unsigned i = n; i-- > 0;) {
        if (i % 64 == threadIdx.x) a[i] = (int)i;
    }
}
