// Broken twin of shift_add.cu: the barrier's `barrier requires` claims each thread gives
// up its cell unchanged, but the thread has just incremented it. Rejected at the barrier:
// the facts given up do not hold there.
//
//
//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1) && Perm(b[0..n], 1)
//@ kernel ensures Perm(b[0..n], 1) && forall i in 0..n: b[i] == old(a[(i + 1) % n]) + 1
//@ thread requires Perm(a[tid], 1) && Perm(b[tid], 1)
//@ thread ensures Perm(b[tid], 1) && b[tid] == old(a[(tid + 1) % n]) + 1
__global__ void shift_add(int* a, int* b, int n)
{
    int tid = threadIdx.x;
    a[tid] = a[tid] + 1;
    //@ barrier requires Perm(a[tid], 1) && Perm(b[tid], 1) && a[tid] == old(a[tid])
    //@ barrier ensures Perm(a[(tid + 1) % n], read) && Perm(b[tid], 1)
    //@ barrier ensures a[(tid + 1) % n] == old(a[(tid + 1) % n]) + 1
    __syncthreads();
    b[tid] = a[(tid + 1) % n];
}
