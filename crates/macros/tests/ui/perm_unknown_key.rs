use warpsafe::prelude::*;

#[kernel]
#[perm(thread_require = "Perm(a[tid], 1)")]
fn k(a: &mut [i32]) {
    a[thread_idx().x] = 1;
}

fn main() {}
