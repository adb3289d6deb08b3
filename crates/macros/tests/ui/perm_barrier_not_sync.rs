use warpsafe::prelude::*;

#[kernel]
fn k(a: &mut [i32]) {
    let tid = thread_idx().x;
    #[perm(barrier_ensures = "Perm(a[tid], 1)")]
    a[tid] = 1;
    #[perm(barrier_ensures = "Perm(a[tid], 1)")]
    for _ in 0..4 {
        sync_threads();
    }
}

fn main() {}
