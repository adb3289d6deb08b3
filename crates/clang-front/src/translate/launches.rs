//! Launches in host code: each `kernel<<<grid, block, shmem>>>(…)` of the file, with the
//! dimensions it uses when they are constants (`256`, `dim3(16, 16)`, a local
//! `dim3 block(16, 16)`, `(N + 255) / 256` over constants). A kernel launched from exactly one
//! shape gets that shape when the header and flags give none, and the report says where it
//! came from.

use super::expr::strip_implicit;
use super::{Callee, Unit};
use crate::headers;
use crate::node::Node;
use std::collections::HashMap;
use warpsafe_ir::Span;

/// One launch site.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The kernel's unique name.
    pub kernel: String,
    /// `gridDim`, when constant.
    pub grid: Option<[u32; 3]>,
    /// `blockDim`, when constant.
    pub block: Option<[u32; 3]>,
    /// Where the launch is written.
    pub span: Span,
}

impl Unit<'_> {
    /// Every launch written in the file's host code.
    pub fn launches(&self, root: &Node) -> Vec<Launch> {
        let mut out = vec![];
        let mut vars = HashMap::new();
        self.find_launches(root, &mut vars, &mut out);
        out
    }

    fn find_launches<'n>(
        &self,
        n: &'n Node,
        vars: &mut HashMap<String, &'n Node>,
        out: &mut Vec<Launch>,
    ) {
        if headers::is_ours(&n.file) && n.kind != "TranslationUnitDecl" {
            return;
        }
        if n.kind == "VarDecl" {
            if let Some(init) = n.inner.first() {
                vars.insert(n.id().to_string(), init);
            }
        }
        if n.kind == "CUDAKernelCallExpr" {
            if let Some(l) = self.launch(n, vars) {
                out.push(l);
            }
        }
        for c in &n.inner {
            self.find_launches(c, vars, out);
        }
    }

    fn launch(&self, n: &Node, vars: &HashMap<String, &Node>) -> Option<Launch> {
        let callee = strip_implicit(n.inner.first()?);
        let (id, _, _) = callee.referenced()?;
        let Some(Callee::User(kernel, _)) = self.callee.get(id) else {
            return None;
        };
        let config = n.inner.get(1)?;
        let arg = |i: usize| config.inner.get(i + 1);
        Some(Launch {
            kernel: kernel.clone(),
            grid: arg(0).and_then(|g| dim3(g, vars, 0)),
            block: arg(1).and_then(|b| dim3(b, vars, 0)),
            span: self.span(n, Span::DUMMY),
        })
    }
}

/// A constant `dim3` value.
fn dim3(n: &Node, vars: &HashMap<String, &Node>, depth: u32) -> Option<[u32; 3]> {
    if depth > 16 {
        return None;
    }
    match n.kind.as_str() {
        "ImplicitCastExpr"
        | "MaterializeTemporaryExpr"
        | "ExprWithCleanups"
        | "ParenExpr"
        | "CXXBindTemporaryExpr"
        | "CXXFunctionalCastExpr" => dim3(n.inner.first()?, vars, depth + 1),
        "CXXConstructExpr" | "CXXTemporaryObjectExpr" => match &n.inner[..] {
            [one] if one.ty().is_some_and(|t| t.contains("dim3")) => dim3(one, vars, depth + 1),
            args if !args.is_empty() && args.len() <= 3 => {
                let mut d = [1u32; 3];
                for (i, a) in args.iter().enumerate() {
                    if a.kind != "CXXDefaultArgExpr" {
                        d[i] = u32::try_from(int(a, vars, depth + 1)?).ok()?;
                    }
                }
                Some(d)
            }
            _ => None,
        },
        "DeclRefExpr" => {
            let (id, _, _) = n.referenced()?;
            dim3(vars.get(id)?, vars, depth + 1)
        }
        _ => {
            let x = u32::try_from(int(n, vars, depth + 1)?).ok()?;
            Some([x, 1, 1])
        }
    }
}

/// A constant integer expression.
fn int(n: &Node, vars: &HashMap<String, &Node>, depth: u32) -> Option<i128> {
    if depth > 32 {
        return None;
    }
    match n.kind.as_str() {
        "IntegerLiteral" | "ConstantExpr" if n.str("value").is_some() => {
            n.str("value")?.parse().ok()
        }
        "ImplicitCastExpr"
        | "ParenExpr"
        | "CStyleCastExpr"
        | "CXXStaticCastExpr"
        | "CXXFunctionalCastExpr"
        | "ConstantExpr"
        | "SubstNonTypeTemplateParmExpr" => int(
            n.inner.iter().rev().find(|c| !c.kind.ends_with("Decl"))?,
            vars,
            depth + 1,
        ),
        "BinaryOperator" => {
            let a = int(n.inner.first()?, vars, depth + 1)?;
            let b = int(n.inner.get(1)?, vars, depth + 1)?;
            match n.str("opcode")? {
                "+" => a.checked_add(b),
                "-" => a.checked_sub(b),
                "*" => a.checked_mul(b),
                "/" => a.checked_div(b),
                "%" => a.checked_rem(b),
                "<<" => u32::try_from(b).ok().and_then(|b| a.checked_shl(b)),
                ">>" => u32::try_from(b).ok().and_then(|b| a.checked_shr(b)),
                _ => None,
            }
        }
        "DeclRefExpr" => {
            let (id, kind, _) = n.referenced()?;
            if kind != "VarDecl" {
                return None;
            }
            // Only variables that are never assigned after their initialisation count:
            // clang marks `const` ones in the type.
            let ty = n.ty()?;
            if !ty.starts_with("const ") {
                return None;
            }
            int(vars.get(id)?, vars, depth + 1)
        }
        _ => None,
    }
}
