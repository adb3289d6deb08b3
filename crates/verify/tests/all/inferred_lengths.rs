//! Length requirements inferred for buffers without a declared length: at a launch fixed by
//! the header the requirement is the least sufficient number, also when a loop counter's
//! guard offers only its type's bound (2^31) as a candidate.

use warpsafe_verify::{verify, Config, DimSpec, Property};

/// The inferred-length notes of the bounds verdict of the first kernel of `src`, launched
/// with `block` threads in one block.
fn needs(src: &str, block: u32) -> Vec<String> {
    let m = warpsafe_cuda_front::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    let k = m.kernels.into_iter().next().expect("a kernel");
    let cfg = Config {
        block: DimSpec::Fixed([block, 1, 1]),
        grid: DimSpec::Fixed([1, 1, 1]),
        properties: vec![Property::Bounds],
        replay: false,
        ..Config::default()
    };
    let r = verify(&k, &cfg);
    r.results
        .into_iter()
        .flat_map(|r| r.assumptions)
        .filter(|a| a.starts_with("needs len"))
        .collect()
}

#[test]
fn a_loop_over_a_threads_elements_needs_the_largest_index_plus_one() {
    let src = r#"
__global__ void fill4(float *x) {
    for (int j = 0; j < 4; j++)
        x[threadIdx.x * 4 + j] = 1.0f;
}
"#;
    // 64 threads write x[0..256): 256, not 2^31 (the guard `j <= 2147483647` of the counter).
    assert_eq!(
        needs(src, 64),
        ["needs len(x) >= 256 (no length declared; inferred)"]
    );
    // One element less per thread: the last index is 63 * 4 + 2.
    let three = src.replace("j < 4", "j < 3");
    assert_eq!(
        needs(&three, 64),
        ["needs len(x) >= 255 (no length declared; inferred)"]
    );
}
