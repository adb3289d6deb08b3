//! The symbolic-execution driver: compiles a kernel to thread code, resolves the launch, runs
//! the selected blocks (in parallel, each with its own term store), merges their global writes
//! into one store and checks races between blocks.

use crate::block::{BlockResult, BlockRun, Ctx};
use crate::budget::Budget;
use crate::finding::{Finding, Issue, Place};
use crate::value::SVal;
use crate::{launch, BlockSel, EquivError, ExecConfig};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;
use warpsafe_algebra::{FxHashMap, ImportMemo, Store, TermId};
use warpsafe_exec::thread::code::{BinaryOp, Space};
use warpsafe_exec::{LaunchConfig, Program};
use warpsafe_ir::{Category, Kernel, ParamKind, ScalarType};

/// One global buffer after a symbolic run.
#[derive(Clone, Debug)]
pub struct SymBuffer {
    /// Parameter name.
    pub name: String,
    /// Parameter index.
    pub param: u32,
    /// Element type.
    pub elem: ScalarType,
    /// False for `const` buffers (their `values` are left empty).
    pub writable: bool,
    /// Per element: its final term (the input symbol `name[i]` where nothing wrote it).
    pub values: Vec<TermId>,
    /// Per element: whether some thread wrote it.
    pub written: Vec<bool>,
}

/// Counters of a symbolic run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SymStats {
    /// Blocks run.
    pub blocks: u64,
    /// Instructions executed, summed over threads.
    pub thread_instructions: u64,
    /// Block barriers released, summed over blocks.
    pub barriers: u64,
    /// Distinct terms built.
    pub terms: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The result of running a kernel symbolically.
#[derive(Debug)]
pub struct SymOutcome {
    /// The kernel's name.
    pub kernel: String,
    /// Every term of the outputs.
    pub store: Store,
    /// The launch that ran.
    pub launch: LaunchConfig,
    /// Global buffers in parameter order.
    pub buffers: Vec<SymBuffer>,
    /// Findings, in block order.
    pub findings: Vec<Finding>,
    /// Counters.
    pub stats: SymStats,
    /// Buffers that started as a constant (`--init`, `//@ init`) rather than input symbols.
    pub starts: Vec<crate::BufferStart>,
}

impl SymOutcome {
    /// The buffer called `name`.
    pub fn buffer(&self, name: &str) -> Option<&SymBuffer> {
        self.buffers.iter().find(|b| b.name == name)
    }

    /// True when some finding is an error (a bug of an error category or a reason the run
    /// is not exact).
    pub fn has_errors(&self) -> bool {
        self.findings
            .iter()
            .any(|f| f.issue != Issue::Bug(Category::Overflow))
    }
}

/// Runs `kernel` symbolically: concrete launch and thread ids, every input element a symbol.
pub fn run_symbolic(kernel: &Kernel, cfg: &ExecConfig) -> Result<SymOutcome, EquivError> {
    let program = warpsafe_exec::compile(kernel).map_err(|e| EquivError::Compile(e.to_string()))?;
    run_symbolic_program(&program, cfg)
}

/// Runs an already-compiled program symbolically (thread code from the IR or lowered from
/// PTX); [`Program::kernel`] gives the signature, header contract and launch defaults.
pub fn run_symbolic_program(program: &Program, cfg: &ExecConfig) -> Result<SymOutcome, EquivError> {
    run_budgeted(program, cfg, &Budget::new(cfg.limits))
}

/// [`run_symbolic_program`] under a budget shared with the rest of a check.
pub(crate) fn run_budgeted(
    program: &Program,
    cfg: &ExecConfig,
    budget: &Arc<Budget>,
) -> Result<SymOutcome, EquivError> {
    run_in(program, cfg, budget, None).map(|(outcome, _)| outcome)
}

/// A run in field mode ([`crate::field`]).
pub(crate) struct FieldRun {
    /// The run, its buffers without terms (`values` empty, `written` as run).
    pub outcome: SymOutcome,
    /// Per buffer of `outcome`: each element's final value at the point (empty for `const`
    /// buffers).
    pub values: Vec<Vec<SVal>>,
    /// Why field mode could not run the kernel, if it could not.
    pub refused: Option<crate::field::Refusal>,
}

/// Runs `program` in field mode at the point `ev`: every float is its value there.
pub(crate) fn run_field(
    program: &Program,
    cfg: &ExecConfig,
    budget: &Arc<Budget>,
    ev: warpsafe_algebra::PointEval,
) -> Result<FieldRun, EquivError> {
    let (outcome, field) = run_in(program, cfg, budget, Some(ev))?;
    let (values, refused) = field.unwrap_or_default();
    Ok(FieldRun {
        outcome,
        values,
        refused,
    })
}

