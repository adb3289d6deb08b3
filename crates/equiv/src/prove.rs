//! Checking a kernel against a spec: the spec's equations are evaluated into terms over the
//! kernel's input symbols (buffers on the right-hand side are their initial contents) and
//! compared element by element with the kernel's symbolic outputs.

use crate::compare::{compare_elements, counterexample, Pair};
use crate::launch::{self, Scalar};
use crate::report::{exit_code, verdict_of, Counterexample, KernelRun, OutputSummary};
use crate::spec::{Expr, ExprKind, Range, Reduce, Spec, SpecError, SpecSpan};
use crate::symexec::run_symbolic;
use crate::{BlockSel, EquivError, ExecConfig};
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::Serialize;
use std::collections::HashMap;
use std::time::Instant;
use warpsafe_algebra::{Func, Store, TermId};
use warpsafe_ir::{Kernel, ParamKind, ScalarType};

/// Most elements a spec may define (ranges are enumerated).
const MAX_ELEMENTS: u64 = 1 << 24;

/// The result of [`prove_spec`].
#[derive(Clone, Debug, Serialize)]
pub struct SpecReport {
    /// `equal` (the kernel meets the spec), `different`, `unknown`, or a finding's category.
    pub verdict: &'static str,
    /// Why the verdict is `unknown`, when it is.
    pub reason: Option<String>,
    /// The kernel's run.
    pub kernel: KernelRun,
    /// Per output buffer named by the spec.
    pub outputs: Vec<OutputSummary>,
    /// The first element where the kernel and the spec differ: `expected` is the spec's value.
    pub counterexample: Option<Counterexample>,
    /// Seconds for the whole check.
    pub seconds: f64,
}

impl SpecReport {
    /// The process exit code: 0 equal, 1 different or a finding, 3 unknown.
    pub fn exit_code(&self) -> i32 {
        exit_code(self.verdict)
    }
}

#[derive(Clone, Copy)]
enum V {
    I(i128),
    T(TermId),
}

struct Env<'a> {
    kernel: &'a Kernel,
    launch: warpsafe_exec::LaunchConfig,
    scalars: HashMap<String, (Scalar, ScalarType)>,
    shapes: HashMap<String, Vec<u64>>,
    lens: HashMap<String, (u64, ScalarType)>,
    vars: Vec<(String, i128)>,
}

impl Env<'_> {
    /// The value of a launch dimension name such as `blockDim.x`.
    fn dim(&self, n: &str) -> Option<i128> {
        let (base, c) = n.split_once('.')?;
        let d = match c {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => return None,
        };
        match base {
            "blockDim" => Some(i128::from(self.launch.block[d])),
            "gridDim" => Some(i128::from(self.launch.grid[d])),
            _ => None,
        }
    }
}

fn err<T>(span: SpecSpan, message: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError {
        message: message.into(),
        span,
    })
}

