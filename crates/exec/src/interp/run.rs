//! The launch driver: checks arguments, lays out memory, runs blocks (in parallel when asked),
//! and merges per-block findings and global-access summaries in block order.

use super::context::{Ctx, MemInfo};
use super::findings::Sink;
use super::interblock::{History, Touch};
use super::scheduler;
use super::worker::Worker;
use crate::launch::check_args;
use crate::report::{Outcome, Stats};
use crate::thread::code::{AllocSize, Space};
use crate::{compile, eval_contract_expr, Arg, Buffer, ExecError, LaunchConfig, Options, Program};
use rayon::prelude::*;
use std::sync::atomic::AtomicU64;
use std::sync::Mutex;
use std::time::Instant;
use warpsafe_ir::{Kernel, ParamKind};

/// Compiles `kernel` and runs it once (see [`run_program`]).
pub fn run(
    kernel: &Kernel,
    cfg: &LaunchConfig,
    args: Vec<Arg>,
    opts: &Options,
) -> Result<Outcome, ExecError> {
    let p = compile(kernel)?;
    run_program(&p, cfg, args, opts)
}

/// What one block produced.
struct BlockResult {
    sink: Sink,
    touched: Vec<Touch>,
    instrs: u64,
    barriers: u64,
    over_budget: bool,
}

/// Runs a compiled kernel on a launch configuration and arguments. Buffers come back in
/// [`Outcome::args`] as the kernel left them; bugs are findings, not errors.
pub fn run_program(
    p: &Program,
    cfg: &LaunchConfig,
    args: Vec<Arg>,
    opts: &Options,
) -> Result<Outcome, ExecError> {
    let start = Instant::now();
    let kernel = p.kernel();
    check_args(kernel, &args)?;
    cfg.validate()?;
    let dyn_bytes = dynamic_shared_bytes(kernel, cfg, &args)?;
    let ctx = build_ctx(p, cfg, &args, opts, dyn_bytes)?;

    let blocks = cfg.num_blocks();
    let pool: Mutex<Vec<Worker>> = Mutex::new(Vec::new());
    let run_one = |b: u64| -> BlockResult {
        let mut w = pool
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_else(|| Worker::new(&ctx));
        let rng = opts
            .schedule_seed
            .map(|s| scheduler::Rng::new(s ^ b.wrapping_mul(0xff51_afd7_ed55_8ccd)));
        scheduler::run_block(&ctx, &mut w, ctx.block_idx(b), rng);
        let r = BlockResult {
            sink: w.sink.take(),
            touched: std::mem::take(&mut w.touched),
            instrs: w.instrs,
            barriers: w.barriers,
            over_budget: w.over_budget,
        };
        pool.lock().unwrap_or_else(|e| e.into_inner()).push(w);
        r
    };

    let mut sink = Sink::default();
    let mut history = History::new(&ctx);
    let mut stats = Stats::default();
    let chunk = (64 * rayon::current_num_threads()).max(64) as u64;
    let mut lo = 0u64;
    while lo < blocks {
        let hi = (lo + chunk).min(blocks);
        let results: Vec<BlockResult> = match opts.schedule_seed {
            Some(seed) => {
                // One block at a time, in a random order; results keep block order.
                let mut order: Vec<u64> = (lo..hi).collect();
                let mut r = scheduler::Rng::new(seed ^ lo);
                for i in (1..order.len()).rev() {
                    order.swap(i, r.below(i + 1));
                }
                let mut out: Vec<(u64, BlockResult)> =
                    order.into_iter().map(|b| (b, run_one(b))).collect();
                out.sort_by_key(|(b, _)| *b);
                out.into_iter().map(|(_, r)| r).collect()
            }
            None if opts.parallel => (lo..hi).into_par_iter().map(run_one).collect(),
            None => (lo..hi).map(run_one).collect(),
        };
        for (i, r) in results.into_iter().enumerate() {
            if r.over_budget {
                return Err(ExecError::StepLimit {
                    block: ctx.block_idx(lo + i as u64),
                    limit: ctx.max_block_instructions,
                });
            }
            sink.merge(r.sink, ctx.max_findings);
            if ctx.checks.race {
                history.merge_block(&ctx, lo + i as u64, &r.touched, &mut sink);
            }
            stats.thread_instructions += r.instrs;
            stats.barriers += r.barriers;
        }
        lo = hi;
    }
    stats.blocks = blocks;
    stats.threads = blocks * cfg.threads_per_block();

    let Ctx { global, .. } = ctx;
    let mut global = global.into_iter();
    let out_args = args
        .into_iter()
        .map(|a| match a {
            Arg::Buffer(b) => {
                let data = global
                    .next()
                    .map(|g| g.into_iter().map(AtomicU64::into_inner).collect())
                    .unwrap_or(b.data);
                Arg::Buffer(Buffer { elem: b.elem, data })
            }
            s => s,
        })
        .collect();
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(Outcome {
        args: out_args,
        findings: sink.into_findings(),
        stats,
    })
}