/// Per buffer, the field values of its elements; and why field mode stopped, if it did.
type FieldValues = (Vec<Vec<SVal>>, Option<crate::field::Refusal>);

fn run_in(
    program: &Program,
    cfg: &ExecConfig,
    budget: &Arc<Budget>,
    field: Option<warpsafe_algebra::PointEval>,
) -> Result<(SymOutcome, Option<FieldValues>), EquivError> {
    let start = Instant::now();
    let kernel = program.kernel();
    let setup = launch::resolve(kernel, cfg)?;
    let mut ctx = Ctx::new(
        program.code(),
        kernel,
        &setup,
        cfg.lockstep_warps,
        cfg.max_block_instructions,
        Arc::clone(budget),
    );
    ctx.field = field;
    let blocks: Vec<[u32; 3]> = match cfg.blocks {
        BlockSel::One(b) => {
            let g = setup.launch.grid;
            if b.iter().zip(g.iter()).any(|(i, n)| i >= n) {
                return Err(EquivError::Launch(format!(
                    "block {b:?} is outside the grid {g:?}"
                )));
            }
            vec![b]
        }
        BlockSel::All => (0..setup.launch.num_blocks())
            .map(|b| ctx.block_idx(b))
            .collect(),
    };
    let run = |b: &[u32; 3]| {
        let mut block = BlockRun::new(&ctx, *b);
        start_buffers(&mut block, kernel, &setup);
        block.run()
    };
    let mut results: Vec<BlockResult> = if cfg.parallel && blocks.len() > 1 {
        blocks.par_iter().map(run).collect()
    } else {
        blocks.iter().map(run).collect()
    };

    // One block's store (of terms) becomes the kernel's: its outputs need no copy, and its
    // interning table stays for the terms moved in later (the other kernel's, to compare).
    let single = results.len() == 1 && field.is_none();
    let mut store = match results.first_mut() {
        Some(r) if single => std::mem::take(&mut r.store),
        _ => Store::new(),
    };
    let mut buffers = Vec::new();
    let mut starts: Vec<Start> = Vec::new();
    let mut field_values: Vec<Vec<SVal>> = Vec::new();
    let mut slot_of: HashMap<u32, usize> = HashMap::new();
    for (m, a) in program.code().allocs.iter().enumerate() {
        if a.space != Space::Global {
            continue;
        }
        let Some(param) = kernel.params.iter().position(|p| p.name == a.name) else {
            continue;
        };
        let writable = matches!(
            kernel.params[param].kind,
            ParamKind::Buffer { writable: true, .. }
        );
        let len = ctx.mems[m].len as usize;
        let start = setup.inits.get(param).copied().flatten();
        let values = if writable && field.is_none() {
            (0..len)
                .map(|i| match start {
                    Some(v) => crate::value::term(&mut store, a.elem, SVal::C(v.to_bits())),
                    None => crate::value::input_symbol(&mut store, &a.name, Some(i as u64), a.elem),
                })
                .collect()
        } else {
            Vec::new()
        };
        starts.push(Start {
            name: a.name.clone(),
            elem: a.elem,
            value: start,
        });
        if let Some(ev) = field {
            field_values.push(if writable {
                (0..len)
                    .map(|i| field_start(&ev, a.elem, &a.name, i as u64, start))
                    .collect()
            } else {
                Vec::new()
            });
        }
        slot_of.insert(m as u32, buffers.len());
        buffers.push(SymBuffer {
            name: a.name.clone(),
            param: param as u32,
            elem: a.elem,
            writable,
            values,
            written: vec![false; if writable { len } else { 0 }],
        });
    }
    let mut refused = None;
    // Per writable cell: every write merged so far added to it (atomicAdd, old value unused),
    // so later blocks' changes add up instead of overwriting.
    let mut additive: Vec<Vec<bool>> = buffers
        .iter()
        .map(|b| vec![true; b.written.len()])
        .collect();
    let mut changes: Vec<(usize, usize, TermId)> = Vec::new();

    let mut findings = Vec::new();
    let mut stats = SymStats::default();
    let mut touched: FxHashMap<(u32, usize), FirstAccess> = FxHashMap::default();
    let guarded: std::collections::HashSet<u32> = results
        .iter()
        .flat_map(|r| r.guarded.iter().copied())
        .collect();
    // The blocks' terms are distinct but for their leaves: merge them without the table.
    if !single {
        store.unindex();
    }
    for (bi, r) in results.into_iter().enumerate() {
        if refused.is_none() {
            refused = r.refused;
        }
        for (m, idx, v, adds) in r.field_writes {
            let Some(&s) = slot_of.get(&m) else { continue };
            let (Some(cell), Some(w), Some(a)) = (
                field_values.get_mut(s).and_then(|b| b.get_mut(idx)),
                buffers[s].written.get_mut(idx),
                additive.get_mut(s).and_then(|b| b.get_mut(idx)),
            ) else {
                continue;
            };
            if *w && *a && adds {
                let merged = field.map(|ev| add_change(&ev, &starts[s], idx, *cell, v));
                match merged {
                    Some(Ok(m)) => *cell = m,
                    Some(Err(why)) => refused = refused.or(Some(why)),
                    None => {}
                }
            } else {
                *a = adds && !*w;
                *cell = v;
            }
            *w = true;
        }
        let mut memo = ImportMemo::default();
        // Out of budget, the outputs are not final: no point in moving them (more memory).
        let writes = if budget.spent().is_some() {
            Vec::new()
        } else {
            r.writes
        };
        for (m, idx, t, adds) in writes {
            let new = if single {
                t
            } else {
                store.import_unshared(&r.store, t, &mut memo)
            };
            let Some(&s) = slot_of.get(&m) else { continue };
            let b = &mut buffers[s];
            if idx >= b.values.len() {
                continue;
            }
            if b.written[idx] && additive[s][idx] && adds {
                changes.push((s, idx, new));
            } else {
                additive[s][idx] = adds && !b.written[idx];
                b.values[idx] = new;
            }
            b.written[idx] = true;
        }
        for f in r.findings {
            let repeated = f.issue == Issue::Budget
                && findings.iter().any(|g: &Finding| g.issue == Issue::Budget);
            if !repeated {
                findings.push(f);
            }
        }
        for t in r.touches {
            interblock(&ctx, &mut touched, &guarded, blocks[bi], t, &mut findings);
        }
        stats.thread_instructions += r.instrs;
        stats.barriers += r.barriers;
    }
    // Each later block's change to a cell only atomics added to: `now + (its value − start)`.
    for (s, idx, new) in changes {
        if !additive[s][idx] {
            continue;
        }
        let st = &starts[s];
        let start = match st.value {
            Some(v) => crate::value::term(&mut store, st.elem, SVal::C(v.to_bits())),
            None => crate::value::input_symbol(&mut store, &st.name, Some(idx as u64), st.elem),
        };
        let change = store.sub(new, start);
        let b = &mut buffers[s];
        b.values[idx] = store.add(b.values[idx], change);
    }
    stats.blocks = blocks.len() as u64;
    stats.terms = store.len() as u64;
    stats.seconds = start.elapsed().as_secs_f64();
    let outcome = SymOutcome {
        kernel: kernel.name.clone(),
        store,
        launch: setup.launch,
        buffers,
        findings,
        stats,
        starts: setup.starts.clone(),
    };
    Ok((outcome, field.map(|_| (field_values, refused))))
}

