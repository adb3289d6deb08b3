//! The vector arithmetic of `helper_math.h` (include/helper_math.h, also part of GPUVerify's
//! preamble) and the `make_<type>` factories, given their meaning component by component:
//! `a * s + b` on `float4` is four scalar expressions, `dot(a, b)` one, `a += b` four
//! compound assignments. The header only declares them; a call of one (a builtin: declared
//! in our headers, or by the file itself without a body) whose arguments or result are
//! vector types (records whose fields are `x`, `y`[, `z`[, `w`]] of one scalar type) is
//! read here, so nested calls (`normalize(a - b) * s`) are one expression per component and
//! need no statement of their own. A component used more than once (`normalize(v)` reads
//! each of `v`'s twice) is held in a fresh local when statements can be placed before the
//! enclosing statement, and repeated when it is free of effects; else the call is rejected
//! with its span.

use super::expr::{is_expr, strip_implicit};
use super::{types, Callee, Unit};
use crate::node::Node;
use warpsafe_cuda_front::ast::{BinaryOp, Expr, ExprKind, Stmt, StmtKind, UnaryOp};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

/// The value of a vector call.
pub enum VecCall {
    /// A scalar (`dot`, `length`, the scalar `lerp`).
    Scalar(Expr),
    /// A vector of record type `key`, one expression per component.
    Leaves(String, Vec<Expr>),
    /// A compound assignment (`v += w`), its statements already placed before the
    /// enclosing statement.
    Done,
}

/// A vector type: its components' scalar type and spelling, and their number.
#[derive(Clone)]
struct Vector {
    key: String,
    scalar: ScalarType,
    spelling: String,
    n: usize,
}

/// An argument: a vector's components, or a scalar with its type spelling.
enum Arg {
    Vector(Vector, Vec<Expr>),
    Scalar(Expr, String),
}

fn bin(op: BinaryOp, a: Expr, b: Expr, span: Span) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), span)
}

fn call(name: &str, args: Vec<Expr>, span: Span) -> Expr {
    Expr::new(ExprKind::Call(name.to_string(), span, args), span)
}

fn float(v: f64, span: Span) -> Expr {
    Expr::new(ExprKind::Float(v, ScalarType::F32), span)
}

/// A zero of `t`.
fn zero(t: ScalarType, span: Span) -> Expr {
    if t.is_float() {
        Expr::new(ExprKind::Float(0.0, t), span)
    } else {
        Expr::new(ExprKind::Int(0, t), span)
    }
}

/// True for an expression cheap and safe to repeat: a name, a constant, a field or element
/// of names and constants.
fn simple(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(..) | ExprKind::Float(..) | ExprKind::Bool(_) | ExprKind::Ident(_) => true,
        ExprKind::Member(a, _) | ExprKind::Cast(_, a) | ExprKind::Unary(UnaryOp::Neg, a) => {
            simple(a)
        }
        ExprKind::Index(a, b) => simple(a) && simple(b),
        _ => false,
    }
}

/// The math functions a repeated expression may call (no effect, no collective).
const PURE_CALLS: &[&str] = &[
    "sqrtf",
    "rsqrtf",
    "sqrt",
    "rsqrt",
    "fminf",
    "fmaxf",
    "fmin",
    "fmax",
    "min",
    "max",
    "abs",
    "fabsf",
    "fabs",
    "floorf",
    "ceilf",
    "truncf",
    "roundf",
    "expf",
    "__expf",
    "exp2f",
    "logf",
    "__logf",
    "log2f",
    "powf",
    "__powf",
    "sinf",
    "cosf",
    "__sinf",
    "__cosf",
    "tanf",
    "tanhf",
    "fmaf",
    "__saturatef",
    "__fdividef",
    "__uint_as_float",
    "__float_as_uint",
    "__int_as_float",
    "__float_as_int",
    "__longlong_as_double",
    "__double_as_longlong",
];

