//! Building a launch (dims, scalar arguments, buffers) from the file header and the flags,
//! and checking it against the kernel's contract before anything runs.

use crate::cli::LaunchArgs;
use crate::exit::CliError;
use crate::inputs::{self, BufSpec, Fill, Rng};
use std::collections::HashMap;
use warpsafe_exec::{eval_contract_expr, Arg, LaunchConfig};
use warpsafe_ir::{Kernel, ParamId, ParamKind, Value};

/// A launch ready to run.
pub struct Launch {
    /// Grid, block and dynamic shared memory.
    pub config: LaunchConfig,
    /// One argument per kernel parameter.
    pub args: Vec<Arg>,
}

/// Parses `X[,Y[,Z]]` or `[X,Y,Z]` into three dimensions (missing ones are 1).
pub fn parse_dims(text: &str) -> Result<[u32; 3], CliError> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(CliError::usage(format!(
            "bad dimensions `{text}`: want X[,Y[,Z]]"
        )));
    }
    let mut dims = [1u32; 3];
    for (d, p) in dims.iter_mut().zip(&parts) {
        *d = p.parse().map_err(|_| {
            CliError::usage(format!("bad dimensions `{text}`: `{p}` is not a number"))
        })?;
        if *d == 0 {
            return Err(CliError::usage(format!(
                "bad dimensions `{text}`: zero extent"
            )));
        }
    }
    Ok(dims)
}

fn named_values(
    kernel: &Kernel,
    items: &[String],
    what: &str,
) -> Result<HashMap<ParamId, String>, CliError> {
    let mut out = HashMap::new();
    for item in items {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| CliError::usage(format!("--{what} `{item}`: want NAME=VALUE")))?;
        let p = kernel.param_named(name.trim()).ok_or_else(|| {
            CliError::usage(format!(
                "--{what} `{item}`: kernel `{}` has no parameter `{name}`",
                kernel.name
            ))
        })?;
        out.insert(p, value.trim().to_string());
    }
    Ok(out)
}