/// What a global buffer's elements start as: their `init` constant, else input symbols.
struct Start {
    name: String,
    elem: ScalarType,
    value: Option<warpsafe_ir::Value>,
}

/// `now + (new − start)` in field mode: another block's atomic additions to a cell.
fn add_change(
    ev: &warpsafe_algebra::PointEval,
    st: &Start,
    idx: usize,
    now: SVal,
    new: SVal,
) -> Result<SVal, crate::field::Refusal> {
    let start = field_start(ev, st.elem, &st.name, idx as u64, st.value);
    if st.elem.is_float() {
        let change = crate::field::binary(ev, BinaryOp::Sub, st.elem, new, start)?;
        return crate::field::binary(ev, BinaryOp::Add, st.elem, now, change);
    }
    match (now, new, start) {
        (SVal::C(a), SVal::C(b), SVal::C(c)) => {
            let mut scratch = Store::new();
            let ty = st.elem;
            let (change, _) = crate::value::binary(
                &mut scratch,
                BinaryOp::Sub,
                ty,
                false,
                SVal::C(b),
                SVal::C(c),
            );
            Ok(crate::value::binary(&mut scratch, BinaryOp::Add, ty, false, SVal::C(a), change).0)
        }
        _ => Err(format!(
            "atomic additions to integer input data (`{}`)",
            st.name
        )),
    }
}

/// The value a writable buffer's element starts with in field mode: its `init` constant, or
/// its input symbol (a float buffer); an integer buffer's elements are left as they are,
/// which the comparison refuses if they are outputs.
fn field_start(
    ev: &warpsafe_algebra::PointEval,
    elem: ScalarType,
    name: &str,
    index: u64,
    start: Option<warpsafe_ir::Value>,
) -> SVal {
    match (start, elem.is_float()) {
        (Some(v), true) => crate::field::constant(ev, elem, v.to_bits()).unwrap_or(SVal::Input),
        (Some(v), false) => SVal::C(v.to_bits()),
        (None, true) => crate::field::symbol(ev, name, Some(index)),
        (None, false) => SVal::Input,
    }
}

