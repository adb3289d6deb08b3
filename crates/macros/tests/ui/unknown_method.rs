use warpsafe::prelude::*;

#[kernel]
fn k(x: &mut [u32]) {
    let i = thread_idx().x;
    x[i] = x[i].wrapping_add(1);
}

fn main() {}