/// True when evaluating `e` twice is evaluating it once.
fn effect_free(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Assign(..) | ExprKind::IncDec { .. } => false,
        ExprKind::Call(f, _, args) => {
            PURE_CALLS.contains(&f.as_str()) && args.iter().all(effect_free)
        }
        ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => effect_free(a),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) => {
            effect_free(a) && effect_free(b)
        }
        ExprKind::Cond(c, a, b) => effect_free(c) && effect_free(a) && effect_free(b),
        _ => true,
    }
}

/// The helper_math.h names read here.
const NAMES: &[&str] = &[
    "operator+",
    "operator-",
    "operator*",
    "operator/",
    "operator+=",
    "operator-=",
    "operator*=",
    "operator/=",
    "dot",
    "length",
    "normalize",
    "cross",
    "reflect",
    "lerp",
    "clamp",
    "smoothstep",
    "fminf",
    "fmaxf",
    "fmodf",
    "min",
    "max",
    "floorf",
    "fracf",
    "fabs",
    "abs",
];

/// helper_math.h's functions that are not CUDA's, read here on scalars too.
const SCALAR_NAMES: &[&str] = &["lerp", "clamp", "fracf", "smoothstep"];

/// `n` without the nodes that pass a record value on unchanged (a temporary materialised,
/// a copy or move of one, parentheses).
pub(super) fn strip_value(mut n: &Node) -> &Node {
    loop {
        let next = match n.kind.as_str() {
            "ImplicitCastExpr"
            | "ParenExpr"
            | "MaterializeTemporaryExpr"
            | "ExprWithCleanups"
            | "CXXBindTemporaryExpr"
            | "ConstantExpr"
                if n.str("castKind")
                    .is_none_or(|k| k == "NoOp" || k == "LValueToRValue") =>
            {
                n.inner.iter().find(|c| is_expr(c))
            }
            "CXXConstructExpr" => match &n.inner[..] {
                [one] if is_expr(one) && one.ty().is_some() => Some(one),
                _ => None,
            },
            _ => None,
        };
        match next {
            Some(c) => n = c,
            None => return n,
        }
    }
}

