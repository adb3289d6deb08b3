use warpsafe::prelude::*;

#[kernel]
fn k(x: &mut [f32]) {
    let double = |v: f32| v * 2.0;
    x[0] = double(x[0]);
}

fn main() {}
