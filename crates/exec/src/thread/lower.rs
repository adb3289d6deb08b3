//! Lowering from the structured IR to thread code: control flow to jumps, indices to byte
//! offsets, constants and launch builtins hoisted into registers set once at entry.

use super::code::{
    Alloc, AllocSize, BinaryOp, CmpOp, Inst, MemId, Reg, Space, ThreadCode, UnaryOp,
};
use std::collections::HashMap;
use thiserror::Error;
use warpsafe_ir::{
    BinOp, Builtin, Expr, ExprKind, Kernel, LogicOp, MemRef, ParamKind, ScalarType, Span, Stmt,
    StmtKind, UnOp, Value,
};

/// A construct the lowering cannot translate (never produced by well-typed IR).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cannot lower kernel to thread code: {message}")]
pub struct LowerError {
    /// What is unsupported.
    pub message: String,
    /// Where.
    pub span: Span,
}

/// Registers numbered at or above this are statement temporaries until renumbered.
const TEMP_BASE: Reg = 1 << 30;

/// Lowers a kernel to thread code.
pub fn lower_kernel(kernel: &Kernel) -> Result<ThreadCode, LowerError> {
    let mut cx = Lowerer::new(kernel);
    for s in &kernel.body {
        cx.stmt(s)?;
    }
    // Falling off the end of the body: point at the kernel's closing brace.
    let end = if kernel.span.is_dummy() {
        Span::DUMMY
    } else {
        Span::new(
            kernel.span.hi.saturating_sub(1) as usize,
            kernel.span.hi as usize,
        )
    };
    cx.emit(Inst::Exit, end);
    Ok(cx.finish())
}

struct LoopCtx {
    breaks: Vec<usize>,
    continues: Vec<usize>,
}

struct Lowerer<'k> {
    kernel: &'k Kernel,
    body: Vec<Inst>,
    spans: Vec<Span>,
    prologue: Vec<(Inst, Span)>,
    consts: HashMap<(u64, ScalarType), Reg>,
    specials: HashMap<Builtin, Reg>,
    params: HashMap<u32, Reg>,
    lens: HashMap<MemId, Reg>,
    next_fixed: Reg,
    temp: Reg,
    max_temp: Reg,
    loops: Vec<LoopCtx>,
    barriers: u32,
    allocs: Vec<Alloc>,
    global_mem: HashMap<u32, MemId>,
    shared_mem: Vec<MemId>,
    local_mem: Vec<MemId>,
}

impl<'k> Lowerer<'k> {
    fn new(kernel: &'k Kernel) -> Self {
        let mut allocs = Vec::new();
        let mut global_mem = HashMap::new();
        for (i, p) in kernel.params.iter().enumerate() {
            if let ParamKind::Buffer { elem, .. } = p.kind {
                global_mem.insert(i as u32, allocs.len() as MemId);
                allocs.push(Alloc {
                    name: p.name.clone(),
                    space: Space::Global,
                    elem,
                    size: AllocSize::Param(i as u32),
                    dims: vec![0],
                });
            }
        }
        let mut shared_mem = Vec::new();
        for a in &kernel.shared {
            shared_mem.push(allocs.len() as MemId);
            allocs.push(Alloc {
                name: a.name.clone(),
                space: Space::Shared,
                elem: a.elem,
                size: if a.dynamic {
                    AllocSize::Dynamic
                } else {
                    AllocSize::Static(a.len())
                },
                dims: a.dims.clone(),
            });
        }
        let mut local_mem = Vec::new();
        for a in &kernel.locals {
            local_mem.push(allocs.len() as MemId);
            allocs.push(Alloc {
                name: a.name.clone(),
                space: Space::Local,
                elem: a.elem,
                size: AllocSize::Static(a.len()),
                dims: a.dims.clone(),
            });
        }
        Lowerer {
            kernel,
            body: Vec::new(),
            spans: Vec::new(),
            prologue: Vec::new(),
            consts: HashMap::new(),
            specials: HashMap::new(),
            params: HashMap::new(),
            lens: HashMap::new(),
            next_fixed: kernel.vars.len() as Reg,
            temp: TEMP_BASE,
            max_temp: TEMP_BASE,
            loops: Vec::new(),
            barriers: 0,
            allocs,
            global_mem,
            shared_mem,
            local_mem,
        }
    }

