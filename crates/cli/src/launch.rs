//! Building a launch (dims, scalar arguments, buffers) from the file header and the flags,
//! and checking it against CUDA's limits, the kernel's contract and the memory limit before
//! anything is allocated. Every refusal names the flag or header line it comes from.

use crate::cli::LaunchArgs;
use crate::exit::CliError;
use crate::inputs::{self, BufSpec, Fill, Rng};
use std::collections::HashMap;
use warpsafe_exec::{eval_contract_expr, Arg, ByteSize, ExecError, LaunchConfig};
use warpsafe_ir::{Expr, ExprKind, InitNumber, Kernel, ParamId, ParamKind, ScalarType, Value};

/// Copies of each buffer element the interpreter holds (the caller's, the run's input, the
/// working copy), 8 bytes each.
const BYTES_PER_ELEMENT: u64 = 3 * 8;

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
            CliError::usage(format!(
                "bad dimensions `{text}`: `{p}` is not a number from 1 to {}",
                u32::MAX
            ))
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
                "--{what} `{item}`: kernel `{}` has no parameter `{}`; its parameters: {}",
                kernel.name,
                name.trim(),
                param_list(kernel)
            ))
        })?;
        out.insert(p, value.trim().to_string());
    }
    Ok(out)
}

/// The kernel's parameters as `name (type)`, for error messages; a PTX kernel's names are its
/// `.param` names unless a sibling `.cu` file supplied the source names.
fn param_list(kernel: &Kernel) -> String {
    let list: Vec<String> = kernel
        .params
        .iter()
        .map(|p| match p.kind {
            warpsafe_ir::ParamKind::Scalar(t) => format!("{} ({t})", p.name),
            warpsafe_ir::ParamKind::Buffer { elem, .. } => format!("{} ({elem}*)", p.name),
        })
        .collect();
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}

/// The launch dimensions and where each came from (`--grid 4` or the header's line).
fn dims(kernel: &Kernel, flags: &LaunchArgs) -> Result<LaunchConfig, CliError> {
    let c = &kernel.contract;
    let pick = |flag: &Option<String>, header: Option<[u32; 3]>, what: &str| {
        match flag {
        Some(t) => parse_dims(t)
            .map(|d| (d, format!("--{what} {t}")))
            .map_err(|e| CliError::usage(format!("--{what}: {e}"))),
        None => header
            .map(|d| (d, format!("the header's `//--{what}Dim={}`", show_dims(d))))
            .ok_or_else(|| {
                CliError::usage(format!(
                    "no {what} dimensions for `{}`: pass --{what} or add a `//--{what}Dim=` header line",
                    kernel.name
                ))
            }),
    }
    };
    let (grid, grid_from) = pick(&flags.grid, c.grid_dim, "grid")?;
    let (block, block_from) = pick(&flags.block, c.block_dim, "block")?;
    let config = LaunchConfig {
        grid,
        block,
        dynamic_shared_bytes: 0,
    };
    let only = |grid, block| LaunchConfig {
        grid,
        block,
        dynamic_shared_bytes: 0,
    };
    only([1; 3], block)
        .validate()
        .map_err(|e| from_launch(&block_from, e))?;
    only(grid, [1; 3])
        .validate()
        .map_err(|e| from_launch(&grid_from, e))?;
    Ok(config)
}

fn show_dims(d: [u32; 3]) -> String {
    match d {
        [x, 1, 1] => x.to_string(),
        [x, y, 1] => format!("{x},{y}"),
        [x, y, z] => format!("{x},{y},{z}"),
    }
}

fn from_launch(source: &str, e: ExecError) -> CliError {
    match e {
        ExecError::InvalidLaunch(m) => CliError::usage(format!("{source}: {m}")),
        other => CliError::usage(format!("{source}: {other}")),
    }
}

