//! Generated CUDA C for every bundled example: snapshots, NVRTC compilation without
//! warnings, and the round trip IR → CUDA C → frontend → IR running to the same outputs.

use std::path::{Path, PathBuf};
use warpsafe_exec::{Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{Kernel, ParamId, ParamKind, Value};

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

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn kernels(p: &Path) -> Vec<Kernel> {
    let text = std::fs::read_to_string(p).expect("readable example");
    warpsafe_cuda_front::compile(&text)
        .unwrap_or_else(|e| panic!("{}: {:?}", p.display(), e))
        .kernels
}

#[test]
fn generated_cuda_matches_snapshots() {
    for f in examples() {
        for k in kernels(&f) {
            let text = warpsafe_cuda::generate(&k).expect("codegen");
            insta::assert_snapshot!(format!("{}__{}", stem(&f), k.name), text);
        }
    }
}

#[test]
fn every_example_compiles_with_nvrtc_without_warnings() {
    let lib = warpsafe_cuda::nvrtc_path().expect("NVRTC must be installed (scripts/setup.sh)");
    let version = warpsafe_cuda::nvrtc_version().expect("NVRTC version");
    assert!(version.0 >= 13, "NVRTC {version:?} from {}", lib.display());
    for f in examples() {
        for k in kernels(&f) {
            let src = warpsafe_cuda::generate(&k).expect("codegen");
            let out = warpsafe_cuda::compile_ptx(&src, &Default::default())
                .unwrap_or_else(|e| panic!("{} ({}): {e}\n{src}", f.display(), k.name));
            assert!(
                out.log.trim().is_empty(),
                "{}: NVRTC warnings:\n{}",
                f.display(),
                out.log
            );
            assert!(out.ptx.contains(".entry"), "{}", f.display());
            assert!(out.ptx.contains(&k.name), "{}", f.display());
        }
    }
}

fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed | 1;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

/// Arguments from the header: default scalars, buffers sized by `len` lines, random data.
fn header_args(k: &Kernel, cfg: &LaunchConfig, seed: u64) -> Vec<Arg> {
    let mut next = rng(seed);
    let scalar = |p: ParamId| {
        k.contract
            .defaults
            .iter()
            .find(|(q, _)| *q == p)
            .map(|(_, v)| *v)
    };
    k.params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let id = ParamId(i as u32);
            match p.kind {
                ParamKind::Scalar(_) => {
                    Arg::Scalar(scalar(id).expect("every scalar has a default"))
                }
                ParamKind::Buffer { elem, .. } => {
                    let len = k
                        .contract
                        .lengths
                        .iter()
                        .find(|l| l.param == id)
                        .and_then(|l| {
                            warpsafe_exec::eval_contract_expr(k, &l.len, &scalar, &|_| None, cfg)
                                .ok()
                        })
                        .and_then(|v| v.as_i128())
                        .expect("every buffer has a length") as usize;
                    let data = (0..len)
                        .map(|_| {
                            let r = next();
                            if elem.is_float() {
                                Value::from_f64(elem, (r % 2001) as f64 / 1000.0 - 1.0).to_bits()
                            } else {
                                Value::from_i128(elem, (r % 1000) as i128).to_bits()
                            }
                        })
                        .collect();
                    Arg::Buffer(Buffer { elem, data })
                }
            }
        })
        .collect()
}

#[test]
fn round_trip_through_generated_cuda_runs_to_the_same_outputs() {
    for f in examples() {
        let text = std::fs::read_to_string(&f).expect("readable");
        if text.contains("//@ expect") {
            continue;
        }
        for k in kernels(&f) {
            let src = warpsafe_cuda::generate(&k).expect("codegen");
            let mut back = warpsafe_cuda_front::compile(&src)
                .unwrap_or_else(|e| {
                    panic!(
                        "{}: generated CUDA does not parse back: {e:?}\n{src}",
                        f.display()
                    )
                })
                .kernels
                .remove(0);
            back.contract = k.contract.clone();
            let (Some(grid), Some(block)) = (k.contract.grid_dim, k.contract.block_dim) else {
                panic!("{}: header without launch dims", f.display());
            };
            let mut cfg = LaunchConfig {
                grid,
                block,
                dynamic_shared_bytes: 0,
            };
            let args = header_args(&k, &cfg, 11);
            if let Some(e) = &k.contract.dynamic_shared_bytes {
                let scalar = |p: ParamId| match args.get(p.0 as usize) {
                    Some(Arg::Scalar(v)) => Some(*v),
                    _ => None,
                };
                cfg.dynamic_shared_bytes =
                    warpsafe_exec::eval_contract_expr(&k, e, &scalar, &|_| None, &cfg)
                        .ok()
                        .and_then(|v| v.as_i128())
                        .expect("shared_bytes evaluates") as u64;
            }
            let a = warpsafe_exec::run(&k, &cfg, args.clone(), &Options::default())
                .expect("original runs");
            let b = warpsafe_exec::run(&back, &cfg, args, &Options::default())
                .expect("round trip runs");
            assert_eq!(
                a.args,
                b.args,
                "{}: outputs differ after the round trip",
                f.display()
            );
            assert!(
                b.findings
                    .iter()
                    .all(|x| x.severity == warpsafe_exec::Severity::Warning),
                "{}: {:?}",
                f.display(),
                b.findings.iter().map(|x| &x.message).collect::<Vec<_>>()
            );
        }
    }
}
