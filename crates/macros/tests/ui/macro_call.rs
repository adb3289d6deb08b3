use warpsafe::prelude::*;

#[kernel]
fn k(x: &mut [f32]) {
    println!("hello");
    x[0] = 1.0;
}

fn main() {}
