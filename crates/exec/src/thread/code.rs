//! The thread-code instruction set: flat per-thread instructions over typed registers.
//!
//! Registers hold raw bits in a `u64` (32-bit types zero-extended, `bool` as 0/1); the type an
//! instruction reads them as is part of the instruction. Memory operations name an allocation
//! ([`MemId`]) and a byte offset held in a register, so every frontend (IR today, PTX later)
//! lowers into the same form.

use serde::Serialize;
use warpsafe_ir::{
    AtomicOp, BlockVoteKind, Builtin, Check, MathFn, ScalarType, ShuffleKind, Span, VoteKind,
};

/// A register number; each thread has its own copy of every register.
pub type Reg = u32;

/// An index into [`ThreadCode::allocs`].
pub type MemId = u32;

/// Memory spaces an allocation lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Space {
    /// Global memory: a buffer passed at launch, shared by all blocks.
    Global,
    /// `__shared__` memory: one copy per block.
    Shared,
    /// Per-thread local arrays.
    Local,
}

impl Space {
    /// `global`, `shared` or `local`.
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
        }
    }
}

/// How many elements an allocation has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocSize {
    /// A global buffer: the length of the launch argument for parameter `.0`.
    Param(u32),
    /// A fixed number of elements.
    Static(u64),
    /// `extern __shared__`: the launch's dynamic shared bytes divided by the element size.
    Dynamic,
}

/// One allocation that memory instructions address.
#[derive(Clone, Debug, PartialEq)]
pub struct Alloc {
    /// Source name, for reports.
    pub name: String,
    /// Where it lives.
    pub space: Space,
    /// Element type; all accesses through IR lowering are element-sized and aligned.
    pub elem: ScalarType,
    /// Its length.
    pub size: AllocSize,
    /// Extents (outermost first) for display; `[len]` for buffers.
    pub dims: Vec<u64>,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// Arithmetic negation.
    Neg,
    /// Bitwise complement.
    BitNot,
    /// Logical not of a `bool`.
    Not,
}

/// Binary arithmetic and bitwise operators (comparisons are [`Inst::Cmp`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`, truncating for integers
    Div,
    /// `%`, sign of the dividend
    Rem,
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `<<` (amounts ≥ width give 0)
    Shl,
    /// `>>` (arithmetic for signed types)
    Shr,
    /// minimum (NaN-ignoring for floats)
    Min,
    /// maximum (NaN-ignoring for floats)
    Max,
}