    fn finish(mut self) -> ThreadCode {
        let shift = self.prologue.len() as u32;
        let fixed = self.next_fixed;
        let mut insts: Vec<Inst> = Vec::with_capacity(self.prologue.len() + self.body.len());
        let mut spans = Vec::with_capacity(insts.capacity());
        for (i, s) in self.prologue.drain(..) {
            insts.push(i);
            spans.push(s);
        }
        for mut i in self.body.drain(..) {
            if let Some(t) = i.target_mut() {
                *t += shift;
            }
            insts.push(i);
        }
        spans.append(&mut self.spans);
        for i in &mut insts {
            i.map_regs(&mut |r| {
                if r >= TEMP_BASE {
                    r - TEMP_BASE + fixed
                } else {
                    r
                }
            });
        }
        ThreadCode {
            name: self.kernel.name.clone(),
            insts,
            spans,
            num_regs: fixed + (self.max_temp - TEMP_BASE),
            allocs: self.allocs,
            num_barriers: self.barriers,
        }
    }

    fn err<T>(&self, span: Span, message: impl Into<String>) -> Result<T, LowerError> {
        Err(LowerError {
            message: message.into(),
            span,
        })
    }

    fn emit(&mut self, inst: Inst, span: Span) -> usize {
        self.body.push(inst);
        self.spans.push(span);
        self.body.len() - 1
    }

    fn pc(&self) -> u32 {
        self.body.len() as u32
    }

    fn patch(&mut self, at: usize, to: u32) {
        if let Some(t) = self.body[at].target_mut() {
            *t = to;
        }
    }

    fn temp(&mut self) -> Reg {
        let r = self.temp;
        self.temp += 1;
        self.max_temp = self.max_temp.max(self.temp);
        r
    }

    fn fixed(&mut self, inst: impl FnOnce(Reg) -> Inst, span: Span) -> Reg {
        let r = self.next_fixed;
        self.next_fixed += 1;
        self.prologue.push((inst(r), span));
        r
    }

    fn konst(&mut self, v: Value) -> Reg {
        let key = (v.to_bits(), v.ty());
        if let Some(&r) = self.consts.get(&key) {
            return r;
        }
        let r = self.fixed(
            |dst| Inst::Const {
                dst,
                bits: key.0,
                ty: key.1,
            },
            Span::DUMMY,
        );
        self.consts.insert(key, r);
        r
    }

    fn special(&mut self, b: Builtin) -> Reg {
        if b == Builtin::WarpSize {
            return self.konst(Value::U32(32));
        }
        if let Some(&r) = self.specials.get(&b) {
            return r;
        }
        let r = self.fixed(|dst| Inst::Special { dst, which: b }, Span::DUMMY);
        self.specials.insert(b, r);
        r
    }

    fn var_reg(&self, v: warpsafe_ir::VarId, span: Span) -> Result<Reg, LowerError> {
        if (v.0 as usize) < self.kernel.vars.len() {
            Ok(v.0)
        } else {
            self.err(span, format!("unknown variable #{}", v.0))
        }
    }

    fn mem_id(&self, m: MemRef, span: Span) -> Result<MemId, LowerError> {
        let id = match m {
            MemRef::Global(p) => self.global_mem.get(&p.0).copied(),
            MemRef::Shared(a) => self.shared_mem.get(a.0 as usize).copied(),
            MemRef::Local(a) => self.local_mem.get(a.0 as usize).copied(),
        };
        match id {
            Some(id) => Ok(id),
            None => self.err(span, "memory reference to an unknown buffer or array"),
        }
    }

    // ---- statements ----

    fn stmt(&mut self, s: &Stmt) -> Result<(), LowerError> {
        let mark = self.temp;
        self.stmt_inner(s)?;
        self.temp = mark;
        Ok(())
    }

    fn block(&mut self, b: &[Stmt]) -> Result<(), LowerError> {
        b.iter().try_for_each(|s| self.stmt(s))
    }

