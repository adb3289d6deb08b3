//! What `--arg`, `--buf` and `--len` fix for the symbolic commands (`verify`, `equiv`,
//! `prove`, `validate`): scalar values, buffer lengths and, where a command takes initial
//! contents, constant contents. `--buf` is read by [`inputs::parse_spec`], the parser `run`
//! uses, so the flag means the same everywhere; only what a symbolic check can use of it
//! differs (every content is covered there, which is stronger than one random content).

use crate::exit::CliError;
use crate::inputs::{self, Fill};
use serde::Serialize;
use warpsafe_ir::{Kernel, ParamId, ParamKind, ScalarType, Value};

/// Bytes a `--buf NAME=FILE` that is a pipe may hold when only its length is wanted.
const PIPE_LIMIT: u64 = 1 << 30;

/// A scalar parameter fixed by `--arg`.
#[derive(Clone, Debug)]
pub struct FixedArg {
    /// The parameter.
    pub name: String,
    /// Its value, in the type of the first kernel that has it.
    pub value: Value,
    /// The flag, as given (`--arg n=128`).
    pub from: String,
}

/// A buffer length fixed by `--buf` or `--len`.
#[derive(Clone, Debug)]
pub struct FixedLen {
    /// The buffer.
    pub name: String,
    /// Its length in elements.
    pub len: u64,
    /// The flag, as given (`--buf x=128`).
    pub from: String,
}

/// A buffer whose every element starts as a constant, from `--buf NAME=zeros:N` or `ones:N`.
#[derive(Clone, Debug)]
pub struct FixedInit {
    /// The buffer.
    pub name: String,
    /// The value, as `--init` would take it (`0`, `1`).
    pub value: String,
    /// The flag, as given.
    pub from: String,
}

/// Everything the flags fix, with notes on what they give that the command cannot use.
#[derive(Clone, Debug, Default)]
pub struct Fixed {
    /// Scalar values.
    pub args: Vec<FixedArg>,
    /// Buffer lengths.
    pub lens: Vec<FixedLen>,
    /// Constant initial contents (only where the command takes contents).
    pub inits: Vec<FixedInit>,
    /// One sentence per flag part the command does not use (printed to stderr).
    pub notes: Vec<String>,
}

/// Whether the command can start a buffer from given contents (`equiv`, `prove` and
/// `validate` can, through `--init`; `verify` cannot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contents {
    /// Constant contents become initial contents.
    Taken,
    /// Only lengths are used.
    Ignored,
}

impl Fixed {
    /// Nothing fixed.
    pub fn is_empty(&self) -> bool {
        self.args.is_empty() && self.lens.is_empty() && self.inits.is_empty()
    }

    /// True when a flag fixes a size: a scalar value or a buffer length.
    pub fn fixes_sizes(&self) -> bool {
        !self.args.is_empty() || !self.lens.is_empty()
    }

    /// What is fixed of `kernel`'s own parameters (the flags serve every kernel of a file).
    pub fn of_kernel(&self, kernel: &Kernel) -> Fixed {
        Fixed {
            args: (self.args.iter())
                .filter(|a| scalar_id(kernel, &a.name).is_some())
                .cloned()
                .collect(),
            lens: (self.lens.iter())
                .filter(|l| buffer_id(kernel, &l.name).is_some())
                .cloned()
                .collect(),
            inits: (self.inits.iter())
                .filter(|i| buffer_id(kernel, &i.name).is_some())
                .cloned()
                .collect(),
            notes: Vec::new(),
        }
    }

    /// `(name, value)` of every fixed scalar that `kernel` has as a scalar parameter.
    pub fn scalars_of(&self, kernel: &Kernel) -> Vec<(String, Value)> {
        self.args
            .iter()
            .filter(|a| scalar_id(kernel, &a.name).is_some())
            .map(|a| (a.name.clone(), a.value))
            .collect()
    }

    /// `(name, length)` of every fixed length that `kernel` has as a buffer parameter.
    pub fn lens_of(&self, kernel: &Kernel) -> Vec<(String, u64)> {
        self.lens
            .iter()
            .filter(|l| buffer_id(kernel, &l.name).is_some())
            .map(|l| (l.name.clone(), l.len))
            .collect()
    }

    /// `(name, value)` of every fixed initial content `kernel` has a buffer for, as
    /// `--init` gives them.
    pub fn inits_of(&self, kernel: &Kernel) -> Vec<(String, String)> {
        self.inits
            .iter()
            .filter(|i| buffer_id(kernel, &i.name).is_some())
            .map(|i| (i.name.clone(), i.value.clone()))
            .collect()
    }

