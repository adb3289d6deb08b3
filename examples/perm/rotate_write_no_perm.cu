// BROKEN TWIN of rotate.cu (write without permission): the thread writes its own cell before
// the barrier, while it holds only its neighbour's cell.
// Expected: `access` violated at the first write `a[tid] = 0`.
//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ kernel ensures Perm(a[0..n], 1) && forall i in 0..n: a[i] == old(a[(i + n - 1) % n])
//@ thread requires Perm(a[(tid + n - 1) % n], 1)
//@ thread ensures Perm(a[tid], 1) && a[tid] == old(a[(tid + n - 1) % n])
__global__ void rotate(int* a, int n)
{
    int tid = threadIdx.x;
    int v = a[(tid + n - 1) % n];
    a[tid] = 0;
    //@ barrier ensures Perm(a[tid], 1)
    __syncthreads();
    a[tid] = v;
}