fn decimal(text: &str) -> Option<BigRational> {
    let (mant, exp) = match text.find(['e', 'E']) {
        Some(p) => (&text[..p], text[p + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let digits: BigInt = format!("{int}{frac}").parse().ok()?;
    let scale = exp - frac.len() as i32;
    let ten = BigRational::from_integer(BigInt::from(10));
    let mut q = BigRational::from_integer(digits);
    let factor = num_traits::pow::Pow::pow(&ten, scale.unsigned_abs());
    if scale >= 0 {
        q *= factor;
    } else {
        q /= factor;
    }
    Some(q)
}

impl Env<'_> {
    fn term(&self, store: &mut Store, v: V) -> TermId {
        match v {
            V::I(i) => store.constant(BigRational::from_integer(BigInt::from(i))),
            V::T(t) => t,
        }
    }

    fn int(&self, store: &mut Store, e: &Expr) -> Result<i128, SpecError> {
        match self.eval(store, e)? {
            V::I(i) => Ok(i),
            V::T(t) => match store.as_const(t).and_then(warpsafe_algebra::rat_to_i128) {
                Some(i) => Ok(i),
                None => err(
                    e.span,
                    "an index or bound must be an integer known at launch",
                ),
            },
        }
    }

    fn bounds(&self, store: &mut Store, r: &Range) -> Result<(i128, i128), SpecError> {
        let lo = match &r.lo {
            Some(e) => self.int(store, e)?,
            None => 0,
        };
        let hi = self.int(store, &r.hi)? + r.inclusive as i128;
        Ok((lo, hi))
    }

    fn flat(
        &self,
        store: &mut Store,
        name: &str,
        idx: &[Expr],
        span: SpecSpan,
    ) -> Result<u64, SpecError> {
        let Some(&(len, _)) = self.lens.get(name) else {
            return err(
                span,
                format!("`{name}` is not a buffer of kernel `{}`", self.kernel.name),
            );
        };
        let dims = match self.shapes.get(name) {
            Some(d) => d.clone(),
            None if idx.len() == 1 => vec![len],
            None => {
                return err(
                    span,
                    format!(
                        "`{name}` is indexed with {} subscripts: declare `shape {name}[..][..]`",
                        idx.len()
                    ),
                )
            }
        };
        if dims.len() != idx.len() {
            return err(span, format!("`{name}` has {} dimension(s)", dims.len()));
        }
        let mut flat: i128 = 0;
        for (e, &d) in idx.iter().zip(&dims) {
            let i = self.int(store, e)?;
            if i < 0 || i >= d as i128 {
                return err(
                    e.span,
                    format!("index {i} is outside `{name}` (extent {d})"),
                );
            }
            flat = flat * d as i128 + i;
        }
        if flat >= len as i128 {
            return err(
                span,
                format!("element {flat} is past the end of `{name}` (length {len})"),
            );
        }
        Ok(flat as u64)
    }

    fn eval(&self, store: &mut Store, e: &Expr) -> Result<V, SpecError> {
        Ok(match &e.kind {
            ExprKind::Num(text) => {
                if let Ok(i) = text.parse::<i128>() {
                    V::I(i)
                } else {
                    match decimal(text) {
                        Some(q) => V::T(store.constant(q)),
                        None => return err(e.span, format!("bad number `{text}`")),
                    }
                }
            }
            ExprKind::Name(n) => {
                if let Some((_, v)) = self.vars.iter().rev().find(|(x, _)| x == n) {
                    V::I(*v)
                } else if let Some(v) = self.dim(n) {
                    V::I(v)
                } else if let Some(&(s, ty)) = self.scalars.get(n) {
                    match s {
                        Scalar::Value(v) if !ty.is_float() => V::I(v.as_i128().unwrap_or(0)),
                        Scalar::Value(v) => V::T(store.float(v.as_f64())),
                        Scalar::Symbol => V::T(store.symbol(n, None, !ty.is_float())),
                    }
                } else {
                    return err(
                        e.span,
                        format!("unknown name `{n}` (not an index variable or scalar parameter)"),
                    );
                }
            }
            ExprKind::Index(name, idx) => {
                let flat = self.flat(store, name, idx, e.span)?;
                let ty = self.lens.get(name).map_or(ScalarType::F64, |(_, t)| *t);
                V::T(crate::value::input_symbol(store, name, Some(flat), ty))
            }
            ExprKind::Neg(a) => match self.eval(store, a)? {
                V::I(i) => V::I(-i),
                V::T(t) => V::T(store.neg(t)),
            },
            ExprKind::Bin(op, a, b) => {
                let (x, y) = (self.eval(store, a)?, self.eval(store, b)?);
                match (x, y, op) {
                    (V::I(p), V::I(q), '+') => V::I(p + q),
                    (V::I(p), V::I(q), '-') => V::I(p - q),
                    (V::I(p), V::I(q), '*') => V::I(p.checked_mul(q).unwrap_or(0)),
                    (V::I(p), V::I(q), '/') if q != 0 && p % q == 0 => V::I(p / q),
                    (V::I(p), V::I(q), '%') if q != 0 => V::I(p % q),
                    (_, _, '%') => {
                        return err(
                            e.span,
                            "`%` needs integer operands (and a non-zero divisor)",
                        )
                    }
                    _ => {
                        let (s, t) = (self.term(store, x), self.term(store, y));
                        V::T(match op {
                            '+' => store.add(s, t),
                            '-' => store.sub(s, t),
                            '*' => store.mul(s, t),
                            _ => store.div(s, t),
                        })
                    }
                }
            }
            ExprKind::Call(f, args) => {
                let vals = args
                    .iter()
                    .map(|a| self.eval(store, a).map(|v| self.term(store, v)))
                    .collect::<Result<Vec<_>, _>>()?;
                let func = match f.as_str() {
                    "exp" => Some(Func::Exp),
                    "log" => Some(Func::Log),
                    "sqrt" => Some(Func::Sqrt),
                    "abs" => Some(Func::Abs),
                    _ => None,
                };
                match (func, f.as_str(), vals.as_slice()) {
                    (Some(func), _, [a]) => V::T(store.func(func, *a)),
                    (None, "max", [a, b]) => V::T(store.max(*a, *b)),
                    (None, "min", [a, b]) => V::T(store.min(*a, *b)),
                    _ => {
                        return err(
                            e.span,
                            format!("unknown function `{f}` with {} argument(s)", vals.len()),
                        )
                    }
                }
            }
            ExprKind::Reduce(kind, range, body) => {
                let (lo, hi) = self.bounds(store, range)?;
                if hi - lo > MAX_ELEMENTS as i128 {
                    return err(range.hi.span, "range too large");
                }
                let mut env = Env {
                    kernel: self.kernel,
                    launch: self.launch,
                    scalars: self.scalars.clone(),
                    shapes: self.shapes.clone(),
                    lens: self.lens.clone(),
                    vars: self.vars.clone(),
                };
                let mut acc: Option<TermId> = match kind {
                    Reduce::Sum => Some(store.int(0)),
                    Reduce::Prod => Some(store.int(1)),
                    _ => None,
                };
                for i in lo..hi {
                    env.vars.push((range.var.clone(), i));
                    let v = env.eval(store, body)?;
                    let t = env.term(store, v);
                    env.vars.pop();
                    acc = Some(match (acc, kind) {
                        (None, _) => t,
                        (Some(a), Reduce::Sum) => store.add(a, t),
                        (Some(a), Reduce::Prod) => store.mul(a, t),
                        (Some(a), Reduce::Max) => store.max(a, t),
                        (Some(a), Reduce::Min) => store.min(a, t),
                    });
                }
                match acc {
                    Some(t) => V::T(t),
                    None => return err(e.span, "max/min over an empty range"),
                }
            }
        })
    }
}

/// Proves that `kernel` computes what `spec` states, for every input (floats as reals), or
/// finds an input where it does not, or a bug.
pub fn prove_spec(
    kernel: &Kernel,
    spec: &Spec,
    cfg: &ExecConfig,
) -> Result<SpecReport, EquivError> {
    let start = Instant::now();
    let setup = launch::resolve(kernel, cfg)?;
    let mut out = run_symbolic(kernel, cfg)?;
    let mut store = std::mem::take(&mut out.store);
    let mut env = Env {
        kernel,
        launch: setup.launch,
        scalars: HashMap::new(),
        shapes: HashMap::new(),
        lens: HashMap::new(),
        vars: Vec::new(),
    };
    for (i, p) in kernel.params.iter().enumerate() {
        match p.kind {
            ParamKind::Scalar(t) => {
                if let Some(s) = setup.scalars[i] {
                    env.scalars.insert(p.name.clone(), (s, t));
                }
            }
            ParamKind::Buffer { elem, .. } => {
                env.lens
                    .insert(p.name.clone(), (setup.lens[i].unwrap_or(0), elem));
            }
        }
    }
    for (name, dims) in &spec.shapes {
        let mut ext = Vec::new();
        for d in dims {
            let v = env.int(&mut store, d).map_err(EquivError::Spec)?;
            ext.push(v.max(0) as u64);
        }
        env.shapes.insert(name.clone(), ext);
    }
    // expected[buffer][element]
    let mut expected: Vec<(String, HashMap<u64, TermId>)> = Vec::new();
    for eq in &spec.equations {
        let Some(buf) = out.buffer(&eq.buffer) else {
            return Err(EquivError::Spec(SpecError {
                message: format!("kernel `{}` has no buffer `{}`", kernel.name, eq.buffer),
                span: eq.span,
            }));
        };
        if !buf.writable {
            return Err(EquivError::Spec(SpecError {
                message: format!("`{}` is a read-only buffer", eq.buffer),
                span: eq.span,
            }));
        }
        let slot = match expected.iter().position(|(n, _)| *n == eq.buffer) {
            Some(s) => s,
            None => {
                expected.push((eq.buffer.clone(), HashMap::new()));
                expected.len() - 1
            }
        };
        let mut bounds = Vec::new();
        let mut total: u64 = 1;
        for r in &eq.ranges {
            let (lo, hi) = env.bounds(&mut store, r).map_err(EquivError::Spec)?;
            total = total.saturating_mul((hi - lo).max(0) as u64);
            bounds.push((r.var.clone(), lo, hi));
        }
        if total > MAX_ELEMENTS {
            return Err(EquivError::Spec(SpecError {
                message: "the ranges define too many elements".into(),
                span: eq.span,
            }));
        }
        let mut point: Vec<i128> = bounds.iter().map(|b| b.1).collect();
        if bounds.iter().any(|b| b.1 >= b.2) {
            continue;
        }
        loop {
            env.vars = bounds
                .iter()
                .zip(&point)
                .map(|(b, &v)| (b.0.clone(), v))
                .collect();
            let flat = env
                .flat(&mut store, &eq.buffer, &eq.indices, eq.span)
                .map_err(EquivError::Spec)?;
            let v = env.eval(&mut store, &eq.value).map_err(EquivError::Spec)?;
            let t = env.term(&mut store, v);
            if expected[slot].1.insert(flat, t).is_some() {
                return Err(EquivError::Spec(SpecError {
                    message: format!("element {} of `{}` is defined twice", flat, eq.buffer),
                    span: eq.span,
                }));
            }
            // next point (odometer)
            let mut k = bounds.len();
            loop {
                if k == 0 {
                    break;
                }
                k -= 1;
                point[k] += 1;
                if point[k] < bounds[k].2 {
                    break;
                }
                point[k] = bounds[k].1;
                if k == 0 {
                    k = usize::MAX;
                    break;
                }
            }
            if k == usize::MAX || bounds.is_empty() {
                break;
            }
        }
    }
    let all = cfg.blocks == BlockSel::All;
    let mut pairs = Vec::new();
    let mut outputs = Vec::new();
    for (name, defs) in &expected {
        let Some(buf) = out.buffer(name) else {
            continue;
        };
        let summary = OutputSummary {
            name: name.clone(),
            elements: buf.values.len() as u64,
            ..OutputSummary::default()
        };
        for (i, &actual) in buf.values.iter().enumerate() {
            if !all && !buf.written[i] {
                continue;
            }
            let exp = match defs.get(&(i as u64)) {
                Some(&t) => t,
                None => crate::value::input_symbol(&mut store, name, Some(i as u64), buf.elem),
            };
            pairs.push(Pair {
                output: outputs.len(),
                index: i as u64,
                expected: exp,
                actual,
            });
        }
        outputs.push(summary);
    }
    let result = compare_elements(&store, &pairs, 3);
    for (p, v) in pairs.iter().zip(&result.verdicts) {
        let s = &mut outputs[p.output];
        s.compared += 1;
        match v {
            0 => s.equal += 1,
            1 => s.different += 1,
            _ => s.unknown += 1,
        }
    }
    let counterexample = result.first_different.map(|(k, w)| {
        let p = &pairs[k];
        counterexample(&store, &outputs[p.output].name, p, w)
    });
    let findings: Vec<_> = out.findings.iter().collect();
    let verdict = verdict_of(
        &findings,
        counterexample.is_some(),
        result.first_unknown.is_some(),
    );
    let reason = (verdict == "unknown").then(|| {
        out.findings
            .iter()
            .find(|f| f.issue.category().is_none())
            .map(|f| f.message.clone())
            .or_else(|| {
                result.first_unknown.as_ref().map(|(k, why)| {
                    let p = &pairs[*k];
                    format!("{}[{}]: {why}", outputs[p.output].name, p.index)
                })
            })
            .unwrap_or_else(|| "not decided".into())
    });
    Ok(SpecReport {
        verdict,
        reason,
        kernel: KernelRun::of(&out),
        outputs,
        counterexample,
        seconds: start.elapsed().as_secs_f64(),
    })
}