    fn stmt_inner(&mut self, s: &Stmt) -> Result<(), LowerError> {
        let span = s.span;
        match &s.kind {
            StmtKind::Let { var, init } => {
                let dst = self.var_reg(*var, span)?;
                match init {
                    Some(e) => {
                        self.expr_into(e, dst)?;
                    }
                    None => {
                        let ty = self.kernel.var(*var).ty;
                        let z = self.konst(Value::zero(ty));
                        self.emit(Inst::Mov { dst, src: z }, span);
                    }
                }
            }
            StmtKind::Assign { var, value } => {
                let dst = self.var_reg(*var, span)?;
                self.expr_into(value, dst)?;
            }
            StmtKind::Store {
                mem,
                indices,
                value,
            } => {
                let id = self.mem_id(*mem, span)?;
                let offset = self.offset(id, indices, span)?;
                let src = self.expr(value)?;
                let ty = self.allocs[id as usize].elem;
                self.emit(
                    Inst::Store {
                        ty,
                        mem: id,
                        offset,
                        src,
                        volatile: self.kernel.is_volatile(*mem),
                    },
                    span,
                );
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = self.expr(cond)?;
                let br = self.emit(
                    Inst::Branch {
                        cond: c,
                        target: 0,
                        when: false,
                    },
                    cond.span.to(span),
                );
                self.block(then_body)?;
                if else_body.is_empty() {
                    let end = self.pc();
                    self.patch(br, end);
                } else {
                    let j = self.emit(Inst::Jump { target: 0 }, span);
                    let else_pc = self.pc();
                    self.patch(br, else_pc);
                    self.block(else_body)?;
                    let end = self.pc();
                    self.patch(j, end);
                }
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                self.block(init)?;
                let j = self.emit(Inst::Jump { target: 0 }, span);
                let top = self.pc();
                self.loops.push(LoopCtx {
                    breaks: vec![],
                    continues: vec![],
                });
                self.block(body)?;
                let ctx = self.loops.pop().unwrap_or(LoopCtx {
                    breaks: vec![],
                    continues: vec![],
                });
                let cont = self.pc();
                self.block(update)?;
                let test = self.pc();
                self.patch(j, test);
                match cond {
                    Some(c) => {
                        let mark = self.temp;
                        let r = self.expr(c)?;
                        self.emit(
                            Inst::Branch {
                                cond: r,
                                target: top,
                                when: true,
                            },
                            c.span.to(span),
                        );
                        self.temp = mark;
                    }
                    None => {
                        self.emit(Inst::Jump { target: top }, span);
                    }
                }
                self.close_loop(ctx, cont);
            }
            StmtKind::While { cond, body } => {
                let j = self.emit(Inst::Jump { target: 0 }, span);
                let top = self.pc();
                self.loops.push(LoopCtx {
                    breaks: vec![],
                    continues: vec![],
                });
                self.block(body)?;
                let ctx = self.loops.pop().unwrap_or(LoopCtx {
                    breaks: vec![],
                    continues: vec![],
                });
                let test = self.pc();
                self.patch(j, test);
                let r = self.expr(cond)?;
                self.emit(
                    Inst::Branch {
                        cond: r,
                        target: top,
                        when: true,
                    },
                    cond.span.to(span),
                );
                self.close_loop(ctx, test);
            }
            StmtKind::DoWhile { body, cond } => {
                let top = self.pc();
                self.loops.push(LoopCtx {
                    breaks: vec![],
                    continues: vec![],
                });
                self.block(body)?;
                let ctx = self.loops.pop().unwrap_or(LoopCtx {
                    breaks: vec![],
                    continues: vec![],
                });
                let test = self.pc();
                let r = self.expr(cond)?;
                self.emit(
                    Inst::Branch {
                        cond: r,
                        target: top,
                        when: true,
                    },
                    cond.span.to(span),
                );
                self.close_loop(ctx, test);
            }
            StmtKind::Break | StmtKind::Continue => {
                let at = self.emit(Inst::Jump { target: 0 }, span);
                let is_break = matches!(s.kind, StmtKind::Break);
                match self.loops.last_mut() {
                    Some(l) if is_break => l.breaks.push(at),
                    Some(l) => l.continues.push(at),
                    None => return self.err(span, "`break`/`continue` outside a loop"),
                }
            }
            StmtKind::Return => {
                self.emit(Inst::Exit, span);
            }
            StmtKind::SyncThreads => {
                let id = self.barriers;
                self.barriers += 1;
                self.emit(Inst::Barrier { id }, span);
            }
            StmtKind::SyncGrid => {
                let id = self.barriers;
                self.barriers += 1;
                self.emit(Inst::GridBarrier { id }, span);
            }
            StmtKind::SyncWarp { mask } => {
                let m = self.expr(mask)?;
                self.emit(Inst::SyncWarp { mask: m }, span);
            }
            StmtKind::Shuffle {
                dst,
                kind,
                mask,
                value,
                lane,
                width,
            } => {
                let d = self.var_reg(*dst, span)?;
                let mask = self.expr(mask)?;
                let v = self.expr(value)?;
                let lane = self.expr(lane)?;
                let width = self.expr(width)?;
                self.emit(
                    Inst::Shuffle {
                        kind: *kind,
                        ty: value.ty,
                        dst: d,
                        mask,
                        value: v,
                        lane,
                        width,
                    },
                    span,
                );
            }
            StmtKind::Vote {
                dst,
                kind,
                mask,
                pred,
            } => {
                let d = self.var_reg(*dst, span)?;
                let mask = self.expr(mask)?;
                let pred = self.expr(pred)?;
                self.emit(
                    Inst::Vote {
                        kind: *kind,
                        dst: d,
                        mask,
                        pred,
                    },
                    span,
                );
            }
            StmtKind::ActiveMask { dst } => {
                let d = self.var_reg(*dst, span)?;
                self.emit(Inst::ActiveMask { dst: d }, span);
            }
            StmtKind::Arbitrary { dst } => {
                let d = self.var_reg(*dst, span)?;
                let ty = self.kernel.vars[d as usize].ty;
                self.emit(Inst::Arbitrary { dst: d, ty }, span);
            }
            StmtKind::SyncThreadsVote { dst, kind, pred } => {
                let d = self.var_reg(*dst, span)?;
                let pred = self.expr(pred)?;
                let id = self.barriers;
                self.barriers += 1;
                self.emit(
                    Inst::BarrierVote {
                        id,
                        kind: *kind,
                        dst: d,
                        pred,
                    },
                    span,
                );
            }
            StmtKind::Atomic {
                dst,
                op,
                mem,
                indices,
                value,
                compare,
            } => {
                let id = self.mem_id(*mem, span)?;
                if self.allocs[id as usize].space == Space::Local {
                    return self.err(span, "atomics on thread-local arrays are not supported");
                }
                let offset = self.offset(id, indices, span)?;
                let v = self.expr(value)?;
                let c = match compare {
                    Some(c) => Some(self.expr(c)?),
                    None => None,
                };
                let d = match dst {
                    Some(d) => Some(self.var_reg(*d, span)?),
                    None => None,
                };
                let ty = self.allocs[id as usize].elem;
                self.emit(
                    Inst::Atomic {
                        op: *op,
                        ty,
                        dst: d,
                        mem: id,
                        offset,
                        value: v,
                        compare: c,
                    },
                    span,
                );
            }
            StmtKind::Assume(e) => {
                let c = self.expr(e)?;
                self.emit(Inst::Assume { cond: c }, span);
            }
            StmtKind::Assert(e, check) => {
                let c = self.expr(e)?;
                self.emit(
                    Inst::Assert {
                        cond: c,
                        check: *check,
                    },
                    span,
                );
            }
        }
        Ok(())
    }