/// What a valid value of `ty` looks like, for error messages.
fn type_hint(ty: ScalarType) -> String {
    match ty.int_range() {
        _ if ty == ScalarType::Bool => "true, false, 1 or 0".into(),
        Some((lo, hi)) => format!("an integer from {lo} to {hi}"),
        None => "a number such as 2.5".into(),
    }
}

/// One buffer before it is allocated: its fill, its length, and where the length came from.
struct Planned {
    elem: ScalarType,
    fill: Fill,
    len: u64,
    origin: String,
    /// Elements already read (from a pipe, whose length is known only by reading it).
    data: Option<Vec<u64>>,
}

/// Scalar values and where each came from.
struct Scalars {
    values: HashMap<ParamId, Value>,
    origins: HashMap<ParamId, String>,
}

impl Scalars {
    /// `n = 4000 (--arg n=4000)` for each scalar `e` mentions.
    fn explain(&self, kernel: &Kernel, e: &Expr) -> String {
        let mut seen: Vec<ParamId> = vec![];
        e.walk(&mut |x| {
            if let ExprKind::Param(p) = x.kind {
                if !seen.contains(&p) {
                    seen.push(p);
                }
            }
        });
        let parts: Vec<String> = seen
            .iter()
            .filter_map(|p| {
                let v = self.values.get(p)?;
                let from = self.origins.get(p).map(String::as_str).unwrap_or("");
                Some(format!("{} = {v} from {from}", kernel.param(*p).name))
            })
            .collect();
        if parts.is_empty() {
            String::new()
        } else {
            format!(" with {}", parts.join(", "))
        }
    }
}

fn scalars(kernel: &Kernel, flags: &LaunchArgs) -> Result<Scalars, CliError> {
    let arg_flags = named_values(kernel, &flags.args, "arg")?;
    let mut out = Scalars {
        values: HashMap::new(),
        origins: HashMap::new(),
    };
    for (i, p) in kernel.params.iter().enumerate() {
        let id = ParamId(i as u32);
        let ParamKind::Scalar(ty) = p.kind else {
            if let Some(v) = arg_flags.get(&id) {
                return Err(CliError::usage(format!(
                    "--arg {}={v}: `{}` is a buffer: use --buf {}=SPEC",
                    p.name, p.name, p.name
                )));
            }
            continue;
        };
        let (value, origin) = match arg_flags.get(&id) {
            Some(text) => {
                let v = Value::parse(ty, text).ok_or_else(|| {
                    CliError::usage(format!(
                        "--arg {}={text}: not a valid {ty} (want {})",
                        p.name,
                        type_hint(ty)
                    ))
                })?;
                (v, format!("--arg {}={text}", p.name))
            }
            None => c_default(kernel, id)
                .map(|v| (v, format!("the header's `//@ arg {} = {v}`", p.name)))
                .ok_or_else(|| {
                    CliError::usage(format!(
                        "no value for scalar `{}`: pass --arg {}=VALUE or add `//@ arg {} = …`",
                        p.name, p.name, p.name
                    ))
                })?,
        };
        out.values.insert(id, value);
        out.origins.insert(id, origin);
    }
    Ok(out)
}

/// `--buf` and `--len` items (`--len NAME=N` is `--buf NAME=N`), each naming a buffer
/// parameter: another name is an error listing the buffer parameters.
fn buffer_items(kernel: &Kernel, flags: &LaunchArgs) -> Result<Vec<String>, CliError> {
    let mut out = Vec::with_capacity(flags.bufs.len() + flags.lens.len());
    for (flag, item) in flags
        .bufs
        .iter()
        .map(|i| ("buf", i))
        .chain(flags.lens.iter().map(|i| ("len", i)))
    {
        let Some((name, value)) = item.split_once('=') else {
            return Err(CliError::usage(format!(
                "--{flag} `{item}`: want NAME=VALUE"
            )));
        };
        // An empty name is left to `named_values`, which says the item is malformed.
        if !name.trim().is_empty() {
            crate::fixed::buffer_param(&[kernel], flag, item, name.trim())?;
        }
        if flag == "len" && value.trim().parse::<u64>().is_err() {
            return Err(CliError::usage(format!(
                "--len {item}: `{}` is not a number of elements (--buf {}=SPEC gives contents)",
                value.trim(),
                name.trim()
            )));
        }
        out.push(item.clone());
    }
    Ok(out)
}

