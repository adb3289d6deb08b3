//--blockDim=1 --gridDim=1
//@ len(perm) = 16
//@ len(x) = 16
//@ len(y) = 16
// Bug when perm repeats an index: walked backwards, the earlier write wins.
__global__ void scatter(const int *perm, const float *x, float *y) {
  for (int i = 15; i >= 0; i--) {
    int p = perm[i];
    if (p >= 0 && p < 16) y[p] = x[i];
  }
}
