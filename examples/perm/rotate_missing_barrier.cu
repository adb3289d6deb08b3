// BROKEN TWIN of rotate.cu (missing barrier): each thread reads its left neighbour and writes
// its own cell in the same phase, so it needs a read share of the cell its neighbour holds
// exclusively. Expected: `split` violated (the thread preconditions overlap).
//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ kernel ensures Perm(a[0..n], 1) && forall i in 0..n: a[i] == old(a[(i + n - 1) % n])
//@ thread requires Perm(a[tid], 1) && Perm(a[(tid + n - 1) % n], read)
//@ thread ensures Perm(a[tid], 1) && a[tid] == old(a[(tid + n - 1) % n])
__global__ void rotate(int* a, int n)
{
    int tid = threadIdx.x;
    int v = a[(tid + n - 1) % n];
    a[tid] = v;
}