/// The constant buffer `id` starts as: `--init` (with at most a length from `--buf`), else
/// the header's `//@ init` unless `--buf` gives the contents; `None` for other buffers.
fn initial_value(
    kernel: &Kernel,
    id: ParamId,
    elem: ScalarType,
    init_flag: Option<&String>,
    buf_flag: Option<&String>,
    spec: &BufSpec,
) -> Result<Option<Value>, CliError> {
    let name = &kernel.param(id).name;
    match (init_flag, buf_flag) {
        (Some(text), Some(buf)) if spec.fill != Fill::Random => Err(CliError::usage(format!(
            "--init {name}={text} and --buf {name}={buf} both give the contents of `{name}`: \
             keep one (--buf {name}=N may give its length)"
        ))),
        (Some(text), _) => InitNumber::parse(text)
            .ok_or_else(|| format!("`{text}` is not a number, `inf` or `-inf`"))
            .and_then(|n| n.to_value(elem))
            .map(Some)
            .map_err(|why| CliError::usage(format!("--init {name}={text}: {why}"))),
        (None, Some(_)) => Ok(None),
        (None, None) => Ok(kernel
            .contract
            .init
            .iter()
            .find(|b| b.param == id)
            .map(|b| b.value)),
    }
}

fn c_default(kernel: &Kernel, id: ParamId) -> Option<Value> {
    kernel
        .contract
        .defaults
        .iter()
        .find(|(q, _)| *q == id)
        .map(|(_, v)| *v)
}

/// The expression a `len` or `shared_bytes` line states, without the widening cast the
/// header adds (so a negative value shows as negative).
fn stated(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(inner) if inner.ty.is_int() => inner,
        _ => e,
    }
}

/// Evaluates a `len(x)` or `shared_bytes` expression to a count, refusing negative values.
fn count(
    kernel: &Kernel,
    what: &str,
    e: &Expr,
    sc: &Scalars,
    lens: &dyn Fn(ParamId) -> Option<u64>,
    config: &LaunchConfig,
) -> Result<u64, CliError> {
    let inner = stated(e);
    let text = format!("{what} = {}", kernel.expr_to_string(inner));
    let why = sc.explain(kernel, inner);
    let v = eval_contract_expr(kernel, inner, &|p| sc.values.get(&p).copied(), lens, config)
        .map_err(|e| CliError::usage(format!("{text}{why}: {e}")))?;
    match v.as_i128() {
        Some(n) if n < 0 => Err(CliError::usage(format!(
            "{text} is {n}{why}: a size cannot be negative"
        ))),
        Some(n) => {
            u64::try_from(n).map_err(|_| CliError::usage(format!("{text} is {n}{why}: too large")))
        }
        None => Err(CliError::usage(format!(
            "{text} is {v}{why}: a size must be an integer"
        ))),
    }
}

/// A check of the launch (dims and shared memory resolved) and its buffer lengths, run before
/// any buffer is built.
pub type Precheck<'a> = dyn Fn(&LaunchConfig, &[u64]) -> Result<(), CliError> + 'a;

/// Resolves the launch for `kernel` with no memory limit (see [`build_within`]).
pub fn build(kernel: &Kernel, flags: &LaunchArgs) -> Result<Launch, CliError> {
    build_within(kernel, flags, u64::MAX, &|_, _| Ok(()))
}

