//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1) && Perm(b[0..n][0..2], 1/2)
//@ kernel ensures Perm(a[0..n], 1) && forall i in 0..n: a[i] == old(a[(i + n - 1) % n])
//@ thread requires Perm(a[(tid + n - 1) % n], 1)
//@ thread ensures Perm(a[tid], 1) && a[tid] == old(a[(tid + n - 1) % n])
__global__ void rotate(int* a, int* b, int n)
{
    int tid = threadIdx.x;
    int v = a[(tid + n - 1) % n];
    //@ barrier requires Perm(a[(tid + n - 1) % n], 1)
    //@ barrier ensures Perm(a[tid], 1)
    __syncthreads();
    for (int s = 1; s < n; s *= 2) {
        //@ invariant Perm(a[tid], 1) && s >= 1 && (s < n ? true : false)
        a[tid] = v;
    }
}
