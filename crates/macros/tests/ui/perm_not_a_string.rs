use warpsafe::prelude::*;

#[kernel]
#[perm(thread_requires = "Perm(a[tid], 1)", thread_ensures = Perm)]
fn k(a: &mut [i32]) {
    let mut i = 0;
    #[perm(invariant = 1)]
    while i < 4 {
        i += 1;
    }
    a[thread_idx().x] = i;
}

fn main() {}