    fn close_loop(&mut self, ctx: LoopCtx, cont: u32) {
        let end = self.pc();
        for b in ctx.breaks {
            self.patch(b, end);
        }
        for c in ctx.continues {
            self.patch(c, cont);
        }
    }

    // ---- addresses ----

    /// Emits the byte offset of `indices` into allocation `id` as an `i64` register:
    /// row-major flattening, then scaling by the element size, in wrapping `i64` arithmetic.
    fn offset(&mut self, id: MemId, indices: &[Expr], span: Span) -> Result<Reg, LowerError> {
        let alloc = &self.allocs[id as usize];
        let dims = alloc.dims.clone();
        let size = alloc.elem.size_bytes() as i64;
        if indices.is_empty() || (indices.len() != dims.len()) {
            return self.err(
                span,
                format!(
                    "`{}` has {} dimension(s) but is indexed with {}",
                    alloc.name,
                    dims.len(),
                    indices.len()
                ),
            );
        }
        let mut acc = self.index_i64(&indices[0])?;
        for (k, idx) in indices.iter().enumerate().skip(1) {
            let extent = self.konst(Value::I64(dims[k] as i64));
            let scaled = self.temp();
            self.emit(wrapping(BinaryOp::Mul, scaled, acc, extent), idx.span);
            let i = self.index_i64(idx)?;
            let sum = self.temp();
            self.emit(wrapping(BinaryOp::Add, sum, scaled, i), idx.span);
            acc = sum;
        }
        let sz = self.konst(Value::I64(size));
        let out = self.temp();
        self.emit(wrapping(BinaryOp::Mul, out, acc, sz), span);
        Ok(out)
    }

