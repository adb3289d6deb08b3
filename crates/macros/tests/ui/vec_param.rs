use warpsafe::prelude::*;

#[kernel]
fn k(x: Vec<f32>) {
    let i = thread_idx().x;
}

fn main() {}
