use warpsafe::prelude::*;

#[kernel]
fn k(n: &mut u32, x: &mut [u32]) {
    x[0] = 1;
}

fn main() {}
