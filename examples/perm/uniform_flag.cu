// A barrier under a condition read from memory: every thread reads the same flag `a[0]`,
// which no thread writes before the barrier, so all threads take the branch or none do.
// The uniformity proof rests on race freedom, which the permissions establish.
//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ thread requires Perm(a[0], read) && (tid >= 1 ==> Perm(a[tid], 1))
//@ thread ensures tid >= 1 ==> Perm(a[tid], 1)
__global__ void uniform_flag(int* a, int n)
{
    int tid = threadIdx.x;
    int flag = a[0];
    if (tid >= 1) {
        a[tid] = flag;
    }
    if (flag > 0) {
        //@ barrier ensures tid >= 1 ==> Perm(a[tid], 1)
        __syncthreads();
    }
}
