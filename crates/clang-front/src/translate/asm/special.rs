//! PTX special registers as launch builtins: `%tid`, `%ntid`, `%ctaid`, `%nctaid`, `%laneid`
//! (the linear thread id within the block, modulo 32) and the `%lanemask_*` masks.
//!
//! `%warpid` is rejected rather than modelled: the PTX ISA says it may change during a
//! thread's life (after preemption) and need not equal `linear id / 32`, so any use of it as
//! an index would be read wrong by every engine. `%smid`, `%clock` and the timers likewise
//! have no value a launch fixes.

use super::build::B;
use warpsafe_cuda_front::ast::{BinaryOp, Expr, ExprKind};
use warpsafe_ir::ScalarType;

/// The value and type of the special register `n`.
pub fn read(b: &B, n: &str) -> Result<(Expr, ScalarType), String> {
    let u = ScalarType::U32;
    if let Some((reg, dim)) = n.split_once('.') {
        let var = match reg {
            "%tid" => "threadIdx",
            "%ntid" => "blockDim",
            "%ctaid" => "blockIdx",
            "%nctaid" => "gridDim",
            _ => return Err(unknown(n)),
        };
        if !matches!(dim, "x" | "y" | "z") {
            return Err(unknown(n));
        }
        let e = b.e(ExprKind::Member(Box::new(b.id(var)), dim.to_string()));
        return Ok((e, u));
    }
    let lane = || lane_id(b);
    let one = |s: u64| b.int(s, u);
    let e = match n {
        "%laneid" => lane(),
        "WARP_SZ" => one(32),
        "%lanemask_eq" => b.bin(BinaryOp::Shl, one(1), lane()),
        "%lanemask_lt" => b.bin(BinaryOp::Sub, b.bin(BinaryOp::Shl, one(1), lane()), one(1)),
        // `2u << 31` wraps to 0, so lane 31 gets every bit.
        "%lanemask_le" => b.bin(BinaryOp::Sub, b.bin(BinaryOp::Shl, one(2), lane()), one(1)),
        "%lanemask_ge" => b.cast(
            u,
            b.un(
                warpsafe_cuda_front::ast::UnaryOp::BitNot,
                b.bin(BinaryOp::Sub, b.bin(BinaryOp::Shl, one(1), lane()), one(1)),
            ),
        ),
        "%lanemask_gt" => b.cast(
            u,
            b.un(
                warpsafe_cuda_front::ast::UnaryOp::BitNot,
                b.bin(BinaryOp::Sub, b.bin(BinaryOp::Shl, one(2), lane()), one(1)),
            ),
        ),
        "%warpid" | "%nwarpid" => {
            return Err(format!(
                "the special register `{n}` (the PTX ISA lets it change while a thread runs; \
                 use `%laneid` or the thread index)"
            ))
        }
        _ => return Err(unknown(n)),
    };
    Ok((e, u))
}

fn unknown(n: &str) -> String {
    if n.starts_with('%') {
        format!("the special register or undeclared register `{n}`")
    } else {
        format!("the undeclared register `{n}`")
    }
}

/// `(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32`.
pub fn lane_id(b: &B) -> Expr {
    let m = |v: &str, d: &str| b.e(ExprKind::Member(Box::new(b.id(v)), d.to_string()));
    let yz = b.bin(
        BinaryOp::Add,
        m("threadIdx", "y"),
        b.bin(BinaryOp::Mul, m("blockDim", "y"), m("threadIdx", "z")),
    );
    let rank = b.bin(
        BinaryOp::Add,
        m("threadIdx", "x"),
        b.bin(BinaryOp::Mul, m("blockDim", "x"), yz),
    );
    b.bin(BinaryOp::Rem, rank, b.int(32, ScalarType::U32))
}
