// Kogge-Stone inclusive prefix sum in place, within one block, annotated with permissions
// that change every iteration: before the first barrier of an iteration each thread only
// reads (its own cell, and the cell `offset` places to its left); after the second it
// owns its cell and adds. See docs/permissions.md.
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
        //@ barrier ensures Perm(a[tid], read) && (tid >= offset ==> Perm(a[tid - offset], read))
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
