//! Spec equations as SMT terms over the same symbols as the kernel: parameters, launch
//! dimensions and the buffers' initial contents. A reduction (`sum(k < n, f(k))`) becomes a
//! fresh symbol whose definition is kept aside; the proof links it to a kernel loop.

use crate::encode::{buffer_read, math_fn, param_sym};
use crate::launch::Launch;
use crate::term::{Sort, Term};
use num_bigint::BigInt;
use num_rational::BigRational;
use warpsafe_equiv::{Equation, Range, Reduce, Spec, SpecExpr as Expr, SpecExprKind as ExprKind};
use warpsafe_ir::{Kernel, ParamId, ParamKind};

/// A reduction symbol: `sym = op over k in [lo, hi) of body(k)`.
#[derive(Clone, Debug)]
pub struct Red {
    /// The symbol standing for the reduction's value.
    pub sym: Term,
    /// Which reduction.
    pub op: Reduce,
    /// The index symbol in `body`.
    pub k: Term,
    /// First index.
    pub lo: Term,
    /// One past the last index.
    pub hi: Term,
    /// The reduced expression.
    pub body: Term,
}

/// One equation instantiated at given indices.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The indices are in the equation's domain.
    pub domain: Term,
    /// The spec's value there.
    pub value: Term,
    /// Reductions the value uses.
    pub reds: Vec<Red>,
}

/// Encodes spec expressions for one kernel.
pub struct SpecEnc<'a> {
    kernel: &'a Kernel,
    launch: &'a Launch,
    spec: &'a Spec,
    next: usize,
}

type R<T> = Result<T, String>;

