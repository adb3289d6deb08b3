//! Differential test of the IR optimiser on the example corpus: every kernel under
//! `examples/kernels` and `examples/equiv` that the C-subset frontend reads and whose header
//! fixes its launch (dims, default arguments, buffer lengths) runs in the interpreter twice
//! on the same seeded inputs, lowered as written and through `compile` (optimised). Every
//! buffer must come back bit for bit equal, with the same findings (categories, sites with
//! spans, threads, locations and counts) and the same error, if any. Blocks run one after
//! another, so that racy twins are deterministic too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use warpsafe_exec::thread::lower::lower_kernel;
use warpsafe_exec::{
    compile, eval_contract_expr, run_program, Arg, Buffer, Finding, LaunchConfig, Options, Program,
};
use warpsafe_ir::{Kernel, ParamId, ParamKind, ScalarType, Value};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "cu") {
            out.push(p);
        }
    }
}

/// xorshift64*: deterministic inputs without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn random_bits(rng: &mut Rng, elem: ScalarType) -> u64 {
    let r = rng.next();
    match elem {
        ScalarType::F32 => {
            ((((r >> 40) as f32) / (1u64 << 24) as f32) * 2.0 - 1.0).to_bits() as u64
        }
        ScalarType::F64 => ((((r >> 11) as f64) / (1u64 << 53) as f64) * 2.0 - 1.0).to_bits(),
        ScalarType::F16 => {
            warpsafe_ir::F16::from_f64((r % 64) as f64 / 32.0 - 1.0).to_bits() as u64
        }
        ScalarType::Bool => r & 1,
        _ => Value::from_i128(elem, i128::from(r % 100)).to_bits(),
    }
}

/// The launch the header of `k` fixes, with random buffer contents; `None` when the header
/// leaves something open.
fn launch(k: &Kernel, seed: u64) -> Option<(LaunchConfig, Vec<Arg>)> {
    let c = &k.contract;
    let mut cfg = LaunchConfig {
        grid: c.grid_dim?,
        block: c.block_dim?,
        dynamic_shared_bytes: 0,
    };
    let defaults: BTreeMap<ParamId, Value> = c.defaults.iter().copied().collect();
    let scalars = |p: ParamId| defaults.get(&p).copied();
    let mut lens: BTreeMap<ParamId, u64> = BTreeMap::new();
    for spec in &c.lengths {
        let known = lens.clone();
        let buffer_len = move |p: ParamId| known.get(&p).copied();
        let v = eval_contract_expr(k, &spec.len, &scalars, &buffer_len, &cfg).ok()?;
        let n = u64::try_from(v.as_i128()?).ok()?;
        lens.insert(spec.param, n);
    }
    let buffer_len = |p: ParamId| lens.get(&p).copied();
    if let Some(e) = &c.dynamic_shared_bytes {
        let v = eval_contract_expr(k, e, &scalars, &buffer_len, &cfg).ok()?;
        cfg.dynamic_shared_bytes = u64::try_from(v.as_i128()?).ok()?;
    }
    let mut rng = Rng(seed | 1);
    let mut args = Vec::new();
    for (i, p) in k.params.iter().enumerate() {
        let id = ParamId(i as u32);
        match p.kind {
            ParamKind::Scalar(_) => args.push(Arg::Scalar(*defaults.get(&id)?)),
            ParamKind::Buffer { elem, .. } => {
                let n = *lens.get(&id)?;
                if n > 1 << 22 {
                    return None;
                }
                let data = (0..n).map(|_| random_bits(&mut rng, elem)).collect();
                args.push(Arg::Buffer(Buffer { elem, data }));
            }
        }
    }
    Some((cfg, args))
}

/// What a run leaves: every buffer's bits and the findings, or the error's text.
type Observed = Result<(Vec<Vec<u64>>, Vec<Finding>), String>;

fn observe(p: &Program, cfg: &LaunchConfig, args: &[Arg], opts: &Options) -> Observed {
    let out = run_program(p, cfg, args.to_vec(), opts).map_err(|e| e.to_string())?;
    let buffers = out
        .args
        .into_iter()
        .filter_map(|a| match a {
            Arg::Buffer(b) => Some(b.data),
            Arg::Scalar(_) => None,
        })
        .collect();
    Ok((buffers, out.findings))
}

fn summary(o: &Observed) -> String {
    match o {
        Ok((buffers, findings)) => {
            let lens: Vec<usize> = buffers.iter().map(Vec::len).collect();
            format!("buffers of {lens:?} elements, findings {findings:#?}")
        }
        Err(e) => format!("error {e}"),
    }
}

fn first_difference(a: &Observed, b: &Observed) -> String {
    if let (Ok((x, _)), Ok((y, _))) = (a, b) {
        for (i, (u, v)) in x.iter().zip(y).enumerate() {
            if let Some(j) = (0..u.len().min(v.len())).find(|&j| u[j] != v[j]) {
                return format!(
                    "buffer #{i} differs first at element {j}: {:#x} vs {:#x}",
                    u[j], v[j]
                );
            }
        }
    }
    String::new()
}

#[test]
fn optimised_kernels_write_the_same_bits_and_report_the_same_findings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut files = Vec::new();
    sources(&root.join("kernels"), &mut files);
    sources(&root.join("equiv"), &mut files);
    files.sort();
    assert!(!files.is_empty(), "no examples under {}", root.display());
    // Blocks in sequence: a racy kernel's outputs then depend on the code alone.
    let opts = Options {
        parallel: false,
        ..Options::default()
    };
    let (mut compared, mut changed) = (0, 0);
    let mut failures = Vec::new();
    for file in &files {
        let Ok(src) = std::fs::read_to_string(file) else {
            continue;
        };
        let Ok(module) = warpsafe_cuda_front::compile(&src) else {
            continue;
        };
        for k in &module.kernels {
            let Some((cfg, args)) = launch(k, 0x9E37_79B9_7F4A_7C15) else {
                continue;
            };
            let Ok(code) = lower_kernel(k) else {
                continue;
            };
            let plain = Program::from_parts(k.clone(), code);
            let fast = compile(k).expect("a kernel that lowers compiles");
            if fast.code().insts != plain.code().insts {
                changed += 1;
                eprintln!("optimised: `{}` of {}", k.name, file.display());
            }
            compared += 1;
            let want = observe(&plain, &cfg, &args, &opts);
            let got = observe(&fast, &cfg, &args, &opts);
            if want != got {
                failures.push(format!(
                    "{} `{}`: {}\n--- as written\n{}\n--- optimised\n{}",
                    file.display(),
                    k.name,
                    first_difference(&want, &got),
                    summary(&want),
                    summary(&got)
                ));
            }
        }
    }
    eprintln!("{compared} kernels compared, {changed} changed by the optimiser");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(compared >= 20, "only {compared} example kernels ran");
    assert!(changed >= 5, "the optimiser changed only {changed} kernels");
}
