// Warp-level reductions with shuffles and votes.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

__inline__ __device__ float warpReduceSum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(FULL_MASK, val, offset);
  return val;
}

__forceinline__ __device__ double warpAllReduceMax(double val) {
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1)
    val = fmax(val, __shfl_xor_sync(0xffffffffu, val, mask, 32));
  return val;
}

__device__ __noinline__ int laneId() { return threadIdx.x & (warpSize - 1); }

__global__ void reduceSum(const float *in, float *out, int n) {
  static __shared__ float shared[32];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = tid < n ? in[tid] : 0.0f;
  int lane = laneId();
  int wid = threadIdx.x / warpSize;
  v = warpReduceSum(v);
  if (lane == 0) shared[wid] = v;
  __syncthreads();
  v = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0.0f;
  if (wid == 0) v = warpReduceSum(v);
  if (threadIdx.x == 0) atomicAdd(out, v);
}

__global__ void votes(const int *flags, unsigned int *counts, long long *vals) {
  unsigned int active = __activemask();
  unsigned int ballot = __ballot_sync(active, flags[threadIdx.x] != 0);
  if (__any_sync(active, flags[threadIdx.x] > 1) && __all_sync(active, 1))
    counts[threadIdx.x / 32] = __popc(ballot);
  long long x = vals[threadIdx.x];
  x = __shfl_sync(FULL_MASK, x, 0);
  unsigned int u = __shfl_up_sync(FULL_MASK, (unsigned int)x, 1);
  int leader = __ffs(ballot) - 1;
  unsigned int peers = __match_any_sync(FULL_MASK, flags[threadIdx.x]);
  counts[threadIdx.x] = u + leader + peers + __reduce_add_sync(FULL_MASK, 1u) + __clz(ballot);
  __syncwarp();
  vals[threadIdx.x] = warpAllReduceMax((double)x) + __brev(ballot) + __umulhi(u, u);
}