impl Unit<'_> {
    /// The vector type `ty` names, if any: a record whose fields are `x`, `y`[, `z`[, `w`]],
    /// all of one scalar type.
    fn vector(&self, ty: &str) -> Option<Vector> {
        let key = self.record_key_of(ty)?;
        let fields = self.records.get(&key)?;
        if fields.is_empty() || fields.len() > 4 {
            return None;
        }
        let names = ["x", "y", "z", "w"];
        let spelling = fields[0].1.trim().to_string();
        let same = fields
            .iter()
            .enumerate()
            .all(|(i, (f, t))| f == names[i] && t.trim() == spelling);
        if !same {
            return None;
        }
        let scalar = types::scalar(&spelling).ok().flatten()?;
        Some(Vector {
            key,
            scalar,
            spelling,
            n: fields.len(),
        })
    }

    /// `e`, to be used more than once: itself when simple, else a fresh local holding it
    /// (or `e` again when no statement can be placed and it has no effect).
    fn share(&self, e: Expr, spelling: &str, span: Span) -> Result<Expr, FrontError> {
        if simple(&e) {
            return Ok(e);
        }
        if self.can_hoist() {
            let name = format!("__vm{}", self.fresh());
            let decl = self.local_decl(&name, spelling, Some(e), span)?;
            self.hoist(vec![decl], span)?;
            return Ok(Expr::new(ExprKind::Ident(name), span));
        }
        if effect_free(&e) {
            return Ok(e);
        }
        Err(unsupported(
            span,
            "a vector operation reading a value with effects twice where no statement can \
             be placed (hold the value in a variable first)",
        ))
    }

    fn share_all(
        &self,
        v: &Vector,
        leaves: Vec<Expr>,
        span: Span,
    ) -> Result<Vec<Expr>, FrontError> {
        leaves
            .into_iter()
            .map(|e| self.share(e, &v.spelling, span))
            .collect()
    }

    /// The callee's name when `n` is a call of a builtin (not a user function with a body).
    fn builtin_callee<'n>(&self, n: &'n Node) -> Option<(&'n str, &'n str)> {
        if !matches!(n.kind.as_str(), "CallExpr" | "CXXOperatorCallExpr") {
            return None;
        }
        let (id, _, name) = n.inner.first().map(strip_implicit)?.referenced()?;
        if matches!(self.callee.get(id), Some(Callee::User(..))) || self.methods.contains_key(id) {
            return None;
        }
        Some((id, name))
    }

    /// True when `n` is a call [`Unit::vector_call`] reads.
    pub fn is_vector_call(&self, n: &Node) -> bool {
        let Some((id, name)) = self.builtin_callee(n) else {
            return false;
        };
        let vec_ty = |t: Option<&str>| t.is_some_and(|t| self.vector(t).is_some());
        let args = n.inner.iter().skip(1).filter(|c| is_expr(c));
        let vectors = vec_ty(n.ty()) || args.clone().any(|a| vec_ty(a.ty()));
        if name.starts_with("make_") {
            return vec_ty(n.ty());
        }
        if !NAMES.contains(&name) {
            return false;
        }
        vectors || SCALAR_NAMES.contains(&name) && !self.prototypes.contains_key(id)
    }

    fn arg(&self, a: &Node, span: Span) -> Result<Arg, FrontError> {
        let ty = a.ty().unwrap_or("");
        match self.vector(ty) {
            Some(v) => {
                let inner = strip_value(a);
                let leaves = if self.is_vector_call(inner) {
                    match self.vector_call(inner, span)? {
                        Some(VecCall::Leaves(_, l)) => l,
                        _ => return Err(unsupported(span, "a vector argument")),
                    }
                } else {
                    self.record_fields(a, span)?
                };
                Ok(Arg::Vector(v, leaves))
            }
            None => Ok(Arg::Scalar(self.expr(a, span)?, ty.trim().to_string())),
        }
    }

    /// The value of `n` when it is a call of helper_math.h's vector functions or a
    /// `make_<vector>` factory; `None` for every other node.
    pub fn vector_call(&self, n: &Node, outer: Span) -> Result<Option<VecCall>, FrontError> {
        if !self.is_vector_call(n) {
            return Ok(None);
        }
        let span = self.span(n, outer);
        let Some((_, name)) = self.builtin_callee(n) else {
            return Ok(None);
        };
        let arg_nodes: Vec<&Node> = n.inner.iter().skip(1).filter(|c| is_expr(c)).collect();
        let result = n.ty().and_then(|t| self.vector(t));
        if let Some(op) = compound(name) {
            return self.compound(op, &arg_nodes, span).map(Some);
        }
        let mut args = vec![];
        for a in &arg_nodes {
            args.push(self.arg(a, span)?);
        }
        let bad = || {
            unsupported(
                span,
                format!("`{name}` on these arguments (helper_math.h's vector functions)"),
            )
        };
        if name.starts_with("make_") {
            let v = result.ok_or_else(bad)?;
            return self
                .make(&v, args, span)
                .map(|l| Some(VecCall::Leaves(v.key.clone(), l)));
        }
        let value = match (name, result) {
            ("dot", _) => VecCall::Scalar(self.dot(args, span).ok_or_else(bad)??),
            ("length", _) => {
                let d = self.dot_self(args, span).ok_or_else(bad)??;
                VecCall::Scalar(call("sqrtf", vec![d], span))
            }
            (_, None) => VecCall::Scalar(self.scalar_fn(name, args, span)?.ok_or_else(bad)?),
            (_, Some(v)) => {
                let leaves = self.vector_fn(name, &v, args, span)?.ok_or_else(bad)?;
                VecCall::Leaves(v.key.clone(), leaves)
            }
        };
        Ok(Some(value))
    }

    /// `make_<vector>(…)`: the arguments' components in order (`make_float4(v3, w)`), one
    /// scalar for every component (`make_float4(0.0f)`), a longer vector's first components
    /// (`make_float3(v4)`), a shorter one's with zeros after; each converted to the
    /// component type.
    fn make(&self, v: &Vector, args: Vec<Arg>, span: Span) -> Result<Vec<Expr>, FrontError> {
        let convert = |e: Expr, from: ScalarType| {
            if from == v.scalar {
                e
            } else {
                super::expr::scalar_cast(v.scalar, e, span)
            }
        };
        if let [Arg::Scalar(..)] = &args[..] {
            if v.n > 1 {
                let Some(Arg::Scalar(e, spelling)) = args.into_iter().next() else {
                    unreachable!()
                };
                let from = types::scalar(&spelling).ok().flatten();
                let e = self.share(e, &spelling, span)?;
                let e = if from == Some(v.scalar) {
                    e
                } else {
                    super::expr::scalar_cast(v.scalar, e, span)
                };
                return Ok(vec![e; v.n]);
            }
        }
        if let [Arg::Vector(w, _)] = &args[..] {
            if w.n != v.n {
                let (w, leaves) = match args.into_iter().next() {
                    Some(Arg::Vector(w, l)) => (w, l),
                    _ => unreachable!(),
                };
                let mut out: Vec<Expr> = leaves
                    .into_iter()
                    .take(v.n)
                    .map(|e| convert(e, w.scalar))
                    .collect();
                while out.len() < v.n {
                    out.push(zero(v.scalar, span));
                }
                return Ok(out);
            }
        }
        let mut out = vec![];
        for a in args {
            match a {
                Arg::Vector(w, leaves) => {
                    out.extend(leaves.into_iter().map(|e| convert(e, w.scalar)))
                }
                Arg::Scalar(e, spelling) => {
                    let from = types::scalar(&spelling).ok().flatten().unwrap_or(v.scalar);
                    out.push(convert(e, from));
                }
            }
        }
        if out.len() != v.n {
            return Err(unsupported(
                span,
                format!(
                    "`make_{}` with {} component(s) for {}",
                    v.key,
                    out.len(),
                    v.n
                ),
            ));
        }
        Ok(out)
    }

    /// The components of `a` for a result of `n` components: a vector's own, a scalar's
    /// value in each (held once).
    fn spread(&self, a: Arg, n: usize, span: Span) -> Result<Vec<Expr>, FrontError> {
        match a {
            Arg::Vector(w, l) if w.n == n => Ok(l),
            Arg::Vector(w, _) => Err(unsupported(
                span,
                format!("a `{}` where {n} components are needed", w.key),
            )),
            Arg::Scalar(e, spelling) => {
                let e = if n > 1 {
                    self.share(e, &spelling, span)?
                } else {
                    e
                };
                Ok(vec![e; n])
            }
        }
    }

    /// `Σ a_k · b_k` of two vectors.
    fn dot(&self, args: Vec<Arg>, span: Span) -> Option<Result<Expr, FrontError>> {
        let mut it = args.into_iter();
        let (Some(Arg::Vector(v, a)), Some(Arg::Vector(_, b)), None) =
            (it.next(), it.next(), it.next())
        else {
            return None;
        };
        if a.len() != b.len() {
            return None;
        }
        let _ = v;
        Some(Ok(sum(
            a.into_iter()
                .zip(b)
                .map(|(x, y)| bin(BinaryOp::Mul, x, y, span)),
            span,
        )))
    }

    /// `dot(v, v)` of the one vector argument, its components held once.
    fn dot_self(&self, args: Vec<Arg>, span: Span) -> Option<Result<Expr, FrontError>> {
        let mut it = args.into_iter();
        let (Some(Arg::Vector(v, a)), None) = (it.next(), it.next()) else {
            return None;
        };
        Some(self.share_all(&v, a, span).map(|a| sum_squares(a, span)))
    }

    /// A helper_math.h function with a vector result, component by component.
    fn vector_fn(
        &self,
        name: &str,
        v: &Vector,
        args: Vec<Arg>,
        span: Span,
    ) -> Result<Option<Vec<Expr>>, FrontError> {
        let n = v.n;
        let is_float = v.scalar.is_float();
        let arith = |op: &str| match op {
            "operator+" => Some(BinaryOp::Add),
            "operator-" => Some(BinaryOp::Sub),
            "operator*" => Some(BinaryOp::Mul),
            "operator/" => Some(BinaryOp::Div),
            _ => None,
        };
        let mut args = args;
        let out = match (name, args.len()) {
            ("operator-", 1) => {
                let a = self.spread(args.remove(0), n, span)?;
                a.into_iter()
                    .map(|x| Expr::new(ExprKind::Unary(UnaryOp::Neg, Box::new(x)), span))
                    .collect()
            }
            (op, 2) if arith(op).is_some() => {
                let op = arith(op).unwrap_or(BinaryOp::Add);
                let b = args.pop().map(|b| self.spread(b, n, span)).transpose()?;
                let a = args.pop().map(|a| self.spread(a, n, span)).transpose()?;
                let (Some(a), Some(b)) = (a, b) else {
                    return Ok(None);
                };
                a.into_iter()
                    .zip(b)
                    .map(|(x, y)| bin(op, x, y, span))
                    .collect()
            }
            ("fminf" | "fmaxf" | "fmodf" | "min" | "max", 2) => {
                let b = self.spread(args.remove(1), n, span)?;
                let a = self.spread(args.remove(0), n, span)?;
                a.into_iter()
                    .zip(b)
                    .map(|(x, y)| call(name, vec![x, y], span))
                    .collect()
            }
            ("floorf" | "fabs" | "abs", 1) => {
                let f = match name {
                    "fabs" => "fabsf",
                    other => other,
                };
                let a = self.spread(args.remove(0), n, span)?;
                a.into_iter().map(|x| call(f, vec![x], span)).collect()
            }
            ("fracf", 1) => {
                let a = self.spread(args.remove(0), n, span)?;
                let a = self.share_all(v, a, span)?;
                a.into_iter().map(|x| fracf(x, span)).collect()
            }
            ("normalize", 1) => {
                let a = self.spread(args.remove(0), n, span)?;
                let a = self.share_all(v, a, span)?;
                let inv = call("rsqrtf", vec![sum_squares(a.clone(), span)], span);
                let inv = self.share(inv, "float", span)?;
                a.into_iter()
                    .map(|x| bin(BinaryOp::Mul, x, inv.clone(), span))
                    .collect()
            }
            ("cross", 2) if n == 3 => {
                let b = self.spread(args.remove(1), n, span)?;
                let a = self.spread(args.remove(0), n, span)?;
                let a = self.share_all(v, a, span)?;
                let b = self.share_all(v, b, span)?;
                let term = |i: usize, j: usize| {
                    bin(
                        BinaryOp::Sub,
                        bin(BinaryOp::Mul, a[i].clone(), b[j].clone(), span),
                        bin(BinaryOp::Mul, a[j].clone(), b[i].clone(), span),
                        span,
                    )
                };
                vec![term(1, 2), term(2, 0), term(0, 1)]
            }
            ("reflect", 2) if n == 3 => {
                // i - 2·n·dot(n, i)
                let nn = self.spread(args.remove(1), n, span)?;
                let i = self.spread(args.remove(0), n, span)?;
                let i = self.share_all(v, i, span)?;
                let nn = self.share_all(v, nn, span)?;
                let d = sum(
                    nn.iter()
                        .zip(&i)
                        .map(|(x, y)| bin(BinaryOp::Mul, x.clone(), y.clone(), span)),
                    span,
                );
                let d = self.share(d, "float", span)?;
                i.into_iter()
                    .zip(nn)
                    .map(|(x, y)| {
                        let two_n = bin(BinaryOp::Mul, float(2.0, span), y, span);
                        bin(
                            BinaryOp::Sub,
                            x,
                            bin(BinaryOp::Mul, two_n, d.clone(), span),
                            span,
                        )
                    })
                    .collect()
            }
            ("lerp", 3) if is_float => {
                let t = self.spread(args.remove(2), n, span)?;
                let b = self.spread(args.remove(1), n, span)?;
                let a = self.spread(args.remove(0), n, span)?;
                let a = self.share_all(v, a, span)?;
                a.into_iter()
                    .zip(b)
                    .zip(t)
                    .map(|((x, y), t)| lerp(x, y, t, span))
                    .collect()
            }
            ("clamp", 3) => {
                let hi = self.spread(args.remove(2), n, span)?;
                let lo = self.spread(args.remove(1), n, span)?;
                let x = self.spread(args.remove(0), n, span)?;
                x.into_iter()
                    .zip(lo)
                    .zip(hi)
                    .map(|((x, lo), hi)| clamp(is_float, x, lo, hi, span))
                    .collect()
            }
            ("smoothstep", 3) if is_float => {
                let x = self.spread(args.remove(2), n, span)?;
                let b = self.spread(args.remove(1), n, span)?;
                let a = self.spread(args.remove(0), n, span)?;
                let a = self.share_all(v, a, span)?;
                let mut out = vec![];
                for ((a, b), x) in a.into_iter().zip(b).zip(x) {
                    out.push(self.smoothstep(a, b, x, span)?);
                }
                out
            }
            _ => return Ok(None),
        };
        Ok(Some(out))
    }

    /// helper_math.h's scalar functions that CUDA lacks (`lerp`, `clamp`, `fracf`,
    /// `smoothstep`).
    fn scalar_fn(
        &self,
        name: &str,
        args: Vec<Arg>,
        span: Span,
    ) -> Result<Option<Expr>, FrontError> {
        let mut vals = vec![];
        let mut spellings = vec![];
        for a in args {
            match a {
                Arg::Scalar(e, s) => {
                    vals.push(e);
                    spellings.push(s);
                }
                Arg::Vector(..) => return Ok(None),
            }
        }
        let float = spellings
            .first()
            .and_then(|s| types::scalar(s).ok().flatten())
            .is_some_and(|t| t.is_float());
        Ok(Some(match (name, &mut vals[..]) {
            ("lerp", [a, b, t]) => {
                let a = self.share(a.clone(), &spellings[0], span)?;
                lerp(a, b.clone(), t.clone(), span)
            }
            ("clamp", [x, lo, hi]) => clamp(float, x.clone(), lo.clone(), hi.clone(), span),
            ("fracf", [x]) => fracf(self.share(x.clone(), "float", span)?, span),
            ("smoothstep", [a, b, x]) => {
                let a = self.share(a.clone(), "float", span)?;
                self.smoothstep(a, b.clone(), x.clone(), span)?
            }
            _ => return Ok(None),
        }))
    }

    /// `y·y·(3 − 2y)` for `y = clamp((x − a)/(b − a), 0, 1)`; `a` is held once already.
    fn smoothstep(&self, a: Expr, b: Expr, x: Expr, span: Span) -> Result<Expr, FrontError> {
        let t = bin(
            BinaryOp::Div,
            bin(BinaryOp::Sub, x, a.clone(), span),
            bin(BinaryOp::Sub, b, a, span),
            span,
        );
        let y = clamp(true, t, float(0.0, span), float(1.0, span), span);
        let y = self.share(y, "float", span)?;
        let three_minus = bin(
            BinaryOp::Sub,
            float(3.0, span),
            bin(BinaryOp::Mul, float(2.0, span), y.clone(), span),
            span,
        );
        Ok(bin(
            BinaryOp::Mul,
            bin(BinaryOp::Mul, y.clone(), y, span),
            three_minus,
            span,
        ))
    }

    /// `v op= w` (a vector or a scalar on the right): the right side's components are read
    /// into fresh locals first (so `v += make_float2(v.y, v.x)` reads the old `v`), then each
    /// component of `v` is updated, as statements before the enclosing statement.
    fn compound(&self, op: BinaryOp, args: &[&Node], span: Span) -> Result<VecCall, FrontError> {
        let [to, from] = args else {
            return Err(unsupported(
                span,
                "a compound assignment without two operands",
            ));
        };
        let v = self
            .vector(to.ty().unwrap_or(""))
            .ok_or_else(|| unsupported(span, "a compound assignment to a non-vector"))?;
        if !self.can_hoist() {
            return Err(unsupported(
                span,
                "a vector compound assignment (`v += w`) where no statement can be placed \
                 (the condition or update of a loop, an arm of `?:`, the right of `&&`/`||`)",
            ));
        }
        let targets = self.record_fields(to, span)?;
        let mut stmts = vec![];
        let mut hold = |e: Expr, spelling: &str| -> Result<Expr, FrontError> {
            if matches!(e.kind, ExprKind::Int(..) | ExprKind::Float(..)) {
                return Ok(e);
            }
            let name = format!("__vm{}", self.fresh());
            stmts.push(self.local_decl(&name, spelling, Some(e), span)?);
            Ok(Expr::new(ExprKind::Ident(name), span))
        };
        let held: Vec<Expr> = match self.arg(from, span)? {
            Arg::Vector(w, l) if w.n == v.n => l
                .into_iter()
                .map(|e| hold(e, &w.spelling))
                .collect::<Result<_, _>>()?,
            Arg::Vector(w, _) => {
                return Err(unsupported(span, format!("`{}` op= `{}`", v.key, w.key)))
            }
            Arg::Scalar(e, s) => vec![hold(e, &s)?; v.n],
        };
        for (t, h) in targets.into_iter().zip(held) {
            let kind = self.leaf_assign(Some(op), t, h, span)?;
            stmts.push(Stmt {
                kind: StmtKind::Expr(Expr::new(kind, span)),
                span,
            });
        }
        self.hoist(stmts, span)?;
        Ok(VecCall::Done)
    }

    /// The value of a vector call as a record place: fresh locals holding its components,
    /// set by statements before the enclosing statement.
    pub fn vector_place(
        &self,
        key: &str,
        leaves: Vec<Expr>,
        span: Span,
    ) -> Result<super::place::Place, FrontError> {
        let base = format!("__tmp{}", self.fresh());
        let (mut decls, place) = self.fresh_record(key, &base, false, span)?;
        for (to, from) in place.scalars(span)?.into_iter().zip(leaves) {
            decls.push(Stmt {
                kind: StmtKind::Expr(Expr::new(
                    ExprKind::Assign(None, Box::new(to), Box::new(from)),
                    span,
                )),
                span,
            });
        }
        self.hoist(decls, span)?;
        Ok(place)
    }

    /// The components of a vector call's value for a record read ([`Unit::record_fields`]):
    /// held in fresh locals where statements can be placed (so an assignment `v =
    /// cross(v, w)` reads every component of the old `v` before it writes one), else the
    /// expressions themselves.
    pub fn vector_leaves(&self, n: &Node, span: Span) -> Result<Option<Vec<Expr>>, FrontError> {
        match self.vector_call(n, span)? {
            Some(VecCall::Leaves(key, leaves)) => {
                if self.can_hoist()
                    && !leaves
                        .iter()
                        .all(|l| matches!(l.kind, ExprKind::Int(..) | ExprKind::Float(..)))
                {
                    Ok(Some(self.vector_place(&key, leaves, span)?.scalars(span)?))
                } else {
                    Ok(Some(leaves))
                }
            }
            Some(_) => Err(unsupported(span, "a vector call with no vector value")),
            None => Ok(None),
        }
    }

    /// `c ? a : b` of records: a fresh record set in `if (c) … else …` before the enclosing
    /// statement (each arm's own statements inside its branch).
    pub fn conditional_place(
        &self,
        n: &Node,
        key: &str,
        span: Span,
    ) -> Result<super::place::Place, FrontError> {
        let parts: Vec<&Node> = n.inner.iter().filter(|c| is_expr(c)).collect();
        let [c, a, b] = parts[..] else {
            return Err(unsupported(span, "malformed `?:`"));
        };
        if !self.can_hoist() {
            return Err(unsupported(
                span,
                "a record chosen by `?:` where no statement can be placed (the condition or \
                 update of a loop, an arm of `?:`, the right of `&&`/`||`)",
            ));
        }
        let cond = self.expr(c, span)?;
        let (ra, mut sa) = self.with_pending(|| self.record_fields(a, span));
        let ra = ra?;
        let (rb, mut sb) = self.with_pending(|| self.record_fields(b, span));
        let rb = rb?;
        let base = format!("__tmp{}", self.fresh());
        let (mut decls, place) = self.fresh_record(key, &base, false, span)?;
        let assign = |to: Expr, from: Expr| Stmt {
            kind: StmtKind::Expr(Expr::new(
                ExprKind::Assign(None, Box::new(to), Box::new(from)),
                span,
            )),
            span,
        };
        let targets = place.scalars(span)?;
        if targets.len() != ra.len() || targets.len() != rb.len() {
            return Err(unsupported(span, "`?:` of records of different shapes"));
        }
        for (t, e) in targets.iter().zip(ra) {
            sa.push(assign(t.clone(), e));
        }
        for (t, e) in targets.iter().zip(rb) {
            sb.push(assign(t.clone(), e));
        }
        let block = |s: Vec<Stmt>| {
            Box::new(Stmt {
                kind: StmtKind::Block(s),
                span,
            })
        };
        decls.push(Stmt {
            kind: StmtKind::If(cond, block(sa), Some(block(sb))),
            span,
        });
        self.hoist(decls, span)?;
        Ok(place)
    }

    /// The components of `c ? a : b` of records: [`Unit::conditional_place`]'s where
    /// statements can be placed, else `c ? a_k : b_k` for each component (a condition free
    /// of effects, arms with no statements of their own).
    pub fn conditional_fields(&self, n: &Node, span: Span) -> Result<Vec<Expr>, FrontError> {
        let key = self
            .record_key_of(n.ty().unwrap_or(""))
            .ok_or_else(|| unsupported(span, "`?:` of a non-record"))?;
        if self.can_hoist() {
            return self.conditional_place(n, &key, span)?.scalars(span);
        }
        let parts: Vec<&Node> = n.inner.iter().filter(|c| is_expr(c)).collect();
        let [c, a, b] = parts[..] else {
            return Err(unsupported(span, "malformed `?:`"));
        };
        let cond = self.expr(c, span)?;
        if !effect_free(&cond) {
            return Err(unsupported(
                span,
                "a record chosen by `?:` on a condition with effects where no statement can be placed",
            ));
        }
        let ra = self.record_fields(a, span)?;
        let rb = self.record_fields(b, span)?;
        Ok(ra
            .into_iter()
            .zip(rb)
            .map(|(x, y)| {
                Expr::new(
                    ExprKind::Cond(Box::new(cond.clone()), Box::new(x), Box::new(y)),
                    span,
                )
            })
            .collect())
    }
}

