// Broken twin of kogge_stone.cu: the loop runs while `offset <= tid`, so threads leave it
// after different numbers of iterations and the barriers inside diverge. Rejected: the loop
// condition is not the same in every thread.
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
    for (int offset = 1; offset <= tid; offset *= 2) {
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
