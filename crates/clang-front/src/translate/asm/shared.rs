//! Whether a pointer operand may point into shared memory, read from clang's AST: it names a
//! `__shared__` variable, or a local pointer whose initialiser does (followed a few steps).
//! A `.global` access through such a pointer faults on hardware, so it is rejected rather
//! than read as an element access. Pointers that reach the `asm` through a helper's parameter
//! or a later assignment are not traced (docs/cuda-cpp.md says so).

use crate::node::Node;

/// How many local-pointer initialisers are followed.
const DEPTH: u32 = 6;

/// True when `operand` (a clang expression) refers, directly or through local pointers'
/// initialisers, to a `__shared__` variable declared in one of `functions`.
pub fn may_point_to_shared(operand: &Node, functions: &[&Node]) -> bool {
    refers(operand, functions, DEPTH)
}

fn refers(n: &Node, functions: &[&Node], depth: u32) -> bool {
    if n.kind == "DeclRefExpr" {
        if let Some((id, "VarDecl", _)) = n.referenced() {
            if let Some(v) = functions.iter().find_map(|f| find_var(f, id)) {
                if v.inner.iter().any(|c| c.kind == "CUDASharedAttr") {
                    return true;
                }
                let pointer = v.ty().is_some_and(|t| t.contains('*'));
                if pointer && depth > 0 {
                    return v.inner.iter().any(|c| {
                        super::super::expr::is_expr(c) && refers(c, functions, depth - 1)
                    });
                }
            }
        }
    }
    n.inner.iter().any(|c| refers(c, functions, depth))
}

fn find_var<'a>(n: &'a Node, id: &str) -> Option<&'a Node> {
    if n.kind == "VarDecl" && n.id() == id {
        return Some(n);
    }
    n.inner.iter().find_map(|c| find_var(c, id))
}
