// Broken twin of reduce_tree.cu: the barrier at the end of a step hands out write
// permissions for the current step's range `tid < s` instead of the next one's `tid < s / 2`,
// so thread `s / 2` keeps its cell while thread 0 is given a read share of it. Rejected:
// the barrier does not only redistribute.
//
//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
// (no `kernel ensures`: after the last step the threads hold no share of `a`)
//@ thread requires Perm(a[tid], 1)
__global__ void reduce_tree(int* a, int n)
{
    int tid = threadIdx.x;
    //@ barrier ensures tid < n / 2 ==> Perm(a[tid], 1) && Perm(a[tid + n / 2], read)
    __syncthreads();
    //@ invariant s >= 0 && s <= n / 2 && (tid < s ==> Perm(a[tid], 1) && Perm(a[tid + s], read))
    for (int s = n / 2; s > 0; s = s / 2) {
        if (tid < s) {
            a[tid] = a[tid] + a[tid + s];
        }
        //@ barrier ensures tid < s ==> Perm(a[tid], 1) && Perm(a[tid + s / 2], read)
        __syncthreads();
    }
}
