// Broken twin of uniform_flag.cu: thread 0 writes the flag while the other threads read it,
// with no barrier between. Each thread's own view makes the condition look uniform, but
// that argument needs race freedom: the read of `a[0]` is rejected, and the uniformity of
// the barrier is then not counted (unknown), never verified.
//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ thread requires Perm(a[tid], 1)
__global__ void uniform_flag_racy(int* a, int n)
{
    int tid = threadIdx.x;
    int flag = a[0];
    if (tid == 0) {
        a[0] = 1;
    }
    if (flag > 0) {
        //@ barrier ensures Perm(a[tid], 1)
        __syncthreads();
    }
}