/// Bytes of `extern __shared__` memory: the launch's, else the contract's `shared_bytes`.
fn dynamic_shared_bytes(
    kernel: &Kernel,
    cfg: &LaunchConfig,
    args: &[Arg],
) -> Result<u64, ExecError> {
    let Some(arr) = kernel.shared.iter().find(|a| a.dynamic) else {
        return Ok(cfg.dynamic_shared_bytes);
    };
    let mut bytes = cfg.dynamic_shared_bytes;
    if bytes == 0 {
        if let Some(e) = &kernel.contract.dynamic_shared_bytes {
            let scalars = |p: warpsafe_ir::ParamId| match args.get(p.0 as usize) {
                Some(Arg::Scalar(v)) => Some(*v),
                _ => None,
            };
            let lens = |p: warpsafe_ir::ParamId| match args.get(p.0 as usize) {
                Some(Arg::Buffer(b)) => Some(b.len() as u64),
                _ => None,
            };
            let v = eval_contract_expr(kernel, e, &scalars, &lens, cfg)?;
            bytes = v.as_i128().unwrap_or(0).max(0) as u64;
        }
    }
    if bytes == 0 {
        return Err(ExecError::MissingDynamicShared {
            array: arr.name.clone(),
        });
    }
    if bytes > 1 << 24 {
        return Err(ExecError::InvalidLaunch(format!(
            "{bytes} bytes of dynamic shared memory is more than any GPU has"
        )));
    }
    Ok(bytes)
}

fn build_ctx<'p>(
    p: &'p Program,
    cfg: &LaunchConfig,
    args: &[Arg],
    opts: &Options,
    dyn_bytes: u64,
) -> Result<Ctx<'p>, ExecError> {
    let kernel = p.kernel();
    let code = p.code();
    let params = args
        .iter()
        .map(|a| match a {
            Arg::Scalar(v) => v.to_bits(),
            Arg::Buffer(_) => 0,
        })
        .collect();
    let mut global = Vec::new();
    let mut global_slot = vec![usize::MAX; args.len()];
    for (i, a) in args.iter().enumerate() {
        if let (Arg::Buffer(b), ParamKind::Buffer { .. }) = (a, kernel.params[i].kind) {
            global_slot[i] = global.len();
            global.push(
                b.data
                    .iter()
                    .map(|&x| AtomicU64::new(x))
                    .collect::<Vec<_>>(),
            );
        }
    }
    let (mut shared_cells, mut local_cells) = (0usize, 0usize);
    let mut mems = Vec::with_capacity(code.allocs.len());
    for a in &code.allocs {
        let elem_size = a.elem.size_bytes();
        let (len, base) = match (a.space, a.size) {
            (Space::Global, AllocSize::Param(i)) => {
                let slot = global_slot.get(i as usize).copied().unwrap_or(usize::MAX);
                let len = global.get(slot).map(|g| g.len()).unwrap_or(0);
                (len as u64, slot)
            }
            (Space::Shared, size) => {
                let len = match size {
                    AllocSize::Dynamic => dyn_bytes / elem_size,
                    AllocSize::Static(n) => n,
                    AllocSize::Param(_) => 0,
                };
                let base = shared_cells;
                shared_cells += len as usize;
                (len, base)
            }
            (_, size) => {
                let len = match size {
                    AllocSize::Static(n) => n,
                    _ => 0,
                };
                let base = local_cells;
                local_cells += len as usize;
                (len, base)
            }
        };
        mems.push(MemInfo {
            space: a.space,
            name: a.name.clone(),
            elem_size,
            len,
            base,
        });
    }
    if shared_cells > (1 << 24)
        || local_cells.saturating_mul(cfg.threads_per_block() as usize) > (1 << 26)
    {
        return Err(ExecError::InvalidLaunch(
            "shared or local arrays are too large to simulate".into(),
        ));
    }
    let mut deny = opts.deny.clone();
    deny.extend(kernel.contract.deny.iter().copied());
    let threads = cfg.threads_per_block() as usize;
    Ok(Ctx {
        code,
        insts: &code.insts,
        nregs: code.num_regs as usize,
        cfg: *cfg,
        params,
        mems,
        global,
        shared_cells,
        local_cells,
        threads,
        warps: threads.div_ceil(32),
        checks: opts.checks,
        lockstep: opts.lockstep_warps,
        deny,
        max_findings: opts.max_findings,
        max_block_instructions: opts.max_block_instructions,
    })
}
