//! The bounded proof: one abstract run per block size, outputs compared with the spec.

use crate::contract::{admits, Admits};
use crate::failure::{Failure, FailureKind};
use crate::machine::{run_abstract, AbsLaunch, Val};
use crate::summary::Mode;
use crate::target::{expectations, Expectation};
use rayon::prelude::*;
use serde::Serialize;
use warpsafe_equiv::Spec;
use warpsafe_ir::{Kernel, Span};

/// What one size established.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "result")]
pub enum SizeVerdict {
    /// Race-free, barriers uniform, and (with a spec) every constrained output combines the
    /// inputs the spec names.
    Proved {
        /// The weakest mode that sufficed.
        mode: Mode,
        /// Whether some combination put the right segment first.
        swapped: bool,
    },
    /// The abstract run failed.
    Failed(Failure),
    /// The spec is outside the abstraction.
    BadSpec(String),
}

/// Runs the abstract engine at block size `block` over `grid` blocks (all `n = block * grid`
/// elements present) and checks the spec's outputs.
pub fn check_size(k: &Kernel, spec: Option<&Spec>, block: u32, grid: u32) -> SizeVerdict {
    check_launch(k, spec, block, grid, block as i64 * grid as i64)
}

/// [`check_size`] with `n` elements (fewer than `block * grid` leaves the last block
/// partial).
pub fn check_launch(k: &Kernel, spec: Option<&Spec>, block: u32, grid: u32, n: i64) -> SizeVerdict {
    if let Some(v) = crate::inputs::check(k, spec) {
        return v;
    }
    let launch = AbsLaunch { block, grid, n };
    let expected = match spec.map(|s| expectations(s, k, &launch)).transpose() {
        Ok(e) => e.unwrap_or_default(),
        Err(m) => return SizeVerdict::BadSpec(m),
    };
    let mut result = run_abstract(k, &launch, Mode::Interval, false);
    let mut mode = Mode::Interval;
    if let Err(Failure {
        kind: FailureKind::BadCombination { .. },
        ..
    }) = &result
    {
        mode = Mode::Commutative;
        result = run_abstract(k, &launch, mode, false);
    }
    let run = match result {
        Ok(r) => r,
        Err(f) => return SizeVerdict::Failed(f),
    };
    if let Some(f) = compare(k, &run.globals, &expected) {
        return SizeVerdict::Failed(f);
    }
    SizeVerdict::Proved {
        mode,
        swapped: run.swapped,
    }
}

fn compare(k: &Kernel, globals: &[Option<Vec<Val>>], expected: &[Expectation]) -> Option<Failure> {
    for e in expected {
        let cell = globals
            .get(e.buffer.0 as usize)
            .and_then(|g| g.as_ref())
            .and_then(|g| g.get(e.index as usize))
            .copied()
            .unwrap_or(Val::Uninit);
        let got = match cell {
            Val::Data(s) => Some(s),
            Val::Int(0) => Some(crate::Summary::EMPTY),
            _ => None,
        };
        let same = got.is_some_and(|g| {
            g.count == e.summary.count
                && (g.count == 0
                    || (g.start == e.summary.start && (g.count == 1 || g.step == e.summary.step)))
        });
        if !same {
            return Some(Failure {
                kind: FailureKind::WrongOutput {
                    buffer: k.param(e.buffer).name.clone(),
                    index: e.index,
                    expected: e.summary,
                    got,
                },
                span: Span::DUMMY,
            });
        }
    }
    None
}

/// Block sizes up to this also get a run whose last block is one element short.
pub const PARTIAL_BLOCK_BOUND: u32 = 1024;

/// A size at which the sweep failed, with the launch that failed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SizeFailure {
    /// Threads per block.
    pub size: u32,
    /// Blocks.
    pub grid: u32,
    /// Elements (`n`).
    pub n: i64,
    /// What the run found.
    pub verdict: SizeVerdict,
}

impl SizeFailure {
    /// The launch that failed.
    pub fn launch(&self) -> AbsLaunch {
        AbsLaunch {
            block: self.size,
            grid: self.grid,
            n: self.n,
        }
    }
}

