use warpsafe::prelude::*;

#[kernel]
fn k(x: &[f32]) -> f32 {
    x[0]
}

fn main() {}
