//! Resolving a symbolic launch: dimensions, scalar arguments (integers concrete, floats
//! symbolic unless given), buffer lengths and dynamic shared memory, from the kernel's header
//! and the configuration; preconditions checked.

use crate::{BufferStart, EquivError, ExecConfig};
use warpsafe_exec::{eval_contract_expr, LaunchConfig};
use warpsafe_ir::{InitNumber, Kernel, ParamId, ParamKind, Value};

/// A scalar argument.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Scalar {
    /// A concrete value.
    Value(Value),
    /// An input symbol named after the parameter.
    Symbol,
}

/// Everything a run needs besides the code.
#[derive(Clone, Debug)]
pub(crate) struct Setup {
    pub launch: LaunchConfig,
    /// Per parameter: its scalar argument (None for buffers).
    pub scalars: Vec<Option<Scalar>>,
    /// Per parameter: its buffer length (None for scalars).
    pub lens: Vec<Option<u64>>,
    /// Per parameter: the constant every element of the buffer starts as (`--init`, or the
    /// header's `//@ init`); None for scalars and for buffers of input symbols.
    pub inits: Vec<Option<Value>>,
    /// The buffers given initial contents, and where from, for reports.
    pub starts: Vec<BufferStart>,
}

/// The initial contents of each buffer of `kernel`: `--init` first, then the header's
/// `//@ init` lines.
fn initial_contents(
    kernel: &Kernel,
    cfg: &ExecConfig,
) -> Result<(Vec<Option<Value>>, Vec<BufferStart>), EquivError> {
    for (name, text) in &cfg.init {
        let is_buffer = kernel
            .param_named(name)
            .is_some_and(|p| matches!(kernel.param(p).kind, ParamKind::Buffer { .. }));
        if !is_buffer {
            return Err(EquivError::Launch(format!(
                "--init {name}={text}: kernel `{}` has no buffer `{name}`",
                kernel.name
            )));
        }
    }
    let mut inits = Vec::new();
    let mut starts = Vec::new();
    for (i, p) in kernel.params.iter().enumerate() {
        let ParamKind::Buffer { elem, .. } = p.kind else {
            inits.push(None);
            continue;
        };
        let given = cfg.init.iter().rev().find(|(n, _)| *n == p.name);
        let header = kernel
            .contract
            .init
            .iter()
            .find(|b| b.param.0 as usize == i);
        let (value, text, from) = match (given, header) {
            (Some((_, text)), _) => {
                let value = InitNumber::parse(text)
                    .ok_or_else(|| format!("`{text}` is not a number, `inf` or `-inf`"))
                    .and_then(|n| n.to_value(elem))
                    .map_err(|why| {
                        EquivError::Launch(format!("--init {}={text}: {why}", p.name))
                    })?;
                (value, text.clone(), format!("--init {}={text}", p.name))
            }
            (None, Some(b)) => (
                b.value,
                b.text.clone(),
                format!("the header's `//@ init({}) = {}`", p.name, b.text),
            ),
            (None, None) => {
                inits.push(None);
                continue;
            }
        };
        inits.push(Some(value));
        starts.push(BufferStart {
            name: p.name.clone(),
            value: text,
            from,
        });
    }
    Ok((inits, starts))
}

/// Refuses a comparison whose two kernels start a buffer of the same name differently (one
/// from a constant, the other from inputs, or from two constants): their outputs would be
/// compared on different inputs. `--init` gives both the same start.
pub(crate) fn agree_on_starts(
    reference: &Kernel,
    rcfg: &ExecConfig,
    optimized: &Kernel,
    ocfg: &ExecConfig,
) -> Result<(), EquivError> {
    let (ri, rs) = initial_contents(reference, rcfg)?;
    let (oi, os) = initial_contents(optimized, ocfg)?;
    for (i, p) in reference.params.iter().enumerate() {
        let Some(q) = optimized.param_named(&p.name) else {
            continue;
        };
        let (a, b) = (ri[i], oi[q.0 as usize]);
        let same = match (a, b) {
            (Some(x), Some(y)) => x.to_bits() == y.to_bits() || x.as_f64() == y.as_f64(),
            (None, None) => true,
            _ => false,
        };
        if same {
            continue;
        }
        let says =
            |k: &Kernel, starts: &[BufferStart]| match starts.iter().find(|s| s.name == p.name) {
                Some(s) => format!(
                    "`{}` starts `{}` as {} ({})",
                    k.name, p.name, s.value, s.from
                ),
                None => format!("`{}` reads `{}` as input", k.name, p.name),
            };
        return Err(EquivError::Mismatch(format!(
            "the kernels disagree on the initial contents of `{}`: {}, but {}; give both the \
             same `//@ init({}) = …` line or pass --init {}=VALUE",
            p.name,
            says(reference, &rs),
            says(optimized, &os),
            p.name,
            p.name
        )));
    }
    Ok(())
}

