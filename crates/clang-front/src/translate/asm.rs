//! Inline PTX: an `asm("…" : outputs : inputs : clobbers)` statement read through our PTX
//! parser and written as subset statements.
//!
//! clang's JSON dump gives a `GCCAsmStmt` only its operand expressions, so the template and
//! the constraints are read from the statement's source text ([`text`]). Each operand gets a
//! C local of its constraint's register type (`h` 16 bits, `r` 32, `l` 64 or an address, `f`
//! `float`, `d` `double`, `n` a literal written into the template, a digit the output of that
//! number); `%0`… are replaced by the registers' names ([`subst`]); the template is parsed
//! as a PTX statement list (`warpsafe_ptx::parse_statements`) and each instruction is
//! written with PTX's exact semantics ([`instr`] and the modules it dispatches to); outputs
//! are then stored back to their C lvalues. Whatever the translation does not model is
//! rejected naming the PTX instruction and the statement's span; an empty template (the
//! compiler barrier `asm volatile("" ::: "memory")`) is nothing.

mod arith;
mod bits;
mod build;
mod compare;
mod instr;
mod memory;
mod regs;
mod shared;
mod special;
mod subst;
mod text;
mod warp;

use super::expr::is_expr;
use super::{types, Unit};
use crate::node::Node;
use build::B;
use regs::{Reg, Tr};
use warpsafe_cuda_front::ast::{Expr, ExprKind, Stmt, StmtKind, UnaryOp};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

/// The advice every rejection ends with.
const USE_PTX: &str = "(use `--via-ptx`)";

fn reject(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: inline PTX: {what} {USE_PTX}"))
}

/// The rejection of one PTX instruction (or one use of it).
fn reject_instr(span: Span, r: instr::Reject) -> FrontError {
    match r.why {
        None => FrontError::new(
            span,
            format!("unsupported: inline PTX `{}` {USE_PTX}", r.instr),
        ),
        Some(why) => FrontError::new(
            span,
            format!("unsupported: inline PTX `{}`: {why} {USE_PTX}", r.instr),
        ),
    }
}

