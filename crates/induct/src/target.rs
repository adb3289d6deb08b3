//! What the spec asks of each output element, as a summary of input indices, at one size.

use crate::machine::AbsLaunch;
use crate::summary::{Combined, Mode, Summary};
use std::collections::HashMap;
use std::fmt;
use warpsafe_equiv::{Range, Reduce, Spec, SpecExpr, SpecExprKind, SpecSpan};
use warpsafe_ir::{Kernel, ParamId, ParamKind};

/// One output element and the inputs it must combine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// The output buffer.
    pub buffer: ParamId,
    /// The element.
    pub index: u64,
    /// The inputs, in order.
    pub summary: Summary,
}

/// Range points and reduction terms one evaluation of a spec may visit: a spec over a huge
/// range (`for i < 9223372036854775807`) is an error, not hours and gigabytes. The sizes the
/// sweep checks need far fewer (a quadratic spec at 1024 elements, half a million).
const MAX_STEPS: u64 = 1 << 22;

/// `message` about the spec text at `span` (byte offsets, as the spec parser reports them).
fn at(span: SpecSpan, message: impl fmt::Display) -> String {
    format!("at spec bytes {}..{}: {message}", span.lo, span.hi)
}

/// Every output element the spec constrains at `launch`, or why the spec is not a scan or
/// reduction of adjacent inputs under `+` (with the span of the spec text at fault, where
/// there is one). Index arithmetic is exact: a value outside the 64-bit range is an error.
pub fn expectations(
    spec: &Spec,
    k: &Kernel,
    launch: &AbsLaunch,
) -> Result<Vec<Expectation>, String> {
    let mut env = Env {
        k,
        launch,
        vars: HashMap::new(),
        lens: crate::machine::lengths(k, launch),
        steps: 0,
    };
    let mut out = vec![];
    for eq in &spec.equations {
        let buffer = k.param_named(&eq.buffer).ok_or_else(|| {
            at(
                eq.span,
                format!("the spec names `{}`, which is not a parameter", eq.buffer),
            )
        })?;
        let [index] = &eq.indices[..] else {
            return Err(at(eq.span, "only one-dimensional outputs are supported"));
        };
        env.for_each(&eq.ranges, eq.span, &mut |env| {
            let i = env.int(index)?;
            let summary = env.summary(&eq.value)?;
            out.push(Expectation {
                buffer,
                index: u64::try_from(i)
                    .map_err(|_| at(index.span, format!("output index {i} out of range")))?,
                summary,
            });
            Ok(())
        })?;
    }
    Ok(out)
}

struct Env<'a> {
    k: &'a Kernel,
    launch: &'a AbsLaunch,
    vars: HashMap<String, i128>,
    lens: Vec<u64>,
    /// Range points and reduction terms visited so far (at most [`MAX_STEPS`]).
    steps: u64,
}

