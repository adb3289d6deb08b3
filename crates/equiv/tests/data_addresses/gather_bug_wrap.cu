//--blockDim=64 --gridDim=1
//@ len(idx) = 64
//@ len(x) = 64
//@ len(y) = 64
// Bug: the index is wrapped by a warp-sized mask, so any index from 32 up reads x[j - 32].
__global__ void gather(const int *idx, const float *x, float *y) {
  int i = threadIdx.x;
  int j = idx[i];
  if (j >= 0 && j < 64) y[i] = x[j & 31] + x[j & 31];
}
