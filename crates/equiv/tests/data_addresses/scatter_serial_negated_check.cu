//--blockDim=1 --gridDim=1
//@ len(perm) = 16
//@ len(x) = 16
//@ len(y) = 16
// The same scatter through a pointer, the check written with negations.
__global__ void scatter(const int *perm, const float *x, float *y) {
  int i = 0;
  while (i < 16) {
    int p = perm[i];
    float v = x[i];
    if (!(p < 0) && !(p > 15)) *(y + p) = v;
    i++;
  }
}
