//! A rejection names its cause. A header not found is a fatal clang error, after which clang
//! reports nothing and its AST silently lacks what it could not parse (the statement using the
//! header's macro is dropped): every kernel of the file is rejected with that error, never
//! checked without the statement. Given the header's directory with `-I`, the file is read
//! whole.

use std::path::PathBuf;
use warpsafe_clang_front::{compile_file, Options};

const KERNEL: &str = r#"#include <cuda_runtime.h>
#include "tile_config.h"
__global__ void scale(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= TILE;
}
"#;

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpsafe-causes-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("include")).expect("temp dir");
    std::fs::write(dir.join("include/tile_config.h"), "#define TILE 4.0f\n").expect("header");
    dir
}

#[test]
fn a_missing_header_is_named_in_the_rejection_of_the_kernels_it_breaks() {
    let dir = scratch();
    let path = dir.join("scale.cu");
    std::fs::write(&path, KERNEL).expect("writes");
    let got = compile_file(&path, KERNEL, &Options::default()).expect("clang runs");
    assert!(got.module.kernels.is_empty(), "the kernel cannot be typed");
    let errors: Vec<_> = got.rejected.iter().flat_map(|r| &r.errors).collect();
    assert_eq!(got.rejected.len(), 1, "{errors:?}");
    let e = errors[0];
    assert!(
        e.message.contains("'tile_config.h' file not found"),
        "{}",
        e.message
    );
    let line = KERNEL[..e.span.lo as usize].lines().count();
    assert_eq!(line, 2, "the span is on the #include line");
    assert!(e.note.as_deref().unwrap_or("").contains("-I"), "{e:?}");

    let opts = Options {
        include_dirs: vec![dir.join("include")],
        ..Options::default()
    };
    let got = compile_file(&path, KERNEL, &opts).expect("clang runs");
    assert!(got.rejected.is_empty(), "{:?}", got.rejected);
    assert_eq!(got.module.kernels.len(), 1);
}
