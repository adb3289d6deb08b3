// Broken twin of kogge_stone.cu: the first barrier's specification lets each thread keep
// write permission on its cell while its right neighbour reads it. Rejected: the barrier
// does not only redistribute (a share of 1 meets a read share of another thread).
//
//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ kernel ensures Perm(a[0..n], 1)
//@ thread requires Perm(a[tid], 1)
//@ thread ensures Perm(a[tid], 1)
__global__ void kogge_stone(int* a, int n)
{
    int tid = threadIdx.x;
    //@ invariant offset >= 1 && Perm(a[tid], 1)
    for (int offset = 1; offset < n; offset *= 2) {
        //@ barrier ensures Perm(a[tid], 1) && (tid >= offset ==> Perm(a[tid - offset], read))
        __syncthreads();
        int v = 0;
        if (tid >= offset) {
            v = a[tid - offset];
        }
        //@ barrier ensures Perm(a[tid], 1)
        __syncthreads();
        a[tid] = a[tid] + v;
    }
}