/// Comparison operators producing a `bool`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// One thread-code instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Inst {
    /// `dst = bits`.
    Const {
        /// Destination.
        dst: Reg,
        /// Raw bits of the constant.
        bits: u64,
        /// Its type (for display).
        ty: ScalarType,
    },
    /// `dst = ` the scalar launch argument of parameter `index`.
    Param {
        /// Destination.
        dst: Reg,
        /// Parameter index.
        index: u32,
        /// Its type.
        ty: ScalarType,
    },
    /// `dst = ` the length in elements of allocation `mem`, as `u64`.
    AllocLen {
        /// Destination.
        dst: Reg,
        /// The allocation.
        mem: MemId,
    },
    /// `dst = src`.
    Mov {
        /// Destination.
        dst: Reg,
        /// Source.
        src: Reg,
    },
    /// `dst = op a`.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// Operand and result type.
        ty: ScalarType,
        /// Destination.
        dst: Reg,
        /// Operand.
        a: Reg,
        /// Signed overflow is reported (C semantics) rather than silently wrapping.
        checked: bool,
    },
    /// `dst = a op b`.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Operand and result type.
        ty: ScalarType,
        /// Destination.
        dst: Reg,
        /// Left operand.
        a: Reg,
        /// Right operand.
        b: Reg,
        /// Signed overflow is reported (C semantics) rather than silently wrapping.
        checked: bool,
    },
    /// `dst = a op b` as a `bool`.
    Cmp {
        /// The comparison.
        op: CmpOp,
        /// Operand type.
        ty: ScalarType,
        /// Destination.
        dst: Reg,
        /// Left operand.
        a: Reg,
        /// Right operand.
        b: Reg,
    },
    /// `dst = (to) src` with C conversion semantics (float→int saturates).
    Cast {
        /// Source type.
        from: ScalarType,
        /// Destination type.
        to: ScalarType,
        /// Destination.
        dst: Reg,
        /// Source.
        src: Reg,
    },
    /// `dst = cond ? a : b` (both operands already computed).
    Select {
        /// Destination.
        dst: Reg,
        /// A `bool`.
        cond: Reg,
        /// Chosen when `cond` holds.
        a: Reg,
        /// Chosen otherwise.
        b: Reg,
    },
    /// `dst = f(args)` for a math intrinsic on type `ty`; unused argument slots repeat `args[0]`.
    Math {
        /// The function.
        f: MathFn,
        /// Argument and result type.
        ty: ScalarType,
        /// Destination.
        dst: Reg,
        /// Arguments.
        args: [Reg; 3],
    },
    /// `dst = ` a launch builtin (`u32`).
    Special {
        /// Destination.
        dst: Reg,
        /// Which builtin.
        which: Builtin,
    },
    /// `dst = mem[offset]`, an element of type `ty` at a byte offset (an `i64` register).
    Load {
        /// Element type.
        ty: ScalarType,
        /// Destination.
        dst: Reg,
        /// The allocation.
        mem: MemId,
        /// Byte offset register (`i64`; negative is out of bounds).
        offset: Reg,
        /// A `volatile` access: the compiler performs it in memory, in program order, instead
        /// of keeping the value in a register. Only such accesses are ordered by the legacy
        /// lock-step warp model.
        volatile: bool,
    },
    /// `mem[offset] = src`.
    Store {
        /// Element type.
        ty: ScalarType,
        /// The allocation.
        mem: MemId,
        /// Byte offset register (`i64`).
        offset: Reg,
        /// Value stored.
        src: Reg,
        /// A `volatile` access (see [`Inst::Load`]).
        volatile: bool,
    },
    /// Atomic read-modify-write of `mem[offset]`; `dst` receives the old value.
    Atomic {
        /// The update.
        op: AtomicOp,
        /// Element type.
        ty: ScalarType,
        /// Receives the old value.
        dst: Option<Reg>,
        /// The allocation.
        mem: MemId,
        /// Byte offset register (`i64`).
        offset: Reg,
        /// Operand (new value for exchange and CAS).
        value: Reg,
        /// Expected value for CAS.
        compare: Option<Reg>,
    },
    /// Continue at `target`.
    Jump {
        /// Destination pc.
        target: u32,
    },
    /// Continue at `target` when `cond` equals `when`, else at the next instruction.
    Branch {
        /// A `bool`.
        cond: Reg,
        /// Destination pc.
        target: u32,
        /// The value of `cond` that takes the branch.
        when: bool,
    },
    /// `__syncthreads()`; `id` numbers the barrier sites of the kernel.
    Barrier {
        /// Static barrier site number.
        id: u32,
    },
    /// `cooperative_groups::this_grid().sync()`: a barrier of every thread of every block of
    /// the launch (site `id`, numbered with the `Barrier` sites).
    GridBarrier {
        /// Static barrier site number.
        id: u32,
    },
    /// `__syncwarp(mask)`.
    SyncWarp {
        /// `u32` lane mask.
        mask: Reg,
    },
    /// `dst = __shfl*_sync(mask, value, lane, width)`: a warp collective exchange.
    Shuffle {
        /// Which lane is read.
        kind: ShuffleKind,
        /// Type of the value.
        ty: ScalarType,
        /// Destination.
        dst: Reg,
        /// `u32` lane mask.
        mask: Reg,
        /// Value offered by this lane.
        value: Reg,
        /// Source lane, delta or xor mask (`u32`).
        lane: Reg,
        /// Segment width (`u32`).
        width: Reg,
    },
    /// `dst = __ballot_sync/__any_sync/__all_sync(mask, pred)`: a warp collective vote.
    Vote {
        /// Which vote.
        kind: VoteKind,
        /// Destination (`u32` ballot, `i32` any/all).
        dst: Reg,
        /// `u32` lane mask.
        mask: Reg,
        /// This lane's `bool` predicate.
        pred: Reg,
    },
    /// `dst = __activemask()`: the lanes of the warp executing this instruction together.
    ActiveMask {
        /// Destination (`u32`).
        dst: Reg,
    },
    /// `dst = arbitrary()`: a value of type `ty` about which nothing is known; the interpreter
    /// draws a deterministic pseudo-random one per thread and per execution.
    Arbitrary {
        /// Destination.
        dst: Reg,
        /// Its type.
        ty: ScalarType,
    },
    /// `dst = __syncthreads_count/_and/_or(pred)`: a block barrier (site `id`, numbered with
    /// the `Barrier` sites) that also reduces `pred` over the block.
    BarrierVote {
        /// Static barrier site number.
        id: u32,
        /// Which reduction.
        kind: BlockVoteKind,
        /// Destination (`i32`).
        dst: Reg,
        /// This thread's `bool` predicate.
        pred: Reg,
    },
    /// A precondition; when false for some thread the launch violates it (a warning).
    Assume {
        /// A `bool`.
        cond: Reg,
    },
    /// An assertion; when false it is a finding of the check's category.
    Assert {
        /// A `bool`.
        cond: Reg,
        /// What it checks.
        check: Check,
    },
    /// The thread ends.
    Exit,
}

