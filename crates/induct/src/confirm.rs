//! Replaying a failure in the concrete interpreter on integer-valued inputs, so that a
//! refutation carries an input that shows it.

use crate::machine::{lengths, shared_dims, AbsLaunch};
use crate::target::expectations;
use serde::Serialize;
use warpsafe_equiv::Spec;
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{Kernel, ParamKind, ScalarType, Value};

/// A concrete run that shows the kernel wrong.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Counterexample {
    /// Threads per block.
    pub block: u32,
    /// Blocks.
    pub grid: u32,
    /// The value of every integer parameter (the element count).
    pub n: i64,
    /// Input buffers' contents (small integers, exact in every numeric type).
    pub inputs: Vec<(String, Vec<i64>)>,
    /// What went wrong: a finding of the interpreter or a wrong output element.
    pub message: String,
}

/// The input value at index `k` (small, varied, exact in f32).
pub fn input_value(k: usize) -> i64 {
    ((k * 37 + 11) % 19) as i64 + 1
}

/// The kernel with its shared arrays sized for `block` threads and the block size fixed.
pub fn resized(k: &Kernel, block: u32) -> Kernel {
    let mut k2 = k.clone();
    for (a, dims) in k2.shared.iter_mut().zip(shared_dims(k, block)) {
        a.dims = dims;
    }
    k2.contract.block_dim = Some([block, 1, 1]);
    k2.contract.requires.clear();
    k2
}

fn buffer(ty: ScalarType, vals: &[i64]) -> Buffer {
    let value = |v: i64| {
        if ty.is_float() {
            Value::from_f64(ty, v as f64)
        } else {
            Value::from_i128(ty, v as i128)
        }
    };
    Buffer {
        elem: ty,
        data: vals.iter().map(|&v| value(v).to_bits()).collect(),
    }
}

/// Runs the kernel concretely at `block × grid` with `n` elements and reports a finding or
/// an output element that differs from the spec; `None` when the concrete run looks right.
pub fn confirm(
    k: &Kernel,
    spec: Option<&Spec>,
    block: u32,
    grid: u32,
    n: i64,
) -> Option<Counterexample> {
    let launch = AbsLaunch { block, grid, n };
    let kernel = resized(k, block);
    let lens = lengths(k, &launch);
    let mut inputs = vec![];
    let mut args = vec![];
    for (i, p) in kernel.params.iter().enumerate() {
        match p.kind {
            ParamKind::Scalar(t) => args.push(Arg::Scalar(Value::from_i128(t, n as i128))),
            ParamKind::Buffer { elem, writable } => {
                let len = lens.get(i).copied().unwrap_or(n as u64) as usize;
                if writable {
                    args.push(Arg::Buffer(Buffer::zeros(elem, len)));
                } else {
                    let vals: Vec<i64> = (0..len).map(input_value).collect();
                    args.push(Arg::Buffer(buffer(elem, &vals)));
                    inputs.push((p.name.clone(), vals));
                }
            }
        }
    }
    let cfg = LaunchConfig::linear(grid, block);
    let out = match run(&kernel, &cfg, args, &Options::default()) {
        Ok(o) => o,
        Err(e) => {
            return Some(Counterexample {
                block,
                grid,
                n,
                inputs,
                message: format!("the interpreter stopped: {e}"),
            })
        }
    };
    let mk = |message: String| Counterexample {
        block,
        grid,
        n,
        inputs: inputs.clone(),
        message,
    };
    if let Some(f) = out
        .findings
        .iter()
        .find(|f| f.severity == warpsafe_exec::Severity::Error)
    {
        return Some(mk(f.message.clone()));
    }
    let expected = expectations(spec?, k, &launch).ok()?;
    for e in expected {
        let Some(Arg::Buffer(b)) = out.args.get(e.buffer.0 as usize) else {
            continue;
        };
        let want: i64 = (0..e.summary.count as u64)
            .map(|j| input_value((e.summary.start as u64 + j * e.summary.step as u64) as usize))
            .sum();
        let got = b.get(e.index as usize).as_f64();
        if got != want as f64 {
            return Some(mk(format!(
                "{}[{}] = {} but the spec gives {}",
                k.param(e.buffer).name,
                e.index,
                got,
                want
            )));
        }
    }
    None
}
