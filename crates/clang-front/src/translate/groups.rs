//! Cooperative groups: handles of the grid, of the thread block and of its static tiles are
//! values fixed by their type, so a member call becomes the builtin it stands for
//! (`block.sync()` is `__syncthreads()`, `grid.sync()` the grid barrier, `tile.shfl_down(v, 1)`
//! a width-`N` shuffle among the tile's lanes).

use super::expr::strip_implicit;
use super::Unit;
use crate::node::Node;
use warpsafe_cuda_front::ast::{BinaryOp, Expr, ExprKind};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

/// The group a handle's type names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// `thread_block`.
    Block,
    /// `thread_block_tile<N>` with `N` a power of two up to 32.
    Tile(u32),
    /// `grid_group`: every thread of the launch.
    Grid,
}

/// The group of a desugared type (`cooperative_groups::thread_block_tile<32>`), `Ok(None)`
/// when it is not a cooperative-groups type, an error for one we do not model.
pub fn group_of(ty: &str) -> Result<Option<Group>, String> {
    let ty = ty
        .trim_start_matches("const ")
        .trim_end_matches(" &")
        .trim();
    let Some(name) = ty.strip_prefix("cooperative_groups::") else {
        return Ok(None);
    };
    let name = name.trim_start_matches("__v1::");
    if name == "thread_block" {
        return Ok(Some(Group::Block));
    }
    if name == "grid_group" {
        return Ok(Some(Group::Grid));
    }
    if let Some(n) = name
        .strip_prefix("thread_block_tile<")
        .and_then(|r| r.split([',', '>']).next())
    {
        let n: u32 = n
            .trim()
            .trim_end_matches(['U', 'u'])
            .parse()
            .map_err(|_| format!("cooperative group `{ty}`"))?;
        if n.is_power_of_two() && n <= 32 {
            return Ok(Some(Group::Tile(n)));
        }
    }
    Err(format!(
        "cooperative group `{ty}` (only `grid_group`, `thread_block` and `thread_block_tile<N>` are modelled)"
    ))
}

fn e(kind: ExprKind, span: Span) -> Expr {
    Expr::new(kind, span)
}

fn int(v: u64, span: Span) -> Expr {
    e(ExprKind::Int(v, ScalarType::U32), span)
}

fn bin(op: BinaryOp, a: Expr, b: Expr, span: Span) -> Expr {
    e(ExprKind::Binary(op, Box::new(a), Box::new(b)), span)
}

fn builtin(var: &str, field: &str, span: Span) -> Expr {
    e(
        ExprKind::Member(Box::new(e(ExprKind::Ident(var.into()), span)), field.into()),
        span,
    )
}

/// `threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)`, CUDA's
/// `thread_block::thread_rank()`.
fn block_rank(span: Span) -> Expr {
    let yz = bin(
        BinaryOp::Add,
        builtin("threadIdx", "y", span),
        bin(
            BinaryOp::Mul,
            builtin("blockDim", "y", span),
            builtin("threadIdx", "z", span),
            span,
        ),
        span,
    );
    bin(
        BinaryOp::Add,
        builtin("threadIdx", "x", span),
        bin(BinaryOp::Mul, builtin("blockDim", "x", span), yz, span),
        span,
    )
}

fn block_size(span: Span) -> Expr {
    bin(
        BinaryOp::Mul,
        bin(
            BinaryOp::Mul,
            builtin("blockDim", "x", span),
            builtin("blockDim", "y", span),
            span,
        ),
        builtin("blockDim", "z", span),
        span,
    )
}

/// The lanes of the calling thread's tile of `n` threads, as a warp mask.
fn tile_mask(n: u32, span: Span) -> Expr {
    if n == 32 {
        return int(0xffff_ffff, span);
    }
    let lane = bin(BinaryOp::Rem, block_rank(span), int(32, span), span);
    let first = bin(
        BinaryOp::Mul,
        bin(BinaryOp::Div, lane, int(u64::from(n), span), span),
        int(u64::from(n), span),
        span,
    );
    bin(BinaryOp::Shl, int((1u64 << n) - 1, span), first, span)
}

fn call(name: &str, args: Vec<Expr>, span: Span) -> Expr {
    e(ExprKind::Call(name.into(), span, args), span)
}

/// The grid barrier, as the subset lowering spells it.
const GRID_SYNC: &str = "__warpsafe_grid_sync";

