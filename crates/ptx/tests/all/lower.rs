//! PTX execution equals IR execution: every example kernel, compiled through our CUDA codegen
//! and NVRTC, is parsed, lowered and run in the interpreter on random inputs, and its outputs
//! and findings are compared with the interpreter run of the `.cu` source itself.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use warpsafe_exec::{eval_contract_expr, Arg, Buffer, LaunchConfig, Options, Outcome, Severity};
use warpsafe_ir::{Category, Kernel, ParamId, ParamKind, ScalarType, Value};

fn examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/kernels");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("examples/kernels exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    files.sort();
    files
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn value(&mut self, ty: ScalarType) -> Value {
        let r = self.next();
        match ty {
            ScalarType::F32 => Value::F32(((r >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0),
            ScalarType::F64 => Value::F64(((r >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0),
            ScalarType::Bool => Value::Bool(r & 1 == 1),
            t => Value::from_bits(t, r % 1000),
        }
    }
}

/// Launch configuration and random arguments from the kernel's header.
fn launch(k: &Kernel, seed: u64) -> Result<(LaunchConfig, Vec<Arg>), String> {
    let c = &k.contract;
    let block = c.block_dim.ok_or("no //--blockDim header")?;
    let mut cfg = LaunchConfig {
        grid: c.grid_dim.unwrap_or([1, 1, 1]),
        block,
        dynamic_shared_bytes: 0,
    };
    let scalar = |p: ParamId| c.defaults.iter().find(|(q, _)| *q == p).map(|(_, v)| *v);
    let mut rng = Rng(seed | 1);
    let mut args = Vec::new();
    for (i, p) in k.params.iter().enumerate() {
        let id = ParamId(i as u32);
        args.push(match p.kind {
            ParamKind::Scalar(_) => {
                Arg::Scalar(scalar(id).ok_or_else(|| format!("no `//@ arg {}` default", p.name))?)
            }
            ParamKind::Buffer { elem, .. } => {
                let spec = c
                    .lengths
                    .iter()
                    .find(|l| l.param == id)
                    .ok_or_else(|| format!("no `//@ len({})`", p.name))?;
                let n = eval_contract_expr(k, &spec.len, &scalar, &|_| None, &cfg)
                    .map_err(|e| e.to_string())?
                    .as_i128()
                    .unwrap_or(0)
                    .max(0) as usize;
                Arg::Buffer(Buffer {
                    elem,
                    data: (0..n).map(|_| rng.value(elem).to_bits()).collect(),
                })
            }
        });
    }
    if let Some(e) = &c.dynamic_shared_bytes {
        let lens = |p: ParamId| match args.get(p.0 as usize) {
            Some(Arg::Buffer(b)) => Some(b.len() as u64),
            _ => None,
        };
        let v = eval_contract_expr(k, e, &scalar, &lens, &cfg).map_err(|e| e.to_string())?;
        cfg.dynamic_shared_bytes = v.as_i128().unwrap_or(0).max(0) as u64;
    }
    Ok((cfg, args))
}

/// NVRTC's PTX for `k`, or `None` (with a note) when NVRTC is unavailable.
fn ptx_of(k: &Kernel) -> Option<String> {
    let src = warpsafe_cuda::generate(k).expect("codegen");
    match warpsafe_cuda::compile_ptx(&src, &Default::default()) {
        Ok(c) => Some(c.ptx),
        Err(e) => {
            eprintln!("note: skipping PTX execution of `{}`: {e}", k.name);
            None
        }
    }
}

fn errors(o: &Outcome) -> BTreeSet<Category> {
    o.findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.category)
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-4 + 1e-3 * a.abs().max(b.abs()) || (a.is_nan() && b.is_nan())
}

/// Compares output buffers; the first difference as text.
fn same_outputs(k: &Kernel, x: &Outcome, y: &Outcome) -> Result<(), String> {
    for (p, (a, b)) in k.params.iter().zip(x.args.iter().zip(&y.args)) {
        let (Arg::Buffer(a), Arg::Buffer(b)) = (a, b) else {
            continue;
        };
        for (j, (&u, &v)) in a.data.iter().zip(&b.data).enumerate() {
            let ok = match a.elem {
                ScalarType::F32 => close(
                    f32::from_bits(u as u32) as f64,
                    f32::from_bits(v as u32) as f64,
                ),
                ScalarType::F64 => close(f64::from_bits(u), f64::from_bits(v)),
                _ => u == v,
            };
            if !ok {
                return Err(format!(
                    "{}[{j}]: IR run {} vs PTX run {}",
                    p.name,
                    a.get(j),
                    b.get(j)
                ));
            }
        }
    }
    Ok(())
}

struct Case {
    file: String,
    kernel: Kernel,
    ptx: String,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for f in examples() {
        let text = std::fs::read_to_string(&f).expect("readable example");
        let module = warpsafe_cuda_front::compile(&text)
            .unwrap_or_else(|e| panic!("{}: {e:?}", f.display()));
        for k in module.kernels {
            let Some(ptx) = ptx_of(&k) else {
                return vec![];
            };
            out.push(Case {
                file: f
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                kernel: k,
                ptx,
            });
        }
    }
    out
}

/// Runs `case` both ways; `None` when the header gives no complete launch.
fn both(case: &Case, seed: u64) -> Option<(Outcome, Outcome)> {
    let k = &case.kernel;
    let (cfg, args) = match launch(k, seed) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("note: {}: {e}; not run", case.file);
            return None;
        }
    };
    let opts = Options::default();
    let direct = warpsafe_exec::run(k, &cfg, args.clone(), &opts)
        .unwrap_or_else(|e| panic!("{}: IR run: {e}", case.file));
    let module = warpsafe_ptx::parse(&case.ptx).unwrap_or_else(|e| panic!("{}: {e}", case.file));
    let program = warpsafe_ptx::lower_with(
        &module,
        &warpsafe_ptx::LowerOptions {
            entry: Some(&k.name),
            signature: Some(k),
            source: Some(&case.ptx),
        },
    )
    .unwrap_or_else(|e| panic!("{}: lowering: {e}\n{}", case.file, case.ptx));
    let via = warpsafe_exec::run_program(&program, &cfg, args, &opts)
        .unwrap_or_else(|e| panic!("{}: PTX run: {e}", case.file));
    Some((direct, via))
}

