use warpsafe::prelude::*;

#[kernel]
fn k(a: &mut [i32]) {
    #[perm(invariant = "Perm(a[tid], 1)")]
    let tid = thread_idx().x;
    #[perm(invariant = "Perm(a[tid], 1)")]
    sync_threads();
    if tid > 0 {
        #[perm(invariant = "Perm(a[tid], 1)")]
        a[tid] = 1;
    }
}

fn main() {}
