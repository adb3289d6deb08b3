//--blockDim=64 --gridDim=1
//@ len(idx) = 64
//@ len(x) = 64
//@ len(y) = 64
// No bounds check: an index in idx outside [0, 64) reads outside x.
__global__ void gather(const int *idx, const float *x, float *y) {
  int i = threadIdx.x;
  y[i] = 2.0f * x[idx[i]];
}
