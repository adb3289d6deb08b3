//! Gives each kernel what its launches in host code fix, where the header gives nothing:
//! block and grid shapes, buffer lengths (a `cudaMalloc`'s bytes over the parameter's
//! element size), scalar argument defaults and the dynamic shared-memory size. Only what
//! every launch of the kernel in the file agrees on is used, and each fact comes with a note
//! saying where it came from.
//!
//! A length taken from host code is an assumption about how the kernel is launched (the
//! launches of this file); verify then checks the kernel under it. A size written over a
//! variable the launch also passes as a scalar argument (`n * sizeof(float)` with `n`
//! passed as `numElements`) becomes a length over that parameter (`len(A) = numElements`),
//! which holds at the file's launch and generalises it; any other size is a constant.

use super::host_values::{Affine, HostInt};
use super::launches::{HostArg, Launch};
use warpsafe_ir::{
    BinOp, Expr, ExprKind, Kernel, LengthSpec, Module, ParamKind, ScalarType, Span, Value,
};

/// Applies the launches to the kernels of `module`; `record_params` lists the
/// pointer-to-record parameters (kernel, parameter, scalars per record), whose lengths are
/// not taken from host code. Returns the notes, each at the place its fact came from.
pub fn apply(
    module: &mut Module,
    launches: &[Launch],
    record_params: &[(String, String, u64)],
    source: &str,
) -> Vec<(Span, String)> {
    let mut notes = vec![];
    for k in &mut module.kernels {
        let mine: Vec<&Launch> = launches.iter().filter(|l| l.kernel == k.name).collect();
        let Some(first) = mine.first() else {
            continue;
        };
        let line = line_of(source, first.span);
        let agreed = |pick: fn(&Launch) -> Option<[u32; 3]>| {
            let v = pick(first)?;
            mine.iter().all(|l| pick(l) == Some(v)).then_some(v)
        };
        if k.contract.block_dim.is_none() {
            if let Some(b) = agreed(|l| l.block) {
                k.contract.block_dim = Some(b);
                notes.push((
                    first.span,
                    format!("block {b:?} of `{}` from its launch", k.name),
                ));
            }
        }
        if k.contract.grid_dim.is_none() {
            if let Some(g) = agreed(|l| l.grid) {
                k.contract.grid_dim = Some(g);
                notes.push((
                    first.span,
                    format!("grid {g:?} of `{}` from its launch", k.name),
                ));
            }
        }
        lengths(k, &mine, record_params, line, &mut notes);
        defaults(k, &mine, &mut notes);
        if k.shared.iter().any(|a| a.dynamic) && k.contract.dynamic_shared_bytes.is_none() {
            let sizes: Option<Vec<HostInt>> = mine.iter().map(|l| l.shared_bytes.clone()).collect();
            if let Some(size) = sizes.and_then(|s| agree(&s)) {
                if let Some(e) = expr_of(k, &size) {
                    notes.push((
                        first.span,
                        format!(
                            "shared_bytes of `{}` = {} (its launch's third parameter)",
                            k.name,
                            shown(&size)
                        ),
                    ));
                    k.contract.dynamic_shared_bytes = Some(e);
                }
            }
        }
    }
    notes
}

/// `len(p)` for each buffer parameter without one that every launch passes a pointer with
/// one known allocation of a whole number of elements.
fn lengths(
    k: &mut Kernel,
    mine: &[&Launch],
    record_params: &[(String, String, u64)],
    line: usize,
    notes: &mut Vec<(Span, String)>,
) {
    for (i, p) in k.params.clone().iter().enumerate() {
        let ParamKind::Buffer { elem, .. } = p.kind else {
            continue;
        };
        let id = warpsafe_ir::ParamId(i as u32);
        let is_record = record_params
            .iter()
            .any(|(kn, pn, _)| *kn == k.name && *pn == p.name);
        if is_record || k.contract.lengths.iter().any(|l| l.param == id) {
            continue;
        }
        let size = elem.size_bytes() as i128;
        let mut counts = vec![];
        let mut first = None;
        for l in mine {
            let Some(HostArg::Buffer {
                bytes,
                at,
                allocator,
            }) = arg(l, &p.name)
            else {
                break;
            };
            let Some(count) = elements(bytes, size) else {
                break;
            };
            first.get_or_insert((bytes.value, *at, allocator.as_str()));
            counts.push(count);
        }
        if counts.len() != mine.len() {
            continue;
        }
        let (Some(count), Some((bytes, at, allocator))) = (agree(&counts), first) else {
            continue;
        };
        let Some(len) = expr_of(k, &count) else {
            continue;
        };
        let how = match &count.sym {
            Some(s) if !s.is_constant() => format!(
                "{allocator} of {bytes} bytes; the launch on line {line} passes {}",
                passed_values(s, &count)
            ),
            _ => format!("{allocator} of {bytes} bytes, passed by the launch on line {line}"),
        };
        notes.push((
            at,
            format!(
                "len({}) of `{}` = {} ({how})",
                p.name,
                k.name,
                shown(&count)
            ),
        ));
        k.contract.lengths.push(LengthSpec { param: id, len });
    }
}

