//! What the clang-front integration tests share: compiling a source through clang from a
//! scratch file, and finding a kernel of the result.
#![allow(dead_code)]

use warpsafe_clang_front::{compile_file, Compiled, Options};
use warpsafe_exec::{eval_contract_expr, run, Arg, Buffer, LaunchConfig, Options as RunOptions};
use warpsafe_ir::{Kernel, ParamKind, Value};
use warpsafe_verify::{verify, Config, DimSpec, Property, Verdict};

/// `source` compiled through clang as the file `name`, written to a scratch directory of its
/// own for this test binary (`tag`) and process.
pub fn clang_in(tag: &str, name: &str, source: &str) -> Compiled {
    let dir = std::env::temp_dir().join(format!("warpsafe-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, source).expect("writes");
    compile_file(&path, source, &Options::default()).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// The kernel called `name` (a panic listing the rejected kernels when there is none).
pub fn kernel<'a>(c: &'a Compiled, name: &str) -> &'a Kernel {
    c.module
        .kernel(name)
        .unwrap_or_else(|| panic!("no kernel `{name}`; rejected: {:?}", c.rejected))
}

/// The message and the spanned text of the one rejected kernel `kernel`.
pub fn rejection<'a>(got: &Compiled, src: &'a str, kernel: &str) -> (String, &'a str) {
    let r = got
        .rejected
        .iter()
        .find(|r| r.kernel == kernel)
        .unwrap_or_else(|| panic!("`{kernel}` not rejected: {:?}", got.rejected));
    let e = &r.errors[0];
    (e.message.clone(), &src[e.span.range()])
}

/// Runs `k` on 2 blocks of 32 threads, with no finding allowed; every buffer argument
/// afterwards.
pub fn run_buffers(k: &Kernel, args: Vec<Arg>) -> Vec<Buffer> {
    let out = run(
        k,
        &LaunchConfig::linear(2, 32),
        args,
        &RunOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", k.name));
    assert!(out.findings.is_empty(), "{}: {:?}", k.name, out.findings);
    out.args
        .into_iter()
        .filter_map(|a| match a {
            Arg::Buffer(b) => Some(b),
            _ => None,
        })
        .collect()
}

/// The default value (from host code or the header) of scalar parameter `name`.
pub fn default_of(k: &Kernel, name: &str) -> Option<Value> {
    let id = k.param_named(name).expect("parameter");
    k.contract
        .defaults
        .iter()
        .find(|(p, _)| *p == id)
        .map(|(_, v)| *v)
}

/// The length of buffer `name`, the scalar parameters at their defaults.
pub fn len_of(k: &Kernel, name: &str) -> Option<u64> {
    let id = k.param_named(name).expect("parameter");
    let l = k.contract.lengths.iter().find(|l| l.param == id)?;
    let scalar = |p: warpsafe_ir::ParamId| match k.param(p).kind {
        ParamKind::Scalar(_) => default_of(k, &k.param(p).name),
        ParamKind::Buffer { .. } => None,
    };
    let v = eval_contract_expr(k, &l.len, &scalar, &|_| None, &LaunchConfig::linear(1, 1))
        .unwrap_or_else(|e| panic!("len({name}): {e}"));
    Some(v.as_i128().expect("integer") as u64)
}

/// `p`'s verdict on `k` at the launch host code gives it (block and grid).
pub fn verdict(k: &Kernel, p: Property) -> Verdict {
    let cfg = Config {
        block: DimSpec::Fixed(k.contract.block_dim.expect("block from the launch")),
        grid: DimSpec::Fixed(k.contract.grid_dim.expect("grid from the launch")),
        properties: vec![p],
        timeout: std::time::Duration::from_secs(60),
        ..Config::default()
    };
    verify(k, &cfg).result(p).expect("checked").verdict.clone()
}

/// True when the verdict is `unknown` because z3 is not installed.
pub fn z3_missing(v: &Verdict) -> bool {
    matches!(v, Verdict::Unknown { reason, .. } if reason.contains("z3"))
}
