// Shared-memory tree reduction with sequential addressing and one barrier per step: at
// step `s` thread `tid < s` adds the cell `s` places to its right into its own. The
// permissions change every step: thread `tid < s` owns its cell and reads its partner's
// (which the partner, `tid + s >= s`, no longer touches); the barrier at the end of a step
// hands out the next step's shares. See docs/permissions.md.
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
        //@ barrier ensures tid < s / 2 ==> Perm(a[tid], 1) && Perm(a[tid + s / 2], read)
        __syncthreads();
    }
}