/// Full blocks, then (for launchable block sizes) a partial last block: one element short
/// of two blocks, or of one block when the kernel's header fixes `gridDim.x = 1`. With
/// `scope` [`Scope::Contract`], launches the contract rejects are skipped; `None` when every
/// launch of this size was.
fn check_with_partial_block(
    k: &Kernel,
    spec: Option<&Spec>,
    block: u32,
    grid: u32,
    scope: Scope,
) -> Result<Option<(Mode, bool)>, SizeFailure> {
    let skip = |grid: u32, n: i64| {
        scope == Scope::Contract
            && matches!(admits(k, &AbsLaunch { block, grid, n }), Admits::No(_))
    };
    let n = block as i64 * grid as i64;
    let mut done: Option<(Mode, bool)> = None;
    if !skip(grid, n) {
        match check_size(k, spec, block, grid) {
            SizeVerdict::Proved { mode, swapped } => done = Some((mode, swapped)),
            verdict => {
                return Err(SizeFailure {
                    size: block,
                    grid,
                    n,
                    verdict,
                })
            }
        }
    }
    if block > PARTIAL_BLOCK_BOUND {
        return Ok(done);
    }
    let single = k.contract.grid_dim.is_some_and(|g| g[0] == 1);
    let pgrid = if single { 1 } else { 2 };
    let pn = block as i64 * pgrid as i64 - 1;
    if pn < 1 || skip(pgrid, pn) {
        return Ok(done);
    }
    match check_launch(k, spec, block, pgrid, pn) {
        SizeVerdict::Proved {
            mode: m,
            swapped: w,
        } => {
            Ok(Some(done.map_or((m, w), |(mode, swapped)| {
                (mode.max(m), swapped || w)
            })))
        }
        verdict => Err(SizeFailure {
            size: block,
            grid: pgrid,
            n: pn,
            verdict,
        }),
    }
}

/// Which launches a sweep checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Every block size, the contract's `requires` not consulted: the kernel family whose
    /// shared arrays of the header's block size scale with it.
    Family,
    /// Only the launches the contract's `requires` admit (or that cannot be decided).
    Contract,
}

/// The result of sweeping block sizes.
#[derive(Clone, Debug, Serialize)]
pub struct Sweep {
    /// The largest size tried.
    pub bound: u32,
    /// Sizes tried (at least one launch checked).
    pub sizes: u32,
    /// Which launches were checked.
    pub scope: Scope,
    /// The smallest power-of-two size that failed, if any.
    pub pow2_failure: Option<SizeFailure>,
    /// The smallest other size that failed, if any (not tried when a power of two failed).
    pub other_failure: Option<SizeFailure>,
    /// The weakest mode every proved size needed.
    pub mode: Mode,
    /// Whether some proved size combined right-segment-first.
    pub swapped: bool,
    /// Seconds taken.
    pub seconds: f64,
}

/// Checks every block size `1..=bound` (powers of two first; the others only when every
/// power of two passed), in parallel; sizes up to [`PARTIAL_BLOCK_BOUND`] also with a
/// partial last block. The contract's `requires` are not consulted ([`Scope::Family`]).
pub fn sweep(k: &Kernel, spec: Option<&Spec>, bound: u32, grid: u32) -> Sweep {
    sweep_in(k, spec, bound, grid, Scope::Family)
}

/// [`sweep`] over the launches `scope` names.
pub fn sweep_in(k: &Kernel, spec: Option<&Spec>, bound: u32, grid: u32, scope: Scope) -> Sweep {
    let t0 = std::time::Instant::now();
    let pow2: Vec<u32> = (0..32)
        .map(|e| 1u32 << e)
        .take_while(|&s| s <= bound)
        .collect();
    let others: Vec<u32> = (1..=bound).filter(|s| !s.is_power_of_two()).collect();
    let mut mode = Mode::Interval;
    let mut swapped = false;
    let mut sizes = 0;
    let mut run = |list: &[u32]| -> Option<SizeFailure> {
        let mut first = None;
        for chunk in list.chunks(64) {
            if first.is_some() {
                break;
            }
            let results: Vec<Result<Option<(Mode, bool)>, SizeFailure>> = chunk
                .par_iter()
                .map(|&s| check_with_partial_block(k, spec, s, grid, scope))
                .collect();
            for r in results {
                match r {
                    Ok(None) => {}
                    Ok(Some((m, w))) => {
                        sizes += 1;
                        mode = mode.max(m);
                        swapped |= w;
                    }
                    Err(f) => {
                        sizes += 1;
                        if first.is_none() {
                            first = Some(f);
                        }
                    }
                }
            }
        }
        first
    };
    let pow2_failure = run(&pow2);
    let other_failure = if pow2_failure.is_none() {
        run(&others)
    } else {
        None
    };
    Sweep {
        bound,
        sizes,
        scope,
        pow2_failure,
        other_failure,
        mode,
        swapped,
        seconds: t0.elapsed().as_secs_f64(),
    }
}
