use warpsafe::prelude::*;

#[kernel]
fn k(name: String, x: &mut [f32]) {
    x[0] = 1.0;
}

fn main() {}