    fn index_i64(&mut self, e: &Expr) -> Result<Reg, LowerError> {
        if let Some(v) = e.as_const().filter(|v| v.ty().is_int()) {
            return Ok(self.konst(v.cast(ScalarType::I64)));
        }
        let r = self.expr(e)?;
        if e.ty == ScalarType::I64 {
            return Ok(r);
        }
        if !e.ty.is_int() {
            return self.err(
                e.span,
                format!("an index must be an integer, found {}", e.ty),
            );
        }
        let d = self.temp();
        self.emit(
            Inst::Cast {
                from: e.ty,
                to: ScalarType::I64,
                dst: d,
                src: r,
            },
            e.span,
        );
        Ok(d)
    }

    // ---- expressions ----

    /// Evaluates `e` into a register (a variable's own register when `e` reads it).
    fn expr(&mut self, e: &Expr) -> Result<Reg, LowerError> {
        self.expr_to(e, None)
    }

    /// Evaluates `e` into `dst`.
    fn expr_into(&mut self, e: &Expr, dst: Reg) -> Result<(), LowerError> {
        let r = self.expr_to(e, Some(dst))?;
        if r != dst {
            self.emit(Inst::Mov { dst, src: r }, e.span);
        }
        Ok(())
    }

    fn dst_or_temp(&mut self, dst: Option<Reg>) -> Reg {
        match dst {
            Some(d) => d,
            None => self.temp(),
        }
    }

    fn expr_to(&mut self, e: &Expr, dst: Option<Reg>) -> Result<Reg, LowerError> {
        let span = e.span;
        let ty = e.ty;
        Ok(match &e.kind {
            ExprKind::Const(v) => self.konst(*v),
            ExprKind::Var(v) => self.var_reg(*v, span)?,
            ExprKind::Param(p) => {
                let idx = p.0;
                match self.kernel.params.get(idx as usize).map(|p| p.kind) {
                    Some(ParamKind::Scalar(pty)) => {
                        if let Some(&r) = self.params.get(&idx) {
                            r
                        } else {
                            let r = self.fixed(
                                |dst| Inst::Param {
                                    dst,
                                    index: idx,
                                    ty: pty,
                                },
                                span,
                            );
                            self.params.insert(idx, r);
                            r
                        }
                    }
                    _ => return self.err(span, "a buffer parameter used as a scalar"),
                }
            }
            ExprKind::Builtin(b) => self.special(*b),
            ExprKind::BufferLen(p) => {
                let id = self.mem_id(MemRef::Global(*p), span)?;
                if let Some(&r) = self.lens.get(&id) {
                    r
                } else {
                    let r = self.fixed(|dst| Inst::AllocLen { dst, mem: id }, span);
                    self.lens.insert(id, r);
                    r
                }
            }
            ExprKind::Unary(op, a) => {
                let ra = self.expr(a)?;
                let d = self.dst_or_temp(dst);
                let op = match op {
                    UnOp::Neg => UnaryOp::Neg,
                    UnOp::BitNot => UnaryOp::BitNot,
                    UnOp::Not => UnaryOp::Not,
                };
                self.emit(
                    Inst::Unary {
                        op,
                        ty,
                        dst: d,
                        a: ra,
                        checked: ty.is_signed(),
                    },
                    span,
                );
                d
            }
            ExprKind::Binary(op, a, b) => {
                let ra = self.expr(a)?;
                let rb = self.expr(b)?;
                let d = self.dst_or_temp(dst);
                let inst = match cmp_op(*op) {
                    Some(c) => Inst::Cmp {
                        op: c,
                        ty: a.ty,
                        dst: d,
                        a: ra,
                        b: rb,
                    },
                    None => Inst::Binary {
                        op: bin_op(*op),
                        ty,
                        dst: d,
                        a: ra,
                        b: rb,
                        checked: ty.is_signed(),
                    },
                };
                self.emit(inst, span);
                d
            }
            ExprKind::Logical(op, a, b) => {
                // r = a; if (r == short) skip; r = b
                let r = self.temp();
                self.expr_into(a, r)?;
                let br = self.emit(
                    Inst::Branch {
                        cond: r,
                        target: 0,
                        when: *op == LogicOp::Or,
                    },
                    span,
                );
                self.expr_into(b, r)?;
                let end = self.pc();
                self.patch(br, end);
                self.finish_into(r, dst, span)
            }
            ExprKind::Cast(a) => {
                let ra = self.expr(a)?;
                if a.ty == ty {
                    return Ok(ra);
                }
                let d = self.dst_or_temp(dst);
                self.emit(
                    Inst::Cast {
                        from: a.ty,
                        to: ty,
                        dst: d,
                        src: ra,
                    },
                    span,
                );
                d
            }
            ExprKind::Select(c, a, b) => {
                if is_trivial(a) && is_trivial(b) {
                    let rc = self.expr(c)?;
                    let ra = self.expr(a)?;
                    let rb = self.expr(b)?;
                    let d = self.dst_or_temp(dst);
                    self.emit(
                        Inst::Select {
                            dst: d,
                            cond: rc,
                            a: ra,
                            b: rb,
                        },
                        span,
                    );
                    d
                } else {
                    let r = self.temp();
                    let rc = self.expr(c)?;
                    let br = self.emit(
                        Inst::Branch {
                            cond: rc,
                            target: 0,
                            when: false,
                        },
                        span,
                    );
                    self.expr_into(a, r)?;
                    let j = self.emit(Inst::Jump { target: 0 }, span);
                    let else_pc = self.pc();
                    self.patch(br, else_pc);
                    self.expr_into(b, r)?;
                    let end = self.pc();
                    self.patch(j, end);
                    self.finish_into(r, dst, span)
                }
            }
            ExprKind::Call(f, args) => {
                if args.len() != f.arity() || args.is_empty() {
                    return self.err(
                        span,
                        format!("{} takes {} argument(s)", f.name(), f.arity()),
                    );
                }
                let mut regs = [0; 3];
                for (i, a) in args.iter().enumerate() {
                    regs[i] = self.expr(a)?;
                }
                for i in args.len()..3 {
                    regs[i] = regs[0];
                }
                let d = self.dst_or_temp(dst);
                self.emit(
                    Inst::Math {
                        f: *f,
                        ty,
                        dst: d,
                        args: regs,
                    },
                    span,
                );
                d
            }
            ExprKind::Load(mem, indices) => {
                let id = self.mem_id(*mem, span)?;
                let offset = self.offset(id, indices, span)?;
                let d = self.dst_or_temp(dst);
                let ety = self.allocs[id as usize].elem;
                self.emit(
                    Inst::Load {
                        ty: ety,
                        dst: d,
                        mem: id,
                        offset,
                        volatile: self.kernel.is_volatile(*mem),
                    },
                    span,
                );
                d
            }
        })
    }

