// The Kogge-Stone scan of examples/kernels/kogge_stone_scan.cu (integer version), double-
// buffered in shared memory with one barrier per step, annotated with permissions: at each
// step every thread reads the input row `buf[pin]` (its cell and the cell `offset` to its
// left) and owns its cell of the output row `buf[pout]`; the rows swap roles every step,
// and so do the permissions. Each block owns its segment of `x` and `y`.
//@ requires blockDim.x <= 256
//@ requires (unsigned long long)blockDim.x * gridDim.x <= 2147483647
//@ kernel requires Perm(buf[0][0..blockDim.x], 1) && Perm(buf[1][0..blockDim.x], 1)
//@ kernel requires Perm(x[blockIdx.x * blockDim.x..blockIdx.x * blockDim.x + blockDim.x], 1)
//@ kernel requires Perm(y[blockIdx.x * blockDim.x..blockIdx.x * blockDim.x + blockDim.x], 1)
//@ kernel ensures Perm(y[blockIdx.x * blockDim.x..blockIdx.x * blockDim.x + blockDim.x], 1)
//@ thread requires Perm(buf[0][tid], 1) && Perm(buf[1][tid], 1)
//@ thread requires Perm(x[blockIdx.x * blockDim.x + tid], read)
//@ thread requires Perm(y[blockIdx.x * blockDim.x + tid], 1)
//@ thread ensures Perm(y[blockIdx.x * blockDim.x + tid], 1)
__global__ void kogge_stone_scan(const int* __restrict__ x, int* __restrict__ y, int n)
{
    __shared__ int buf[2][256];

    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    int pout = 0;
    int pin = 1;

    buf[pout][tid] = (i < n) ? x[i] : 0;
    //@ barrier ensures Perm(buf[pout][tid], read) && (tid >= 1 ==> Perm(buf[pout][tid - 1], read))
    //@ barrier ensures Perm(buf[pin][tid], 1) && Perm(y[i], 1)
    __syncthreads();

    //@ invariant offset >= 1 && (pout == 0 || pout == 1)
    //@ invariant Perm(buf[pout][tid], read) && (tid >= offset ==> Perm(buf[pout][tid - offset], read))
    //@ invariant Perm(buf[1 - pout][tid], 1) && Perm(y[i], 1)
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (tid >= offset) {
            buf[pout][tid] = buf[pin][tid] + buf[pin][tid - offset];
        } else {
            buf[pout][tid] = buf[pin][tid];
        }
        //@ barrier ensures Perm(buf[pout][tid], read)
        //@ barrier ensures tid >= 2 * offset ==> Perm(buf[pout][tid - 2 * offset], read)
        //@ barrier ensures Perm(buf[pin][tid], 1) && Perm(y[i], 1)
        __syncthreads();
    }

    if (i < n) {
        y[i] = buf[pout][tid];
    }
}