/// Resolves the launch for `kernel`: flags first, then the header, then an error naming what
/// is missing. Checks the dimensions against CUDA's limits, buffer lengths against the header,
/// the interpreter's copies of the buffers against `max_bytes`, the `requires` lines and
/// `precheck`, all before any buffer is built.
pub fn build_within(
    kernel: &Kernel,
    flags: &LaunchArgs,
    max_bytes: u64,
    precheck: &Precheck,
) -> Result<Launch, CliError> {
    let c = &kernel.contract;
    let mut config = dims(kernel, flags)?;
    let sc = scalars(kernel, flags)?;

    let buf_flags = named_values(kernel, &buffer_items(kernel, flags)?, "buf")?;
    let init_flags = named_values(kernel, &flags.inits, "init")?;
    if let Some((p, text)) = init_flags
        .iter()
        .find(|(p, _)| matches!(kernel.param(**p).kind, ParamKind::Scalar(_)))
    {
        let name = &kernel.param(*p).name;
        return Err(CliError::usage(format!(
            "--init {name}={text}: `{name}` is a scalar: use --arg {name}={text}"
        )));
    }
    let mut planned: Vec<Option<Planned>> = Vec::with_capacity(kernel.params.len());
    for (i, p) in kernel.params.iter().enumerate() {
        let id = ParamId(i as u32);
        let ParamKind::Buffer { elem, .. } = p.kind else {
            planned.push(None);
            continue;
        };
        let flag = buf_flags.get(&id);
        let mut spec = match flag {
            Some(text) => inputs::parse_spec(text)
                .map_err(|e| CliError::usage(format!("--buf {}={text}: {e}", p.name)))?,
            None => BufSpec {
                fill: Fill::Random,
                len: None,
            },
        };
        if let Some(v) = initial_value(kernel, id, elem, init_flags.get(&id), flag, &spec)? {
            spec.fill = Fill::Const(v);
        }
        let required = match c.lengths.iter().find(|l| l.param == id) {
            Some(l) => {
                let what = format!("len({})", p.name);
                let n = count(kernel, &what, &l.len, &sc, &|_| None, &config)?;
                let text = format!(
                    "the header's `len({}) = {}`{}",
                    p.name,
                    kernel.expr_to_string(stated(&l.len)),
                    sc.explain(kernel, stated(&l.len))
                );
                Some((n, text))
            }
            None => None,
        };
        let flag_text = || {
            format!(
                "--buf {}={}",
                p.name,
                flag.map(String::as_str).unwrap_or("")
            )
        };
        let (len, origin, data) = match (&spec.fill, spec.len, &required) {
            (Fill::File(path), _, _) => {
                let read_limit = max_bytes / BYTES_PER_ELEMENT * elem.size_bytes();
                match inputs::file_elements(path, elem)
                    .map_err(|e| CliError::usage(format!("{}: {e}", flag_text())))?
                {
                    Some(n) => (n, flag_text(), None),
                    None => {
                        let data = inputs::read_elements_within(path, elem, read_limit)
                            .map_err(|e| CliError::usage(format!("{}: {e}", flag_text())))?;
                        (data.len() as u64, flag_text(), Some(data))
                    }
                }
            }
            (_, Some(n), _) => (n, flag_text(), None),
            (_, None, Some((n, text))) => (*n, text.clone(), None),
            (_, None, None) => {
                return Err(CliError::usage(format!(
                    "no length for buffer `{}`: pass --buf {}=random:N or add `//@ len({}) = …`",
                    p.name, p.name, p.name
                )))
            }
        };
        if let Some((want, text)) = &required {
            if len != *want {
                return Err(CliError::usage(format!(
                    "buffer `{}` has {len} elements ({origin}) but {text} requires {want}",
                    p.name
                )));
            }
        }
        planned.push(Some(Planned {
            elem,
            fill: spec.fill,
            len,
            origin,
            data,
        }));
    }
    check_buffer_bytes(kernel, &planned, max_bytes)?;

    let len_of = |p: ParamId| planned.get(p.0 as usize)?.as_ref().map(|b| b.len);
    config.dynamic_shared_bytes = match (flags.shared_bytes, &c.dynamic_shared_bytes) {
        (Some(n), _) => shared_ok(n, &format!("--shared-bytes {n}"))?,
        (None, Some(e)) => {
            let n = count(kernel, "shared_bytes", e, &sc, &len_of, &config)?;
            let text = format!(
                "the header's `//@ shared_bytes = {}`",
                kernel.expr_to_string(stated(e))
            );
            shared_ok(n, &text)?
        }
        (None, None) => 0,
    };
    let scalar_of = |p: ParamId| sc.values.get(&p).copied();
    for r in &c.requires {
        let holds = eval_contract_expr(kernel, r, &scalar_of, &len_of, &config).map_err(|e| {
            CliError::usage(format!("precondition `{}`: {e}", kernel.expr_to_string(r)))
        })?;
        if holds != Value::Bool(true) {
            return Err(CliError::usage(format!(
                "precondition `{}` does not hold for this launch{}",
                kernel.expr_to_string(r),
                sc.explain(kernel, r)
            )));
        }
    }

    let lens: Vec<u64> = planned.iter().flatten().map(|b| b.len).collect();
    precheck(&config, &lens)?;

    let mut rng = Rng::new(flags.seed);
    let mut args = Vec::with_capacity(kernel.params.len());
    for (i, plan) in planned.into_iter().enumerate() {
        let Some(b) = plan else {
            args.push(Arg::Scalar(
                sc.values
                    .get(&ParamId(i as u32))
                    .copied()
                    .ok_or_else(|| CliError::usage("internal: a scalar without a value"))?,
            ));
            continue;
        };
        let buf = match b.data {
            Some(data) => warpsafe_exec::Buffer { elem: b.elem, data },
            None => inputs::make_buffer(b.elem, b.len, &b.fill, &mut rng)?,
        };
        args.push(Arg::Buffer(buf));
    }
    Ok(Launch { config, args })
}