    /// The flag that gave buffer `name` its initial contents, when one did.
    pub fn init_from(&self, name: &str) -> Option<&str> {
        self.inits
            .iter()
            .find(|i| i.name == name)
            .map(|i| i.from.as_str())
    }

    /// `n = 128 (--arg n=128), len(x) = 128 (--buf x=128)`: the facts for a verdict line.
    pub fn human(&self) -> String {
        let args = self
            .args
            .iter()
            .map(|a| format!("{} = {} ({})", a.name, a.value, a.from));
        let lens = self
            .lens
            .iter()
            .map(|l| format!("len({}) = {} ({})", l.name, l.len, l.from));
        let inits = self
            .inits
            .iter()
            .map(|i| format!("`{}` starts as {} ({})", i.name, i.value, i.from));
        args.chain(lens).chain(inits).collect::<Vec<_>>().join(", ")
    }

    /// Prints the notes to stderr, one `note:` line each.
    pub fn print_notes(&self) {
        for n in &self.notes {
            eprintln!("note: {n}");
        }
    }
}

/// JSON: `{"args": {"n": "128"}, "lens": {"x": 128}, "init": {"x": "0"}}` (each key only
/// when something is in it).
impl Serialize for Fixed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = serde_json::Map::new();
        if !self.args.is_empty() {
            let m: serde_json::Map<String, serde_json::Value> = self
                .args
                .iter()
                .map(|a| (a.name.clone(), a.value.to_string().into()))
                .collect();
            out.insert("args".into(), m.into());
        }
        if !self.lens.is_empty() {
            let m: serde_json::Map<String, serde_json::Value> = self
                .lens
                .iter()
                .map(|l| (l.name.clone(), l.len.into()))
                .collect();
            out.insert("lens".into(), m.into());
        }
        if !self.inits.is_empty() {
            let m: serde_json::Map<String, serde_json::Value> = self
                .inits
                .iter()
                .map(|i| (i.name.clone(), i.value.clone().into()))
                .collect();
            out.insert("init".into(), m.into());
        }
        out.serialize(s)
    }
}

/// The flags to resolve, as given.
pub struct Flags<'a> {
    /// `--arg NAME=VALUE`.
    pub args: &'a [String],
    /// `--buf NAME=SPEC`.
    pub bufs: &'a [String],
    /// `--len NAME=N` (an alias of `--buf NAME=N`).
    pub lens: &'a [String],
    /// `--init NAME=VALUE`: a buffer whose contents `--buf` also gives is refused.
    pub inits: &'a [String],
}

/// Reads the flags against `kernels` (a name must be a parameter of one of them; the first
/// that has it gives its type). `contents` says whether constant contents become initial
/// contents or only lengths are used.
pub fn resolve(kernels: &[&Kernel], flags: &Flags, contents: Contents) -> Result<Fixed, CliError> {
    let mut fixed = Fixed::default();
    for item in flags.args {
        let (name, text) = split(item, "arg")?;
        let (k, id) = scalar_param(kernels, "arg", item, name)?;
        let ParamKind::Scalar(ty) = k.param(id).kind else {
            return Err(CliError::usage(format!("--arg {item}: not a scalar")));
        };
        let value = Value::parse(ty, text).ok_or_else(|| {
            CliError::usage(format!(
                "--arg {item}: not a valid {ty} (want {})",
                type_hint(ty)
            ))
        })?;
        if fixed.args.iter().any(|a| a.name == name) {
            return Err(CliError::usage(format!(
                "--arg {item}: `{name}` given twice"
            )));
        }
        fixed.args.push(FixedArg {
            name: name.to_string(),
            value,
            from: format!("--arg {item}"),
        });
    }
    let init_names: Vec<&str> = flags
        .inits
        .iter()
        .filter_map(|i| i.split_once('=').map(|(n, _)| n.trim()))
        .collect();
    let items = flags
        .lens
        .iter()
        .map(|i| ("len", i))
        .chain(flags.bufs.iter().map(|i| ("buf", i)));
    let mut seen: Vec<&str> = vec![];
    for (flag, item) in items {
        let (name, text) = split(item, flag)?;
        let elem = buffer_param(kernels, flag, item, name)?;
        let from = format!("--{flag} {item}");
        if seen.contains(&name) {
            return Err(CliError::usage(format!(
                "{from}: `{name}` is given by --buf/--len twice"
            )));
        }
        seen.push(name);
        let spec = if flag == "len" {
            let n = text.parse::<u64>().map_err(|_| {
                CliError::usage(format!(
                    "{from}: `{text}` is not a number of elements (--buf {name}=SPEC gives contents)"
                ))
            })?;
            inputs::BufSpec {
                fill: Fill::Random,
                len: Some(n),
            }
        } else {
            inputs::parse_spec(text).map_err(|e| CliError::usage(format!("{from}: {e}")))?
        };
        let len = match &spec.fill {
            Fill::File(path) => Some(file_len(path, elem, &from)?),
            _ => spec.len,
        };
        if let Some(len) = len {
            fixed.lens.push(FixedLen {
                name: name.to_string(),
                len,
                from: from.clone(),
            });
        }
        let constant = match spec.fill {
            Fill::Zeros => Some("0"),
            Fill::Ones => Some("1"),
            _ => None,
        };
        match (&spec.fill, constant, contents) {
            (Fill::Random, ..) => {}
            (_, Some(value), Contents::Taken) => {
                if init_names.contains(&name) {
                    return Err(CliError::usage(format!(
                        "{from} and --init {name}=… both give the contents of `{name}`: keep \
                         one (--buf {name}=N may give its length)"
                    )));
                }
                fixed.inits.push(FixedInit {
                    name: name.to_string(),
                    value: value.to_string(),
                    from: from.clone(),
                });
            }
            (Fill::File(_), ..) => fixed.notes.push(format!(
                "{from}: the file gives `{name}` its length only; its contents are not used by \
                 a symbolic check, which covers every content of `{name}`"
            )),
            _ => fixed.notes.push(format!(
                "{from}: `{name}` gets its length only; its contents are not used by a \
                 symbolic check, which covers every content of `{name}`"
            )),
        }
    }
    Ok(fixed)
}

