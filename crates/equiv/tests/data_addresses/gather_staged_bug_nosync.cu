//--blockDim=64 --gridDim=1
//@ len(idx) = 64
//@ len(x) = 64
//@ len(y) = 64
// Bug: no barrier between staging and gathering; another thread's cell may not be there yet.
__global__ void gather(const int *idx, const float *x, float *y) {
  __shared__ float s[64];
  int i = threadIdx.x;
  s[i] = x[i];
  int next = i == 63 ? 0 : i + 1;
  y[i] = s[idx[next] & 63] * s[idx[i] & 63];
}
