use warpsafe::prelude::*;

#[kernel]
#[perm(barrier_ensures = "Perm(a[0], 1)")]
#[perm]
#[perm()]
#[perm(kernel_requires = "Perm(a[0], 1)", "Perm(a[1], 1)")]
fn k(a: &mut [i32]) {
    #[perm(thread_requires = "Perm(a[0], 1)")]
    sync_threads();
    #[perm(barrier_ensures = "Perm(a[\x30], 1)")]
    sync_threads();
    a[0] = 1;
}

#[kernel_fn]
fn helper(x: i32) -> i32 {
    let mut y = x;
    #[perm(invariant = "y >= 0")]
    while y > 10 {
        y -= 1;
    }
    y
}

fn main() {}