fn split<'a>(item: &'a str, flag: &str) -> Result<(&'a str, &'a str), CliError> {
    item.split_once('=')
        .map(|(a, b)| (a.trim(), b.trim()))
        .filter(|(a, _)| !a.is_empty())
        .ok_or_else(|| CliError::usage(format!("--{flag} `{item}`: want NAME=VALUE")))
}

/// The number of `elem` elements in the file at `path`: its size over the element size (a
/// size that is not a multiple is an error); a pipe is read to count them.
fn file_len(path: &std::path::Path, elem: ScalarType, from: &str) -> Result<u64, CliError> {
    let wrap = |e: CliError| CliError::usage(format!("{from}: {e}"));
    match inputs::file_elements(path, elem).map_err(wrap)? {
        Some(n) => Ok(n),
        None => inputs::read_elements_within(path, elem, PIPE_LIMIT)
            .map(|d| d.len() as u64)
            .map_err(wrap),
    }
}

fn scalar_id(kernel: &Kernel, name: &str) -> Option<ParamId> {
    kernel
        .param_named(name)
        .filter(|p| matches!(kernel.param(*p).kind, ParamKind::Scalar(_)))
}

fn buffer_id(kernel: &Kernel, name: &str) -> Option<ParamId> {
    kernel
        .param_named(name)
        .filter(|p| matches!(kernel.param(*p).kind, ParamKind::Buffer { .. }))
}

/// The first of `kernels` with a scalar parameter `name`; else an error listing the scalar
/// parameters (or saying the name is a buffer's).
pub fn scalar_param<'k>(
    kernels: &[&'k Kernel],
    flag: &str,
    item: &str,
    name: &str,
) -> Result<(&'k Kernel, ParamId), CliError> {
    if let Some(found) = kernels
        .iter()
        .find_map(|k| scalar_id(k, name).map(|p| (*k, p)))
    {
        return Ok(found);
    }
    if kernels.iter().any(|k| buffer_id(k, name).is_some()) {
        return Err(CliError::usage(format!(
            "--{flag} {item}: `{name}` is a buffer: use --buf {name}=SPEC"
        )));
    }
    Err(CliError::usage(format!(
        "--{flag} {item}: {} no scalar parameter `{name}`; its scalar parameters: {}",
        whose(kernels),
        listed(kernels, |p| match p {
            ParamKind::Scalar(t) => Some(t.to_string()),
            ParamKind::Buffer { .. } => None,
        })
    )))
}

/// The element type of buffer parameter `name` in the first of `kernels` that has it; else
/// an error listing the buffer parameters (or saying the name is a scalar's).
pub fn buffer_param(
    kernels: &[&Kernel],
    flag: &str,
    item: &str,
    name: &str,
) -> Result<ScalarType, CliError> {
    for k in kernels {
        if let Some(p) = buffer_id(k, name) {
            if let ParamKind::Buffer { elem, .. } = k.param(p).kind {
                return Ok(elem);
            }
        }
    }
    if kernels.iter().any(|k| scalar_id(k, name).is_some()) {
        return Err(CliError::usage(format!(
            "--{flag} {item}: `{name}` is a scalar: use --arg {name}=VALUE"
        )));
    }
    Err(CliError::usage(format!(
        "--{flag} {item}: {} no buffer parameter `{name}`; its buffer parameters: {}",
        whose(kernels),
        listed(kernels, |p| match p {
            ParamKind::Buffer { elem, .. } => Some(format!("{elem}*")),
            ParamKind::Scalar(_) => None,
        })
    )))
}