#[test]
fn correct_examples_compute_the_same_outputs_through_ptx() {
    let mut checked = 0;
    for case in cases()
        .iter()
        .filter(|c| c.kernel.contract.expect.is_empty())
    {
        for seed in [1, 2] {
            let Some((direct, via)) = both(case, seed) else {
                continue;
            };
            assert!(
                errors(&direct).is_empty(),
                "{}: the IR run has findings",
                case.file
            );
            assert!(
                errors(&via).is_empty(),
                "{}: the PTX run has findings the IR run has not: {:#?}",
                case.file,
                via.findings
            );
            if let Err(e) = same_outputs(&case.kernel, &direct, &via) {
                panic!("{}: outputs differ: {e}", case.file);
            }
        }
        checked += 1;
    }
    eprintln!("{checked} correct kernels compared");
}

/// Runs `case` both ways under `opts`; `None` when the header gives no complete launch.
fn both_with(case: &Case, seed: u64, opts: &Options) -> Option<(Outcome, Outcome)> {
    let k = &case.kernel;
    let (cfg, args) = launch(k, seed).ok()?;
    let direct = warpsafe_exec::run(k, &cfg, args.clone(), opts).ok()?;
    let module = warpsafe_ptx::parse(&case.ptx).ok()?;
    let program = warpsafe_ptx::lower_with(
        &module,
        &warpsafe_ptx::LowerOptions {
            entry: Some(&k.name),
            signature: Some(k),
            source: Some(&case.ptx),
        },
    )
    .unwrap_or_else(|e| panic!("{}: lowering: {e}", case.file));
    let via = warpsafe_exec::run_program(&program, &cfg, args, opts)
        .unwrap_or_else(|e| panic!("{}: PTX run: {e}", case.file));
    Some((direct, via))
}

/// Buggy twins stay buggy in PTX: races (global and shared), out-of-bounds accesses,
/// barrier divergence and uninitialised reads all survive NVRTC. Signed overflow does not:
/// C's undefined behaviour compiles to wrapping `mul.lo.s32`, which PTX defines, so the PTX
/// run reports none (its outputs still equal the IR run's, which wraps too).
#[test]
fn buggy_twins_report_the_same_findings_through_ptx() {
    let mut checked = 0;
    for case in cases()
        .iter()
        .filter(|c| !c.kernel.contract.expect.is_empty())
    {
        let expected: BTreeSet<Category> = case
            .kernel
            .contract
            .expect
            .iter()
            .copied()
            .filter(|c| *c != Category::Overflow)
            .collect();
        for lockstep in [false, true] {
            let opts = Options {
                lockstep_warps: lockstep,
                ..Default::default()
            };
            let Some((direct, via)) = both_with(case, 1, &opts) else {
                eprintln!("note: {}: no complete launch in the header", case.file);
                continue;
            };
            let mut ir = errors(&direct);
            ir.remove(&Category::Overflow);
            let ptx = errors(&via);
            assert_eq!(
                ir, ptx,
                "{} (lockstep {lockstep}): IR findings {ir:?}, PTX findings {ptx:?}",
                case.file
            );
            if !lockstep {
                assert_eq!(ptx, expected, "{}: PTX findings", case.file);
            }
            // Under lock-step, reduce_warp_unrolled_bug_nosync is race-free (lock-step hides
            // the race) and computes the same in PTX: codegen keeps its `volatile`, so NVRTC
            // reloads sdata on every unrolled step.
            if ptx.is_empty() {
                if let Err(e) = same_outputs(&case.kernel, &direct, &via) {
                    panic!("{}: outputs differ: {e}", case.file);
                }
            }
        }
        checked += 1;
    }
    eprintln!("{checked} buggy twins compared");
}

/// The legacy lock-step model agrees between IR and PTX on the correct kernels too (the
/// warp-synchronous reductions are the interesting ones).
#[test]
fn lockstep_verdicts_agree_through_ptx() {
    let opts = Options {
        lockstep_warps: true,
        ..Default::default()
    };
    for case in cases()
        .iter()
        .filter(|c| c.kernel.contract.expect.is_empty())
    {
        let Some((direct, via)) = both_with(case, 3, &opts) else {
            continue;
        };
        assert_eq!(errors(&direct), errors(&via), "{}", case.file);
        if let Err(e) = same_outputs(&case.kernel, &direct, &via) {
            panic!("{}: outputs differ: {e}", case.file);
        }
    }
}
