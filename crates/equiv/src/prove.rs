//! Checking a kernel against a spec: the spec's equations are evaluated into terms over the
//! kernel's input symbols (buffers on the right-hand side are their initial contents) and
//! compared element by element with the kernel's symbolic outputs.

use crate::budget::Budget;
use crate::compare::{compare_elements, counterexample, CompareOptions, Confirm, Pair};
use crate::launch::{self, Scalar};
use crate::replay::{self, Replay};
use crate::report::{exit_code, verdict_of, Counterexample, KernelRun, OutputSummary};
use crate::spec::{Expr, ExprKind, Range, Reduce, Spec, SpecError, SpecSpan};
use crate::symexec::run_budgeted;
use crate::{BlockSel, EquivError, ExecConfig};
use num_bigint::BigInt;
use num_rational::BigRational;
use serde::Serialize;
use std::collections::HashMap;
use std::time::Instant;
use warpsafe_algebra::{Func, Func2, Store, TermId, Witness};
use warpsafe_ir::{Kernel, ParamKind, ScalarType};

/// Most elements a spec may define (ranges are enumerated).
const MAX_ELEMENTS: u64 = 1 << 24;

/// Most evaluation steps (equation points plus reduction iterations, nested ones multiplied)
/// of one spec, so that `sum(i < 65536, sum(j < 65536, …))` is an error, not an hour's work.
/// A run's [`ExecConfig::max_block_instructions`] lowers it.
const MAX_STEPS: u64 = 1 << 24;

