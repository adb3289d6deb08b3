//--blockDim=64 --gridDim=1
//@ len(idx) = 64
//@ len(x) = 64
//@ len(y) = 64
// Bug: reads the neighbour of the element it should (x[j + 1] instead of x[j]).
__global__ void gather(const int *idx, const float *x, float *y) {
  int i = threadIdx.x;
  int j = idx[i];
  if (j >= 0 && j < 63) y[i] = x[j + 1] + x[j + 1];
}