/// `(unsigned long long)e`: grid ranks and sizes are 64-bit (CUDA 11 and later).
fn wide(x: Expr, span: Span) -> Expr {
    super::expr::scalar_cast(ScalarType::U64, x, span)
}

/// `a + d * b` for the 64-bit mixed-radix ranks.
fn rank_step(a: Expr, d: Expr, b: Expr, span: Span) -> Expr {
    bin(BinaryOp::Add, a, bin(BinaryOp::Mul, d, b, span), span)
}

/// `grid_group::block_rank()`: the linear rank of the calling block in the grid, 64-bit.
fn grid_block_rank(span: Span) -> Expr {
    let w = |var: &str, f: &str| wide(builtin(var, f, span), span);
    rank_step(
        w("blockIdx", "x"),
        w("gridDim", "x"),
        rank_step(
            w("blockIdx", "y"),
            w("gridDim", "y"),
            w("blockIdx", "z"),
            span,
        ),
        span,
    )
}

/// `grid_group::num_blocks()`, 64-bit.
fn grid_blocks(span: Span) -> Expr {
    let w = |f: &str| wide(builtin("gridDim", f, span), span);
    bin(
        BinaryOp::Mul,
        bin(BinaryOp::Mul, w("x"), w("y"), span),
        w("z"),
        span,
    )
}