/// `//@ arg p = v` for each scalar parameter without a default that every launch passes
/// the same constant.
fn defaults(k: &mut Kernel, mine: &[&Launch], notes: &mut Vec<(Span, String)>) {
    for (i, p) in k.params.clone().iter().enumerate() {
        let ParamKind::Scalar(ty) = p.kind else {
            continue;
        };
        let id = warpsafe_ir::ParamId(i as u32);
        if k.contract.defaults.iter().any(|(q, _)| *q == id) {
            continue;
        }
        let values: Option<Vec<Value>> = mine
            .iter()
            .map(|l| match arg(l, &p.name)? {
                HostArg::Int(v) if ty.is_int() => {
                    let (lo, hi) = ty.int_range()?;
                    (lo..=hi)
                        .contains(&v.value)
                        .then(|| Value::from_i128(ty, v.value))
                }
                HostArg::Int(v) if ty.is_float() => Some(Value::from_f64(ty, v.value as f64)),
                HostArg::Float(f) if ty.is_float() => Some(Value::from_f64(ty, *f)),
                _ => None,
            })
            .collect();
        let Some(values) = values else {
            continue;
        };
        let Some(v) = values.first().copied() else {
            continue;
        };
        if values.iter().any(|w| w.to_bits() != v.to_bits()) {
            continue;
        }
        notes.push((
            mine[0].span,
            format!(
                "arg {} of `{}` = {} (the value its launch passes)",
                p.name,
                k.name,
                v.as_f64()
            ),
        ));
        k.contract.defaults.push((id, v));
    }
}

fn arg<'l>(l: &'l Launch, name: &str) -> Option<&'l HostArg> {
    l.args.iter().find(|(n, _)| n == name).map(|(_, a)| a)
}

/// `bytes / size` when it is a whole, non-negative number of elements.
fn elements(bytes: &HostInt, size: i128) -> Option<HostInt> {
    if size <= 0 || bytes.value < 0 || bytes.value % size != 0 {
        return None;
    }
    Some(HostInt {
        value: bytes.value / size,
        sym: bytes.sym.as_ref().and_then(|s| s.exact_div(size)),
    })
}

/// The common value of every launch: the same value, with the affine form when all agree
/// on it too.
fn agree(all: &[HostInt]) -> Option<HostInt> {
    let first = all.first()?;
    if all.iter().any(|v| v.value != first.value) {
        return None;
    }
    let sym = if all.iter().all(|v| v.sym == first.sym) {
        first.sym.clone()
    } else {
        None
    };
    Some(HostInt {
        value: first.value,
        sym,
    })
}

/// The `u64` expression of a count: over the kernel's integer parameters where the
/// affine form names only such, else the constant.
fn expr_of(k: &Kernel, v: &HostInt) -> Option<Expr> {
    if v.value < 0 {
        return None;
    }
    if let Some(e) = v.sym.as_ref().and_then(|s| affine_expr(k, s)) {
        return Some(e);
    }
    Some(Expr::u64(u64::try_from(v.value).ok()?))
}

fn affine_expr(k: &Kernel, s: &Affine) -> Option<Expr> {
    if s.is_constant() {
        return None;
    }
    let mut params = vec![];
    for (name, c) in &s.terms {
        let id = k.param_named(name)?;
        let ParamKind::Scalar(ty) = k.param(id).kind else {
            return None;
        };
        if !ty.is_int() {
            return None;
        }
        params.push((Expr::new(ExprKind::Param(id), ty), i64::try_from(*c).ok()?));
    }
    if let [(p, 1)] = &params[..] {
        if s.constant == 0 {
            return Some(p.clone().cast(ScalarType::U64));
        }
    }
    let i64c = |c: i64| Expr::constant(Value::I64(c));
    let mut sum: Option<Expr> = None;
    for (p, c) in params {
        let term = match c {
            1 => p.cast(ScalarType::I64),
            c => Expr::binary(BinOp::Mul, p.cast(ScalarType::I64), i64c(c)),
        };
        sum = Some(match sum {
            None => term,
            Some(e) => Expr::binary(BinOp::Add, e, term),
        });
    }
    let mut e = sum?;
    if s.constant != 0 {
        e = Expr::binary(BinOp::Add, e, i64c(i64::try_from(s.constant).ok()?));
    }
    Some(e.cast(ScalarType::U64))
}

/// `numElements` or `numElements - 1` (an affine form), or the constant.
fn shown(v: &HostInt) -> String {
    let Some(s) = v.sym.as_ref().filter(|s| !s.is_constant()) else {
        return v.value.to_string();
    };
    let mut out = String::new();
    for (name, c) in &s.terms {
        let (sign, mag) = if *c < 0 { ("-", -c) } else { ("+", *c) };
        if out.is_empty() {
            if sign == "-" {
                out.push('-');
            }
        } else {
            out.push_str(&format!(" {sign} "));
        }
        if mag != 1 {
            out.push_str(&format!("{mag} * "));
        }
        out.push_str(name);
    }
    if s.constant > 0 {
        out.push_str(&format!(" + {}", s.constant));
    } else if s.constant < 0 {
        out.push_str(&format!(" - {}", -s.constant));
    }
    out
}

/// `numElements = 50000` for the parameters of an affine form (their values at the
/// launch are not kept, so they are solved for when there is one; else the total).
fn passed_values(s: &Affine, count: &HostInt) -> String {
    match s.terms.iter().collect::<Vec<_>>()[..] {
        [(name, c)] if *c != 0 && (count.value - s.constant) % c == 0 => {
            format!("{name} = {}", (count.value - s.constant) / c)
        }
        _ => format!("values giving {}", count.value),
    }
}

/// The 1-based line of `span` in `source`.
fn line_of(source: &str, span: Span) -> usize {
    let upto = (span.lo as usize).min(source.len());
    source.as_bytes()[..upto]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}
