//! Device `printf` and string literals given to functions without a body.
//!
//! `printf` prints; it changes no memory a kernel can read, so its meaning for every engine
//! is the reads of its arguments (which may race or be out of bounds) and a return value
//! nothing is known about (the characters written, or a negative error). The output itself
//! is not checked: the translation leaves a note saying so. A `%s` argument that is not a
//! literal is a read of a string in memory whose extent is the first zero byte, which we do
//! not model: such a call is rejected. Other pointer arguments (`%p`) print an address and
//! read nothing.
//!
//! The reads of such a call's arguments (and of a call of a function declared without a
//! body) must reach the engines although no value uses them: each is the initialiser of a
//! fresh local placed before the statement holding the call. Where nothing may be placed
//! (the right of `&&`, `||`, `?:`) the call is rejected rather than its reads dropped.

use super::expr::strip_implicit;
use super::Unit;
use crate::node::Node;
use warpsafe_cuda_front::ast::{
    Decl, Declarator, Expr, ExprKind, Init, Stmt, StmtKind, Storage, Type,
};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

/// The device functions that only print.
pub(super) fn is_print(name: &str) -> bool {
    matches!(name, "printf" | "vprintf")
}

/// True for a string literal, seen through the array-to-pointer decay.
pub(super) fn is_string_literal(a: &Node) -> bool {
    strip_implicit(a).kind == "StringLiteral"
}

/// `%s` in a format's text (`%%` is a literal percent sign).
fn formats_a_string(format: &str) -> bool {
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        for d in chars.by_ref() {
            match d {
                '%' => break,
                's' => return true,
                c if c.is_ascii_alphabetic() && !matches!(c, 'l' | 'h' | 'z' | 'j' | 't' | 'L') => {
                    break
                }
                _ => {}
            }
        }
    }
    false
}

/// A value of `ty` nothing is known about (GPUVerify's `nondet()`).
pub(super) fn arbitrary(ty: ScalarType, span: Span) -> Expr {
    let callee = format!("__warpsafe_arbitrary_{}", ty.name());
    Expr::new(ExprKind::Call(callee, span, vec![]), span)
}

/// `ty name = init;`.
fn local(name: String, ty: ScalarType, init: Expr, span: Span) -> Stmt {
    let decl = Decl {
        storage: Storage::default(),
        base: Type {
            base: Some(ty),
            ptr: false,
            konst: false,
            volatile: false,
            span,
        },
        declarators: vec![Declarator {
            name,
            name_span: span,
            ptr: false,
            dims: vec![],
            init: Some(Init::Expr(init)),
            span,
        }],
    };
    Stmt {
        kind: StmtKind::Decl(decl),
        span,
    }
}

impl Unit<'_> {
    /// Places each of `reads` (a value and its type) before the statement being translated,
    /// as a fresh local's initialiser, so that the read happens although nothing uses it;
    /// `callee` names the call in the rejection where nothing may be placed.
    pub(super) fn keep_reads(
        &self,
        callee: &str,
        reads: Vec<(Expr, ScalarType)>,
        span: Span,
    ) -> Result<(), FrontError> {
        if reads.is_empty() {
            return Ok(());
        }
        if !self.can_hoist() {
            return Err(super::expr::unsupported(
                span,
                format!(
                    "a call of `{callee}` whose arguments read memory where their reads cannot \
                     be placed first (the right of `&&`, `||` or `?:`): write it as a statement"
                ),
            ));
        }
        let stmts = reads
            .into_iter()
            .map(|(e, ty)| local(format!("__read{}", self.fresh()), ty, e, span))
            .collect();
        self.hoist(stmts, span)
    }

    /// The call `n` of `printf`/`vprintf`: its arguments' reads, then an arbitrary `int`.
    pub(super) fn print_call(
        &self,
        name: &str,
        n: &Node,
        span: Span,
    ) -> Result<ExprKind, FrontError> {
        let args: Vec<&Node> = n.inner.iter().skip(1).collect();
        let format = args
            .first()
            .map(|a| strip_implicit(a))
            .filter(|f| f.kind == "StringLiteral")
            .and_then(|f| f.str("value"));
        let mut reads = vec![];
        for a in &args {
            if is_string_literal(a) {
                continue;
            }
            if a.ty().is_some_and(|t| t.contains('*') || t.contains('[')) {
                if format.is_none_or(formats_a_string) {
                    return Err(super::expr::unsupported(
                        self.span(a, span),
                        format!(
                            "`{name}` of a string in memory (`%s` or a format that is not a \
                             literal): the bytes it reads up to the first zero are not modelled"
                        ),
                    ));
                }
                continue;
            }
            let ty = super::expr::scalar_of(a, span)?;
            reads.push((self.expr(a, span)?, ty));
        }
        self.note(
            span,
            format!("`{name}`: its arguments are checked as reads, its output is not"),
        );
        self.keep_reads(name, reads, span)?;
        Ok(arbitrary(ScalarType::I32, span).kind)
    }
}

#[cfg(test)]
mod tests {
    use super::formats_a_string;

    #[test]
    fn string_conversions_are_told_from_others() {
        assert!(formats_a_string("\"name %s\\n\""));
        assert!(formats_a_string("%-10s"));
        assert!(formats_a_string("%ls"));
        assert!(!formats_a_string("%d %f %p"));
        assert!(!formats_a_string("100%% %d"));
        assert!(!formats_a_string("%lld %zu"));
    }
}