impl Unit<'_> {
    /// `block.group_index().x` and its kin: the launch builtin's field. `None` when `n` is
    /// not a member of such a call.
    pub(super) fn group_member(
        &self,
        n: &Node,
        field: &str,
        span: Span,
    ) -> Result<Option<Expr>, FrontError> {
        let Some(mut call) = n.inner.first() else {
            return Ok(None);
        };
        while matches!(
            call.kind.as_str(),
            "MaterializeTemporaryExpr" | "ImplicitCastExpr" | "ParenExpr" | "CXXBindTemporaryExpr"
        ) {
            match call.inner.first() {
                Some(c) => call = c,
                None => return Ok(None),
            }
        }
        if call.kind != "CXXMemberCallExpr" {
            return Ok(None);
        }
        let Some(member) = call.inner.first().filter(|m| m.kind == "MemberExpr") else {
            return Ok(None);
        };
        let Some(base) = member.inner.first().map(strip_implicit) else {
            return Ok(None);
        };
        let group = match group_of(base.ty().unwrap_or("")) {
            Ok(Some(g @ (Group::Block | Group::Grid))) => g,
            _ => return Ok(None),
        };
        let var = match (group, member.name().unwrap_or("")) {
            (Group::Block, "group_index") => "blockIdx",
            (Group::Block, "thread_index") => "threadIdx",
            (Group::Block, "group_dim" | "dim_threads") => "blockDim",
            (Group::Grid, "block_index") => "blockIdx",
            (Group::Grid, "group_dim" | "dim_blocks") => "gridDim",
            (_, other) => {
                let of = if group == Group::Grid {
                    "the grid"
                } else {
                    "a thread block"
                };
                return Err(FrontError::new(
                    span,
                    format!("unsupported: `{other}().{field}` of {of}"),
                ));
            }
        };
        if !matches!(field, "x" | "y" | "z") {
            return Err(FrontError::new(
                span,
                format!("unsupported: field `{field}`"),
            ));
        }
        Ok(Some(builtin(var, field, span)))
    }

    /// `cg::sync(g)` (`synchronize(g)` in GPUVerify's spelling): the group's barrier. `None`
    /// for other calls.
    pub(super) fn group_free_call(
        &self,
        name: &str,
        n: &Node,
        span: Span,
    ) -> Option<Result<ExprKind, FrontError>> {
        if !matches!(name, "sync" | "synchronize") || n.inner.len() != 2 {
            return None;
        }
        let group = group_of(strip_implicit(&n.inner[1]).ty().unwrap_or("")).ok()??;
        Some(Ok(match group {
            Group::Grid => ExprKind::Call(GRID_SYNC.into(), span, vec![]),
            Group::Block => ExprKind::Call("__syncthreads".into(), span, vec![]),
            Group::Tile(32) => ExprKind::Call("__syncwarp".into(), span, vec![]),
            Group::Tile(t) => ExprKind::Call("__syncwarp".into(), span, vec![tile_mask(t, span)]),
        }))
    }

    /// A member call on a cooperative-groups handle (`block.sync()`, `tile.shfl_down(v, d)`).
    pub(super) fn group_call(&self, n: &Node, span: Span) -> Result<Expr, FrontError> {
        let unsupported = |what: String| FrontError::new(span, format!("unsupported: {what}"));
        let member = n
            .inner
            .first()
            .map(strip_implicit)
            .filter(|m| m.kind == "MemberExpr")
            .ok_or_else(|| unsupported("member function call".into()))?;
        let method = member.name().unwrap_or("");
        let base = member
            .inner
            .first()
            .map(strip_implicit)
            .ok_or_else(|| unsupported("member function call".into()))?;
        let group = group_of(base.ty().unwrap_or(""))
            .map_err(unsupported)?
            .ok_or_else(|| {
                unsupported(format!(
                    "member function call `.{method}()` (C++ classes other than cooperative groups)"
                ))
            })?;
        let args = n
            .inner
            .iter()
            .skip(1)
            .map(|a| self.expr(a, span))
            .collect::<Result<Vec<_>, _>>()?;
        let at = |what: &str| unsupported(format!("`{what}` of a cooperative group"));
        Ok(match (group, method) {
            (Group::Block, "sync") => call("__syncthreads", vec![], span),
            (Group::Block, "thread_rank") => block_rank(span),
            (Group::Block, "size" | "num_threads") => block_size(span),
            (Group::Grid, "sync") => call(GRID_SYNC, vec![], span),
            (Group::Grid, "thread_rank") => rank_step(
                wide(block_rank(span), span),
                grid_block_rank(span),
                wide(block_size(span), span),
                span,
            ),
            (Group::Grid, "size" | "num_threads") => bin(
                BinaryOp::Mul,
                grid_blocks(span),
                wide(block_size(span), span),
                span,
            ),
            (Group::Grid, "block_rank") => grid_block_rank(span),
            (Group::Grid, "num_blocks") => grid_blocks(span),
            // Every launch we run or check is one in which the grid is valid: the interpreter
            // and the GPU runner launch kernels with a grid barrier cooperatively.
            (Group::Grid, "is_valid") => e(ExprKind::Bool(true), span),
            (Group::Tile(32), "sync") => call("__syncwarp", vec![], span),
            (Group::Tile(t), "sync") => call("__syncwarp", vec![tile_mask(t, span)], span),
            (Group::Tile(t), "thread_rank") => bin(
                BinaryOp::Rem,
                block_rank(span),
                int(u64::from(t), span),
                span,
            ),
            (Group::Tile(t), "size" | "num_threads") => int(u64::from(t), span),
            (Group::Tile(t), "meta_group_size") => bin(
                BinaryOp::Div,
                bin(
                    BinaryOp::Add,
                    block_size(span),
                    int(u64::from(t) - 1, span),
                    span,
                ),
                int(u64::from(t), span),
                span,
            ),
            (Group::Tile(t), "meta_group_rank") => bin(
                BinaryOp::Div,
                block_rank(span),
                int(u64::from(t), span),
                span,
            ),
            (Group::Tile(t), "shfl" | "shfl_down" | "shfl_up" | "shfl_xor") => {
                let name = match method {
                    "shfl" => "__shfl_sync",
                    "shfl_down" => "__shfl_down_sync",
                    "shfl_up" => "__shfl_up_sync",
                    _ => "__shfl_xor_sync",
                };
                let mut full = vec![tile_mask(t, span)];
                full.extend(args);
                full.push(int(u64::from(t), span));
                call(name, full, span)
            }
            (_, other) => return Err(at(other)),
        })
    }
}

/// The operator of a cooperative-groups function object (`cg::plus<float>`), as the
/// expression combining `a` and `b`.
fn combine(op_ty: &str, a: Expr, b: Expr, span: Span) -> Option<Expr> {
    let name = op_ty
        .trim_start_matches("const ")
        .strip_prefix("cooperative_groups::")?
        .trim_start_matches("__v1::");
    let name = name.split('<').next()?;
    Some(match name {
        "plus" => bin(BinaryOp::Add, a, b, span),
        "bit_and" => bin(BinaryOp::BitAnd, a, b, span),
        "bit_or" => bin(BinaryOp::BitOr, a, b, span),
        "bit_xor" => bin(BinaryOp::BitXor, a, b, span),
        "greater" => call("max", vec![a, b], span),
        "less" => call("min", vec![a, b], span),
        _ => return None,
    })
}

