//! The F4 elimination step over F_p.

use super::Env;

/// The prime of the examples' field.
pub const P: u64 = 65521;

/// Every row r of the `nrows x ncols` matrix `mat` becomes `row_r - mat[r][pcol] * pivot_row`
/// modulo p (the factor is read before the row changes).
pub fn gauss_elim(env: &mut Env) {
    let nrows = env.usize("nrows");
    let ncols = env.usize("ncols");
    let pcol = env.usize("pcol");
    let pivot = env.u32("pivot_row").to_vec();
    let mat = env.u32_mut("mat");
    for row in mat.chunks_mut(ncols).take(nrows) {
        let factor = row[pcol] as u64;
        for (entry, &p) in row.iter_mut().zip(&pivot) {
            let prod = factor * p as u64 % P;
            *entry = ((*entry as u64 + P - prod) % P) as u32;
        }
    }
}
