//! Times the abstraction sweep: `cargo run --release -p warpsafe-induct --example sweep -- KERNEL SPEC BOUND`.

use std::time::Instant;
use warpsafe_equiv::Spec;
use warpsafe_induct::sweep;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, kernel, spec, bound, ..] = args.as_slice() else {
        return Err("usage: sweep KERNEL.cu SPEC BOUND".into());
    };
    let src = std::fs::read_to_string(kernel)?;
    let module = warpsafe_cuda_front::compile(&src).map_err(|e| format!("{e:?}"))?;
    let k = module.kernels.first().ok_or("no kernel")?;
    let spec = Spec::parse(&std::fs::read_to_string(spec)?)?;
    let t0 = Instant::now();
    let sw = sweep(k, Some(&spec), bound.parse()?, 1);
    println!(
        "{}: {} sizes in {:.2} s; power-of-two failure {:?}; other failure at {:?}",
        k.name,
        sw.sizes,
        t0.elapsed().as_secs_f64(),
        sw.pow2_failure.map(|f| f.size),
        sw.other_failure.map(|f| f.size)
    );
    Ok(())
}
