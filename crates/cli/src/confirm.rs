//! Confirms a spec counterexample in the concrete interpreter: the kernel runs on the
//! counterexample's inputs (every other element zero) and the element it names must come out
//! as the symbolic engine said — and not as the spec says.

use warpsafe_equiv::Counterexample;
use warpsafe_exec::{eval_contract_expr, Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{Kernel, ParamId, ParamKind, Value};

/// What the interpreter computed at the counterexample's element.
pub struct Confirmation {
    /// A sentence saying whether the interpreter agrees with the symbolic engine (and
    /// disagrees with the spec), with the value it computed.
    pub note: String,
}

/// Parses `3`, `-2.5` or `7/4`.
fn number(s: &str) -> Option<f64> {
    match s.split_once('/') {
        Some((a, b)) => Some(a.trim().parse::<f64>().ok()? / b.trim().parse::<f64>().ok()?),
        None => s.trim().parse().ok(),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-3 * a.abs().max(b.abs()).max(1.0)
}

fn input(cx: &Counterexample, name: &str, index: u64) -> Option<f64> {
    let t = cx.inputs.iter().find(|t| t.name == name)?;
    t.entries.iter().find(|e| e.0 == index).map(|e| e.2)
}

/// Runs `kernel` on `cx`'s inputs with `launch` and the size parameters `scalars`.
pub fn confirm(
    kernel: &Kernel,
    launch: &LaunchConfig,
    scalars: &[(String, Value)],
    cx: &Counterexample,
) -> Confirmation {
    let fail = |note: String| Confirmation { note };
    let scalar = |p: ParamId| -> Option<Value> {
        let param = kernel.params.get(p.0 as usize)?;
        let ParamKind::Scalar(ty) = param.kind else {
            return None;
        };
        scalars
            .iter()
            .find(|(n, _)| *n == param.name)
            .map(|(_, v)| *v)
            .or_else(|| input(cx, &param.name, 0).map(|v| Value::from_f64(ty, v)))
            .or_else(|| {
                kernel
                    .contract
                    .defaults
                    .iter()
                    .find(|(id, _)| *id == p)
                    .map(|(_, v)| *v)
            })
    };
    let no_len = |_: ParamId| None;
    let mut args = vec![];
    for (i, p) in kernel.params.iter().enumerate() {
        let id = ParamId(i as u32);
        match p.kind {
            ParamKind::Scalar(ty) => args.push(Arg::Scalar(scalar(id).unwrap_or(Value::zero(ty)))),
            ParamKind::Buffer { elem, .. } => {
                let Some(spec) = kernel.contract.lengths.iter().find(|l| l.param == id) else {
                    return fail(format!("`{}` has no stated length", p.name));
                };
                let len = match eval_contract_expr(kernel, &spec.len, &scalar, &no_len, launch) {
                    Ok(v) => v.as_i128().unwrap_or(0).max(0) as usize,
                    Err(e) => return fail(format!("length of `{}`: {e}", p.name)),
                };
                let mut b = Buffer::zeros(elem, len);
                if let Some(t) = cx.inputs.iter().find(|t| t.name == p.name) {
                    for (idx, _, v) in &t.entries {
                        if let Some(slot) = b.data.get_mut(*idx as usize) {
                            *slot = Value::from_f64(elem, *v).to_bits();
                        }
                    }
                }
                args.push(Arg::Buffer(b));
            }
        }
    }
    let out = match warpsafe_exec::run(kernel, launch, args, &Options::default()) {
        Ok(o) => o,
        Err(e) => return fail(format!("the interpreter could not run it: {e}")),
    };
    let Some(pos) = kernel.params.iter().position(|p| p.name == cx.buffer) else {
        return fail(format!("no buffer `{}`", cx.buffer));
    };
    let Some(Arg::Buffer(b)) = out.args.get(pos) else {
        return fail(format!("`{}` is not a buffer", cx.buffer));
    };
    let got = b.get(cx.index as usize).as_f64();
    let (Some(actual), Some(expected)) = (number(&cx.actual), number(&cx.expected)) else {
        return fail("the counterexample's values are not numbers".into());
    };
    let confirmed = close(got, actual) && !close(got, expected);
    Confirmation {
        note: format!(
            "interpreter: {}[{}] = {got} ({})",
            cx.buffer,
            cx.index,
            if confirmed {
                "confirmed"
            } else {
                "NOT confirmed: the interpreter disagrees with the symbolic engine"
            }
        ),
    }
}
