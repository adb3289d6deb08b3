//--blockDim=64 --gridDim=2
//@ len(d) = 128
//@ len(n) = 1
// The same count, per block in shared memory first.
__global__ void count(const float *d, int *n) {
  __shared__ int c;
  if (threadIdx.x == 0) c = 0;
  __syncthreads();
  if (!(d[blockIdx.x * blockDim.x + threadIdx.x] <= 0.0f)) atomicAdd(&c, 1);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&n[0], c);
}
