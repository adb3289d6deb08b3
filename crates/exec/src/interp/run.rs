//! The launch driver: checks arguments, lays out memory, runs blocks (in parallel when asked),
//! and merges per-block findings and global-access summaries in block order.

use super::budget::Budget;
use super::context::{Ctx, MemInfo};
use super::cooperative;
use super::findings::Sink;
use super::footprint;
use super::interblock::{History, Touch};
use super::scheduler;
use super::worker::Worker;
use crate::launch::check_args;
use crate::report::{Outcome, Stats};
use crate::thread::code::{AllocSize, Inst, Space};
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
}

impl BlockResult {
    /// A block not run because the launch's budget was already spent.
    fn skipped() -> BlockResult {
        BlockResult {
            sink: Sink::default(),
            touched: Vec::new(),
            instrs: 0,
            barriers: 0,
        }
    }
}

/// How many blocks may run at once: all the pool's threads, or fewer when
/// [`Options::max_memory`] needs it; an error when even one block would not fit.
fn parallelism(
    p: &Program,
    cfg: &LaunchConfig,
    dyn_bytes: u64,
    args: &[Arg],
    opts: &Options,
) -> Result<u64, ExecError> {
    let lens: Vec<u64> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Buffer(b) => Some(b.len() as u64),
            Arg::Scalar(_) => None,
        })
        .collect();
    let est = footprint::estimate(p.code(), cfg, dyn_bytes, &lens, opts);
    let Some(limit) = opts.max_memory else {
        return Ok(est.parallel_blocks);
    };
    est.blocks_within(limit).ok_or(ExecError::MemoryLimit {
        needed: est.with_blocks(1),
        launch_bytes: est.launch_bytes,
        block_bytes: est.block_bytes,
        limit,
    })
}

