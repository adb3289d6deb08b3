// BROKEN TWIN of rotate.cu (precondition that does not split): every thread claims the whole
// of a[0] at launch. Expected: `split` violated.
//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ kernel ensures Perm(a[0..n], 1) && forall i in 0..n: a[i] == old(a[(i + n - 1) % n])
//@ thread requires Perm(a[(tid + n - 1) % n], 1) && Perm(a[0], 1)
//@ thread ensures Perm(a[tid], 1) && a[tid] == old(a[(tid + n - 1) % n])
__global__ void rotate(int* a, int n)
{
    int tid = threadIdx.x;
    int v = a[(tid + n - 1) % n];
    //@ barrier ensures Perm(a[tid], 1)
    __syncthreads();
    a[tid] = v;
}
