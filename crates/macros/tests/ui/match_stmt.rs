use warpsafe::prelude::*;

#[kernel]
fn k(n: u32, x: &mut [u32]) {
    match n {
        0 => x[0] = 1,
        _ => x[0] = 2,
    }
}

fn main() {}