impl Unit<'_> {
    /// The subset statement for the `asm` statement `n`.
    pub(super) fn asm_stmt(&self, n: &Node, outer: Span) -> Result<Stmt, FrontError> {
        let Some(span) = n.span.filter(|s| (s.hi as usize) <= self.source.len()) else {
            return Err(reject(
                outer,
                "an `asm` statement written outside the main file",
            ));
        };
        let src = self
            .source
            .get(span.lo as usize..span.hi as usize)
            .ok_or_else(|| reject(span, "an `asm` statement whose text cannot be read"))?;
        let asm = text::read(src).map_err(|e| reject(span, e))?;
        let operands: Vec<&Node> = n.inner.iter().filter(|c| is_expr(c)).collect();
        if operands.len() != asm.outputs.len() + asm.inputs.len() {
            return Err(reject(
                span,
                format!(
                    "{} operands written but clang read {} (a macro in the operand list?)",
                    asm.outputs.len() + asm.inputs.len(),
                    operands.len()
                ),
            ));
        }
        let functions: Vec<&Node> = self.functions.iter().map(|f| f.node).collect();
        let b = B { span };
        let mut tr = Tr::new(b, format!("__asm{}_", self.fresh()));
        let mut setup = vec![];
        let mut writeback = vec![];
        let mut bound: Vec<String> = vec![];
        let mut names = vec![];
        for (k, (c, node)) in asm.outputs.iter().zip(&operands).enumerate() {
            if let Some(name) = &c.name {
                names.push((name.clone(), k));
            }
            let lvalue = self.expr(node, span)?;
            if has_effects(&lvalue) {
                // It is evaluated again to store the result (and first, for `+`).
                return Err(reject(
                    span,
                    format!("output {k} is an lvalue with side effects (use a local)"),
                ));
            }
            let cty = self.operand_type(node, span)?;
            let ty = reg_type(c.letter(), cty)
                .ok_or_else(|| reject(span, format!("the output constraint \"{}\"", c.text)))?;
            check_class(cty, ty, span, &c.text)?;
            let local = tr.local(&format!("op{k}"));
            let init = c.read_write().then(|| b.cast(ty, lvalue.clone()));
            setup.push(b.decl(b.ty(ty), false, &local, init));
            tr.bind(
                &format!("%__op{k}"),
                Reg::Val {
                    local: local.clone(),
                    ty,
                    konst: None,
                },
            );
            bound.push(format!("%__op{k}"));
            writeback.push(b.assign(lvalue, b.cast(cty, b.id(&local))));
        }
        for (j, (c, node)) in asm
            .inputs
            .iter()
            .zip(&operands[asm.outputs.len()..])
            .enumerate()
        {
            let k = asm.outputs.len() + j;
            if let Some(name) = &c.name {
                names.push((name.clone(), k));
            }
            let letter = c.letter();
            if let Ok(m) = letter.parse::<usize>() {
                // Tied to output `m`: the input is that register's first value.
                let Some(Reg::Val { local, ty, .. }) =
                    bound.get(m).and_then(|r| tr.lookup(r)).cloned()
                else {
                    return Err(reject(
                        span,
                        format!("the matching constraint \"{letter}\""),
                    ));
                };
                let v = self.expr(node, span)?;
                setup.push(b.assign(b.id(&local), b.cast(ty, v)));
                bound.push(bound[m].clone());
                continue;
            }
            let value = self.expr(node, span)?;
            if matches!(letter, "n" | "i") {
                let v = literal(&value).ok_or_else(|| {
                    reject(span, format!("the immediate operand {k} is not a literal"))
                })?;
                bound.push(v.to_string());
                continue;
            }
            let ty_spelling = super::expr::strip_implicit(node)
                .ty()
                .or(node.ty())
                .unwrap_or("int")
                .to_string();
            let cty = types::scalar_or_pointer(&ty_spelling, span)
                .map_err(|e| reject(span, format!("operand {k} of type {e}")))?;
            let reg = format!("%__op{k}");
            if cty.ptr {
                if letter != "l" {
                    return Err(reject(span, format!("a pointer bound to \"{}\"", c.text)));
                }
                let elem = cty
                    .base
                    .ok_or_else(|| reject(span, format!("operand {k}: a `void*` address")))?;
                let local = tr.local(&format!("op{k}"));
                let mut base = cty;
                base.ptr = false;
                setup.push(b.decl(base, true, &local, Some(value)));
                tr.bind(
                    &reg,
                    Reg::Ptr {
                        local,
                        elem,
                        offset: 0,
                        shared: shared::may_point_to_shared(node, &functions),
                    },
                );
                bound.push(reg);
                continue;
            }
            let cty = cty
                .base
                .ok_or_else(|| reject(span, format!("operand {k} has no value")))?;
            let ty = reg_type(letter, cty)
                .ok_or_else(|| reject(span, format!("the input constraint \"{}\"", c.text)))?;
            check_class(cty, ty, span, &c.text)?;
            let konst = literal(&value);
            let local = tr.local(&format!("op{k}"));
            setup.push(b.decl(b.ty(ty), false, &local, Some(b.cast(ty, value))));
            tr.bind(&reg, Reg::Val { local, ty, konst });
            bound.push(reg);
        }
        let ptx = if asm.extended {
            subst::substitute(&asm.template, &bound, &names).map_err(|e| reject(span, e))?
        } else {
            asm.template.clone()
        };
        let items = warpsafe_ptx::parse_statements(&ptx).map_err(|e| parse_reject(span, e))?;
        let mut body = vec![];
        instr::items(&mut tr, &items, &mut body).map_err(|r| reject_instr(span, r))?;
        let mut all = setup;
        all.append(&mut tr.hoisted);
        all.extend(body);
        all.extend(writeback);
        if all.is_empty() {
            return Ok(b.stmt(StmtKind::Empty));
        }
        Ok(b.stmt(StmtKind::Block(all)))
    }

    /// The scalar C type of an operand expression.
    fn operand_type(&self, node: &Node, span: Span) -> Result<ScalarType, FrontError> {
        let spelling = node.ty().unwrap_or("int");
        let t = types::scalar_or_pointer(spelling, span)
            .map_err(|e| reject(span, format!("an operand of type {e}")))?;
        match t.base {
            Some(s) if !t.ptr => Ok(s),
            _ => Err(reject(
                span,
                format!("an output of type `{spelling}` (a scalar is needed)"),
            )),
        }
    }
}

