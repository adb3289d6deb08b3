// GPUVerify-style annotations: preconditions, loop invariants in the loop
// condition (comma operator), assertions, and a file-scope axiom.
//--blockDim=64 --gridDim=1

__axiom(blockDim.x == 64);
__axiom(gridDim.x == 1)

__device__ int helper(int x) {
  __requires(x >= 0);
  __ensures(__return_val_int() >= x);
  return x + 1;
}

__global__ void annotated(int *A, float *B, unsigned n) {
  __requires(n <= 64);
  __requires(__uniform_int(n));
  __assume(threadIdx.x < blockDim.x);
  __shared__ int tmp[64];
  for (unsigned i = threadIdx.x;
       __invariant(i % blockDim.x == threadIdx.x),
       __global_invariant(__implies(__write(A), __write_offset_bytes(A) / sizeof(int) % blockDim.x == threadIdx.x)),
       __invariant(__implies(__same_group, __uniform_int(n))),
       i < n;
       i += blockDim.x) {
    A[i] = helper(i);
  }
  tmp[threadIdx.x] = threadIdx.x;
  __syncthreads();
  __assert(tmp[threadIdx.x] == (int)threadIdx.x);
  __assert(__implies(threadIdx.x > 0, __distinct_int(threadIdx.x)));
  __global_assert(!__read(B) || __read_offset_bytes(B) == 0);
  __assert(__other_int(threadIdx.x) >= 0 && __enabled() && __all(true) && !__exclusive(false));
  __assert(__no_read(B) || __ptr_offset_bytes(B) == 0);
  int k = 0;
  while (__invariant(k <= 10), __invariant(__is_pow2(64)), k < 10) {
    k++;
  }
  __assert(k == 10);
}
