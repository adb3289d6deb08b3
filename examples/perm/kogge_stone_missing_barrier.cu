// Broken twin of kogge_stone.cu: the first barrier of an iteration is gone, so a thread reads
// its left neighbour's cell while that neighbour may still be adding to it. Rejected: the read
// is not covered by what the thread holds (only its own cell, from the loop invariant).
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
        int v = 0;
        if (tid >= offset) {
            v = a[tid - offset];
        }
        //@ barrier ensures Perm(a[tid], 1)
        __syncthreads();
        a[tid] = a[tid] + v;
    }
}
