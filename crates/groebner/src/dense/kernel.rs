//! F4's dense elimination step as a warpsafe `#[kernel]`, and the contract it is proved under.

use warpsafe::ir::{BinOp, Builtin, Dim, Expr, ExprKind, Kernel, LengthSpec, ParamId, ScalarType};
use warpsafe::prelude::*;

/// One elimination step over F_p: every row `r < nrows` of the row-major `nrows x ncols`
/// matrix `mat` subtracts `mat[r][pcol]` times `pivot_row`, modulo `p`. One thread per row;
/// products of two residues are formed in 64 bits.
///
/// The pivot row is an echelon row (zero before `pcol`, 1 at `pcol`), so columns before `pcol`
/// are left alone, and rows whose factor is zero are unchanged. Entries lie in `[0, p)`, so one
/// conditional subtraction reduces `entry + p - product` (below `2p`).
#[kernel]
pub fn gauss_elim(mat: &mut [u32], pivot_row: &[u32], nrows: u32, ncols: u32, pcol: u32, p: u32) {
    let row = block_idx().x as u64 * block_dim().x as u64 + thread_idx().x as u64;
    if row >= nrows as u64 {
        return;
    }
    let base = row * ncols as u64;
    let factor = mat[base + pcol as u64] as u64;
    if factor == 0 {
        return;
    }
    let q = p as u64;
    for col in pcol..ncols {
        let at = base + col as u64;
        let prod = factor * pivot_row[col] as u64 % q;
        let s = mat[at] as u64 + q - prod;
        mat[at] = (if s >= q { s - q } else { s }) as u32;
    }
}

/// The IR of [`gauss_elim`] with the contract every launch from F4 satisfies, for
/// `warpsafe verify`: `len(mat) = nrows * ncols`, `len(pivot_row) = ncols`, `pcol < ncols`
/// and `p >= 1`. Under it the kernel is proved race-free, in bounds and overflow-free for every
/// launch and every matrix size.
pub fn contract() -> Result<Kernel, warpsafe::BuildError> {
    let mut k = gauss_elim::try_ir()?.clone();
    let param = |name: &str| {
        k.params
            .iter()
            .position(|p| p.name == name)
            .map(|i| ParamId(i as u32))
    };
    let (Some(mat), Some(piv), Some(nrows), Some(ncols), Some(pcol), Some(p)) = (
        param("mat"),
        param("pivot_row"),
        param("nrows"),
        param("ncols"),
        param("pcol"),
        param("p"),
    ) else {
        unreachable!("gauss_elim declares mat, pivot_row, nrows, ncols, pcol and p")
    };
    let u32_param = |id: ParamId| Expr::new(ExprKind::Param(id), ScalarType::U32);
    let wide = |id: ParamId| u32_param(id).cast(ScalarType::U64);
    k.contract.lengths = vec![
        LengthSpec {
            param: mat,
            len: Expr::binary(BinOp::Mul, wide(nrows), wide(ncols)),
        },
        LengthSpec {
            param: piv,
            len: wide(ncols),
        },
    ];
    let mut requires = vec![
        Expr::binary(BinOp::Lt, u32_param(pcol), u32_param(ncols)),
        Expr::binary(BinOp::Ge, u32_param(p), Expr::u32(1)),
    ];
    for d in [Dim::Y, Dim::Z] {
        for b in [Builtin::BlockDim(d), Builtin::GridDim(d)] {
            requires.push(Expr::binary(BinOp::Eq, Expr::builtin(b), Expr::u32(1)));
        }
    }
    k.contract.requires = requires;
    Ok(k)
}