/// Refuses dynamic shared memory beyond what the interpreter simulates.
fn shared_ok(bytes: u64, source: &str) -> Result<u64, CliError> {
    let probe = LaunchConfig {
        dynamic_shared_bytes: bytes,
        ..LaunchConfig::linear(1, 1)
    };
    probe.validate().map_err(|e| from_launch(source, e))?;
    Ok(bytes)
}

/// Refuses buffers whose copies in the interpreter would take more than `max_bytes`, naming
/// each buffer's length and where it came from.
fn check_buffer_bytes(
    kernel: &Kernel,
    planned: &[Option<Planned>],
    max_bytes: u64,
) -> Result<(), CliError> {
    let total = planned
        .iter()
        .flatten()
        .try_fold(0u64, |acc, b| acc.checked_add(b.len))
        .and_then(|n| n.checked_mul(BYTES_PER_ELEMENT));
    let limit = max_bytes.min(isize::MAX as u64);
    if total.is_some_and(|t| t <= limit) {
        return Ok(());
    }
    let parts: Vec<String> = kernel
        .params
        .iter()
        .zip(planned)
        .filter_map(|(p, b)| {
            let b = b.as_ref()?;
            Some(format!(
                "`{}` has {} elements ({})",
                p.name, b.len, b.origin
            ))
        })
        .collect();
    let need = match total {
        Some(t) => format!("{}", ByteSize(t)),
        None => "more than 16 EiB".into(),
    };
    let over = if max_bytes == u64::MAX {
        "more than this machine can address".to_string()
    } else {
        format!(
            "over the memory limit of {} (raise it with --max-memory)",
            ByteSize(max_bytes)
        )
    };
    Err(CliError::usage(format!(
        "buffers too large for the interpreter: {}; it would hold {need} of them (3 copies of 8 bytes per element), {over}",
        parts.join(", ")
    )))
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
        assert!(parse_dims("-1").is_err());
        assert!(parse_dims("99999999999").is_err());
    }
}