/// Resolves the launch for `kernel`: flags first, then the header, then an error naming what
/// is missing. Checks buffer lengths and `requires` lines.
pub fn build(kernel: &Kernel, flags: &LaunchArgs) -> Result<Launch, CliError> {
    let c = &kernel.contract;
    let dims = |flag: &Option<String>, header: Option<[u32; 3]>, what: &str| {
        match flag {
        Some(t) => parse_dims(t),
        None => header.ok_or_else(|| {
            CliError::usage(format!(
                "no {what} dimensions for `{}`: pass --{what} or add a `//--{what}Dim=` header line",
                kernel.name
            ))
        }),
    }
    };
    let mut config = LaunchConfig {
        grid: dims(&flags.grid, c.grid_dim, "grid")?,
        block: dims(&flags.block, c.block_dim, "block")?,
        dynamic_shared_bytes: 0,
    };

    let arg_flags = named_values(kernel, &flags.args, "arg")?;
    let mut scalars: HashMap<ParamId, Value> = HashMap::new();
    for (i, p) in kernel.params.iter().enumerate() {
        let id = ParamId(i as u32);
        let ParamKind::Scalar(ty) = p.kind else {
            if arg_flags.contains_key(&id) {
                return Err(CliError::usage(format!(
                    "`{}` is a buffer: use --buf",
                    p.name
                )));
            }
            continue;
        };
        let value = match arg_flags.get(&id) {
            Some(text) => Value::parse(ty, text).ok_or_else(|| {
                CliError::usage(format!("--arg {}={text}: not a valid {ty}", p.name))
            })?,
            None => c
                .defaults
                .iter()
                .find(|(q, _)| *q == id)
                .map(|(_, v)| *v)
                .ok_or_else(|| {
                    CliError::usage(format!(
                        "no value for scalar `{}`: pass --arg {}=VALUE or add `//@ arg {} = …`",
                        p.name, p.name, p.name
                    ))
                })?,
        };
        scalars.insert(id, value);
    }

    let header_len = |id: ParamId| -> Result<Option<u64>, CliError> {
        let Some(spec) = c.lengths.iter().find(|l| l.param == id) else {
            return Ok(None);
        };
        let v = eval_contract_expr(
            kernel,
            &spec.len,
            &|p| scalars.get(&p).copied(),
            &|_| None,
            &config,
        )
        .map_err(|e| CliError::usage(format!("len({}): {e}", kernel.param(id).name)))?;
        v.as_i128()
            .filter(|n| *n >= 0)
            .map(|n| Some(n as u64))
            .ok_or_else(|| {
                CliError::usage(format!("len({}) evaluates to {v}", kernel.param(id).name))
            })
    };

    let buf_flags = named_values(kernel, &flags.bufs, "buf")?;
    let mut rng = Rng::new(flags.seed);
    let mut args = Vec::with_capacity(kernel.params.len());
    for (i, p) in kernel.params.iter().enumerate() {
        let id = ParamId(i as u32);
        let elem = match p.kind {
            ParamKind::Scalar(_) => {
                args.push(Arg::Scalar(scalars[&id]));
                continue;
            }
            ParamKind::Buffer { elem, .. } => elem,
        };
        let spec = match buf_flags.get(&id) {
            Some(text) => inputs::parse_spec(text)?,
            None => BufSpec {
                fill: Fill::Random,
                len: None,
            },
        };
        let required = header_len(id)?;
        let len = match (&spec.fill, spec.len, required) {
            (Fill::File(_), _, _) => None,
            (_, Some(n), _) => Some(n),
            (_, None, Some(n)) => Some(n),
            (_, None, None) => {
                return Err(CliError::usage(format!(
                    "no length for buffer `{}`: pass --buf {}=random:N or add `//@ len({}) = …`",
                    p.name, p.name, p.name
                )))
            }
        };
        let buf = inputs::make_buffer(elem, len.unwrap_or(0), &spec.fill, &mut rng)?;
        if let Some(want) = required {
            if buf.data.len() as u64 != want {
                return Err(CliError::usage(format!(
                    "buffer `{}` has {} elements but the header requires len({}) = {want}",
                    p.name,
                    buf.data.len(),
                    p.name
                )));
            }
        }
        args.push(Arg::Buffer(buf));
    }

    let scalar_of = |p: ParamId| match args.get(p.0 as usize) {
        Some(Arg::Scalar(v)) => Some(*v),
        _ => None,
    };
    let len_of = |p: ParamId| match args.get(p.0 as usize) {
        Some(Arg::Buffer(b)) => Some(b.data.len() as u64),
        _ => None,
    };
    config.dynamic_shared_bytes = match (flags.shared_bytes, &c.dynamic_shared_bytes) {
        (Some(n), _) => n,
        (None, Some(e)) => eval_contract_expr(kernel, e, &scalar_of, &len_of, &config)
            .ok()
            .and_then(|v| v.as_i128())
            .filter(|n| *n >= 0)
            .map(|n| n as u64)
            .ok_or_else(|| {
                CliError::usage("the `//@ shared_bytes` expression does not evaluate")
            })?,
        (None, None) => 0,
    };
    for r in &c.requires {
        let holds = eval_contract_expr(kernel, r, &scalar_of, &len_of, &config).map_err(|e| {
            CliError::usage(format!("precondition `{}`: {e}", kernel.expr_to_string(r)))
        })?;
        if holds != Value::Bool(true) {
            return Err(CliError::usage(format!(
                "precondition `{}` does not hold for this launch",
                kernel.expr_to_string(r)
            )));
        }
    }
    Ok(Launch { config, args })
}

#[cfg(test)]
mod tests {
    use super::parse_dims;

    #[test]
    fn dims_parse_in_both_forms() {
        assert_eq!(parse_dims("256").unwrap(), [256, 1, 1]);
        assert_eq!(parse_dims("16,16").unwrap(), [16, 16, 1]);
        assert_eq!(parse_dims("[4, 2, 2]").unwrap(), [4, 2, 2]);
        assert!(parse_dims("0").is_err());
        assert!(parse_dims("1,2,3,4").is_err());
        assert!(parse_dims("x").is_err());
    }
}
