//! Lowering PTX to warpsafe thread code, so the interpreter runs what NVRTC emitted.
//!
//! Pointers get provenance: every kernel pointer parameter becomes a global buffer, every
//! `.shared` variable (extern dynamic ones included) a shared allocation and every `.local`
//! variable a local one. A register derived from a pointer holds its byte offset into that
//! allocation, so `cvta`, `add`, `mad.wide` and friends lower to integer arithmetic and each
//! `ld`/`st`/`atom` resolves statically to (allocation, byte offset, width). Each allocation
//! is an array of one element size, taken from its accesses (or from the signature).
//!
//! Integer arithmetic wraps as PTX defines it (no signed-overflow findings: C's undefined
//! behaviour has been compiled away); `.approx` float operations compute as IEEE operations.
//! Directed roundings (`fma.rm`, `add.rz`, …, which NVRTC's libdevice uses inside `expf`,
//! `fmodf` and friends) compute as round-to-nearest, so such a result may differ from the
//! GPU's in the last place (the model of floats as reals makes every rounding of `a*b+c` the
//! same). 8- and 16-bit integers and `f16` run in their own width.
//!
//! Calls of `.func` device functions are inlined (`flat`), recursion rejected; `assert`'s
//! `__assertfail` and `trap` are failed assertions; instructions without a model (`cp.async`,
//! `mbarrier`, `stmatrix`, `wgmma`, …) are rejected naming the instruction and line.
//! Tensor cores: `wmma.load`/`.store`/`.mma` with the fragment layout of our `<mma.h>`, and
//! `ldmatrix` and `mma.sync` (m16n8k8, m16n8k16) with the layouts of the PTX ISA, each a
//! warp-collective sequence of shuffles, loads and float arithmetic that first waits for the
//! whole warp (`inst::wmma`, `inst::mma`).
//! The magic-number sequences NVRTC emits for `x / d` and `x % d` by a constant become exact
//! divisions once the magic constant is proved for every operand value (`divide`, `magic`),
//! so the symbolic executor sees `x % d` where the source has it; likewise NVRTC's sequences
//! for `expf` and `__expf` become `exp` (`expf`). Signed additions and products of memory
//! contents are lowered unsigned where the source kernel does no signed arithmetic on memory
//! contents (`data`): the same bits, without a signed overflow the source does not have.

mod data;
mod divide;
mod emit;
mod expf;
mod flat;
pub use flat::GRID_BARRIER_FUNCTION;
mod inst;
mod magic;
mod memory;
mod provenance;
mod types;

use crate::ast::{Function, Instruction, Module, Operand};
use flat::{Flat, Step};
use provenance::{address_operand, Key, Provenance};
use std::collections::HashSet;
use types::{Kind, PtxType};
use warpsafe_exec::Program;
use warpsafe_ir::{Kernel, ParamKind, Span};

/// Why a PTX kernel could not be lowered: an unsupported instruction or construct, naming it
/// and its 1-based line (0 when it is not tied to one instruction).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", if *line > 0 { format!("line {line}: ") } else { String::new() })]
pub struct LowerError {
    /// What is unsupported or inconsistent.
    pub message: String,
    /// 1-based PTX line, or 0.
    pub line: usize,
}

impl LowerError {
    pub(crate) fn new(message: impl Into<String>, line: usize) -> LowerError {
        LowerError {
            message: message.into(),
            line,
        }
    }

    pub(crate) fn at(i: &Instruction, message: impl Into<String>) -> LowerError {
        LowerError::new(message, i.line)
    }
}

/// How to lower: which kernel, under which signature, with spans into which text.
#[derive(Clone, Copy, Debug, Default)]
pub struct LowerOptions<'a> {
    /// The `.entry` to lower; the first one when `None`.
    pub entry: Option<&'a str>,
    /// The kernel's source-level signature (from the `.cu` it was compiled from): parameter
    /// names, element types and the launch contract. Without it, pointer parameters are found
    /// by their use as addresses, buffer element types from their accesses, and parameters
    /// keep their PTX names.
    pub signature: Option<&'a Kernel>,
    /// The PTX text the module was parsed from; findings then point at its lines.
    pub source: Option<&'a str>,
}

/// Lowers kernel `entry` (the first `.entry` when `None`) of `module` to a runnable program.
/// The program's [`kernel`](Program::kernel) is the signature a launch needs: parameters
/// (buffers for pointer parameters), shared arrays and an empty contract.
pub fn lower(module: &Module, entry: Option<&str>) -> Result<Program, LowerError> {
    lower_with(
        module,
        &LowerOptions {
            entry,
            ..Default::default()
        },
    )
}

