//! `//@ init(buf) = value`: a buffer whose every element starts as one constant (`0`, `-inf`,
//! `-INFINITY`, `FLT_MAX`, a constant of the file) instead of an arbitrary input.

use crate::ast;
use crate::consteval::{self, Num};
use crate::error::{err, Result};
use crate::lower::Binding;
use std::collections::HashMap;
use warpsafe_ir::{named_constant, BufferInit, InitNumber, Kernel, ParamKind, Span};

/// One `init` line, parsed.
#[derive(Debug, Clone)]
pub(crate) struct InitLine {
    /// The buffer's name.
    pub name: String,
    /// Where the name is.
    pub span: Span,
    /// The value expression (macros expanded).
    pub value: ast::Expr,
    /// The value as written.
    pub text: String,
}

/// Sets the initial contents of buffer `line.name` in every kernel that has it.
pub(crate) fn apply(
    line: &InitLine,
    globals: &HashMap<String, Binding>,
    kernels: &mut [Kernel],
) -> Result<()> {
    let lookup = |n: &str| match globals.get(n) {
        Some(Binding::Const { value, .. }) => Some(*value),
        _ => named_constant(n).map(Num::Float),
    };
    let Some(num) = consteval::eval(&line.value, &lookup) else {
        return err(
            line.value.span,
            "an initial value must be a constant: a number, `inf`, `INFINITY`, `FLT_MAX`, \
             `FLT_MIN` (with an optional `-`) or a constant of this file",
        );
    };
    let num = match num {
        Num::Int(v) => InitNumber::Int(v),
        Num::Float(v) if v.is_nan() => {
            return err(line.value.span, "an initial value cannot be NaN")
        }
        Num::Float(v) => InitNumber::Float(v),
    };
    let mut applied = false;
    for k in kernels.iter_mut() {
        let Some(p) = k.param_named(&line.name) else {
            continue;
        };
        let ParamKind::Buffer { elem, .. } = k.param(p).kind else {
            return err(
                line.span,
                format!(
                    "`{}` is a scalar parameter of `{}`: give its value with `//@ arg {} = …`",
                    line.name, k.name, line.name
                ),
            );
        };
        let value = num.to_value(elem).or_else(|why| {
            err(
                line.value.span,
                format!("initial value of `{}`: {why}", line.name),
            )
        })?;
        applied = true;
        k.contract.init.retain(|i| i.param != p);
        k.contract.init.push(BufferInit {
            param: p,
            value,
            text: line.text.clone(),
            span: line.span,
        });
    }
    if applied || kernels.is_empty() {
        return Ok(());
    }
    err(
        line.span,
        format!(
            "`{}` is not a buffer parameter of any kernel in this file",
            line.name
        ),
    )
}
