//--blockDim=1 --gridDim=1
//@ len(perm) = 16
//@ len(x) = 16
//@ len(y) = 16
// Scatter by an index array, one thread, in order: a later write to a cell wins.
__global__ void scatter(const int *perm, const float *x, float *y) {
  for (int i = 0; i < 16; i++) {
    int p = perm[i];
    if (p >= 0 && p < 16) y[p] = x[i];
  }
}