pub(crate) fn resolve(kernel: &Kernel, cfg: &ExecConfig) -> Result<Setup, EquivError> {
    let launch = match cfg.launch {
        Some(l) => l,
        None => match (kernel.contract.block_dim, kernel.contract.grid_dim) {
            (Some(block), grid) => LaunchConfig {
                grid: grid.unwrap_or([1, 1, 1]),
                block,
                dynamic_shared_bytes: 0,
            },
            _ => return Err(EquivError::MissingLaunch(kernel.name.clone())),
        },
    };
    launch
        .validate()
        .map_err(|e| EquivError::Launch(e.to_string()))?;
    let mut scalars = Vec::new();
    for (i, p) in kernel.params.iter().enumerate() {
        scalars.push(match p.kind {
            ParamKind::Buffer { .. } => None,
            ParamKind::Scalar(t) => {
                let given = cfg
                    .scalars
                    .iter()
                    .find(|(n, _)| *n == p.name)
                    .map(|(_, v)| v.cast(t));
                let default = kernel
                    .contract
                    .defaults
                    .iter()
                    .find(|(id, _)| id.0 as usize == i)
                    .map(|(_, v)| v.cast(t));
                Some(match (given, t.is_float()) {
                    (Some(v), _) => Scalar::Value(v),
                    (None, true) => Scalar::Symbol,
                    (None, false) => match default {
                        Some(v) => Scalar::Value(v),
                        None => {
                            return Err(EquivError::MissingScalar {
                                kernel: kernel.name.clone(),
                                param: p.name.clone(),
                            })
                        }
                    },
                })
            }
        });
    }
    // Contract expressions see concrete scalars (float defaults included) and given lengths.
    let scalar_value = |p: ParamId| -> Option<Value> {
        match scalars.get(p.0 as usize).copied().flatten() {
            Some(Scalar::Value(v)) => Some(v),
            _ => kernel
                .contract
                .defaults
                .iter()
                .find(|(id, _)| *id == p)
                .map(|(_, v)| *v),
        }
    };
    let given_len = |p: ParamId| -> Option<u64> {
        let name = &kernel.params.get(p.0 as usize)?.name;
        cfg.lens.iter().find(|(n, _)| n == name).map(|(_, l)| *l)
    };
    let mut lens = Vec::new();
    for (i, p) in kernel.params.iter().enumerate() {
        lens.push(match p.kind {
            ParamKind::Scalar(_) => None,
            ParamKind::Buffer { .. } => {
                let id = ParamId(i as u32);
                let len = match given_len(id) {
                    Some(l) => l,
                    None => {
                        let spec = kernel.contract.lengths.iter().find(|l| l.param == id);
                        let Some(spec) = spec else {
                            return Err(EquivError::MissingLen {
                                kernel: kernel.name.clone(),
                                param: p.name.clone(),
                            });
                        };
                        let v = eval_contract_expr(
                            kernel,
                            &spec.len,
                            &scalar_value,
                            &given_len,
                            &launch,
                        )
                        .map_err(|e| EquivError::Launch(format!("len({}): {e}", p.name)))?;
                        v.as_i128().unwrap_or(0).max(0) as u64
                    }
                };
                Some(len)
            }
        });
    }
    let len_of = |p: ParamId| lens.get(p.0 as usize).copied().flatten();
    let mut launch = launch;
    if launch.dynamic_shared_bytes == 0 {
        if let Some(e) = &kernel.contract.dynamic_shared_bytes {
            let v = eval_contract_expr(kernel, e, &scalar_value, &len_of, &launch)
                .map_err(|e| EquivError::Launch(format!("shared_bytes: {e}")))?;
            launch.dynamic_shared_bytes = v.as_i128().unwrap_or(0).max(0) as u64;
        }
    }
    for r in &kernel.contract.requires {
        match eval_contract_expr(kernel, r, &scalar_value, &len_of, &launch) {
            Ok(v) if v.to_bits() == 0 => {
                return Err(EquivError::Launch(format!(
                    "kernel `{}`: the launch violates a `requires` precondition of its header",
                    kernel.name
                )))
            }
            _ => {}
        }
    }
    let (inits, starts) = initial_contents(kernel, cfg)?;
    Ok(Setup {
        launch,
        scalars,
        lens,
        inits,
        starts,
    })
}
