//--blockDim=64 --gridDim=1
//@ len(idx) = 64
//@ len(x) = 64
//@ len(y) = 64
__global__ void gather(const int *idx, const float *x, float *y) {
  int i = threadIdx.x;
  int next = i == 63 ? 0 : i + 1;
  float b = x[idx[next] & 63];
  float a = x[idx[i] & 63];
  y[i] = b * a;
}