impl Unit<'_> {
    /// `x = cg::reduce(tile, v, op)` as statements: `x = v`, then a butterfly of width-`N`
    /// exchanges among the tile's lanes, after which every lane holds the tile's reduction
    /// (as `cg::reduce` returns it to every lane). `None` when `call` is not such a call.
    pub(super) fn group_reduce(
        &self,
        target: &str,
        call_node: &Node,
        span: Span,
    ) -> Result<Option<Vec<warpsafe_cuda_front::ast::Stmt>>, FrontError> {
        use warpsafe_cuda_front::ast::{Decl, Declarator, Init, Stmt, StmtKind, Storage};
        let mut call_node = strip_implicit(call_node);
        while call_node.kind == "ExprWithCleanups" {
            match call_node.inner.first() {
                Some(c) => call_node = strip_implicit(c),
                None => return Ok(None),
            }
        }
        if call_node.kind != "CallExpr" || call_node.inner.len() != 4 {
            return Ok(None);
        }
        let callee = strip_implicit(&call_node.inner[0]);
        if callee.referenced().map(|(_, _, n)| n) != Some("reduce") {
            return Ok(None);
        }
        let tile = strip_implicit(&call_node.inner[1]);
        let Ok(Some(Group::Tile(width))) = group_of(tile.ty().unwrap_or("")) else {
            return Ok(None);
        };
        let op_ty = strip_implicit(&call_node.inner[3])
            .ty()
            .unwrap_or("")
            .to_string();
        let x = || e(ExprKind::Ident(target.to_string()), span);
        let offset_name = format!("__reduce{}", self.fresh());
        let offset = || e(ExprKind::Ident(offset_name.clone()), span);
        let shuffled = call(
            "__shfl_xor_sync",
            vec![
                tile_mask(width, span),
                x(),
                offset(),
                int(u64::from(width), span),
            ],
            span,
        );
        let Some(combined) = combine(&op_ty, x(), shuffled, span) else {
            return Err(FrontError::new(
                span,
                format!("unsupported: `cg::reduce` with `{op_ty}`"),
            ));
        };
        let value = self.expr(&call_node.inner[2], span)?;
        let assign = |to: Expr, v: Expr| Stmt {
            kind: StmtKind::Expr(e(ExprKind::Assign(None, Box::new(to), Box::new(v)), span)),
            span,
        };
        let int_ty = warpsafe_cuda_front::ast::Type {
            base: Some(ScalarType::I32),
            ptr: false,
            konst: false,
            volatile: false,
            span,
        };
        let butterfly = Stmt {
            kind: StmtKind::For {
                init: Some(Box::new(Stmt {
                    kind: StmtKind::Decl(Decl {
                        storage: Storage::default(),
                        base: int_ty,
                        declarators: vec![Declarator {
                            name: offset_name.clone(),
                            name_span: span,
                            ptr: false,
                            dims: vec![],
                            init: Some(Init::Expr(e(
                                ExprKind::Int(u64::from(width / 2), ScalarType::I32),
                                span,
                            ))),
                            span,
                        }],
                    }),
                    span,
                })),
                cond: Some(bin(
                    BinaryOp::Gt,
                    offset(),
                    e(ExprKind::Int(0, ScalarType::I32), span),
                    span,
                )),
                update: Some(e(
                    ExprKind::Assign(
                        Some(BinaryOp::Shr),
                        Box::new(offset()),
                        Box::new(e(ExprKind::Int(1, ScalarType::I32), span)),
                    ),
                    span,
                )),
                body: Box::new(assign(x(), combined)),
            },
            span,
        };
        Ok(Some(vec![assign(x(), value), butterfly]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handle_types_name_their_group() {
        assert_eq!(
            group_of("cooperative_groups::thread_block"),
            Ok(Some(Group::Block))
        );
        assert_eq!(
            group_of("const cooperative_groups::thread_block_tile<16> &"),
            Ok(Some(Group::Tile(16)))
        );
        assert_eq!(group_of("float"), Ok(None));
        assert_eq!(
            group_of("cooperative_groups::grid_group"),
            Ok(Some(Group::Grid))
        );
        assert!(group_of("cooperative_groups::multi_grid_group").is_err());
        assert!(group_of("cooperative_groups::thread_block_tile<64>").is_err());
    }
}
