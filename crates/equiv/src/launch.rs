//! Resolving a symbolic launch: dimensions, scalar arguments (integers concrete, floats
//! symbolic unless given), buffer lengths and dynamic shared memory, from the kernel's header
//! and the configuration; preconditions checked.

use crate::{EquivError, ExecConfig};
use warpsafe_exec::{eval_contract_expr, LaunchConfig};
use warpsafe_ir::{Kernel, ParamId, ParamKind, Value};

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
    Ok(Setup {
        launch,
        scalars,
        lens,
    })
}