/// `kernel `k` has` or `kernels `a`, `b` have`, for error messages.
fn whose(kernels: &[&Kernel]) -> String {
    let mut names: Vec<String> = kernels.iter().map(|k| format!("`{}`", k.name)).collect();
    names.dedup();
    match names.as_slice() {
        [one] => format!("kernel {one} has"),
        _ => format!("kernels {} have", names.join(", ")),
    }
}

/// The parameters `pick` types, as `name (type)`, over every kernel (each name once).
fn listed(kernels: &[&Kernel], pick: impl Fn(ParamKind) -> Option<String>) -> String {
    let mut out: Vec<String> = vec![];
    for k in kernels {
        for p in &k.params {
            if let Some(ty) = pick(p.kind) {
                let entry = format!("{} ({ty})", p.name);
                if !out.contains(&entry) {
                    out.push(entry);
                }
            }
        }
    }
    if out.is_empty() {
        "none".into()
    } else {
        out.join(", ")
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

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel() -> Kernel {
        let src = "//@ len(x) = n\n__global__ void scale(int n, float* x) { x[0] = 1.0f; }\n";
        let m = warpsafe_cuda_front::compile(src).expect("kernel");
        m.kernels.into_iter().next().expect("one kernel")
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    fn resolve_with(args: &[&str], bufs: &[&str], contents: Contents) -> Result<Fixed, CliError> {
        let k = kernel();
        let (args, bufs) = (strings(args), strings(bufs));
        let flags = Flags {
            args: &args,
            bufs: &bufs,
            lens: &[],
            inits: &[],
        };
        resolve(&[&k], &flags, contents)
    }

    #[test]
    fn lengths_values_and_contents_are_fixed() {
        let f = resolve_with(&["n=128"], &["x=zeros:64"], Contents::Taken).unwrap();
        assert_eq!(f.args[0].value, Value::I32(128));
        assert_eq!(f.lens[0].len, 64);
        assert_eq!(f.inits[0].value, "0");
        assert!(f.notes.is_empty());
        let v = serde_json::to_value(&f).unwrap();
        assert_eq!(v["args"]["n"], "128");
        assert_eq!(v["lens"]["x"], 64);
        let g = resolve_with(&[], &["x=zeros:64"], Contents::Ignored).unwrap();
        assert!(g.inits.is_empty());
        assert_eq!(g.notes.len(), 1, "{:?}", g.notes);
        let r = resolve_with(&[], &["x=random:9"], Contents::Taken).unwrap();
        assert_eq!((r.lens[0].len, r.notes.len()), (9, 0));
    }

    #[test]
    fn wrong_names_list_the_right_parameters() {
        let e = resolve_with(&[], &["y=4"], Contents::Taken).unwrap_err();
        assert!(e.to_string().contains("buffer parameters: x (f32*)"), "{e}");
        let e = resolve_with(&["m=4"], &[], Contents::Taken).unwrap_err();
        assert!(e.to_string().contains("scalar parameters: n (i32)"), "{e}");
        let e = resolve_with(&[], &["n=4"], Contents::Taken).unwrap_err();
        assert!(e.to_string().contains("use --arg"), "{e}");
        let e = resolve_with(&["n=x"], &[], Contents::Taken).unwrap_err();
        assert!(e.to_string().contains("not a valid i32"), "{e}");
        assert!(resolve_with(&[], &["x=4", "x=5"], Contents::Taken).is_err());
    }

    #[test]
    fn files_give_lengths_and_odd_sizes_are_refused() {
        let dir = std::env::temp_dir().join(format!("warpsafe-fixed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.bin");
        let odd = dir.join("odd.bin");
        std::fs::write(&good, [0u8; 512]).unwrap();
        std::fs::write(&odd, [0u8; 510]).unwrap();
        let f = resolve_with(&[], &[&format!("x={}", good.display())], Contents::Taken).unwrap();
        assert_eq!(f.lens[0].len, 128);
        assert_eq!(f.notes.len(), 1);
        let e = resolve_with(&[], &[&format!("x={}", odd.display())], Contents::Taken);
        assert!(e.unwrap_err().to_string().contains("510 bytes"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
