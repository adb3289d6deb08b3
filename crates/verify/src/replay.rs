//! Replaying a counterexample in the concrete interpreter: the model's dimensions, parameters
//! and buffer lengths, buffers filled with deterministic pseudo-random data.

use crate::{Counterexample, Replay};
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{Category, Kernel, ParamKind, ScalarType, Value};

/// Most threads a replay launches.
pub const MAX_THREADS: u64 = 1 << 22;
/// Most elements a replayed buffer may have.
pub const MAX_ELEMS: u64 = 1 << 24;

/// How many random data sets a replay tries before it gives up.
const DATA_SETS: u64 = 8;

/// A xorshift generator: deterministic data for replays and sampled launches.
pub struct Rng(pub u64);

impl Rng {
    /// The next value.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn random_elem(ty: ScalarType, r: &mut Rng) -> u64 {
    let x = r.next();
    match ty {
        ScalarType::Bool => x & 1,
        t if t.is_float() => Value::from_f64(t, (x % 1000) as f64 / 1000.0).to_bits(),
        t => Value::from_i128(t, (x % 65521) as i128).to_bits(),
    }
}

/// The launch arguments of `cx` with buffers filled from data set `seed`.
fn arguments(k: &Kernel, cx: &Counterexample, seed: u64) -> Vec<Arg> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ seed.wrapping_mul(0xbf58_476d_1ce4_e5b9));
    let mut args = vec![];
    for p in &k.params {
        match p.kind {
            ParamKind::Scalar(ty) => {
                let v = cx
                    .params
                    .iter()
                    .find(|(n, _)| *n == p.name)
                    .map(|(_, v)| *v)
                    .unwrap_or_else(|| Value::zero(ty));
                args.push(Arg::Scalar(v));
            }
            ParamKind::Buffer { elem, .. } => {
                let len = cx
                    .buffer_lens
                    .iter()
                    .find(|(n, _)| *n == p.name)
                    .map(|(_, l)| *l)
                    .unwrap_or(0);
                let data = (0..len).map(|_| random_elem(elem, &mut rng)).collect();
                args.push(Arg::Buffer(Buffer { elem, data }));
            }
        }
    }
    args
}

/// The work one replay may do, per block and in all (about 5 s and 20 s of the interpreter on
/// one core): a counterexample's launch is small, and a kernel that loops forever after its
/// finding (an assertion failed before a loop that no longer ends) must not hold the verdict
/// for the interpreter's default 2^32 per block (78 s seen).
const MAX_BLOCK_INSTRUCTIONS: u64 = 1 << 28;
const MAX_TOTAL_INSTRUCTIONS: u64 = 1 << 30;

/// Runs the counterexample's launch and reports whether the interpreter finds the same kind
/// of bug.
pub fn replay(k: &Kernel, cx: &Counterexample, dyn_shared: u64, lockstep: bool) -> Replay {
    let threads: u64 = cx
        .block_dim
        .iter()
        .chain(&cx.grid_dim)
        .map(|&d| d as u64)
        .product();
    if threads > MAX_THREADS {
        return Replay {
            reproduced: false,
            note: format!("not replayed: the launch has {threads} threads (limit {MAX_THREADS})"),
        };
    }
    if let Some((n, l)) = cx.buffer_lens.iter().find(|(_, l)| *l > MAX_ELEMS) {
        return Replay {
            reproduced: false,
            note: format!("not replayed: buffer `{n}` has {l} elements (limit {MAX_ELEMS})"),
        };
    }
    let cfg = LaunchConfig {
        grid: cx.grid_dim,
        block: cx.block_dim,
        dynamic_shared_bytes: if k.shared.iter().any(|a| a.dynamic) {
            dyn_shared
        } else {
            0
        },
    };
    let opts = Options {
        lockstep_warps: lockstep,
        max_block_instructions: MAX_BLOCK_INSTRUCTIONS,
        max_total_instructions: MAX_TOTAL_INSTRUCTIONS,
        ..Options::default()
    };
    // Data-dependent findings (overflow of products of inputs, say) may need a few data sets.
    let at_site = |f: &warpsafe_exec::Finding| {
        cx.spans.contains(&f.at.span)
            || f.other.as_ref().is_some_and(|o| cx.spans.contains(&o.span))
    };
    // A run whose data breaks the kernel's assumptions (`__requires(idx[i] == i)` over random
    // data) is no execution the verdict speaks of: it reproduces nothing.
    let assumed = |out: &warpsafe_exec::Outcome| !out.findings.iter().any(broken_assumption);
    let mut result = run(k, &cfg, arguments(k, cx, 0), &opts);
    for seed in 1..DATA_SETS {
        match &result {
            Ok(out) if !assumed(out) || !out.of(cx.category).any(at_site) => {
                result = run(k, &cfg, arguments(k, cx, seed), &opts);
            }
            _ => break,
        }
    }
    match result {
        Err(e) => Replay {
            reproduced: false,
            note: format!("the interpreter refused the launch: {e}"),
        },
        Ok(out) if !assumed(&out) => Replay {
            reproduced: false,
            note: format!(
                "in each of the interpreter's {DATA_SETS} data sets an assumption of the kernel \
                 (`__requires`, `__assume`) fails"
            ),
        },
        Ok(out) => {
            let same: Vec<_> = out.of(cx.category).collect();
            if same.is_empty() {
                let found: Vec<&str> = out.findings.iter().map(|f| f.category.name()).collect();
                return Replay {
                    reproduced: false,
                    note: if found.is_empty() {
                        format!(
                            "the interpreter found nothing with this launch and {DATA_SETS} \
                             random data sets (the finding may depend on data)"
                        )
                    } else {
                        format!("the interpreter found {} instead", found.join(", "))
                    },
                };
            }
            // The same category elsewhere is another bug, not this one.
            let here: Vec<_> = same.iter().filter(|f| at_site(f)).collect();
            match here.first() {
                Some(f) => Replay {
                    reproduced: true,
                    note: format!(
                        "the interpreter reports {} {} finding(s) at the same source position: {}",
                        here.len(),
                        cx.category.name(),
                        f.message
                    ),
                },
                None => Replay {
                    reproduced: false,
                    note: format!(
                        "the interpreter found {} {} finding(s), but elsewhere: {}",
                        same.len(),
                        cx.category.name(),
                        same[0].message
                    ),
                },
            }
        }
    }
}

/// True for the interpreter's report of an assumption (`__requires`, `__assume`) that the
/// launch's data breaks.
fn broken_assumption(f: &warpsafe_exec::Finding) -> bool {
    f.category == Category::Assert
        && f.severity == warpsafe_exec::Severity::Warning
        && f.message.starts_with("assumption does not hold")
}
