//! Which launches the kernel's contract admits: its `requires` lines evaluated exactly at the
//! launches the engines check (every integer parameter is the element count `n`).

use crate::machine::{lengths, AbsLaunch};
use std::cell::OnceCell;
use warpsafe_exec::{eval_contract_expr, LaunchConfig};
use warpsafe_ir::{Kernel, ParamId, ParamKind, Value};

/// Whether the contract admits one launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Admits {
    /// Every `requires` holds.
    Yes,
    /// A `requires` is false there (its text).
    No(String),
    /// A `requires` cannot be evaluated there (its text and why).
    Unknown(String),
}

/// Evaluates every `requires` of `k` at `launch`: one block dimension, integer parameters
/// set to `launch.n`, buffer lengths from the `len(...)` lines.
pub fn admits(k: &Kernel, launch: &AbsLaunch) -> Admits {
    if k.contract.requires.is_empty() {
        return Admits::Yes;
    }
    let cfg = LaunchConfig::linear(launch.grid, launch.block);
    let scalar = |p: ParamId| match k.params.get(p.0 as usize).map(|p| p.kind) {
        Some(ParamKind::Scalar(t)) if t.is_int() => Some(Value::from_i128(t, launch.n as i128)),
        _ => None,
    };
    let lens = OnceCell::new();
    let len = |p: ParamId| {
        lens.get_or_init(|| lengths(k, launch))
            .get(p.0 as usize)
            .copied()
    };
    let mut unknown = None;
    for r in &k.contract.requires {
        let text = format!("requires {}", k.expr_to_string(r));
        match eval_contract_expr(k, r, &scalar, &len, &cfg) {
            Ok(v) if v.to_bits() == 0 => return Admits::No(text),
            Ok(_) => {}
            Err(e) => {
                unknown.get_or_insert(format!("{text}: {e}"));
            }
        }
    }
    unknown.map_or(Admits::Yes, Admits::Unknown)
}

/// The block sizes `N` (one block, `n = N`) in `1..=max` that the contract may admit, as the
/// smallest range holding all of them: `None` when it admits none.
pub fn admitted_range(k: &Kernel, max: u32) -> Option<(u32, u32)> {
    let mut range: Option<(u32, u32)> = None;
    for n in 1..=max {
        let launch = AbsLaunch {
            block: n,
            grid: 1,
            n: n as i64,
        };
        if !matches!(admits(k, &launch), Admits::No(_)) {
            range = Some(range.map_or((n, n), |(lo, _)| (lo, n)));
        }
    }
    range
}

/// The contract's preconditions as text (`requires …`).
pub fn describe(k: &Kernel) -> Vec<String> {
    k.contract
        .requires
        .iter()
        .map(|r| format!("requires {}", k.expr_to_string(r)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(header: &str) -> Kernel {
        let src = format!(
            "{header}\n__global__ void k(const float* x, float* y, int n) {{ y[threadIdx.x] = x[threadIdx.x]; }}"
        );
        match warpsafe_cuda_front::compile(&src) {
            Ok(mut f) => f.kernels.remove(0),
            Err(e) => panic!("{e:?}"),
        }
    }

    fn launch(block: u32) -> AbsLaunch {
        AbsLaunch {
            block,
            grid: 1,
            n: block as i64,
        }
    }

    #[test]
    fn requires_are_evaluated_at_each_launch() {
        let k = kernel("//@ requires blockDim.x <= 256\n//@ requires n <= blockDim.x * gridDim.x");
        assert_eq!(admits(&k, &launch(256)), Admits::Yes);
        assert!(matches!(admits(&k, &launch(512)), Admits::No(r) if r.contains("256")));
        assert_eq!(admitted_range(&k, 1024), Some((1, 256)));
    }

    #[test]
    fn no_requires_admit_everything_and_contradictions_nothing() {
        assert_eq!(admitted_range(&kernel(""), 64), Some((1, 64)));
        let none = kernel("//@ requires n == 2 * blockDim.x");
        assert_eq!(admitted_range(&none, 64), None);
    }
}
