//! IR → CUDA C text.

use std::fmt::Write;
use warpsafe_ir::{
    ArrayId, AtomicOp, BinOp, Builtin, Expr, ExprKind, Kernel, LogicOp, MathFn, MemRef, ParamId,
    ParamKind, ScalarType, Span, Stmt, StmtKind, UnOp, Value,
};

/// A construct that has no CUDA C rendering (for example `len(x)` outside a contract).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot generate CUDA C: {message}")]
pub struct CodegenError {
    /// What could not be rendered.
    pub message: String,
    /// Where it came from.
    pub span: Span,
}

const PRELUDE: &str = "\
static __device__ __forceinline__ unsigned int ws_lane_id() {
    return (threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y) % 32u;
}
";

/// The grid barrier, for kernels launched cooperatively (every block resident at once, as
/// `cuLaunchCooperativeKernel` guarantees). NVRTC has no CUDA headers here, so
/// `cooperative_groups::this_grid().sync()` cannot be included: this is our own barrier on two
/// module globals. The first thread of each block arrives for its block between two block
/// barriers; the last block to arrive resets the count (so the module is ready for the next
/// launch) and opens the next generation, which the others wait for. The fences make every
/// block's writes before the barrier visible to every block after it. It is a function of its
/// own (`extern "C"`, never inlined) so that its PTX is one `call ws_grid_sync` that the PTX
/// road reads as the grid barrier (`warpsafe_ptx::GRID_BARRIER_FUNCTION`).
const GRID_PRELUDE: &str = "\
__device__ unsigned int ws_grid_arrived;
__device__ unsigned int ws_grid_generation;
extern \"C\" __device__ __noinline__ void ws_grid_sync() {
    __syncthreads();
    if (threadIdx.x == 0u && threadIdx.y == 0u && threadIdx.z == 0u) {
        unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
        unsigned int generation = *(volatile unsigned int*)&ws_grid_generation;
        __threadfence();
        if (atomicAdd(&ws_grid_arrived, 1u) == blocks - 1u) {
            atomicExch(&ws_grid_arrived, 0u);
            __threadfence();
            atomicAdd(&ws_grid_generation, 1u);
        } else {
            while (*(volatile unsigned int*)&ws_grid_generation == generation) {
            }
        }
        __threadfence();
    }
    __syncthreads();
}
";

/// True when `kernel` has a grid barrier: it must be launched cooperatively.
pub fn uses_grid_sync(kernel: &Kernel) -> bool {
    let mut found = false;
    for s in &kernel.body {
        s.walk(&mut |s| found |= matches!(s.kind, StmtKind::SyncGrid));
    }
    found
}

/// `f16` support without `cuda_fp16.h` (the NVRTC wheel we use ships no CUDA headers): a
/// half lives in an `unsigned short` holding its IEEE bits (the same size, alignment and bytes
/// as `__half`, so buffers and arguments are unchanged), converted with PTX's `cvt`. Every half
/// operation widens to `float`, computes and rounds back once, which is the correctly rounded
/// half result for + − × ÷ and √ (24 ≥ 2·11 + 2); `fma` uses `fma.rn.f16` (sm_53 and up).
const HALF_PRELUDE: &str = "\
typedef unsigned short ws_half;
__device__ __forceinline__ float ws_h2f(ws_half h) {
    float f;
    asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h));
    return f;
}
__device__ __forceinline__ ws_half ws_f2h(float f) {
    ws_half h;
    asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f));
    return h;
}
__device__ __forceinline__ ws_half ws_d2h(double d) {
    ws_half h;
    asm(\"cvt.rn.f16.f64 %0, %1;\" : \"=h\"(h) : \"d\"(d));
    return h;
}
__device__ __forceinline__ ws_half ws_hfma(ws_half a, ws_half b, ws_half c) {
    ws_half r;
    asm(\"fma.rn.f16 %0, %1, %2, %3;\" : \"=h\"(r) : \"h\"(a), \"h\"(b), \"h\"(c));
    return r;
}
";

/// The C spelling of a type in generated code (`ws_half` for `f16`, see [`HALF_PRELUDE`]).
fn c_type(t: ScalarType) -> &'static str {
    if t == ScalarType::F16 {
        "ws_half"
    } else {
        t.c_name()
    }
}

/// True when `kernel` mentions `f16` anywhere the generated code would spell it.
fn uses_half(k: &Kernel) -> bool {
    k.params.iter().any(|p| match p.kind {
        ParamKind::Scalar(t) | ParamKind::Buffer { elem: t, .. } => t == ScalarType::F16,
    }) || k
        .shared
        .iter()
        .chain(&k.locals)
        .any(|a| a.elem == ScalarType::F16)
        || k.vars.iter().any(|v| v.ty == ScalarType::F16)
}

/// Renders `kernel` as a self-contained CUDA C translation unit.
pub fn generate(kernel: &Kernel) -> Result<String, CodegenError> {
    let mut g = Gen {
        k: kernel,
        out: String::new(),
        indent: 1,
        uses_lane: false,
        uses_half: false,
        loops: vec![],
    };
    let body = g.body()?;
    let mut out = String::new();
    if g.uses_half || uses_half(kernel) {
        out.push_str(HALF_PRELUDE);
        out.push('\n');
    }
    if g.uses_lane {
        out.push_str(PRELUDE);
        out.push('\n');
    }
    if uses_grid_sync(kernel) {
        out.push_str(GRID_PRELUDE);
        out.push('\n');
    }
    let params: Vec<String> = kernel
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| match p.kind {
            ParamKind::Scalar(t) => format!("{} {}", c_type(t), p.name),
            ParamKind::Buffer { elem, writable } => format!(
                "{}{}{}* __restrict__ {}",
                if writable { "" } else { "const " },
                volatile(kernel, MemRef::Global(ParamId(i as u32))),
                c_type(elem),
                p.name
            ),
        })
        .collect();
    let _ = writeln!(
        out,
        "extern \"C\" __global__ void {}({})\n{{",
        kernel.name,
        params.join(", ")
    );
    out.push_str(&body);
    out.push_str("}\n");
    Ok(out)
}