impl Env<'_> {
    fn for_each(
        &mut self,
        ranges: &[Range],
        span: SpecSpan,
        f: &mut dyn FnMut(&mut Self) -> Result<(), String>,
    ) -> Result<(), String> {
        let Some((r, rest)) = ranges.split_first() else {
            return f(self);
        };
        let (lo, hi) = self.bounds(r)?;
        let outer = self.vars.get(&r.var).copied();
        let mut result = Ok(());
        for v in lo..hi {
            result = self.step(span).and_then(|()| {
                self.vars.insert(r.var.clone(), v);
                self.for_each(rest, span, f)
            });
            if result.is_err() {
                break;
            }
        }
        self.restore(&r.var, outer);
        result
    }

    /// Gives `var` back the value it had outside a range over it.
    fn restore(&mut self, var: &str, outer: Option<i128>) {
        match outer {
            Some(v) => self.vars.insert(var.to_string(), v),
            None => self.vars.remove(var),
        };
    }

    /// Counts one range point or reduction term at `span`; an error past [`MAX_STEPS`].
    fn step(&mut self, span: SpecSpan) -> Result<(), String> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(at(
                span,
                format!("the spec's ranges have more than {MAX_STEPS} points at this size"),
            ));
        }
        Ok(())
    }

    /// `lo` and the exclusive `hi` of a range.
    fn bounds(&mut self, r: &Range) -> Result<(i128, i128), String> {
        let lo = match &r.lo {
            Some(e) => self.int(e)?,
            None => 0,
        };
        let hi = self.int(&r.hi)?;
        let hi = hi
            .checked_add(i128::from(r.inclusive))
            .ok_or_else(|| at(r.hi.span, format!("{hi} + 1 does not fit in 128 bits")))?;
        Ok((lo, hi))
    }

    /// The value of an index expression, exactly: an intermediate result outside the 128-bit
    /// integers is an error, never a wrapped value.
    fn int(&mut self, e: &SpecExpr) -> Result<i128, String> {
        let too_big = |what: fmt::Arguments| at(e.span, format!("{what} does not fit in 128 bits"));
        Ok(match &e.kind {
            SpecExprKind::Num(n) => n.parse::<i128>().map_err(|_| {
                at(
                    e.span,
                    format!("`{n:.40}` is not an integer of at most 128 bits"),
                )
            })?,
            SpecExprKind::Name(n) => self.name(n).map_err(|m| at(e.span, m))?,
            SpecExprKind::Neg(a) => {
                let x = self.int(a)?;
                x.checked_neg()
                    .ok_or_else(|| too_big(format_args!("-({x})")))?
            }
            SpecExprKind::Bin(op, a, b) => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                let v = match op {
                    '+' => x.checked_add(y),
                    '-' => x.checked_sub(y),
                    '*' => x.checked_mul(y),
                    '/' | '%' if y == 0 => return Err(at(e.span, "division by zero in the spec")),
                    '/' => x.checked_div_euclid(y),
                    '%' if y == -1 => Some(0),
                    '%' => x.checked_rem_euclid(y),
                    _ => return Err(at(e.span, format!("operator `{op}` in an index"))),
                };
                v.ok_or_else(|| too_big(format_args!("{x} {op} {y}")))?
            }
            SpecExprKind::Call(f, args) if args.len() == 2 && (f == "max" || f == "min") => {
                let (x, y) = (self.int(&args[0])?, self.int(&args[1])?);
                if f == "max" {
                    x.max(y)
                } else {
                    x.min(y)
                }
            }
            _ => {
                return Err(at(
                    e.span,
                    "an index expression the abstraction cannot evaluate",
                ))
            }
        })
    }

    fn name(&self, n: &str) -> Result<i128, String> {
        if let Some(v) = self.vars.get(n) {
            return Ok(*v);
        }
        match n {
            "blockDim.x" => return Ok(i128::from(self.launch.block)),
            "gridDim.x" => return Ok(i128::from(self.launch.grid)),
            "blockDim.y" | "blockDim.z" | "gridDim.y" | "gridDim.z" => return Ok(1),
            _ => {}
        }
        match self.k.param_named(n).map(|p| self.k.param(p).kind) {
            Some(ParamKind::Scalar(t)) if t.is_int() => Ok(i128::from(self.launch.n)),
            _ => Err(format!("unknown name `{n}` in the spec")),
        }
    }

    fn summary(&mut self, e: &SpecExpr) -> Result<Summary, String> {
        match &e.kind {
            SpecExprKind::Num(n) if n.parse::<f64>() == Ok(0.0) => Ok(Summary::EMPTY),
            SpecExprKind::Index(buf, idx) => {
                let p = self
                    .k
                    .param_named(buf)
                    .ok_or_else(|| at(e.span, format!("unknown buffer `{buf}` in the spec")))?;
                if !matches!(
                    self.k.param(p).kind,
                    ParamKind::Buffer {
                        writable: false,
                        ..
                    }
                ) || idx.len() != 1
                {
                    return Err(at(
                        e.span,
                        format!("`{buf}` is not a one-dimensional input buffer"),
                    ));
                }
                let i = self.int(&idx[0])?;
                // Elements at or past the buffer's end count as the identity.
                if i >= i128::from(self.lens[p.0 as usize]) {
                    return Ok(Summary::EMPTY);
                }
                u32::try_from(i)
                    .map(Summary::single)
                    .map_err(|_| at(idx[0].span, "input index out of range"))
            }
            SpecExprKind::Bin('+', a, b) => {
                let (x, y) = (self.summary(a)?, self.summary(b)?);
                join(x, y).map_err(|m| at(e.span, m))
            }
            SpecExprKind::Reduce(Reduce::Sum, r, body) => {
                let (lo, hi) = self.bounds(r)?;
                if let SpecExprKind::Index(buf, idx) = &body.kind {
                    if idx.len() == 1 && unit_coefficient(&idx[0], &r.var) && hi > lo {
                        // Checks that `buf` is an input buffer.
                        let outer = self.vars.insert(r.var.clone(), lo);
                        let first = self.summary(body).and_then(|_| self.int(&idx[0]));
                        self.restore(&r.var, outer);
                        let first = first?;
                        let len = self
                            .k
                            .param_named(buf)
                            .map_or(0, |p| i128::from(self.lens[p.0 as usize]));
                        if first < 0 {
                            return Err(at(e.span, "a sum that starts before its buffer"));
                        }
                        if first >= len {
                            return Ok(Summary::EMPTY);
                        }
                        // `first <= last < len` (the sum may run past the buffer's end, and
                        // its length `hi - lo >= 1` past 128 bits).
                        let further = hi.checked_sub(lo).map_or(i128::MAX, |count| count - 1);
                        let last = first + further.min(len - 1 - first);
                        let (Ok(first), Ok(last)) = (u32::try_from(first), u32::try_from(last))
                        else {
                            return Err(at(e.span, "input index out of range"));
                        };
                        return Ok(Summary::interval(first, i64::from(last)));
                    }
                }
                let outer = self.vars.get(&r.var).copied();
                let mut acc = Ok(Summary::EMPTY);
                for v in lo..hi {
                    acc = acc.and_then(|acc| {
                        self.step(e.span)?;
                        self.vars.insert(r.var.clone(), v);
                        let s = self.summary(body)?;
                        join(acc, s).map_err(|m| at(e.span, m))
                    });
                    if acc.is_err() {
                        break;
                    }
                }
                self.restore(&r.var, outer);
                acc
            }
            _ => Err(at(
                e.span,
                "the spec is not a sum of adjacent input elements",
            )),
        }
    }
}