/// Gives every element of a buffer with initial contents (`//@ init`, `--init`) its constant
/// instead of the input symbol it would get on first read.
fn start_buffers(block: &mut BlockRun, kernel: &Kernel, setup: &launch::Setup) {
    for (m, info) in block.ctx.mems.iter().enumerate() {
        if info.space != Space::Global {
            continue;
        }
        let param = kernel.params.iter().position(|p| p.name == info.name);
        let Some(v) = param.and_then(|p| setup.inits.get(p).copied().flatten()) else {
            continue;
        };
        let cell = if let (Some(ev), true) = (block.ctx.field, info.elem.is_float()) {
            let r = crate::field::constant(&ev, info.elem, v.to_bits());
            block.in_field(r)
        } else if info.elem.is_float() {
            SVal::T(crate::value::term(
                &mut block.store,
                info.elem,
                SVal::C(v.to_bits()),
            ))
        } else {
            SVal::C(v.to_bits())
        };
        block.mem[m].fill(cell);
    }
}

/// An earlier access (block, thread, pc) and its kind, the current access (thread, pc) and its kind.
type Conflict = (([u32; 3], u32, u32), &'static str, (u32, u32), &'static str);

/// The first reader and writer blocks of a global cell.
#[derive(Default)]
struct FirstAccess {
    read: Option<([u32; 3], u32, u32)>,
    write: Option<([u32; 3], u32, u32, bool)>,
}

fn interblock(
    ctx: &Ctx,
    seen: &mut FxHashMap<(u32, usize), FirstAccess>,
    guarded: &std::collections::HashSet<u32>,
    block: [u32; 3],
    t: crate::block::GlobalTouch,
    findings: &mut Vec<Finding>,
) {
    let e = seen.entry((t.mem, t.idx)).or_default();
    let mut conflict: Option<Conflict> = None;
    if let Some((b, tid, pc, atomic)) = e.write {
        if let Some((wt, wp, watomic)) = t.write {
            if !(atomic && watomic) {
                conflict = Some(((b, tid, pc), "write", (wt, wp), "write"));
            }
        } else if let Some((rt, rp)) = t.read {
            conflict = Some(((b, tid, pc), "write", (rt, rp), "read"));
        }
    } else if let (Some((b, tid, pc)), Some((wt, wp, _))) = (e.read, t.write) {
        conflict = Some(((b, tid, pc), "read", (wt, wp), "write"));
    }
    if e.read.is_none() {
        e.read = t.read.map(|(tid, pc)| (block, tid, pc));
    }
    if e.write.is_none() {
        e.write = t.write.map(|(tid, pc, a)| (block, tid, pc, a));
    }
    let Some(((ob, otid, opc), okind, (tid, pc), kind)) = conflict else {
        return;
    };
    if findings.iter().any(|f| {
        f.issue == Issue::Bug(Category::Race) && f.other.is_some_and(|o| o.block != f.at.block)
    }) {
        return; // one race between blocks is enough
    }
    let place = |b: [u32; 3], tid: u32, pc: u32| Place {
        block: b,
        thread: ctx.thread_idx(tid),
        span: ctx.code.spans.get(pc as usize).copied().unwrap_or_default(),
        line: None,
    };
    let name = &ctx.mems[t.mem as usize].name;
    if guarded.contains(&pc) || guarded.contains(&opc) {
        if !findings.iter().any(|f| f.issue == Issue::NotStructured) {
            findings.push(Finding {
                issue: Issue::NotStructured,
                kind: Issue::NotStructured.name(),
                message: format!(
                    "a possible {okind}-{kind} race on global `{name}` [index {}] between blocks {ob:?} and {block:?}: an access is under a branch on input data, which may not run",
                    t.idx
                ),
                at: place(block, tid, pc),
                other: Some(place(ob, otid, opc)),
            });
        }
        return;
    }
    findings.push(Finding {
        issue: Issue::Bug(Category::Race),
        kind: "race",
        message: format!(
            "{okind}-{kind} race on global `{name}` [index {}] between thread {:?} of block {:?} and thread {:?} of block {:?}",
            t.idx,
            ctx.thread_idx(otid),
            ob,
            ctx.thread_idx(tid),
            block
        ),
        at: place(block, tid, pc),
        other: Some(place(ob, otid, opc)),
    });
}
