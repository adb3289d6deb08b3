// BROKEN TWIN of rotate.cu (wrong thread spec): each thread claims its own cell at launch,
// but reads its neighbour cell before the barrier, which the neighbour holds exclusively.
// Expected: `access` violated at the read `a[(tid + n - 1) % n]`.
//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ kernel ensures Perm(a[0..n], 1) && forall i in 0..n: a[i] == old(a[(i + n - 1) % n])
//@ thread requires Perm(a[tid], 1)
//@ thread ensures Perm(a[tid], 1) && a[tid] == old(a[(tid + n - 1) % n])
__global__ void rotate(int* a, int n)
{
    int tid = threadIdx.x;
    int v = a[(tid + n - 1) % n];
    //@ barrier ensures Perm(a[tid], 1)
    __syncthreads();
    a[tid] = v;
}