fn join(a: Summary, b: Summary) -> Result<Summary, String> {
    match a.combine(b, Mode::Interval) {
        Combined::InOrder(s) | Combined::Swapped(s) => Ok(s),
        Combined::Invalid => Err(format!("the spec sums {a} and {b}, which are not adjacent")),
    }
}

/// True when `e` is `var + (terms without var)`: then consecutive values of `var` index
/// consecutive elements, and a sum over a range is one interval. A coefficient that does not
/// fit in 64 bits is "not one" (the caller then takes the general road).
pub(crate) fn unit_coefficient(e: &SpecExpr, var: &str) -> bool {
    coefficient(e, var) == Some(1)
}

fn coefficient(e: &SpecExpr, var: &str) -> Option<i64> {
    match &e.kind {
        SpecExprKind::Name(n) if n == var => Some(1),
        SpecExprKind::Name(_) | SpecExprKind::Num(_) => Some(0),
        SpecExprKind::Neg(a) => coefficient(a, var)?.checked_neg(),
        SpecExprKind::Bin('+', a, b) => coefficient(a, var)?.checked_add(coefficient(b, var)?),
        SpecExprKind::Bin('-', a, b) => coefficient(a, var)?.checked_sub(coefficient(b, var)?),
        _ if !mentions(e, var) => Some(0),
        _ => None,
    }
}

fn mentions(e: &SpecExpr, var: &str) -> bool {
    match &e.kind {
        SpecExprKind::Name(n) => n == var,
        SpecExprKind::Num(_) => false,
        SpecExprKind::Neg(a) => mentions(a, var),
        SpecExprKind::Bin(_, a, b) => mentions(a, var) || mentions(b, var),
        SpecExprKind::Index(_, idx) | SpecExprKind::Call(_, idx) => {
            idx.iter().any(|i| mentions(i, var))
        }
        SpecExprKind::Reduce(_, r, body) => {
            r.var == var
                || mentions(&r.hi, var)
                || r.lo.as_ref().is_some_and(|l| mentions(l, var))
                || mentions(body, var)
        }
    }
}