impl Inst {
    /// Calls `f` on every register the instruction reads or writes, allowing renaming.
    pub fn map_regs(&mut self, f: &mut dyn FnMut(Reg) -> Reg) {
        match self {
            Inst::Const { dst, .. }
            | Inst::Param { dst, .. }
            | Inst::AllocLen { dst, .. }
            | Inst::Special { dst, .. } => *dst = f(*dst),
            Inst::Mov { dst, src } | Inst::Cast { dst, src, .. } => {
                *dst = f(*dst);
                *src = f(*src);
            }
            Inst::Unary { dst, a, .. } => {
                *dst = f(*dst);
                *a = f(*a);
            }
            Inst::Binary { dst, a, b, .. } | Inst::Cmp { dst, a, b, .. } => {
                *dst = f(*dst);
                *a = f(*a);
                *b = f(*b);
            }
            Inst::Select { dst, cond, a, b } => {
                *dst = f(*dst);
                *cond = f(*cond);
                *a = f(*a);
                *b = f(*b);
            }
            Inst::Math { dst, args, .. } => {
                *dst = f(*dst);
                for a in args {
                    *a = f(*a);
                }
            }
            Inst::Load { dst, offset, .. } => {
                *dst = f(*dst);
                *offset = f(*offset);
            }
            Inst::Store { offset, src, .. } => {
                *offset = f(*offset);
                *src = f(*src);
            }
            Inst::Atomic {
                dst,
                offset,
                value,
                compare,
                ..
            } => {
                if let Some(d) = dst {
                    *d = f(*d);
                }
                *offset = f(*offset);
                *value = f(*value);
                if let Some(c) = compare {
                    *c = f(*c);
                }
            }
            Inst::Branch { cond, .. } | Inst::Assume { cond } | Inst::Assert { cond, .. } => {
                *cond = f(*cond)
            }
            Inst::SyncWarp { mask } => *mask = f(*mask),
            Inst::Shuffle {
                dst,
                mask,
                value,
                lane,
                width,
                ..
            } => {
                *dst = f(*dst);
                *mask = f(*mask);
                *value = f(*value);
                *lane = f(*lane);
                *width = f(*width);
            }
            Inst::Vote {
                dst, mask, pred, ..
            } => {
                *dst = f(*dst);
                *mask = f(*mask);
                *pred = f(*pred);
            }
            Inst::ActiveMask { dst } | Inst::Arbitrary { dst, .. } => *dst = f(*dst),
            Inst::BarrierVote { dst, pred, .. } => {
                *dst = f(*dst);
                *pred = f(*pred);
            }
            Inst::Jump { .. } | Inst::Barrier { .. } | Inst::GridBarrier { .. } | Inst::Exit => {}
        }
    }