/// Lowers a kernel of `module` as `opts` say (see [`LowerOptions`]).
pub fn lower_with(module: &Module, opts: &LowerOptions) -> Result<Program, LowerError> {
    let f = find_entry(module, opts.entry)?;
    if module.address_size != 64 && module.address_size != 0 {
        return Err(LowerError::new(
            format!(
                "`.address_size {}` is not supported (only 64)",
                module.address_size
            ),
            0,
        ));
    }
    let flat = Flat::new(module, f)?;
    let vars = memory::variables(&module.globals, &flat);
    let var_names: HashSet<String> = vars.iter().map(|v| v.name.clone()).collect();
    let params: std::collections::HashMap<String, u32> = f
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.clone(), i as u32))
        .collect();

    if opts.signature.is_some() {
        if let Some(p) = f.params.iter().find(|p| !p.dims.is_empty()) {
            return Err(LowerError::new(
                format!(
                    "parameter `{}` is a by-value aggregate ({} {}[{}]); lowering it under a source signature is not supported (lower without the signature to get one scalar parameter per field read)",
                    p.name,
                    p.ty,
                    p.name,
                    p.dims.iter().map(|d| d.map_or(String::new(), |n| n.to_string())).collect::<Vec<_>>().join("][")
                ),
                0,
            ));
        }
    }
    let pointers: Vec<bool> = match opts.signature {
        Some(sig) => sig
            .params
            .iter()
            .map(|p| matches!(p.kind, ParamKind::Buffer { .. }))
            .collect(),
        None => discover_pointers(f, &flat, &params, &var_names),
    };
    let is_pointer = |k: u32| pointers.get(k as usize).copied().unwrap_or(false);
    let prov = Provenance::analyse(&flat, &params, &is_pointer, &var_names);
    let layout = memory::layout(f, &flat, &vars, &prov, pointers.clone(), opts.signature)?;

    let read_preds = predicates_read(&flat);
    let data = data::DataRegs::new(&flat, opts.signature);
    inst::check_wmma_fragments(&flat)?;
    inst::check_mma_fragments(&flat)?;
    let mut cx = inst::Lowerer {
        e: emit::Emitter::new(&flat.regs),
        layout: &layout,
        prov: &prov,
        vars: &var_names,
        read_preds: &read_preds,
        divs: divide::Divisions::default(),
        exps: expf::Exponentials::default(),
        data: &data,
    };
    for s in &flat.steps {
        match s {
            Step::Label(l) => {
                cx.e.label(l);
                cx.divs.clear();
                cx.exps.clear();
            }
            Step::Instr(i) => cx.instr(i)?,
        }
    }
    cx.e.emit(warpsafe_exec::thread::code::Inst::Exit);
    let starts = opts.source.map(line_starts);
    let spans = |line: usize| match (&starts, opts.source) {
        (Some(st), Some(text)) if line > 0 && line <= st.len() => {
            let lo = st[line - 1];
            let hi = st
                .get(line)
                .map(|&h| h.saturating_sub(1))
                .unwrap_or(text.len());
            let indent = text
                .get(lo..hi)
                .map(|l| l.len() - l.trim_start().len())
                .unwrap_or(0);
            Span::new(lo + indent, hi.max(lo + indent))
        }
        _ => Span::DUMMY,
    };
    let code = cx.e.finish(&f.name, layout.allocs.clone(), &spans)?;
    Ok(Program::from_parts(layout.kernel, code))
}

/// The kernel to lower.
fn find_entry<'m>(module: &'m Module, entry: Option<&str>) -> Result<&'m Function, LowerError> {
    let mut entries = module
        .functions
        .iter()
        .filter(|f| f.is_entry && !f.is_declaration);
    match entry {
        None => entries
            .next()
            .ok_or_else(|| LowerError::new("the module has no .entry kernel", 0)),
        Some(name) => {
            let names: Vec<&str> = entries.clone().map(|f| f.name.as_str()).collect();
            entries.find(|f| f.name == name).ok_or_else(|| {
                LowerError::new(
                    format!("no .entry `{name}` (kernels: {})", names.join(", ")),
                    0,
                )
            })
        }
    }
}

/// Without a signature: 64-bit parameters whose values reach an address are pointers.
fn discover_pointers(
    f: &Function,
    flat: &Flat,
    params: &std::collections::HashMap<String, u32>,
    vars: &HashSet<String>,
) -> Vec<bool> {
    let candidates: Vec<bool> = f
        .params
        .iter()
        .map(|p| {
            p.dims.is_empty()
                && PtxType::parse(&p.ty).is_some_and(|t| t.bits == 64 && t.kind != Kind::Float)
        })
        .collect();
    let is_candidate = |k: u32| candidates.get(k as usize).copied().unwrap_or(false);
    let prov = Provenance::analyse(flat, params, &is_candidate, vars);
    let mut pointers = vec![false; f.params.len()];
    for i in flat.instrs() {
        if let Some(Operand::Address { base, .. }) = address_operand(i) {
            for k in prov.of(base) {
                if let Key::Param(p) = k {
                    if let Some(slot) = pointers.get_mut(p as usize) {
                        *slot = true;
                    }
                }
            }
        }
    }
    pointers
}

/// Predicate registers some instruction reads (as a guard or an operand).
fn predicates_read(flat: &Flat) -> HashSet<String> {
    let mut out = HashSet::new();
    for i in flat.instrs() {
        if let Some(p) = &i.pred {
            out.insert(p.reg.clone());
        }
        for (n, op) in i.operands.iter().enumerate() {
            match op {
                Operand::Reg(r) | Operand::Not(r) if n > 0 || i.opcode.starts_with("st") => {
                    out.insert(r.clone());
                }
                _ => {}
            }
        }
    }
    out
}

/// Byte offset of the start of each line.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}
