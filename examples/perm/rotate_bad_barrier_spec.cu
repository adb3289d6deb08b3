// BROKEN TWIN of rotate.cu (wrong barrier spec): the barrier gives away nothing, each thread
// keeps its neighbour cell, so the write of its own cell after the barrier is not covered.
// Expected: `access` violated at the write `a[tid] = v`.
//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ kernel ensures Perm(a[0..n], 1) && forall i in 0..n: a[i] == old(a[(i + n - 1) % n])
//@ thread requires Perm(a[(tid + n - 1) % n], 1)
//@ thread ensures Perm(a[tid], 1) && a[tid] == old(a[(tid + n - 1) % n])
__global__ void rotate(int* a, int n)
{
    int tid = threadIdx.x;
    int v = a[(tid + n - 1) % n];
    //@ barrier ensures Perm(a[(tid + n - 1) % n], 1)
    __syncthreads();
    a[tid] = v;
}
