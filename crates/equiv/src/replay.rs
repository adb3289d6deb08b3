//! Concrete replay of a symbolic counterexample: the kernel runs in the interpreter (IEEE
//! floats, every dynamic check) on the input the counterexample names — every input symbol
//! at its value in the seeded [`Assignment`], so the concrete input is exactly the symbolic
//! one. A `different` verdict needs the interpreter to agree.

use crate::launch::{self, Scalar};
use crate::ExecConfig;
use serde::Serialize;
use warpsafe_algebra::{rat_to_f64, rat_to_i128, Assignment, SymInfo};
use warpsafe_exec::{Arg, Buffer, Options, Program};
use warpsafe_ir::{ParamKind, ScalarType, Value};

/// Relative difference (of the larger magnitude, at least 1) above which two concrete values
/// count as different: far above float rounding of reassociated sums, far below a bug.
pub(crate) const TOLERANCE: f64 = 1e-3;

/// What the interpreter computed at the counterexample's element.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replay {
    /// The reference's value (for `prove`, the spec's value at the input).
    pub expected: f64,
    /// The kernel's (optimised kernel's) value, computed by the interpreter.
    pub actual: f64,
    /// The seed of the input (the same as the counterexample's).
    pub seed: u64,
}

/// The writable buffers of one concrete run, in parameter order: (name, buffer).
pub(crate) type Outputs = Vec<(String, Buffer)>;

/// The concrete input at `seed` of `program` under `cfg`.
pub(crate) fn arguments(
    program: &Program,
    cfg: &ExecConfig,
    seed: u64,
) -> Result<Vec<Arg>, String> {
    let kernel = program.kernel();
    let setup = launch::resolve(kernel, cfg).map_err(|e| e.to_string())?;
    let point = Assignment::new(seed);
    let value = |name: &str, index: Option<u64>, ty: ScalarType| {
        let q = point.value(&SymInfo {
            name: name.to_string(),
            index,
            integer: !ty.is_float(),
        });
        if ty.is_float() {
            Value::from_f64(ty, rat_to_f64(&q))
        } else {
            Value::from_i128(ty, rat_to_i128(&q).unwrap_or(0))
        }
    };
    let mut args = Vec::new();
    for (i, p) in kernel.params.iter().enumerate() {
        match p.kind {
            ParamKind::Scalar(ty) => {
                let v = match setup.scalars.get(i).copied().flatten() {
                    Some(Scalar::Value(v)) => v.cast(ty),
                    Some(Scalar::Symbol) | None => value(&p.name, None, ty),
                };
                args.push(Arg::Scalar(v));
            }
            ParamKind::Buffer { elem, .. } => {
                let len = setup.lens.get(i).copied().flatten().unwrap_or(0);
                let start = setup.inits.get(i).copied().flatten();
                let data = (0..len)
                    .map(|j| match start {
                        Some(v) => v.to_bits(),
                        None => value(&p.name, Some(j), elem).to_bits(),
                    })
                    .collect();
                args.push(Arg::Buffer(Buffer { elem, data }));
            }
        }
    }
    Ok(args)
}

/// Runs `program` in the interpreter on the input at `seed`; its writable buffers after the
/// run, or why it could not run.
pub(crate) fn run_at(program: &Program, cfg: &ExecConfig, seed: u64) -> Result<Outputs, String> {
    let kernel = program.kernel();
    let args = arguments(program, cfg, seed)?;
    let setup = launch::resolve(kernel, cfg).map_err(|e| e.to_string())?;
    let opts = Options {
        lockstep_warps: cfg.lockstep_warps,
        max_block_instructions: cfg.max_block_instructions,
        max_memory: cfg.limits.max_memory,
        ..Options::default()
    };
    let out = warpsafe_exec::run_program(program, &setup.launch, args, &opts)
        .map_err(|e| format!("the interpreter could not run `{}`: {e}", kernel.name))?;
    Ok(kernel
        .params
        .iter()
        .zip(out.args)
        .filter_map(|(p, a)| match (p.kind, a) {
            (ParamKind::Buffer { writable: true, .. }, Arg::Buffer(b)) => Some((p.name.clone(), b)),
            _ => None,
        })
        .collect())
}

/// Element `index` of buffer `name` in `outputs`, as a float.
pub(crate) fn element(outputs: &Outputs, name: &str, index: u64) -> Option<f64> {
    let (_, b) = outputs.iter().find(|(n, _)| n == name)?;
    let bits = *b.data.get(usize::try_from(index).ok()?)?;
    Some(Value::from_bits(b.elem, bits).as_f64())
}

/// True when two concrete values differ beyond float rounding: a NaN against a number, two
/// different infinities, or finite values apart by more than [`TOLERANCE`].
pub(crate) fn differ(a: f64, b: f64) -> bool {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => false,
        (true, false) | (false, true) => true,
        _ if a.is_infinite() || b.is_infinite() => a != b,
        _ => (a - b).abs() > TOLERANCE * a.abs().max(b.abs()).max(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::differ;

    #[test]
    fn rounding_is_not_a_difference() {
        assert!(!differ(1.0, 1.0 + 1e-6));
        assert!(!differ(f64::NAN, f64::NAN));
        assert!(!differ(f64::INFINITY, f64::INFINITY));
        assert!(differ(1.0, 1.5));
        assert!(differ(f64::NAN, 0.0));
        assert!(differ(f64::INFINITY, 1e30));
    }
}
