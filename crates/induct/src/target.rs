//! What the spec asks of each output element, as a summary of input indices, at one size.

use crate::machine::AbsLaunch;
use crate::summary::{Combined, Mode, Summary};
use std::collections::HashMap;
use warpsafe_equiv::{Range, Reduce, Spec, SpecExpr, SpecExprKind};
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

/// Every output element the spec constrains at `launch`, or why the spec is not a scan or
/// reduction of adjacent inputs under `+`.
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
    };
    let mut out = vec![];
    for eq in &spec.equations {
        let buffer = k
            .param_named(&eq.buffer)
            .ok_or_else(|| format!("the spec names `{}`, which is not a parameter", eq.buffer))?;
        if eq.indices.len() != 1 {
            return Err("only one-dimensional outputs are supported".into());
        }
        env.for_each(&eq.ranges, &mut |env| {
            let index = env.int(&eq.indices[0])?;
            let summary = env.summary(&eq.value)?;
            out.push(Expectation {
                buffer,
                index: u64::try_from(index).map_err(|_| "negative output index".to_string())?,
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
    vars: HashMap<String, i64>,
    lens: Vec<u64>,
}

impl Env<'_> {
    fn for_each(
        &mut self,
        ranges: &[Range],
        f: &mut dyn FnMut(&mut Self) -> Result<(), String>,
    ) -> Result<(), String> {
        let Some((r, rest)) = ranges.split_first() else {
            return f(self);
        };
        let (lo, hi) = self.bounds(r)?;
        for v in lo..hi {
            self.vars.insert(r.var.clone(), v);
            self.for_each(rest, f)?;
        }
        self.vars.remove(&r.var);
        Ok(())
    }

    fn bounds(&mut self, r: &Range) -> Result<(i64, i64), String> {
        let lo = match &r.lo {
            Some(e) => self.int(e)?,
            None => 0,
        };
        let hi = self.int(&r.hi)? + r.inclusive as i64;
        Ok((lo, hi))
    }

    fn int(&mut self, e: &SpecExpr) -> Result<i64, String> {
        Ok(match &e.kind {
            SpecExprKind::Num(n) => n
                .parse::<i64>()
                .map_err(|_| format!("`{n}` is not an integer"))?,
            SpecExprKind::Name(n) => self.name(n)?,
            SpecExprKind::Neg(a) => -self.int(a)?,
            SpecExprKind::Bin(op, a, b) => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                match op {
                    '+' => x + y,
                    '-' => x - y,
                    '*' => x * y,
                    '/' | '%' if y == 0 => return Err("division by zero in the spec".into()),
                    '/' => x.div_euclid(y),
                    '%' => x.rem_euclid(y),
                    _ => return Err(format!("operator `{op}` in an index")),
                }
            }
            SpecExprKind::Call(f, args) if args.len() == 2 && (f == "max" || f == "min") => {
                let (x, y) = (self.int(&args[0])?, self.int(&args[1])?);
                if f == "max" {
                    x.max(y)
                } else {
                    x.min(y)
                }
            }
            _ => return Err("an index expression the abstraction cannot evaluate".into()),
        })
    }

    fn name(&self, n: &str) -> Result<i64, String> {
        if let Some(v) = self.vars.get(n) {
            return Ok(*v);
        }
        match n {
            "blockDim.x" => return Ok(self.launch.block as i64),
            "gridDim.x" => return Ok(self.launch.grid as i64),
            "blockDim.y" | "blockDim.z" | "gridDim.y" | "gridDim.z" => return Ok(1),
            _ => {}
        }
        match self.k.param_named(n).map(|p| self.k.param(p).kind) {
            Some(ParamKind::Scalar(t)) if t.is_int() => Ok(self.launch.n),
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
                    .ok_or_else(|| format!("unknown buffer `{buf}` in the spec"))?;
                if !matches!(
                    self.k.param(p).kind,
                    ParamKind::Buffer {
                        writable: false,
                        ..
                    }
                ) || idx.len() != 1
                {
                    return Err(format!("`{buf}` is not a one-dimensional input buffer"));
                }
                let i = self.int(&idx[0])?;
                // Elements at or past the buffer's end count as the identity.
                if i >= self.lens[p.0 as usize] as i64 {
                    return Ok(Summary::EMPTY);
                }
                u32::try_from(i)
                    .map(Summary::single)
                    .map_err(|_| "input index out of range".to_string())
            }
            SpecExprKind::Bin('+', a, b) => {
                let (x, y) = (self.summary(a)?, self.summary(b)?);
                join(x, y)
            }
            SpecExprKind::Reduce(Reduce::Sum, r, body) => {
                let (lo, hi) = self.bounds(r)?;
                if let SpecExprKind::Index(buf, idx) = &body.kind {
                    if idx.len() == 1 && unit_coefficient(&idx[0], &r.var) && hi > lo {
                        // Checks that `buf` is an input buffer.
                        self.vars.insert(r.var.clone(), lo);
                        self.summary(body)?;
                        let first = self.int(&idx[0]);
                        self.vars.remove(&r.var);
                        let first = first?;
                        let len = self
                            .k
                            .param_named(buf)
                            .map_or(0, |p| self.lens[p.0 as usize] as i64);
                        if first < 0 {
                            return Err("a sum that starts before its buffer".into());
                        }
                        if first >= len {
                            return Ok(Summary::EMPTY);
                        }
                        let last = (first + hi - lo - 1).min(len - 1);
                        return Ok(Summary::interval(first as u32, last));
                    }
                }
                let mut acc = Summary::EMPTY;
                for v in lo..hi {
                    self.vars.insert(r.var.clone(), v);
                    let s = self.summary(body)?;
                    acc = join(acc, s)?;
                }
                self.vars.remove(&r.var);
                Ok(acc)
            }
            _ => Err("the spec is not a sum of adjacent input elements".into()),
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
/// consecutive elements, and a sum over a range is one interval.
pub(crate) fn unit_coefficient(e: &SpecExpr, var: &str) -> bool {
    coefficient(e, var) == Some(1)
}

fn coefficient(e: &SpecExpr, var: &str) -> Option<i64> {
    match &e.kind {
        SpecExprKind::Name(n) if n == var => Some(1),
        SpecExprKind::Name(_) | SpecExprKind::Num(_) => Some(0),
        SpecExprKind::Neg(a) => coefficient(a, var).map(|c| -c),
        SpecExprKind::Bin('+', a, b) => Some(coefficient(a, var)? + coefficient(b, var)?),
        SpecExprKind::Bin('-', a, b) => Some(coefficient(a, var)? - coefficient(b, var)?),
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
