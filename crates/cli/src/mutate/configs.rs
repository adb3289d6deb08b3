//! Random launches a kernel's header allows: the header's dimensions (a common block size
//! and a small grid where it fixes none), scalar sizes drawn below twice their defaults
//! until every `requires` holds, buffer lengths from the `len` lines and random contents.

use crate::inputs::{make_buffer, Fill, Rng};
use warpsafe_exec::{eval_contract_expr, Arg, LaunchConfig};
use warpsafe_ir::{Kernel, ParamId, ParamKind, Value};

/// Draws of scalar values tried before falling back to the header's defaults.
const TRIES: usize = 64;

/// One launch of the campaign.
#[derive(Clone, Debug)]
pub struct Launch {
    /// Dimensions and dynamic shared memory.
    pub config: LaunchConfig,
    /// Arguments in parameter order (buffers filled).
    pub args: Vec<Arg>,
    /// `n = 1234, grid [8,1,1], block [256,1,1]`, for reports.
    pub text: String,
}

/// `count` launches of `k`: the first with the header's defaults, the others drawn from
/// `seed`. A draw whose `requires` fail is retried; launches that cannot be built at all
/// (a length that does not evaluate) are left out.
pub fn launches(k: &Kernel, count: usize, seed: u64) -> Vec<Launch> {
    let mut rng = Rng::new(seed);
    (0..count)
        .filter_map(|round| {
            let draws = if round == 0 { 1 } else { TRIES };
            (0..draws)
                .find_map(|_| build(k, round > 0, &mut rng))
                .or_else(|| build(k, false, &mut rng))
        })
        .collect()
}

/// One launch, with random scalars when `random`; `None` when a `requires` fails.
fn build(k: &Kernel, random: bool, rng: &mut Rng) -> Option<Launch> {
    let pick =
        |rng: &mut Rng, options: &[u32]| options[(rng.next_u64() % options.len() as u64) as usize];
    let block = match k.contract.block_dim {
        Some(b) => b,
        None => [pick(rng, &[32, 64, 128, 256]), 1, 1],
    };
    let grid = match k.contract.grid_dim {
        Some(g) => g,
        None => [pick(rng, &[1, 2, 3, 4, 8]), 1, 1],
    };
    let mut config = LaunchConfig {
        grid,
        block,
        dynamic_shared_bytes: 0,
    };
    let scalars: Vec<Option<Value>> = k
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let ParamKind::Scalar(ty) = p.kind else {
                return None;
            };
            let default = k
                .contract
                .defaults
                .iter()
                .find(|(q, _)| q.0 as usize == i)
                .map(|(_, v)| v.cast(ty));
            Some(match default.and_then(|d| d.as_i128().map(|n| (d, n))) {
                Some((_, n)) if random && ty.is_int() && n > 1 => {
                    Value::from_i128(ty, 1 + (rng.next_u64() % (2 * n as u64)) as i128)
                }
                Some((d, _)) => d,
                None if ty.is_int() => Value::from_i128(ty, 1 + (rng.next_u64() % 256) as i128),
                None => default.unwrap_or_else(|| Value::zero(ty)),
            })
        })
        .collect();
    let sc = |p: ParamId| scalars.get(p.0 as usize).copied().flatten();
    let threads = config.num_blocks() * config.threads_per_block();
    let mut lens: Vec<Option<u64>> = vec![None; k.params.len()];
    for (i, p) in k.params.iter().enumerate() {
        if let ParamKind::Buffer { .. } = p.kind {
            let id = ParamId(i as u32);
            lens[i] = Some(match k.contract.lengths.iter().find(|l| l.param == id) {
                Some(l) => {
                    let v = eval_contract_expr(k, &l.len, &sc, &|_| None, &config).ok()?;
                    u64::try_from(v.as_i128()?).ok()?
                }
                // No declared length: room for a few elements per thread.
                None => threads.saturating_mul(4),
            });
        }
    }
    let ln = |p: ParamId| lens.get(p.0 as usize).copied().flatten();
    if let Some(e) = &k.contract.dynamic_shared_bytes {
        let v = eval_contract_expr(k, e, &sc, &ln, &config).ok()?;
        config.dynamic_shared_bytes = u64::try_from(v.as_i128()?).ok()?;
    }
    for r in &k.contract.requires {
        if eval_contract_expr(k, r, &sc, &ln, &config).ok()? != Value::Bool(true) {
            return None;
        }
    }
    let mut args = Vec::with_capacity(k.params.len());
    let mut shown = vec![];
    for (i, p) in k.params.iter().enumerate() {
        match p.kind {
            ParamKind::Scalar(_) => {
                let v = scalars[i]?;
                shown.push(format!("{} = {v}", p.name));
                args.push(Arg::Scalar(v));
            }
            ParamKind::Buffer { elem, .. } => {
                let n = lens[i]?;
                args.push(Arg::Buffer(make_buffer(elem, n, &Fill::Random, rng).ok()?));
            }
        }
    }
    shown.push(format!("grid {:?}, block {:?}", config.grid, config.block));
    Some(Launch {
        config,
        args,
        text: shown.join(", "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_respect_the_requires_and_the_first_is_the_header() {
        let src = "//--blockDim=64 --gridDim=4
//@ arg n = 200
//@ len(x) = n
//@ requires n <= blockDim.x * gridDim.x
__global__ void k(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 0.0f;
}
";
        let k = warpsafe_cuda_front::compile(src).expect("parses").kernels[0].clone();
        let ls = launches(&k, 6, 1);
        assert_eq!(ls.len(), 6);
        assert!(ls[0].text.starts_with("n = 200,"), "{}", ls[0].text);
        for l in &ls {
            let Arg::Scalar(n) = l.args[1] else {
                panic!("n is a scalar")
            };
            let n = n.as_i128().expect("int");
            assert!((1..=256).contains(&n), "{n}");
            let Arg::Buffer(x) = &l.args[0] else {
                panic!("x is a buffer")
            };
            assert_eq!(x.len() as i128, n);
        }
        assert!(ls.iter().any(|l| l.text != ls[0].text), "some draw differs");
    }
}