/// The operator of a compound assignment's name.
fn compound(name: &str) -> Option<BinaryOp> {
    Some(match name {
        "operator+=" => BinaryOp::Add,
        "operator-=" => BinaryOp::Sub,
        "operator*=" => BinaryOp::Mul,
        "operator/=" => BinaryOp::Div,
        _ => return None,
    })
}

fn sum(mut terms: impl Iterator<Item = Expr>, span: Span) -> Expr {
    let first = terms.next().unwrap_or_else(|| float(0.0, span));
    terms.fold(first, |acc, t| bin(BinaryOp::Add, acc, t, span))
}

fn sum_squares(a: Vec<Expr>, span: Span) -> Expr {
    sum(
        a.into_iter()
            .map(|x| bin(BinaryOp::Mul, x.clone(), x, span)),
        span,
    )
}

/// `a + t·(b − a)`.
fn lerp(a: Expr, b: Expr, t: Expr, span: Span) -> Expr {
    let d = bin(BinaryOp::Sub, b, a.clone(), span);
    bin(BinaryOp::Add, a, bin(BinaryOp::Mul, t, d, span), span)
}

/// `fmaxf(lo, fminf(x, hi))` (`max`/`min` for integers).
fn clamp(float: bool, x: Expr, lo: Expr, hi: Expr, span: Span) -> Expr {
    let (mn, mx) = if float {
        ("fminf", "fmaxf")
    } else {
        ("min", "max")
    };
    call(mx, vec![lo, call(mn, vec![x, hi], span)], span)
}

/// `x − floorf(x)`.
fn fracf(x: Expr, span: Span) -> Expr {
    bin(
        BinaryOp::Sub,
        x.clone(),
        call("floorf", vec![x], span),
        span,
    )
}
