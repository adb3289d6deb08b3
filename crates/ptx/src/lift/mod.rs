//! Lifting thread code back to structured IR, so PTX reaches the parametric verifier.
//!
//! `verify` reasons about IR: loops, branches and element-indexed accesses. PTX (after
//! [`lower_with`](crate::lower_with) resolved provenance, predication and NVRTC's division
//! sequences) is flat code with jumps and byte offsets. Lifting recovers the structure:
//! - each register becomes a variable of the type its definitions give it ([`regs`]);
//! - each reducible loop becomes a `do … while` (one exit, at its only latch) or a
//!   `for (;;)` with `break`/`continue` (one that returns at its latch becomes a `do … while`
//!   and a `return`, [`latch`]); each branch an `if` closed at its immediate
//!   post-dominator ([`structure`]);
//! - each access's byte offset becomes an element index, divided structurally where the
//!   offset is a sum of multiples of the element size, else divided with an alignment
//!   assertion ([`index`]);
//! - signed additions, subtractions and multiplications stay signed, mirroring the source's
//!   (the `overflow` property reports their wrap-around as it does the source's); shifts of
//!   signed values are done on the bits;
//! - a register written from a loop counter (`d = (u64)(u32)v` after `v += 128`) is read as
//!   that expression of the counter where the two agree ([`derived`]);
//! - an unsigned loop counter stepped by a signed `add` of a constant is stepped in its own
//!   type, the same bits ([`steps`]);
//! - a loop test computed from the counter before a right shift updates it reads the new
//!   value where that says the same ([`tested`]);
//! - a register assigned the counter's next value early in the body is copied from the
//!   counter after the loop, where the two agree ([`twins`]);
//! - assignments whose every use was substituted by the value go ([`prune`]).
//!
//! Whatever has no faithful IR form (irreducible flow, a loop leaving to several places, a
//! float register read as an integer) is a [`LiftError`] naming the instruction, so the
//! verdict is `unknown` with that reason, never a guess.

mod carried;
mod cfg;
mod derived;
mod index;
mod inst;
mod latch;
mod prune;
mod quotient;
mod regs;
mod steps;
mod structure;
mod tested;
mod twins;

use std::collections::HashMap;
use warpsafe_exec::thread::code::{AllocSize, Space, ThreadCode};
use warpsafe_exec::Program;
use warpsafe_ir::{ArrayDecl, ArrayId, Kernel, MemRef, ParamId, Span, Stmt, StmtKind, VarDecl};

/// Why thread code has no structured IR form: the reason and the thread-code pc (whose span
/// is the PTX line) it is about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct LiftError {
    /// What cannot be lifted.
    pub message: String,
    /// The pc of the instruction concerned.
    pub pc: usize,
    /// Its span (set by [`lift`]).
    pub span: Span,
}

impl LiftError {
    pub(crate) fn new(message: impl Into<String>, pc: usize) -> LiftError {
        LiftError {
            message: message.into(),
            pc,
            span: Span::DUMMY,
        }
    }
}

/// Lifts `program` (lowered from PTX) to an IR kernel with the program's signature and
/// contract and a structured body equivalent to its thread code. Spans are the thread
/// code's (PTX lines).
pub fn lift(program: &Program) -> Result<Kernel, LiftError> {
    let code = program.code();
    lift_code(program.kernel(), code).map_err(|mut e| {
        e.span = code.spans.get(e.pc).copied().unwrap_or(Span::DUMMY);
        e
    })
}

fn lift_code(sig: &Kernel, code: &ThreadCode) -> Result<Kernel, LiftError> {
    let cfg = cfg::Cfg::new(code)?;
    let types = regs::register_types(code)?;
    let mut kernel = Kernel {
        name: sig.name.clone(),
        params: sig.params.clone(),
        vars: Vec::new(),
        shared: Vec::new(),
        locals: Vec::new(),
        body: Vec::new(),
        contract: sig.contract.clone(),
        span: sig.span,
    };
    kernel.contract.volatile.clear();
    let mems = memories(&mut kernel, code)?;
    let mut var_of: HashMap<u32, warpsafe_ir::VarId> = HashMap::new();
    let mut lets = Vec::new();
    for (r, ty) in types.iter().enumerate() {
        if let Some(ty) = ty {
            let v = warpsafe_ir::VarId(kernel.vars.len() as u32);
            kernel.vars.push(VarDecl {
                name: format!("r{r}"),
                ty: *ty,
                span: Span::DUMMY,
            });
            var_of.insert(r as u32, v);
            lets.push(Stmt::new(StmtKind::Let { var: v, init: None }));
        }
    }
    let mut lifter = inst::Lifter::new(code, &cfg, &kernel, &types, var_of, mems);
    let mut body = structure::structure(&mut lifter)?;
    latch::latch_returns(&mut body);
    steps::unsigned_steps(&mut body);
    carried::direct_inductions(&mut body);
    tested::tests_on_new_values(&mut body);
    derived::derived_reads(&mut body);
    twins::settle_twins(&mut body);
    prune::prune_dead(&mut body);
    let volatile = lifter.volatile_memories();
    let new_vars = lifter.take_temps();
    kernel.contract.volatile = volatile;
    for (v, decl) in new_vars {
        debug_assert_eq!(v.0 as usize, kernel.vars.len());
        kernel.vars.push(decl);
        lets.push(Stmt::new(StmtKind::Let { var: v, init: None }));
    }
    lets.append(&mut body);
    kernel.body = lets;
    warpsafe_ir::check_kernel(&kernel).map_err(|errs| {
        let first = errs.first().map(|e| e.to_string()).unwrap_or_default();
        LiftError::new(format!("lifted IR does not type-check: {first}"), 0)
    })?;
    Ok(kernel)
}

/// The IR memory of every allocation: buffer parameters, and shared and local arrays
/// declared on `kernel` as the allocations describe them.
fn memories(kernel: &mut Kernel, code: &ThreadCode) -> Result<Vec<MemRef>, LiftError> {
    let mut out = Vec::new();
    for a in &code.allocs {
        let decl = |dynamic: bool, len: u64| ArrayDecl {
            name: a.name.clone(),
            elem: a.elem,
            dims: vec![if dynamic { 0 } else { len }],
            dynamic,
            span: Span::DUMMY,
        };
        let m = match (a.space, a.size) {
            (Space::Global, AllocSize::Param(p)) => MemRef::Global(ParamId(p)),
            (Space::Shared, AllocSize::Static(n)) => {
                kernel.shared.push(decl(false, n));
                MemRef::Shared(ArrayId(kernel.shared.len() as u32 - 1))
            }
            (Space::Shared, AllocSize::Dynamic) => {
                kernel.shared.push(decl(true, 0));
                MemRef::Shared(ArrayId(kernel.shared.len() as u32 - 1))
            }
            (Space::Local, AllocSize::Static(n)) => {
                kernel.locals.push(decl(false, n));
                MemRef::Local(ArrayId(kernel.locals.len() as u32 - 1))
            }
            (space, size) => {
                return Err(LiftError::new(
                    format!(
                        "allocation `{}` ({} memory, {size:?}) has no IR form",
                        a.name,
                        space.name()
                    ),
                    0,
                ))
            }
        };
        out.push(m);
    }
    Ok(out)
}