    /// Calls `f` on every register the instruction reads (not the one it writes, unless it
    /// reads it too).
    pub fn reads(&self, f: &mut dyn FnMut(Reg)) {
        match *self {
            Inst::Const { .. }
            | Inst::Param { .. }
            | Inst::AllocLen { .. }
            | Inst::Special { .. }
            | Inst::ActiveMask { .. }
            | Inst::Arbitrary { .. }
            | Inst::Jump { .. }
            | Inst::Barrier { .. }
            | Inst::GridBarrier { .. }
            | Inst::Exit => {}
            Inst::Mov { src, .. } | Inst::Cast { src, .. } => f(src),
            Inst::Unary { a, .. } => f(a),
            Inst::Binary { a, b, .. } | Inst::Cmp { a, b, .. } => {
                f(a);
                f(b);
            }
            Inst::Select { cond, a, b, .. } => {
                f(cond);
                f(a);
                f(b);
            }
            Inst::Math { args, .. } => args.iter().for_each(|&a| f(a)),
            Inst::Load { offset, .. } => f(offset),
            Inst::Store { offset, src, .. } => {
                f(offset);
                f(src);
            }
            Inst::Atomic {
                offset,
                value,
                compare,
                ..
            } => {
                f(offset);
                f(value);
                if let Some(c) = compare {
                    f(c);
                }
            }
            Inst::Branch { cond, .. } | Inst::Assume { cond } | Inst::Assert { cond, .. } => {
                f(cond)
            }
            Inst::SyncWarp { mask } => f(mask),
            Inst::Shuffle {
                mask,
                value,
                lane,
                width,
                ..
            } => {
                f(mask);
                f(value);
                f(lane);
                f(width);
            }
            Inst::Vote { mask, pred, .. } => {
                f(mask);
                f(pred);
            }
            Inst::BarrierVote { pred, .. } => f(pred),
        }
    }

    /// True for memory accesses the compiler must perform in memory, in program order:
    /// `volatile` loads and stores, and atomics (which are never kept in registers). Under
    /// the legacy lock-step warp model only two such accesses are ordered between lanes.
    pub fn is_volatile(&self) -> bool {
        match *self {
            Inst::Load { volatile, .. } | Inst::Store { volatile, .. } => volatile,
            Inst::Atomic { .. } => true,
            _ => false,
        }
    }

    /// The jump target, for jumps and branches.
    pub fn target_mut(&mut self) -> Option<&mut u32> {
        match self {
            Inst::Jump { target } | Inst::Branch { target, .. } => Some(target),
            _ => None,
        }
    }
}

/// A kernel's thread code: instructions with their source spans, and the allocations they use.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreadCode {
    /// The kernel's name.
    pub name: String,
    /// Instructions; execution starts at 0.
    pub insts: Vec<Inst>,
    /// The IR span of each instruction (parallel to `insts`).
    pub spans: Vec<Span>,
    /// Number of registers per thread.
    pub num_regs: u32,
    /// Memory addressed by `MemId`.
    pub allocs: Vec<Alloc>,
    /// Number of static barrier sites (`Barrier`, `BarrierVote` and `GridBarrier` ids are
    /// `0..num_barriers`).
    pub num_barriers: u32,
}