/// Largest exact constant (in bits of numerator plus denominator) a spec may compute:
/// `prod(i < 65536, 1e300)` is an error, not a number of millions of digits.
const MAX_CONSTANT_BITS: u64 = 1 << 16;

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
    /// Buffers whose every element starts as a constant (`//@ init`, `--init`).
    inits: HashMap<String, warpsafe_ir::Value>,
    vars: Vec<(String, i128)>,
    /// Evaluation steps taken so far, and the most allowed (see [`MAX_STEPS`]).
    steps: u64,
    max_steps: u64,
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

    /// One more evaluation step at `span`; an error past the budget.
    fn step(&mut self, span: SpecSpan) -> Result<(), SpecError> {
        self.steps += 1;
        if self.steps > self.max_steps {
            return err(
                span,
                format!(
                    "the spec takes more than {} evaluation steps",
                    self.max_steps
                ),
            );
        }
        Ok(())
    }

    fn int(&mut self, store: &mut Store, e: &Expr) -> Result<i128, SpecError> {
        match self.eval(store, e)? {
            V::I(i) => Ok(i),
            V::T(t) => match store.as_const(t) {
                Some(q) => match warpsafe_algebra::rat_to_i128(q) {
                    Some(i) => Ok(i),
                    None if q.is_integer() => err(
                        e.span,
                        format!(
                            "index or bound {} is out of range (beyond 128 bits)",
                            warpsafe_algebra::rat_text(q)
                        ),
                    ),
                    None => err(e.span, "an index or bound must be an integer"),
                },
                None => err(
                    e.span,
                    "an index or bound must be an integer known at launch",
                ),
            },
        }
    }

    fn bounds(&mut self, store: &mut Store, r: &Range) -> Result<(i128, i128), SpecError> {
        let lo = match &r.lo {
            Some(e) => self.int(store, e)?,
            None => 0,
        };
        let hi = self.int(store, &r.hi)?;
        let Some(hi) = hi.checked_add(i128::from(r.inclusive)) else {
            return err(r.hi.span, format!("range bound {hi} is out of range"));
        };
        Ok((lo, hi))
    }

    /// `hi - lo` elements, or `None` when that does not fit in 128 bits.
    fn width(lo: i128, hi: i128) -> Option<u64> {
        let w = hi.checked_sub(lo)?.max(0);
        Some(u64::try_from(w).unwrap_or(u64::MAX))
    }

    fn flat(
        &mut self,
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
        // Row-major position; an index within its extent keeps `flat` below the product of the
        // extents, so it only grows: past `len` (or past 128 bits) it is past the end.
        let mut flat: Option<i128> = Some(0);
        for (e, &d) in idx.iter().zip(&dims) {
            let i = self.int(store, e)?;
            if i < 0 || i >= i128::from(d) {
                return err(
                    e.span,
                    format!("index {i} is outside `{name}` (extent {d})"),
                );
            }
            flat = flat
                .and_then(|f| f.checked_mul(i128::from(d)))
                .and_then(|f| f.checked_add(i));
        }
        match flat.and_then(|f| u64::try_from(f).ok()) {
            Some(f) if f < len => Ok(f),
            Some(f) => err(
                span,
                format!("element {f} is past the end of `{name}` (length {len})"),
            ),
            None => err(
                span,
                format!("the element is past the end of `{name}` (length {len})"),
            ),
        }
    }

    /// An integer constant term as an exact integer.
    fn big_int(store: &Store, v: V) -> Option<BigInt> {
        match v {
            V::I(i) => Some(BigInt::from(i)),
            V::T(t) => store
                .as_const(t)
                .filter(|q| q.is_integer())
                .map(|q| q.to_integer()),
        }
    }

    /// Rejects an exact constant too large to compute with (see [`MAX_CONSTANT_BITS`]).
    fn small(store: &Store, t: TermId, span: SpecSpan) -> Result<TermId, SpecError> {
        match store.as_const(t) {
            Some(q) if q.numer().bits() + q.denom().bits() > MAX_CONSTANT_BITS => err(
                span,
                format!("a constant of more than {MAX_CONSTANT_BITS} bits"),
            ),
            _ => Ok(t),
        }
    }

    fn eval(&mut self, store: &mut Store, e: &Expr) -> Result<V, SpecError> {
        Ok(match &e.kind {
            ExprKind::Num(text) => {
                if let Ok(i) = text.parse::<i128>() {
                    V::I(i)
                } else {
                    match decimal(text) {
                        Some(q) => {
                            let t = store.constant(q);
                            V::T(Self::small(store, t, e.span)?)
                        }
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
                        Scalar::Value(v) => match v.as_i128() {
                            Some(i) if !ty.is_float() => V::I(i),
                            _ => V::T(store.float(v.as_f64())),
                        },
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
                V::T(match self.inits.get(name) {
                    Some(v) => store.float(v.as_f64()),
                    None => crate::value::input_symbol(store, name, Some(flat), ty),
                })
            }
            // Integers stay `i128` while they fit; a result that does not is the exact
            // constant term (the spec's arithmetic is mathematical, never wrapping).
            ExprKind::Neg(a) => match self.eval(store, a)? {
                V::I(i) if i != i128::MIN => V::I(-i),
                v => {
                    let t = self.term(store, v);
                    let t = store.neg(t);
                    V::T(Self::small(store, t, e.span)?)
                }
            },
            ExprKind::Bin(op, a, b) => {
                let (x, y) = (self.eval(store, a)?, self.eval(store, b)?);
                let exact = match (x, y, op) {
                    (V::I(p), V::I(q), '+') => p.checked_add(q),
                    (V::I(p), V::I(q), '-') => p.checked_sub(q),
                    (V::I(p), V::I(q), '*') => p.checked_mul(q),
                    (V::I(p), V::I(q), '/') if p.checked_rem(q) == Some(0) => p.checked_div(q),
                    (V::I(p), V::I(q), '%') => p.checked_rem(q),
                    _ => None,
                };
                match (exact, op) {
                    (Some(r), _) => V::I(r),
                    (None, '%') => match (Self::big_int(store, x), Self::big_int(store, y)) {
                        (Some(p), Some(q)) if !num_traits::Zero::is_zero(&q) => {
                            // Truncating, like C: the sign of the dividend.
                            let r = p % q;
                            match i128::try_from(&r) {
                                Ok(r) => V::I(r),
                                Err(_) => V::T(store.constant(BigRational::from_integer(r))),
                            }
                        }
                        _ => {
                            return err(
                                e.span,
                                "`%` needs integer operands (and a non-zero divisor)",
                            )
                        }
                    },
                    _ => {
                        let (s, t) = (self.term(store, x), self.term(store, y));
                        let r = match op {
                            '+' => store.add(s, t),
                            '-' => store.sub(s, t),
                            '*' => store.mul(s, t),
                            _ => store.div(s, t),
                        };
                        V::T(Self::small(store, r, e.span)?)
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
                    other => spec_func(other),
                };
                match (func, spec_func2(f), f.as_str(), vals.as_slice()) {
                    (Some(func), _, _, [a]) => V::T(store.func(func, *a)),
                    (_, Some(g), _, [a, b]) => V::T(store.func2(g, *a, *b)),
                    (None, _, "max", [a, b]) => V::T(store.max(*a, *b)),
                    (None, _, "min", [a, b]) => V::T(store.min(*a, *b)),
                    (None, _, "pow", [a, b]) => V::T(store.pow(*a, *b)),
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
                if Self::width(lo, hi).is_none_or(|w| w > MAX_ELEMENTS) {
                    return err(range.hi.span, "range too large");
                }
                let mut acc: Option<TermId> = match kind {
                    Reduce::Sum => Some(store.int(0)),
                    Reduce::Prod => Some(store.int(1)),
                    _ => None,
                };
                for i in lo..hi {
                    self.step(e.span)?;
                    self.vars.push((range.var.clone(), i));
                    let v = self.eval(store, body);
                    self.vars.pop();
                    let t = self.term(store, v?);
                    let r = match (acc, kind) {
                        (None, _) => t,
                        (Some(a), Reduce::Sum) => store.add(a, t),
                        (Some(a), Reduce::Prod) => store.mul(a, t),
                        (Some(a), Reduce::Max) => store.max(a, t),
                        (Some(a), Reduce::Min) => store.min(a, t),
                    };
                    acc = Some(Self::small(store, r, e.span)?);
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
///
/// Spec arithmetic is exact (integers past 128 bits become exact constants); an index, bound
/// or extent out of range, a range of more than 2^24 elements, an evaluation of more than
/// 2^24 steps (or `cfg.max_block_instructions`) or a constant of more than 2^16 bits is a
/// [`SpecError`] pointing at the spec text.
pub fn prove_spec(
    kernel: &Kernel,
    spec: &Spec,
    cfg: &ExecConfig,
) -> Result<SpecReport, EquivError> {
    let start = Instant::now();
    let setup = launch::resolve(kernel, cfg)?;
    let program = warpsafe_exec::compile(kernel).map_err(|e| EquivError::Compile(e.to_string()))?;
    let budget = Budget::new(cfg.limits);
    let mut out = run_budgeted(&program, cfg, &budget)?;
    let mut store = std::mem::take(&mut out.store);
    let mut env = Env {
        kernel,
        launch: setup.launch,
        scalars: HashMap::new(),
        shapes: HashMap::new(),
        lens: HashMap::new(),
        inits: HashMap::new(),
        vars: Vec::new(),
        steps: 0,
        max_steps: cfg.max_block_instructions.min(MAX_STEPS),
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
                if let Some(v) = setup.inits[i] {
                    env.inits.insert(p.name.clone(), v);
                }
            }
        }
    }
    for (name, dims) in &spec.shapes {
        let mut ext = Vec::new();
        for d in dims {
            let v = env.int(&mut store, d).map_err(EquivError::Spec)?;
            let Ok(v) = u64::try_from(v) else {
                return Err(EquivError::Spec(SpecError {
                    message: format!("extent {v} of `{name}` is not between 0 and {}", u64::MAX),
                    span: d.span,
                }));
            };
            ext.push(v);
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
            total = total.saturating_mul(Env::width(lo, hi).unwrap_or(u64::MAX));
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
            env.step(eq.span).map_err(EquivError::Spec)?;
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
            let exp = match (defs.get(&(i as u64)), env.inits.get(name)) {
                (Some(&t), _) => t,
                (None, Some(v)) => store.float(v.as_f64()),
                (None, None) => {
                    crate::value::input_symbol(&mut store, name, Some(i as u64), buf.elem)
                }
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
    let incomplete = out
        .findings
        .iter()
        .find(|f| f.issue.is_incomplete())
        .map(|f| format!("the symbolic run stopped early: {}", f.message));
    let names_of: Vec<String> = outputs.iter().map(|s| s.name.clone()).collect();
    let mut runs: HashMap<u64, Result<crate::replay::Outputs, String>> = HashMap::new();
    // The spec's value at the input is exact (or a float where `exp` occurs); the kernel's is
    // the interpreter's.
    let mut confirm = |p: &Pair, w: &Witness| -> Confirm {
        let replayed = runs
            .entry(w.seed)
            .or_insert_with(|| replay::run_at(&program, cfg, w.seed));
        let name = &names_of[p.output];
        match replayed {
            Err(why) => Confirm::No(format!(
                "a symbolic difference at {name}[{}] (seed {}) could not be replayed: {why}",
                p.index, w.seed
            )),
            Ok(ro) => match replay::element(ro, name, p.index) {
                Some(b) if replay::differ(w.left_value, b) => Confirm::Yes(Replay {
                    expected: w.left_value,
                    actual: b,
                    seed: w.seed,
                }),
                Some(b) => Confirm::No(format!(
                    "the kernel's symbolic value of {name}[{}] differs from the spec's at the \
                     input of seed {} ({} vs {}), but run concretely in the interpreter it \
                     gives {b}: the symbolic difference is not real",
                    p.index, w.seed, w.right, w.left
                )),
                None => Confirm::No(format!(
                    "the interpreter's run has no element {name}[{}]",
                    p.index
                )),
            },
        }
    };
    let mut result = compare_elements(
        &store,
        &pairs,
        &CompareOptions {
            points: 3,
            budget: &budget,
            incomplete: incomplete.clone(),
        },
        &mut confirm,
    );
    for (p, v) in pairs.iter().zip(&result.verdicts) {
        let s = &mut outputs[p.output];
        s.compared += 1;
        match v {
            0 => s.equal += 1,
            1 => s.different += 1,
            _ => s.unknown += 1,
        }
    }
    let counterexample = result.first_different.take().map(|(k, w, replay)| {
        let p = &pairs[k];
        counterexample(&store, &outputs[p.output].name, p, w, replay)
    });
    let spent = budget.spent();
    let findings: Vec<_> = out.findings.iter().collect();
    let verdict = verdict_of(
        &findings,
        counterexample.is_some(),
        result.first_unknown.is_some() || spent.is_some(),
    );
    let reason = (verdict == "unknown").then(|| {
        spent
            .as_ref()
            .map(|s| {
                let decided: u64 = outputs.iter().map(|s| s.compared - s.unknown).sum();
                let total: u64 = outputs.iter().map(|s| s.elements).sum();
                format!(
                    "{}: {decided} of {total} output elements decided before it ran out",
                    s.text()
                )
            })
            .or_else(|| incomplete.clone())
            .or_else(|| result.unconfirmed.as_ref().map(|u| u.1.clone()))
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

/// A spec's name for a one-argument function that a kernel's call meets as the same
/// uninterpreted term (`atan(x)` in a spec is what `atanf(x)` computes over the reals).
fn spec_func(name: &str) -> Option<Func> {
    Some(match name {
        "log2" => Func::Log2,
        "log10" => Func::Log10,
        "sin" => Func::Sin,
        "cos" => Func::Cos,
        "tan" => Func::Tan,
        "floor" => Func::Floor,
        "ceil" => Func::Ceil,
        "round" => Func::Round,
        "trunc" => Func::Trunc,
        "atan" => Func::Atan,
        "asin" => Func::Asin,
        "acos" => Func::Acos,
        "asinh" => Func::Asinh,
        "acosh" => Func::Acosh,
        "atanh" => Func::Atanh,
        "cbrt" => Func::Cbrt,
        "rint" => Func::Rint,
        "erf" => Func::Erf,
        "erfc" => Func::Erfc,
        "lgamma" => Func::Lgamma,
        "tgamma" => Func::Tgamma,
        "sinpi" => Func::SinPi,
        "cospi" => Func::CosPi,
        _ => return None,
    })
}

/// A spec's name for a two-argument uninterpreted function.
fn spec_func2(name: &str) -> Option<Func2> {
    Some(match name {
        "atan2" => Func2::Atan2,
        "fmod" => Func2::Fmod,
        "remainder" => Func2::Remainder,
        "copysign" => Func2::Copysign,
        _ => return None,
    })
}
