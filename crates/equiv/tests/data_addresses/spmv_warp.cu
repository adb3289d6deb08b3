//--blockDim=256 --gridDim=1
//@ len(col) = 20
//@ len(val) = 20
//@ len(x) = 16
//@ len(y) = 8
// CSR SpMV, one warp per row: lanes stride over the row's nonzeros, then a shuffle reduction.
__global__ void spmv(const int *col, const float *val, const float *x, float *y) {
  const int row_ptr[9] = {0, 3, 5, 5, 8, 12, 13, 17, 20};
  int r = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  float s = 0.0f;
  for (int j = row_ptr[r] + lane; j < row_ptr[r + 1]; j += 32) {
    int c = col[j];
    if (c >= 0 && c < 16) s += val[j] * x[c];
  }
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffff, s, o);
  if (lane == 0) y[r] = s;
}