struct Gen<'k> {
    k: &'k Kernel,
    out: String,
    indent: usize,
    uses_lane: bool,
    /// Set when an expression (a cast or constant) needs the half helpers.
    uses_half: bool,
    /// For each enclosing loop: the flag that a `break` must set when the loop body is
    /// wrapped in a one-shot `do { } while (0)` (so `continue` can reach the update).
    loops: Vec<Option<String>>,
}

fn err<T>(message: impl Into<String>, span: Span) -> Result<T, CodegenError> {
    Err(CodegenError {
        message: message.into(),
        span,
    })
}

/// `volatile ` for memory the source reached through `volatile`: NVRTC must then perform
/// every access, as the IR (and warp-synchronous code under lock-step) expects.
fn volatile(k: &Kernel, mem: MemRef) -> &'static str {
    if k.is_volatile(mem) {
        "volatile "
    } else {
        ""
    }
}

fn dims(d: &[u64]) -> String {
    d.iter().map(|n| format!("[{n}]")).collect()
}

impl Gen<'_> {
    fn body(&mut self) -> Result<String, CodegenError> {
        for (i, a) in self.k.shared.iter().enumerate() {
            let (t, name) = (c_type(a.elem), &a.name);
            let v = volatile(self.k, MemRef::Shared(ArrayId(i as u32)));
            if a.dynamic {
                // Like the CUDA C it came from: every `extern __shared__` array starts at the
                // block's dynamic shared memory.
                self.line(&format!("extern __shared__ {v}{t} {name}[];"));
            } else {
                self.line(&format!("{v}__shared__ {t} {name}{};", dims(&a.dims)));
            }
        }
        for a in &self.k.locals {
            self.line(&format!("{} {}{};", c_type(a.elem), a.name, dims(&a.dims)));
        }
        for (i, v) in self.k.vars.iter().enumerate() {
            self.line(&format!("{} {}_{i};", c_type(v.ty), v.name));
        }
        self.block(&self.k.body)?;
        Ok(std::mem::take(&mut self.out))
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn var(&self, v: warpsafe_ir::VarId) -> String {
        format!("{}_{}", self.k.var(v).name, v.0)
    }

    fn block(&mut self, b: &[Stmt]) -> Result<(), CodegenError> {
        for s in b {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn nested(&mut self, b: &[Stmt]) -> Result<(), CodegenError> {
        self.indent += 1;
        self.block(b)?;
        self.indent -= 1;
        Ok(())
    }

    fn loop_body(&mut self, b: &[Stmt], flag: Option<String>) -> Result<(), CodegenError> {
        self.loops.push(flag);
        let r = self.nested(b);
        self.loops.pop();
        r
    }

    fn mem(&mut self, mem: MemRef, indices: &[Expr]) -> Result<String, CodegenError> {
        let mut s = self.k.mem_name(mem).to_string();
        for i in indices {
            let i = self.expr(i)?;
            let _ = write!(s, "[{i}]");
        }
        Ok(s)
    }

    /// A statement without its `;`, usable in a `for` header, when it has that form.
    fn simple(&mut self, s: &Stmt) -> Result<Option<String>, CodegenError> {
        Ok(match &s.kind {
            StmtKind::Let {
                var,
                init: Some(value),
            }
            | StmtKind::Assign { var, value } => {
                Some(format!("{} = {}", self.var(*var), self.expr(value)?))
            }
            StmtKind::Let { var, init: None } => Some(format!("{} = 0", self.var(*var))),
            StmtKind::Store {
                mem,
                indices,
                value,
            } => Some(format!(
                "{} = {}",
                self.mem(*mem, indices)?,
                self.expr(value)?
            )),
            _ => None,
        })
    }

    fn simple_list(&mut self, b: &[Stmt]) -> Result<Option<String>, CodegenError> {
        let mut parts = vec![];
        for s in b {
            match self.simple(s)? {
                Some(p) => parts.push(p),
                None => return Ok(None),
            }
        }
        Ok(Some(parts.join(", ")))
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), CodegenError> {
        match &s.kind {
            StmtKind::Let { .. } | StmtKind::Assign { .. } | StmtKind::Store { .. } => {
                if let Some(text) = self.simple(s)? {
                    self.line(&format!("{text};"));
                }
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = self.expr(cond)?;
                self.line(&format!("if {} {{", paren(&c)));
                self.nested(then_body)?;
                if !else_body.is_empty() {
                    self.line("} else {");
                    self.nested(else_body)?;
                }
                self.line("}");
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => self.for_loop(s.span, init, cond.as_ref(), update, body)?,
            StmtKind::While { cond, body } => {
                let c = self.expr(cond)?;
                self.line(&format!("while {} {{", paren(&c)));
                self.loop_body(body, None)?;
                self.line("}");
            }
            StmtKind::DoWhile { body, cond } => {
                self.line("do {");
                self.loop_body(body, None)?;
                let c = self.expr(cond)?;
                self.line(&format!("}} while {};", paren(&c)));
            }
            StmtKind::Break => match self.loops.last().cloned().flatten() {
                Some(flag) => self.line(&format!("{{ {flag} = true; break; }}")),
                None => self.line("break;"),
            },
            StmtKind::Continue => match self.loops.last() {
                Some(Some(_)) => self.line("break;"),
                _ => self.line("continue;"),
            },
            StmtKind::Return => self.line("return;"),
            StmtKind::SyncThreads => self.line("__syncthreads();"),
            StmtKind::SyncGrid => self.line("ws_grid_sync();"),
            StmtKind::SyncWarp { mask } => {
                let m = self.expr(mask)?;
                self.line(&format!("__syncwarp({m});"));
            }
            StmtKind::Vote {
                dst,
                kind,
                mask,
                pred,
            } => {
                let text = format!(
                    "{} = {}({}, {});",
                    self.var(*dst),
                    kind.c_name(),
                    self.expr(mask)?,
                    self.expr(pred)?
                );
                self.line(&text);
            }
            StmtKind::ActiveMask { dst } => {
                let text = format!("{} = __activemask();", self.var(*dst));
                self.line(&text);
            }
            StmtKind::Arbitrary { dst } => {
                // Any value refines "arbitrary"; the cycle counter is one that differs between
                // threads and executions, as the source's clock() or cuRAND call would.
                let ty = c_type(self.k.var(*dst).ty);
                let text = format!("{} = ({ty})clock64();", self.var(*dst));
                self.line(&text);
            }
            StmtKind::SyncThreadsVote { dst, kind, pred } => {
                let text = format!(
                    "{} = {}({});",
                    self.var(*dst),
                    kind.c_name(),
                    self.expr(pred)?
                );
                self.line(&text);
            }
            StmtKind::Shuffle {
                dst,
                kind,
                mask,
                value,
                lane,
                width,
            } => {
                let text = format!(
                    "{} = {}({}, {}, {}, (int){});",
                    self.var(*dst),
                    kind.c_name(),
                    self.expr(mask)?,
                    self.expr(value)?,
                    self.expr(lane)?,
                    paren(&self.expr(width)?)
                );
                self.line(&text);
            }
            StmtKind::Atomic {
                dst,
                op,
                mem,
                indices,
                value,
                compare,
            } => {
                let elem = self.k.elem_type(*mem);
                if elem.bits() < 32 {
                    // CUDA has no 8/16-bit atomics (nor `__half` ones without cuda_fp16.h).
                    return err(
                        format!("{} on {elem} elements has no CUDA C rendering", op.c_name()),
                        s.span,
                    );
                }
                let addr = if self.k.is_volatile(*mem) {
                    // Atomics take plain pointers; they always reach memory anyway.
                    format!("({}*)&{}", elem.c_name(), self.mem(*mem, indices)?)
                } else {
                    format!("&{}", self.mem(*mem, indices)?)
                };
                let v = self.expr(value)?;
                let c = compare.as_ref().map(|c| self.expr(c)).transpose()?;
                let call = atomic_call(*op, elem, &addr, &v, c.as_deref());
                match dst {
                    Some(d) => {
                        let d = self.var(*d);
                        self.line(&format!("{d} = {call};"));
                    }
                    None => self.line(&format!("{call};")),
                }
            }
            StmtKind::Assume(e) => {
                let e = self.expr(e)?;
                self.line(&format!("// assume {e}"));
            }
            StmtKind::Assert(e, _) => {
                let e = self.expr(e)?;
                self.line(&format!("if (!{}) __trap();", paren(&e)));
            }
        }
        Ok(())
    }

    fn for_loop(
        &mut self,
        _span: Span,
        init: &[Stmt],
        cond: Option<&Expr>,
        update: &[Stmt],
        body: &[Stmt],
    ) -> Result<(), CodegenError> {
        let c = cond.map(|c| self.expr(c)).transpose()?.unwrap_or_default();
        let init_text = self.simple_list(init)?;
        let update_text = self.simple_list(update)?;
        let braced = init_text.is_none();
        if braced {
            self.line("{");
            self.indent += 1;
            self.block(init)?;
        }
        match update_text {
            Some(u) => {
                let i = init_text.unwrap_or_default();
                self.line(&format!("for ({i}; {c}; {u}) {{"));
                self.loop_body(body, None)?;
                self.line("}");
            }
            None => {
                // The update cannot go in the header: run it after the body, which sits in a
                // one-shot loop so that `continue` (a `break` out of it) still reaches it.
                let i = init_text.unwrap_or_default();
                let flag = format!("ws_break_{}", self.loops.len());
                self.line(&format!("for ({i}; {c}; ) {{"));
                self.indent += 1;
                self.line(&format!("bool {flag} = false;"));
                self.line("do {");
                self.loop_body(body, Some(flag.clone()))?;
                self.line("} while (0);");
                self.line(&format!("if ({flag}) break;"));
                self.block(update)?;
                self.indent -= 1;
                self.line("}");
            }
        }
        if braced {
            self.indent -= 1;
            self.line("}");
        }
        Ok(())
    }

    fn expr(&mut self, e: &Expr) -> Result<String, CodegenError> {
        Ok(match &e.kind {
            ExprKind::Const(v) => {
                self.uses_half |= v.ty() == ScalarType::F16;
                literal(*v)
            }
            ExprKind::Var(v) => self.var(*v),
            ExprKind::Param(p) => self.k.param(*p).name.clone(),
            ExprKind::Builtin(Builtin::LaneId) => {
                self.uses_lane = true;
                "ws_lane_id()".into()
            }
            ExprKind::Builtin(b) => b.c_name(),
            ExprKind::BufferLen(_) => {
                return err("`len(buffer)` can only appear in a contract", e.span)
            }
            ExprKind::Unary(op, a) => {
                let a = self.expr(a)?;
                let sym = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::Not => "!",
                };
                // Integer promotion would widen the operand: convert back.
                match e.ty {
                    ScalarType::F16 if *op == UnOp::Neg => {
                        format!("((ws_half)({} ^ 0x8000u))", paren(&a))
                    }
                    ScalarType::Bool | ScalarType::F32 | ScalarType::F64 => {
                        format!("({sym}{})", paren(&a))
                    }
                    t => format!("(({}){sym}{})", t.c_name(), paren(&a)),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let ty = a.ty;
                let (a, b) = (self.expr(a)?, self.expr(b)?);
                binary(*op, ty, &a, &b)
            }
            ExprKind::Logical(op, a, b) => {
                let (a, b) = (self.expr(a)?, self.expr(b)?);
                let sym = if *op == LogicOp::And { "&&" } else { "||" };
                format!("({a} {sym} {b})")
            }
            ExprKind::Cast(a) => {
                let from = a.ty;
                let inner = self.expr(a)?;
                if from == ScalarType::F16 || e.ty == ScalarType::F16 {
                    self.uses_half = true;
                    half_cast(from, e.ty, &inner)
                } else if e.ty == ScalarType::Bool {
                    format!("({} != 0)", paren(&inner))
                } else {
                    format!("(({}){})", e.ty.c_name(), paren(&inner))
                }
            }
            ExprKind::Select(c, a, b) => {
                let (c, a, b) = (self.expr(c)?, self.expr(a)?, self.expr(b)?);
                format!("({c} ? {a} : {b})")
            }
            ExprKind::Call(MathFn::Bits, args) if args.len() == 1 => {
                let from = args[0].ty;
                let x = self.expr(&args[0])?;
                if from == ScalarType::F16 || e.ty == ScalarType::F16 {
                    self.uses_half = true;
                }
                bits_as(from, e.ty, &x)
            }
            ExprKind::Call(f, args) => {
                let args = args
                    .iter()
                    .map(|a| self.expr(a))
                    .collect::<Result<Vec<_>, _>>()?;
                if e.ty == ScalarType::F16 {
                    if *f == MathFn::Fma {
                        format!("ws_hfma({})", args.join(", "))
                    } else {
                        let mut wide: Vec<String> =
                            args.iter().map(|a| format!("ws_h2f({a})")).collect();
                        int_exponent(*f, &mut wide);
                        let name = math_name(*f, ScalarType::F32);
                        format!("ws_f2h({name}({}))", wide.join(", "))
                    }
                } else if e.ty.is_small_int() {
                    // `abs` computes in int; the IR's |x| wraps at the type's width.
                    format!(
                        "(({}){}({}))",
                        e.ty.c_name(),
                        math_name(*f, e.ty),
                        args.join(", ")
                    )
                } else {
                    let mut args = args;
                    int_exponent(*f, &mut args);
                    format!("{}({})", math_name(*f, e.ty), args.join(", "))
                }
            }
            ExprKind::Load(mem, indices) => self.mem(*mem, indices)?,
        })
    }
}

fn paren(s: &str) -> String {
    if s.starts_with('(') && s.ends_with(')') && balanced_outer(s) {
        s.to_string()
    } else {
        format!("({s})")
    }
}

/// True when the first `(` of `s` closes at its last character.
fn balanced_outer(s: &str) -> bool {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && i + 1 != s.len() {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

/// A conversion with one `f16` end: through `float` (exact for half → float; float, integer
/// and bool → half round once: every integer that float rounds is beyond half's range, so
/// both roundings give ∞), or `double` → half directly (no double rounding).
fn half_cast(from: ScalarType, to: ScalarType, x: &str) -> String {
    match (from, to) {
        (ScalarType::F16, ScalarType::F16) => x.to_string(),
        (ScalarType::F16, ScalarType::Bool) => format!("(ws_h2f({x}) != 0.0f)"),
        (ScalarType::F16, ScalarType::F32) => format!("ws_h2f({x})"),
        (ScalarType::F16, t) => format!("(({})ws_h2f({x}))", t.c_name()),
        (ScalarType::F64, _) => format!("ws_d2h({x})"),
        (ScalarType::F32, _) => format!("ws_f2h({x})"),
        _ => format!("ws_f2h((float){})", paren(x)),
    }
}

fn literal(v: Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::I8(x) => format!("((signed char){x})"),
        Value::U8(x) => format!("((unsigned char){x}u)"),
        Value::I16(x) => format!("((short){x})"),
        Value::U16(x) => format!("((unsigned short){x}u)"),
        Value::F16(x) => format!("((ws_half){:#x}u)", x.to_bits()),
        Value::I32(i32::MIN) => "(-2147483647 - 1)".into(),
        Value::I32(x) if x < 0 => format!("({x})"),
        Value::I32(x) => x.to_string(),
        Value::U32(x) => format!("{x}u"),
        Value::I64(i64::MIN) => "(-9223372036854775807ll - 1ll)".into(),
        Value::I64(x) if x < 0 => format!("({x}ll)"),
        Value::I64(x) => format!("{x}ll"),
        Value::U64(x) => format!("{x}ull"),
        Value::F32(x) if x.is_finite() => {
            let s = format!("{x:?}");
            if x < 0.0 {
                format!("({s}f)")
            } else {
                format!("{s}f")
            }
        }
        Value::F32(x) => format!("__int_as_float({:#x})", x.to_bits() as i32),
        Value::F64(x) if x.is_finite() => {
            let s = format!("{x:?}");
            if x < 0.0 {
                format!("({s})")
            } else {
                s
            }
        }
        Value::F64(x) => format!("__longlong_as_double({:#x}ll)", x.to_bits() as i64),
    }
}

fn binary(op: BinOp, ty: ScalarType, a: &str, b: &str) -> String {
    if ty == ScalarType::F16 {
        return half_binary(op, a, b);
    }
    let c = ty.c_name();
    if ty.is_small_int() && !op.is_comparison() && !matches!(op, BinOp::Shl | BinOp::Shr) {
        // C promotes both operands to int; the IR's operation wraps at the type's width.
        let promoted = binary(op, ScalarType::I32, a, b);
        return format!("(({c}){promoted})");
    }
    match op {
        BinOp::Min | BinOp::Max => {
            let name = match (op, ty) {
                (BinOp::Min, ScalarType::F32) => "fminf",
                (BinOp::Max, ScalarType::F32) => "fmaxf",
                (BinOp::Min, ScalarType::F64) => "fmin",
                (BinOp::Max, ScalarType::F64) => "fmax",
                (BinOp::Min, _) => "min",
                _ => "max",
            };
            format!("{name}({a}, {b})")
        }
        BinOp::Shl | BinOp::Shr => {
            let bits = ty.bits();
            let sym = op.symbol();
            let fill = if op == BinOp::Shr && ty.is_signed() {
                format!("(({c}){a} < 0 ? ({c})-1 : ({c})0)")
            } else {
                format!("({c})0")
            };
            format!("(({b}) >= {bits} ? {fill} : ({c})({a} {sym} {b}))")
        }
        // Small integer types do not exist in the IR, but `bool` operands of bitwise ops
        // promote to int in C; comparisons yield int, which converts back to bool.
        _ if op.is_comparison() || ty == ScalarType::Bool => {
            let r = format!("({a} {} {b})", op.symbol());
            if ty == ScalarType::Bool && !op.is_comparison() {
                format!("({r} != 0)")
            } else {
                r
            }
        }
        _ => format!("({a} {} {b})", op.symbol()),
    }
}

/// A half operation: widened to float, computed, rounded back once (comparisons exact).
fn half_binary(op: BinOp, a: &str, b: &str) -> String {
    let (x, y) = (format!("ws_h2f({a})"), format!("ws_h2f({b})"));
    match op {
        BinOp::Min => format!("ws_f2h(fminf({x}, {y}))"),
        BinOp::Max => format!("ws_f2h(fmaxf({x}, {y}))"),
        _ if op.is_comparison() => format!("({x} {} {y})", op.symbol()),
        _ => format!("ws_f2h({x} {} {y})", op.symbol()),
    }
}

/// The bits of `x` (a `from`) read as a `to` of the same width: CUDA's `__float_as_int`
/// family for `float`/`double`; between integers (and `ws_half`, an `unsigned short`) a
/// C cast of the same width, which keeps the bits.
fn bits_as(from: ScalarType, to: ScalarType, x: &str) -> String {
    use ScalarType::*;
    match (from, to) {
        (F32, I32) => format!("__float_as_int({x})"),
        (F32, U32) => format!("__float_as_uint({x})"),
        (I32, F32) => format!("__int_as_float({x})"),
        (U32, F32) => format!("__uint_as_float({x})"),
        (F64, I64) => format!("__double_as_longlong({x})"),
        (F64, U64) => format!("((unsigned long long)__double_as_longlong({x}))"),
        (I64, F64) => format!("__longlong_as_double({x})"),
        (U64, F64) => format!("__longlong_as_double((long long){})", paren(x)),
        _ if from == to => x.to_string(),
        _ => format!("(({}){})", c_type(to), paren(x)),
    }
}

/// `ldexp`'s exponent is a float in the IR and an `int` in CUDA (converted as C does,
/// truncating toward zero).
fn int_exponent(f: MathFn, args: &mut [String]) {
    if let (MathFn::Ldexp, Some(n)) = (f, args.get_mut(1)) {
        *n = format!("(int)({n})");
    }
}

fn math_name(f: MathFn, ty: ScalarType) -> &'static str {
    let single = ty == ScalarType::F32;
    match (f, single) {
        (MathFn::Abs, _) => match ty {
            ScalarType::F32 => "fabsf",
            ScalarType::F64 => "fabs",
            ScalarType::I64 => "llabs",
            ScalarType::U8 | ScalarType::U16 | ScalarType::U32 | ScalarType::U64 => "",
            _ => "abs",
        },
        (MathFn::Exp, true) => "expf",
        (MathFn::Exp, false) | (MathFn::FastExp, false) => "exp",
        (MathFn::FastExp, true) => "__expf",
        (MathFn::Exp2, true) => "exp2f",
        (MathFn::Exp2, false) => "exp2",
        (MathFn::Log, true) => "logf",
        (MathFn::Log, false) => "log",
        (MathFn::Log2, true) => "log2f",
        (MathFn::Log2, false) => "log2",
        (MathFn::Log10, true) => "log10f",
        (MathFn::Log10, false) => "log10",
        (MathFn::Sqrt, true) => "sqrtf",
        (MathFn::Sqrt, false) => "sqrt",
        (MathFn::Rsqrt, true) => "rsqrtf",
        (MathFn::Rsqrt, false) => "rsqrt",
        (MathFn::Pow, true) => "powf",
        (MathFn::Pow, false) => "pow",
        (MathFn::Fma, true) => "fmaf",
        (MathFn::Fma, false) => "fma",
        (MathFn::Sin, true) => "sinf",
        (MathFn::Sin, false) => "sin",
        (MathFn::Cos, true) => "cosf",
        (MathFn::Cos, false) => "cos",
        (MathFn::Tan, true) => "tanf",
        (MathFn::Tan, false) => "tan",
        (MathFn::Tanh, true) => "tanhf",
        (MathFn::Tanh, false) => "tanh",
        (MathFn::Floor, true) => "floorf",
        (MathFn::Floor, false) => "floor",
        (MathFn::Ceil, true) => "ceilf",
        (MathFn::Ceil, false) => "ceil",
        (MathFn::Round, true) => "roundf",
        (MathFn::Round, false) => "round",
        (MathFn::Trunc, true) => "truncf",
        (MathFn::Trunc, false) => "trunc",
        (MathFn::Atan, true) => "atanf",
        (MathFn::Atan, false) => "atan",
        (MathFn::Asin, true) => "asinf",
        (MathFn::Asin, false) => "asin",
        (MathFn::Acos, true) => "acosf",
        (MathFn::Acos, false) => "acos",
        (MathFn::Sinh, true) => "sinhf",
        (MathFn::Sinh, false) => "sinh",
        (MathFn::Cosh, true) => "coshf",
        (MathFn::Cosh, false) => "cosh",
        (MathFn::Asinh, true) => "asinhf",
        (MathFn::Asinh, false) => "asinh",
        (MathFn::Acosh, true) => "acoshf",
        (MathFn::Acosh, false) => "acosh",
        (MathFn::Atanh, true) => "atanhf",
        (MathFn::Atanh, false) => "atanh",
        (MathFn::Cbrt, true) => "cbrtf",
        (MathFn::Cbrt, false) => "cbrt",
        (MathFn::Expm1, true) => "expm1f",
        (MathFn::Expm1, false) => "expm1",
        (MathFn::Log1p, true) => "log1pf",
        (MathFn::Log1p, false) => "log1p",
        (MathFn::Exp10, true) => "exp10f",
        (MathFn::Exp10, false) => "exp10",
        (MathFn::Rint, true) => "rintf",
        (MathFn::Rint, false) => "rint",
        (MathFn::Erf, true) => "erff",
        (MathFn::Erf, false) => "erf",
        (MathFn::Erfc, true) => "erfcf",
        (MathFn::Erfc, false) => "erfc",
        (MathFn::Lgamma, true) => "lgammaf",
        (MathFn::Lgamma, false) => "lgamma",
        (MathFn::Tgamma, true) => "tgammaf",
        (MathFn::Tgamma, false) => "tgamma",
        (MathFn::SinPi, true) => "sinpif",
        (MathFn::SinPi, false) => "sinpi",
        (MathFn::CosPi, true) => "cospif",
        (MathFn::CosPi, false) => "cospi",
        (MathFn::Atan2, true) => "atan2f",
        (MathFn::Atan2, false) => "atan2",
        (MathFn::Fmod, true) => "fmodf",
        (MathFn::Fmod, false) => "fmod",
        (MathFn::Remainder, true) => "remainderf",
        (MathFn::Remainder, false) => "remainder",
        (MathFn::Hypot, true) => "hypotf",
        (MathFn::Hypot, false) => "hypot",
        (MathFn::Copysign, true) => "copysignf",
        (MathFn::Copysign, false) => "copysign",
        (MathFn::Fdim, true) => "fdimf",
        (MathFn::Fdim, false) => "fdim",
        (MathFn::Ldexp, true) => "ldexpf",
        (MathFn::Ldexp, false) => "ldexp",
        // Rendered by `bits_as`, never by name.
        (MathFn::Bits, _) => "",
    }
}

/// Spells an atomic so that CUDA's overload set accepts it: 64-bit signed operations go
/// through `unsigned long long` (two's complement makes add/exchange/CAS/and/or/xor identical),
/// subtraction without an overload becomes addition of the negation, `double` exchange and
/// float compare-and-swap go through the bit pattern, and increment/decrement of `int`
/// memory through `unsigned int`.
fn atomic_call(op: AtomicOp, elem: ScalarType, addr: &str, v: &str, cmp: Option<&str>) -> String {
    let ull = "unsigned long long";
    let as_ull = |x: &str| format!("({ull})({x})");
    let ull_addr = format!("({ull}*)({addr})");
    match (op, elem) {
        (AtomicOp::Sub, ScalarType::U64 | ScalarType::I64) => {
            let call = format!("atomicAdd({ull_addr}, ({ull})0 - {})", as_ull(v));
            format!("(({}){call})", elem.c_name())
        }
        (
            AtomicOp::Add | AtomicOp::Exch | AtomicOp::And | AtomicOp::Or | AtomicOp::Xor,
            ScalarType::I64,
        ) => {
            let call = format!("{}({ull_addr}, {})", op.c_name(), as_ull(v));
            format!("((long long){call})")
        }
        (AtomicOp::Cas, ScalarType::I64) => format!(
            "((long long)atomicCAS({ull_addr}, {}, {}))",
            as_ull(cmp.unwrap_or("0")),
            as_ull(v)
        ),
        (AtomicOp::Exch, ScalarType::F64) => format!(
            "__longlong_as_double((long long)atomicExch({ull_addr}, ({ull})__double_as_longlong({v})))"
        ),
        (AtomicOp::Cas, ScalarType::F32) => format!(
            "__int_as_float(atomicCAS((int*)({addr}), __float_as_int({}), __float_as_int({v})))",
            cmp.unwrap_or("0.0f")
        ),
        (AtomicOp::Cas, ScalarType::F64) => format!(
            "__longlong_as_double((long long)atomicCAS({ull_addr}, \
             ({ull})__double_as_longlong({}), ({ull})__double_as_longlong({v})))",
            cmp.unwrap_or("0.0")
        ),
        (AtomicOp::Inc | AtomicOp::Dec, ScalarType::I32) => format!(
            "((int){}((unsigned int*)({addr}), (unsigned int)({v})))",
            op.c_name()
        ),
        (AtomicOp::Cas, _) => format!("atomicCAS({addr}, {}, {v})", cmp.unwrap_or("0")),
        _ => format!("{}({addr}, {v})", op.c_name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_ir::{Dim, KernelBuilder};

    #[test]
    fn literals_are_exact_and_typed() {
        assert_eq!(literal(Value::F32(0.1)), "0.1f");
        assert_eq!(literal(Value::F32(-2.5)), "(-2.5f)");
        assert_eq!(literal(Value::U64(7)), "7ull");
        assert_eq!(literal(Value::I32(i32::MIN)), "(-2147483647 - 1)");
        assert_eq!(
            literal(Value::F32(f32::INFINITY)),
            "__int_as_float(0x7f800000)"
        );
    }

    #[test]
    fn u64_product_stays_64_bit() {
        let mut b = KernelBuilder::new("k");
        let x = b.buffer_param("x", ScalarType::U64, true);
        let i = Expr::builtin(Builtin::ThreadIdx(Dim::X));
        let wide = Expr::binary(
            BinOp::Mul,
            i.clone().cast(ScalarType::U64),
            Expr::u64(65521),
        );
        b.store(MemRef::Global(x), vec![i], wide);
        let text = generate(&b.finish()).unwrap();
        assert!(
            text.contains("x[threadIdx.x] = (((unsigned long long)(threadIdx.x)) * 65521ull);"),
            "{text}"
        );
    }

    #[test]
    fn shifts_past_the_width_are_guarded() {
        assert_eq!(
            binary(BinOp::Shl, ScalarType::U32, "a", "b"),
            "((b) >= 32 ? (unsigned int)0 : (unsigned int)(a << b))"
        );
    }

    #[test]
    fn for_with_compound_update_keeps_continue_semantics() {
        let mut b = KernelBuilder::new("k");
        let x = b.buffer_param("x", ScalarType::I32, true);
        let body = b.body(|b| b.push(StmtKind::Continue));
        let update = b.body(|b| {
            b.push(StmtKind::Atomic {
                dst: None,
                op: AtomicOp::Add,
                mem: MemRef::Global(x),
                indices: vec![Expr::u32(0)],
                value: Expr::i32(1),
                compare: None,
            })
        });
        b.push(StmtKind::For {
            init: vec![],
            cond: Some(Expr::bool(false)),
            update,
            body,
        });
        let text = generate(&b.finish()).unwrap();
        assert!(text.contains("if (ws_break_0) break;"), "{text}");
        assert!(
            !text.contains("continue"),
            "continue must become a break out of the one-shot loop: {text}"
        );
        assert!(text.contains("atomicAdd(&x[0u], 1);"), "{text}");
    }

    #[test]
    fn float_cas_and_signed_inc_go_through_their_bits() {
        assert_eq!(
            atomic_call(AtomicOp::Cas, ScalarType::F32, "&m[0]", "b", Some("a")),
            "__int_as_float(atomicCAS((int*)(&m[0]), __float_as_int(a), __float_as_int(b)))"
        );
        assert!(
            atomic_call(AtomicOp::Cas, ScalarType::F64, "&m[0]", "b", Some("a"))
                .starts_with("__longlong_as_double((long long)atomicCAS((unsigned long long*)")
        );
        assert_eq!(
            atomic_call(AtomicOp::Inc, ScalarType::I32, "&g[5]", "17u", None),
            "((int)atomicInc((unsigned int*)(&g[5]), (unsigned int)(17u)))"
        );
    }
}
