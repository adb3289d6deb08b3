//! Soundness cross-check: every property the verifier proves for a bundled kernel must hold in
//! the interpreter on small random launches the header allows, and a kernel proved race-free
//! must compute the same bits under random legal schedules.

use crate::common;

use std::time::Duration;
use warpsafe_exec::{eval_contract_expr, run, Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{Category, Kernel, ParamId, ParamKind, Value};
use warpsafe_verify::{verify, Config, Property, Verdict};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Scalar values: the header defaults, scaled down at random.
fn scalars(k: &Kernel, rng: &mut Rng, round: usize) -> Vec<Option<Value>> {
    k.params
        .iter()
        .enumerate()
        .map(|(i, p)| match p.kind {
            ParamKind::Scalar(ty) => {
                let d = k
                    .contract
                    .defaults
                    .iter()
                    .find(|(q, _)| q.0 as usize == i)
                    .map(|(_, v)| v.cast(ty))
                    .unwrap_or_else(|| Value::zero(ty));
                Some(match d.as_i128() {
                    Some(n) if round > 0 && ty.is_int() && n > 1 => {
                        Value::from_i128(ty, 1 + (rng.next() % n as u64) as i128)
                    }
                    _ => d,
                })
            }
            _ => None,
        })
        .collect()
}

fn launch(k: &Kernel, vals: &[Option<Value>]) -> Option<(LaunchConfig, Vec<Arg>)> {
    let cfg = LaunchConfig {
        grid: k.contract.grid_dim?,
        block: k.contract.block_dim?,
        dynamic_shared_bytes: 0,
    };
    let sc = |p: ParamId| vals.get(p.0 as usize).copied().flatten();
    let mut lens = vec![None; k.params.len()];
    for l in &k.contract.lengths {
        let v = eval_contract_expr(k, &l.len, &sc, &|_| None, &cfg).ok()?;
        lens[l.param.0 as usize] = Some(v.as_i128()? as u64);
    }
    let ln = |p: ParamId| lens.get(p.0 as usize).copied().flatten();
    for r in &k.contract.requires {
        let ok = eval_contract_expr(k, r, &sc, &ln, &cfg).ok()?;
        if ok.to_bits() == 0 {
            return None;
        }
    }
    let mut rng = Rng(7);
    let args = k
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| match p.kind {
            ParamKind::Scalar(_) => Arg::Scalar(vals[i].unwrap_or(Value::I32(0))),
            ParamKind::Buffer { elem, .. } => {
                let n = lens[i].unwrap_or(0) as usize;
                Arg::Buffer(Buffer {
                    elem,
                    data: (0..n)
                        .map(|_| Value::from_i128(elem, (rng.next() % 100) as i128).to_bits())
                        .collect(),
                })
            }
        })
        .collect();
    Some((cfg, args))
}

#[test]
fn verified_properties_hold_in_the_interpreter() {
    let mut rng = Rng(0x1234_5678);
    for f in common::all_files() {
        if f.contains("_bug_") || f.starts_with("gauss") {
            continue;
        }
        let k = common::kernel(&f);
        let cfg = Config {
            timeout: Duration::from_secs(30),
            replay: false,
            ..common::config(&k)
        };
        let r = verify(&k, &cfg);
        let proved: Vec<Category> = r
            .results
            .iter()
            .filter(|p| matches!(p.verdict, Verdict::Verified))
            .flat_map(|p| match p.property {
                Property::Race => vec![Category::Race],
                Property::Divergence => vec![Category::Divergence],
                Property::Bounds => vec![Category::Oob],
                Property::Overflow => vec![Category::Overflow, Category::DivByZero],
                Property::Assert => vec![Category::Assert],
                Property::Uninit => vec![Category::Uninit],
            })
            .collect();
        for round in 0..3 {
            let vals = scalars(&k, &mut rng, round);
            let Some((lc, args)) = launch(&k, &vals) else {
                continue;
            };
            let out = run(&k, &lc, args.clone(), &Options::default()).expect("runs");
            if proved.contains(&Category::Race) {
                // Independent cross-check of the race proof: random legal schedules compute
                // the same bits (no example uses floating-point atomics).
                for seed in [2 * round as u64 + 1, 2 * round as u64 + 2] {
                    let opts = Options {
                        schedule_seed: Some(seed),
                        ..Options::default()
                    };
                    let other = run(&k, &lc, args.clone(), &opts).expect("runs");
                    assert!(
                        other.args == out.args,
                        "{f}: race-free by proof, but schedule {seed} changes the outputs"
                    );
                }
            }
            for fd in &out.findings {
                assert!(
                    !proved.contains(&fd.category),
                    "{f}: verified but the interpreter found {}: {}",
                    fd.category,
                    fd.message
                );
            }
        }
    }
}

#[test]
fn racy_twins_give_schedule_dependent_outputs() {
    for f in [
        "kogge_stone_scan_bug_race.cu",
        "reduce_interleaved_bug_nosync.cu",
        "matrix_mul_tiled_bug_nosync.cu",
    ] {
        let k = common::kernel(f);
        let vals = scalars(&k, &mut Rng(1), 0);
        let (lc, args) = launch(&k, &vals).expect("the header's launch");
        let base = run(&k, &lc, args.clone(), &Options::default()).expect("runs");
        let differs = (1..=4).any(|seed| {
            let opts = Options {
                schedule_seed: Some(seed),
                ..Options::default()
            };
            run(&k, &lc, args.clone(), &opts).expect("runs").args != base.args
        });
        assert!(
            differs,
            "{f}: no schedule changed the outputs of a racy kernel"
        );
    }
}
