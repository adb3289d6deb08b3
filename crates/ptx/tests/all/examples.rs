//! Every bundled example, compiled through our CUDA codegen and NVRTC, parses, and its printed
//! form parses back to the same module.

use std::path::{Path, PathBuf};

fn examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/kernels");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("examples/kernels exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "the example corpus is missing");
    files
}

#[test]
fn nvrtc_output_of_every_example_round_trips() {
    let mut checked = 0;
    for f in examples() {
        let text = std::fs::read_to_string(&f).expect("readable example");
        let kernels = warpsafe_cuda_front::compile(&text)
            .unwrap_or_else(|e| panic!("{}: {e:?}", f.display()))
            .kernels;
        for k in kernels {
            let src = warpsafe_cuda::generate(&k).expect("codegen");
            let ptx = warpsafe_cuda::compile_ptx(&src, &Default::default())
                .unwrap_or_else(|e| panic!("{} ({}): {e}", f.display(), k.name))
                .ptx;
            let module = warpsafe_ptx::parse(&ptx)
                .unwrap_or_else(|e| panic!("{} ({}): {e}\n{ptx}", f.display(), k.name));
            assert!(
                module
                    .functions
                    .iter()
                    .any(|fun| fun.is_entry && fun.name == k.name),
                "{}: kernel {} not found",
                f.display(),
                k.name
            );
            let printed = module.to_string();
            let again = warpsafe_ptx::parse(&printed)
                .unwrap_or_else(|e| panic!("{}: printed PTX: {e}\n{printed}", f.display()));
            assert_eq!(
                again,
                module,
                "{}: round trip changed the module",
                f.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 20);
}
