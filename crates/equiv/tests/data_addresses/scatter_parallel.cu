//--blockDim=16 --gridDim=1
//@ len(perm) = 16
//@ len(x) = 16
//@ len(y) = 16
// Scatter by a permutation, one thread per element: race-free only if perm has no repeated
// index, which nothing here states.
__global__ void scatter(const int *perm, const float *x, float *y) {
  int i = threadIdx.x;
  int p = perm[i];
  if (p >= 0 && p < 16) y[p] = x[i];
}