/// A parse error: an instruction our PTX parser does not know is named as the rejected
/// instruction; anything else is a template that does not parse.
fn parse_reject(span: Span, e: warpsafe_ptx::ParseError) -> FrontError {
    if let Some(full) = e
        .message
        .split_once("(in `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(full, _)| full.to_string())
    {
        return reject_instr(
            span,
            instr::Reject {
                instr: full,
                why: None,
            },
        );
    }
    reject(
        span,
        format!(
            "the template does not parse as PTX (line {}: {})",
            e.line, e.message
        ),
    )
}

/// The register type of a constraint letter, given the C operand's type.
fn reg_type(letter: &str, c: ScalarType) -> Option<ScalarType> {
    Some(match letter {
        "h" if c == ScalarType::F16 => ScalarType::F16,
        "h" => ScalarType::U16,
        "r" => ScalarType::U32,
        "l" => ScalarType::U64,
        "f" => ScalarType::F32,
        "d" => ScalarType::F64,
        _ => return None,
    })
}

/// A float operand in an integer register (or back) would need its bits reinterpreted.
fn check_class(c: ScalarType, r: ScalarType, span: Span, k: &str) -> Result<(), FrontError> {
    if c.is_float() != r.is_float() {
        return Err(reject(
            span,
            format!("a {c} operand bound to \"{k}\" (its bits would be reinterpreted)"),
        ));
    }
    Ok(())
}

/// The value of a constant integer expression of literals (`7`, `-1`, `(unsigned)3`,
/// `((32 - 16) << 8) | 0x1f`). Arithmetic is folded only while every intermediate value lies
/// in `0..2^31`, where every C integer type agrees on it; `-v` is folded in `v`'s type.
fn literal(e: &Expr) -> Option<i128> {
    use warpsafe_cuda_front::ast::BinaryOp::*;
    let int_range = |v: i128| (0..1 << 31).contains(&v).then_some(v);
    match &e.kind {
        ExprKind::Int(v, _) => Some(i128::from(*v)),
        ExprKind::Unary(UnaryOp::Neg, inner) => match inner.kind {
            ExprKind::Int(v, t) if t.is_signed() => Some(-i128::from(v)),
            ExprKind::Int(v, t) => Some((1i128 << t.bits()) - i128::from(v)),
            _ => None,
        },
        ExprKind::Cast(t, inner) => {
            let v = literal(inner)?;
            match t.base {
                _ if int_range(v).is_some() => Some(v),
                Some(u) if u.is_int() && !u.is_signed() && !t.ptr => {
                    Some(v.rem_euclid(1i128 << u.bits()))
                }
                _ => None,
            }
        }
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (int_range(literal(a)?)?, int_range(literal(b)?)?);
            int_range(match op {
                Add => a + b,
                Sub => a - b,
                Mul => a * b,
                Shl if b < 31 => a << b,
                Shr if b < 31 => a >> b,
                BitOr => a | b,
                BitAnd => a & b,
                BitXor => a ^ b,
                _ => return None,
            })
        }
        _ => None,
    }
}

/// True when evaluating `e` changes something (`a[i++]`, `x = y`, a call).
fn has_effects(e: &Expr) -> bool {
    let mut found = false;
    warpsafe_cuda_front::ast::visit_subexprs(e, &mut |e| {
        found |= matches!(
            e.kind,
            ExprKind::IncDec { .. }
                | ExprKind::Assign(..)
                | ExprKind::Call(..)
                | ExprKind::Comma(..)
        );
    });
    found
}