/// Checks that every block of a cooperative launch fits in memory at once (they all stay
/// alive until the launch ends), under [`Options::max_memory`] or else the default limit;
/// returns how many blocks there are.
fn cooperative_memory(
    p: &Program,
    cfg: &LaunchConfig,
    dyn_bytes: u64,
    args: &[Arg],
    opts: &Options,
) -> Result<u64, ExecError> {
    let blocks = cfg.num_blocks();
    let limit = opts
        .max_memory
        .unwrap_or_else(crate::limits::default_memory_limit);
    let lens: Vec<u64> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Buffer(b) => Some(b.len() as u64),
            Arg::Scalar(_) => None,
        })
        .collect();
    let est = footprint::estimate(p.code(), cfg, dyn_bytes, &lens, opts);
    let needed = est.with_blocks(blocks);
    if needed > limit {
        return Err(ExecError::MemoryLimit {
            needed,
            launch_bytes: est.launch_bytes,
            block_bytes: est.block_bytes,
            limit,
        });
    }
    Ok(blocks)
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
    check_array_sizes(p.code(), cfg, dyn_bytes)?;
    let blocks = cfg.num_blocks();
    let threads = blocks.saturating_mul(cfg.threads_per_block());
    if threads > opts.max_total_instructions && !p.code().insts.is_empty() {
        return Err(ExecError::StepLimit {
            block: None,
            limit: opts.max_total_instructions,
        });
    }
    let cooperative = p
        .code()
        .insts
        .iter()
        .any(|i| matches!(i, Inst::GridBarrier { .. }));
    let at_once = if cooperative {
        cooperative_memory(p, cfg, dyn_bytes, &args, opts)?
    } else {
        parallelism(p, cfg, dyn_bytes, &args, opts)?
    };
    let ctx = build_ctx(p, cfg, &args, opts, dyn_bytes)?;
    let budget = Budget::new(ctx.max_block_instructions, opts.max_total_instructions);

    let pool: Mutex<Vec<Worker>> = Mutex::new(Vec::new());
    let run_one = |b: u64| -> BlockResult {
        if budget.is_spent() {
            return BlockResult::skipped();
        }
        let mut w = pool
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_else(|| Worker::new(&ctx));
        let mut rng = opts
            .schedule_seed
            .map(|s| scheduler::Rng::new(s ^ b.wrapping_mul(0xff51_afd7_ed55_8ccd)));
        scheduler::run_block(&ctx, &mut w, ctx.block_idx(b), rng.as_mut(), &budget);
        let r = BlockResult {
            sink: w.sink.take(),
            touched: std::mem::take(&mut w.touched),
            instrs: w.instrs,
            barriers: w.barriers,
        };
        pool.lock().unwrap_or_else(|e| e.into_inner()).push(w);
        r
    };
    let capped = match at_once {
        n if n >= 2 && (n as usize) < rayon::current_num_threads() => {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n as usize)
                .build()
                .ok()
        }
        _ => None,
    };

    let mut sink = Sink::default();
    let mut history = History::new(&ctx);
    let mut stats = Stats::default();
    let mut widest_summary: Option<u64> = None;
    let mut lo = 0u64;
    if cooperative {
        cooperative::run(&ctx, opts, &budget, &mut sink, &mut stats)?;
        lo = blocks;
    }
    while lo < blocks {
        let chunk = footprint::next_chunk(at_once, widest_summary);
        let hi = lo.saturating_add(chunk).min(blocks);
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
            None if at_once <= 1 => (lo..hi).map(run_one).collect(),
            None => match &capped {
                Some(pool) => pool.install(|| (lo..hi).into_par_iter().map(run_one).collect()),
                None => (lo..hi).into_par_iter().map(run_one).collect(),
            },
        };
        if let Some(e) = budget.reason() {
            return Err(e);
        }
        let touch = std::mem::size_of::<Touch>() as u64;
        let widest = results.iter().map(|r| r.touched.capacity() as u64 * touch);
        widest_summary = widest_summary.max(widest.max());
        for (i, r) in results.into_iter().enumerate() {
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
    stats.threads = threads;

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

/// Shared cells of a block and local cells of all its threads that the interpreter refuses to
/// simulate, whatever the memory limit: far beyond any GPU's, and beyond what indexes fit.
const MAX_SHARED_CELLS: u64 = 1 << 24;
const MAX_LOCAL_CELLS: u64 = 1 << 26;

fn check_array_sizes(
    code: &crate::thread::code::ThreadCode,
    cfg: &LaunchConfig,
    dyn_bytes: u64,
) -> Result<(), ExecError> {
    let (shared, local) = footprint::cells(code, dyn_bytes);
    if shared > MAX_SHARED_CELLS {
        return Err(ExecError::InvalidLaunch(format!(
            "the shared arrays of a block have {shared} elements; the interpreter simulates at most {MAX_SHARED_CELLS}"
        )));
    }
    let threads = cfg.threads_per_block();
    let all_local = local.saturating_mul(threads);
    if all_local > MAX_LOCAL_CELLS {
        return Err(ExecError::InvalidLaunch(format!(
            "the local arrays of a block's {threads} threads have {all_local} elements ({local} per thread); the interpreter simulates at most {MAX_LOCAL_CELLS}"
        )));
    }
    Ok(())
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
                shared_cells = shared_cells.saturating_add(len as usize);
                (len, base)
            }
            (_, size) => {
                let len = match size {
                    AllocSize::Static(n) => n,
                    _ => 0,
                };
                let base = local_cells;
                local_cells = local_cells.saturating_add(len as usize);
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

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_ir::{Dim, Expr, KernelBuilder, MemRef, ScalarType};

    /// `x[i] = 1` for every thread, with a per-thread local array of `local` elements.
    fn fill(local: u64) -> Kernel {
        let mut b = KernelBuilder::new("fill");
        let x = b.buffer_param("x", ScalarType::I32, true);
        if local > 0 {
            let a = b.local_array("scratch", ScalarType::I32, vec![local]);
            b.store(MemRef::Local(a), vec![Expr::u32(0)], Expr::i32(1));
        }
        let i = b.let_("i", b.global_index(Dim::X));
        b.store(MemRef::Global(x), vec![b.var(i)], Expr::i32(1));
        b.finish()
    }

    fn spin() -> Kernel {
        let mut b = KernelBuilder::new("spin");
        let x = b.buffer_param("x", ScalarType::I32, true);
        b.while_(Expr::bool(true), |b| {
            b.store(MemRef::Global(x), vec![Expr::u32(0)], Expr::i32(1));
        });
        b.finish()
    }

    fn ones(n: usize) -> Vec<Arg> {
        vec![Arg::Buffer(Buffer::from_i32(&vec![0; n]))]
    }

    #[test]
    fn a_launch_over_the_memory_limit_is_refused_with_the_estimate() {
        let opts = Options {
            max_memory: Some(1 << 20),
            ..Options::default()
        };
        let err = run(
            &fill(0),
            &LaunchConfig::linear(64, 256),
            ones(1 << 16),
            &opts,
        )
        .unwrap_err();
        let ExecError::MemoryLimit {
            needed,
            launch_bytes,
            block_bytes,
            limit,
        } = err
        else {
            panic!("{err}");
        };
        assert_eq!(limit, 1 << 20);
        assert_eq!(needed, launch_bytes + block_bytes);
        assert!(launch_bytes >= (1 << 16) * 24, "{launch_bytes}");
        assert!(err
            .to_string()
            .contains("more than the memory limit of 1.0 MiB"));
    }

    #[test]
    fn big_block_state_runs_fewer_blocks_at_once_instead_of_failing() {
        let kernel = fill(4096);
        let cfg = LaunchConfig::linear(16, 256);
        let p = compile(&kernel).unwrap();
        let est = footprint::estimate_memory(&p, &cfg, &[4096], &Options::default());
        assert!(est.block_bytes > 4096 * 256 * 12);
        let opts = Options {
            max_memory: Some(est.with_blocks(1)),
            ..Options::default()
        };
        let out = run_program(&p, &cfg, ones(4096), &opts).unwrap();
        let Arg::Buffer(x) = &out.args[0] else {
            panic!("buffer expected");
        };
        assert_eq!(x.to_i32(), vec![1; 4096]);
        let below = Options {
            max_memory: Some(est.with_blocks(1) - 1),
            ..Options::default()
        };
        assert!(matches!(
            run_program(&p, &cfg, ones(4096), &below),
            Err(ExecError::MemoryLimit { .. })
        ));
    }

    #[test]
    fn an_endless_loop_in_many_blocks_stops_at_the_launch_budget() {
        let opts = Options {
            max_total_instructions: 5_000_000,
            ..Options::default()
        };
        let start = Instant::now();
        let err = run(&spin(), &LaunchConfig::linear(64, 64), ones(1), &opts).unwrap_err();
        assert_eq!(
            err,
            ExecError::StepLimit {
                block: None,
                limit: 5_000_000
            }
        );
        assert!(start.elapsed().as_secs() < 20);
    }

    #[test]
    fn the_per_block_budget_names_the_block() {
        for parallel in [false, true] {
            let opts = Options {
                max_block_instructions: 10_000,
                parallel,
                ..Options::default()
            };
            let err = run(&spin(), &LaunchConfig::linear(4, 32), ones(1), &opts).unwrap_err();
            assert!(
                matches!(
                    err,
                    ExecError::StepLimit {
                        block: Some(_),
                        limit: 10_000
                    }
                ),
                "{err}"
            );
        }
    }

    #[test]
    fn more_threads_than_the_budget_are_refused_before_running() {
        let opts = Options {
            max_total_instructions: 1000,
            ..Options::default()
        };
        let cfg = LaunchConfig {
            grid: [i32::MAX as u32, 65535, 65535],
            block: [1024, 1, 1],
            dynamic_shared_bytes: 0,
        };
        let err = run(&fill(0), &cfg, ones(1), &opts).unwrap_err();
        assert_eq!(
            err,
            ExecError::StepLimit {
                block: None,
                limit: 1000
            }
        );
    }

    #[test]
    fn a_launch_within_the_budget_is_unaffected() {
        let opts = Options {
            max_total_instructions: 1 << 20,
            max_memory: Some(1 << 30),
            ..Options::default()
        };
        let out = run(&fill(0), &LaunchConfig::linear(8, 128), ones(1024), &opts).unwrap();
        assert!(out.findings.is_empty());
        assert_eq!(out.stats.threads, 1024);
    }
}