    fn finish_into(&mut self, r: Reg, dst: Option<Reg>, span: Span) -> Reg {
        match dst {
            Some(d) => {
                self.emit(Inst::Mov { dst: d, src: r }, span);
                d
            }
            None => r,
        }
    }
}

fn wrapping(op: BinaryOp, dst: Reg, a: Reg, b: Reg) -> Inst {
    Inst::Binary {
        op,
        ty: ScalarType::I64,
        dst,
        a,
        b,
        checked: false,
    }
}

/// Expressions cheap and fault-free enough to evaluate even on the arm a `?:` does not take.
fn is_trivial(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Param(_)
        | ExprKind::Builtin(_)
        | ExprKind::BufferLen(_) => true,
        ExprKind::Cast(a) => is_trivial(a),
        _ => false,
    }
}

fn cmp_op(op: BinOp) -> Option<CmpOp> {
    Some(match op {
        BinOp::Eq => CmpOp::Eq,
        BinOp::Ne => CmpOp::Ne,
        BinOp::Lt => CmpOp::Lt,
        BinOp::Le => CmpOp::Le,
        BinOp::Gt => CmpOp::Gt,
        BinOp::Ge => CmpOp::Ge,
        _ => return None,
    })
}

fn bin_op(op: BinOp) -> BinaryOp {
    match op {
        BinOp::Add => BinaryOp::Add,
        BinOp::Sub => BinaryOp::Sub,
        BinOp::Mul => BinaryOp::Mul,
        BinOp::Div => BinaryOp::Div,
        BinOp::Rem => BinaryOp::Rem,
        BinOp::BitAnd => BinaryOp::And,
        BinOp::BitOr => BinaryOp::Or,
        BinOp::BitXor => BinaryOp::Xor,
        BinOp::Shl => BinaryOp::Shl,
        BinOp::Shr => BinaryOp::Shr,
        BinOp::Min => BinaryOp::Min,
        BinOp::Max | BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            BinaryOp::Max
        }
    }
}
