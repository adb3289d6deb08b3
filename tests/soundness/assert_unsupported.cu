// An annotation that uses a GPUVerify builtin warpsafe does not translate: the assertion
// property is unknown (never silently verified), the others are still decided.
// verify: assert=unknown race=verified exit=3
//--blockDim=64 --gridDim=1
//@ len(a) = 64
__global__ void unsupported(int *a) {
    __ensures(__other_int(threadIdx.x) != threadIdx.x);
    a[threadIdx.x] = 1;
}
