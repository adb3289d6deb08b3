use warpsafe::prelude::*;

#[kernel]
fn k(n: u32, x: &mut [f32]) {
    let i = thread_idx().x;
    x[i] = n * x[i];
}

fn main() {}