impl<'a> SpecEnc<'a> {
    /// An encoder for `spec` against `kernel`.
    pub fn new(kernel: &'a Kernel, launch: &'a Launch, spec: &'a Spec) -> SpecEnc<'a> {
        SpecEnc {
            kernel,
            launch,
            spec,
            next: 0,
        }
    }

    /// The buffer parameter called `name`.
    pub fn buffer(&self, name: &str) -> R<ParamId> {
        self.kernel
            .params
            .iter()
            .position(|p| p.name == name && matches!(p.kind, ParamKind::Buffer { .. }))
            .map(|i| ParamId(i as u32))
            .ok_or_else(|| format!("the spec names `{name}`, which is not a buffer parameter"))
    }

    /// The extents of `name` (one unknown extent for a 1-D buffer).
    pub fn shape(&mut self, name: &str) -> R<Option<Vec<Term>>> {
        let Some((_, dims)) = self.spec.shapes.iter().find(|(n, _)| n == name) else {
            return Ok(None);
        };
        let dims = dims.clone();
        let mut out = vec![];
        for d in &dims {
            let mut reds = vec![];
            let t = self.expr(d, &[], &mut reds)?;
            if !reds.is_empty() || t.sort() != Sort::Int {
                return Err(format!(
                    "the extent of `{name}` is not an integer expression"
                ));
            }
            out.push(t);
        }
        Ok(Some(out))
    }

    /// The element index of `name[indices]`.
    pub fn flatten(&mut self, name: &str, indices: &[Term]) -> R<Term> {
        match self.shape(name)? {
            None if indices.len() == 1 => Ok(indices[0].clone()),
            None => Err(format!(
                "`{name}` is indexed with {} indices but has no shape",
                indices.len()
            )),
            Some(dims) if dims.len() != indices.len() => Err(format!(
                "`{name}` has {} dimensions but is indexed with {}",
                dims.len(),
                indices.len()
            )),
            Some(dims) => {
                let mut a = indices[0].clone();
                for (d, i) in dims.iter().zip(indices).skip(1) {
                    a = a.mul(d).add(i);
                }
                Ok(a)
            }
        }
    }

    /// The equation's variables, if its indices are exactly its range variables in order.
    pub fn index_vars(eq: &Equation) -> R<Vec<String>> {
        let mut out = vec![];
        for i in &eq.indices {
            match &i.kind {
                ExprKind::Name(n) if eq.ranges.iter().any(|r| &r.var == n) => out.push(n.clone()),
                _ => return Err("spec indices must be the equation's range variables".into()),
            }
        }
        Ok(out)
    }

    /// `eq` at the given values of its variables.
    pub fn instance(&mut self, eq: &Equation, binding: &[(String, Term)]) -> R<Instance> {
        let mut reds = vec![];
        let mut domain = Term::tt();
        for r in &eq.ranges {
            let Some((_, v)) = binding.iter().find(|(n, _)| *n == r.var) else {
                return Err(format!(
                    "range variable `{}` is not an index of the output",
                    r.var
                ));
            };
            domain = domain.and(&self.in_range(r, v, binding, &mut reds)?);
        }
        let value = self.expr(&eq.value, binding, &mut reds)?;
        Ok(Instance {
            domain,
            value,
            reds,
        })
    }

    fn in_range(
        &mut self,
        r: &Range,
        v: &Term,
        env: &[(String, Term)],
        reds: &mut Vec<Red>,
    ) -> R<Term> {
        let lo = match &r.lo {
            Some(e) => self.int(e, env, reds)?,
            None => Term::int(0),
        };
        let hi = self.int(&r.hi, env, reds)?;
        let upper = if r.inclusive { v.le(&hi) } else { v.lt(&hi) };
        Ok(lo.le(v).and(&upper))
    }

    fn int(&mut self, e: &Expr, env: &[(String, Term)], reds: &mut Vec<Red>) -> R<Term> {
        let t = self.expr(e, env, reds)?;
        if t.sort() != Sort::Int {
            return Err("a range bound is not an integer".into());
        }
        Ok(t)
    }

    fn expr(&mut self, e: &Expr, env: &[(String, Term)], reds: &mut Vec<Red>) -> R<Term> {
        match &e.kind {
            ExprKind::Num(s) => number(s),
            ExprKind::Name(n) => self.name(n, env),
            ExprKind::Index(buf, idx) => {
                let mut is = vec![];
                for i in idx {
                    is.push(self.int(i, env, reds)?);
                }
                let p = self.buffer(buf)?;
                let addr = self.flatten(buf, &is)?;
                buffer_read(self.kernel, p, &addr).ok_or_else(|| format!("`{buf}` is not a buffer"))
            }
            ExprKind::Bin(op, a, b) => {
                let (x, y) = (self.expr(a, env, reds)?, self.expr(b, env, reds)?);
                let real = x.sort() == Sort::Real || y.sort() == Sort::Real;
                let (x, y) = if real {
                    (x.to_real(), y.to_real())
                } else {
                    (x, y)
                };
                Ok(match op {
                    '+' => x.add(&y),
                    '-' => x.sub(&y),
                    '*' => x.mul(&y),
                    '/' if real => x.rdiv(&y),
                    '/' => x.div(&y),
                    '%' if !real => x.modulo(&y),
                    _ => return Err(format!("`{op}` on reals")),
                })
            }
            ExprKind::Neg(a) => Ok(self.expr(a, env, reds)?.neg()),
            ExprKind::Call(f, args) => {
                let mut xs = vec![];
                for a in args {
                    xs.push(self.expr(a, env, reds)?);
                }
                match (f.as_str(), xs.as_slice()) {
                    ("abs", [x]) => {
                        let zero = if x.sort() == Sort::Real {
                            Term::int(0).to_real()
                        } else {
                            Term::int(0)
                        };
                        Ok(Term::ite(&x.lt(&zero), &x.neg(), x))
                    }
                    ("max", [x, y]) | ("min", [x, y]) => {
                        let real = x.sort() == Sort::Real || y.sort() == Sort::Real;
                        let (x, y) = if real {
                            (x.to_real(), y.to_real())
                        } else {
                            (x.clone(), y.clone())
                        };
                        let pick_x = if f == "max" { y.le(&x) } else { x.le(&y) };
                        Ok(Term::ite(&pick_x, &x, &y))
                    }
                    (name, _) => Ok(math_fn(name, xs.iter().map(Term::to_real).collect())),
                }
            }
            ExprKind::Reduce(op, range, body) => {
                let id = self.next;
                self.next += 1;
                let k = crate::term::sym(format!("rk{id}"), Sort::Int);
                let lo = match &range.lo {
                    Some(e) => self.int(e, env, reds)?,
                    None => Term::int(0),
                };
                let hi = self.int(&range.hi, env, reds)?;
                let hi = if range.inclusive {
                    hi.add(&Term::int(1))
                } else {
                    hi
                };
                let mut inner = env.to_vec();
                inner.push((range.var.clone(), k.clone()));
                let body = self.expr(body, &inner, reds)?;
                let sym = crate::term::sym(format!("red{id}"), body.sort());
                reds.push(Red {
                    sym: sym.clone(),
                    op: *op,
                    k,
                    lo,
                    hi,
                    body,
                });
                Ok(sym)
            }
        }
    }

    fn name(&self, n: &str, env: &[(String, Term)]) -> R<Term> {
        if let Some((_, t)) = env.iter().rev().find(|(v, _)| v == n) {
            return Ok(t.clone());
        }
        if let Some((base, c)) = n.split_once('.') {
            let d = match c {
                "x" => 0,
                "y" => 1,
                "z" => 2,
                _ => return Err(format!("unknown name `{n}`")),
            };
            return match base {
                "blockDim" => Ok(self.launch.bdim[d].clone()),
                "gridDim" => Ok(self.launch.gdim[d].clone()),
                _ => Err(format!("unknown name `{n}`")),
            };
        }
        let p = self
            .kernel
            .params
            .iter()
            .position(|p| p.name == n)
            .ok_or_else(|| format!("unknown name `{n}`"))?;
        param_sym(self.kernel, ParamId(p as u32))
            .ok_or_else(|| format!("`{n}` is a buffer, not a scalar"))
    }
}

fn number(s: &str) -> R<Term> {
    if !s.contains(['.', 'e', 'E']) {
        return s
            .parse::<i128>()
            .map(Term::int)
            .map_err(|_| format!("bad number `{s}`"));
    }
    let (mant, exp) = match s.split_once(['e', 'E']) {
        Some((m, e)) => (
            m,
            e.parse::<i32>().map_err(|_| format!("bad number `{s}`"))?,
        ),
        None => (s, 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let digits: BigInt = format!("{int}{frac}")
        .parse()
        .map_err(|_| format!("bad number `{s}`"))?;
    let scale = exp - frac.len() as i32;
    let ten = BigInt::from(10);
    let value = if scale >= 0 {
        BigRational::from_integer(digits * num_traits::pow(ten, scale as usize))
    } else {
        BigRational::new(digits, num_traits::pow(ten, (-scale) as usize))
    };
    Ok(Term::real(value))
}
