//! Statements: structured control flow, memory writes, synchronisation.

use crate::{Category, Expr, MemRef, Span, VarId};
use serde::{Deserialize, Serialize};

/// A sequence of statements executed in order.
pub type Block = Vec<Stmt>;

/// A statement with its source span.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stmt {
    /// What the statement does.
    pub kind: StmtKind,
    /// Where it came from.
    pub span: Span,
}

/// The shapes of statements.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StmtKind {
    /// Declares `var` (each variable is declared once); without `init` its value is zero.
    Let {
        /// The variable declared.
        var: VarId,
        /// Its initial value.
        init: Option<Expr>,
    },
    /// `var = value`.
    Assign {
        /// The variable written.
        var: VarId,
        /// The new value (same type as the variable).
        value: Expr,
    },
    /// Writes `value` to one element of a buffer or array.
    Store {
        /// The memory written.
        mem: MemRef,
        /// One index per dimension.
        indices: Vec<Expr>,
        /// The value stored (the element type).
        value: Expr,
    },
    /// `if (cond) then_body else else_body`.
    If {
        /// A `bool` condition.
        cond: Expr,
        /// Taken when `cond` holds.
        then_body: Block,
        /// Taken otherwise (may be empty).
        else_body: Block,
    },
    /// C's `for (init; cond; update) body`; `continue` jumps to `update`.
    For {
        /// Runs once before the loop.
        init: Block,
        /// Tested before each iteration; `None` loops until `break`/`return`.
        cond: Option<Expr>,
        /// Runs after each iteration (and on `continue`).
        update: Block,
        /// The loop body.
        body: Block,
    },
    /// `while (cond) body`.
    While {
        /// Tested before each iteration.
        cond: Expr,
        /// The loop body.
        body: Block,
    },
    /// `do body while (cond)`.
    DoWhile {
        /// The loop body, run at least once.
        body: Block,
        /// Tested after each iteration.
        cond: Expr,
    },
    /// Leaves the innermost loop.
    Break,
    /// Skips to the next iteration of the innermost loop.
    Continue,
    /// Ends the thread.
    Return,
    /// `__syncthreads()`: block-wide barrier.
    SyncThreads,
    /// `cooperative_groups::this_grid().sync()`: grid-wide barrier. Every thread of every
    /// block of the launch must reach it (or none); accesses before it are ordered before
    /// accesses after it, across blocks too.
    SyncGrid,
    /// `__syncwarp(mask)`: barrier among the warp lanes in `mask` (a `u32`).
    SyncWarp {
        /// Lanes taking part.
        mask: Expr,
    },
    /// `dst = __shfl*_sync(mask, value, lane_or_delta, width)`.
    Shuffle {
        /// Receives the value read from the source lane.
        dst: VarId,
        /// Which lane is read.
        kind: ShuffleKind,
        /// Lanes taking part (a `u32`).
        mask: Expr,
        /// The value each lane offers.
        value: Expr,
        /// Source lane (`Idx`), delta (`Up`/`Down`) or xor mask (`Xor`), a `u32`.
        lane: Expr,
        /// Sub-warp width (a power of two up to 32, a `u32`).
        width: Expr,
    },
    /// `dst = __ballot_sync/__any_sync/__all_sync(mask, pred)`: a warp vote, a collective
    /// over the lanes of `mask` like a shuffle (every lane of the mask must reach it).
    Vote {
        /// Receives the vote (`u32` for a ballot, `i32` 0/1 for any/all).
        dst: VarId,
        /// Which vote.
        kind: VoteKind,
        /// Lanes taking part (a `u32`).
        mask: Expr,
        /// This lane's predicate (a `bool`).
        pred: Expr,
    },
    /// `dst = __activemask()`: the lanes of the warp executing this statement together (a
    /// `u32`); not a synchronisation.
    ActiveMask {
        /// Receives the mask.
        dst: VarId,
    },
    /// `dst = arbitrary()`: `dst` receives a value of its type about which nothing is known,
    /// a new one in each thread and each execution (`clock()`, a call of a function without a
    /// body, cuRAND's generators). Engines must treat it as unconstrained, never as a constant.
    Arbitrary {
        /// Receives the value.
        dst: VarId,
    },
    /// `dst = __syncthreads_count/_and/_or(pred)`: a block-wide barrier that also returns the
    /// count / and / or of `pred` over the block's threads (the same value in every thread).
    SyncThreadsVote {
        /// Receives the result (an `i32`).
        dst: VarId,
        /// Which reduction.
        kind: BlockVoteKind,
        /// This thread's predicate (a `bool`).
        pred: Expr,
    },
    /// An atomic read-modify-write; `dst` receives the old value.
    Atomic {
        /// Receives the value before the update.
        dst: Option<VarId>,
        /// The update.
        op: AtomicOp,
        /// The memory updated.
        mem: MemRef,
        /// One index per dimension.
        indices: Vec<Expr>,
        /// The operand (the new value for `Exch` and `Cas`).
        value: Expr,
        /// The expected old value, for `Cas` only.
        compare: Option<Expr>,
    },
    /// A precondition the analysis may assume (`__requires`, `__assume`).
    Assume(Expr),
    /// A condition every thread reaching it must meet; a violation is a finding of the
    /// check's category: the kernel's own assertion (`__assert`), or one the lowering states
    /// about memory.
    Assert(Expr, Check),
}

/// What an [`StmtKind::Assert`] checks, and so which property its failure violates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// The kernel's own assertion (`assert`, `__assert`, a contract): category `assert`.
    #[default]
    User,
    /// An access through a reinterpreting view starts at a multiple of its type's size:
    /// category `oob`.
    Aligned,
    /// The call dereferences no null pointer (`memcpy(0, …)`): category `oob`.
    NonNull,
    /// The write reaches no read-only memory (a `__constant__` variable): category `oob`.
    Writable,
    /// An index stays within an array the front end lays out as separate values (an array
    /// of pointers in a record a kernel takes by value): category `oob`.
    Index,
}

impl Check {
    /// The category of a failure.
    pub fn category(self) -> Category {
        match self {
            Check::User => Category::Assert,
            Check::Aligned | Check::NonNull | Check::Writable | Check::Index => Category::Oob,
        }
    }

    /// What a failure is, in a few words.
    pub fn failure(self) -> &'static str {
        match self {
            Check::User => "assertion fails",
            Check::Aligned => "misaligned access",
            Check::NonNull => "null pointer dereference",
            Check::Writable => "write to read-only memory",
            Check::Index => "index out of bounds",
        }
    }
}

/// Which lane a shuffle reads from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShuffleKind {
    /// `__shfl_sync`: the lane given.
    Idx,
    /// `__shfl_up_sync`: lane − delta.
    Up,
    /// `__shfl_down_sync`: lane + delta.
    Down,
    /// `__shfl_xor_sync`: lane ^ mask.
    Xor,
}

/// Which warp vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VoteKind {
    /// `__ballot_sync`: bit `i` set iff lane `i` takes part and its predicate holds (`u32`).
    Ballot,
    /// `__any_sync`: 1 iff some lane's predicate holds (`i32`).
    Any,
    /// `__all_sync`: 1 iff every lane's predicate holds (`i32`).
    All,
}

impl VoteKind {
    /// The CUDA C function name.
    pub fn c_name(self) -> &'static str {
        match self {
            VoteKind::Ballot => "__ballot_sync",
            VoteKind::Any => "__any_sync",
            VoteKind::All => "__all_sync",
        }
    }

    /// The type of the result.
    pub fn result_ty(self) -> crate::ScalarType {
        match self {
            VoteKind::Ballot => crate::ScalarType::U32,
            VoteKind::Any | VoteKind::All => crate::ScalarType::I32,
        }
    }
}

/// Which block-wide barrier reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockVoteKind {
    /// `__syncthreads_count`: the number of threads whose predicate holds.
    Count,
    /// `__syncthreads_and`: 1 iff every thread's predicate holds.
    And,
    /// `__syncthreads_or`: 1 iff some thread's predicate holds.
    Or,
}

impl BlockVoteKind {
    /// The CUDA C function name.
    pub fn c_name(self) -> &'static str {
        match self {
            BlockVoteKind::Count => "__syncthreads_count",
            BlockVoteKind::And => "__syncthreads_and",
            BlockVoteKind::Or => "__syncthreads_or",
        }
    }
}

/// Atomic read-modify-write operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AtomicOp {
    /// `atomicAdd`
    Add,
    /// `atomicSub`
    Sub,
    /// `atomicMax`
    Max,
    /// `atomicMin`
    Min,
    /// `atomicExch`
    Exch,
    /// `atomicCAS`: integer memory, or `f32`/`f64` memory compared on its bits (the same
    /// bits an integer CAS through an `int *` view compares)
    Cas,
    /// `atomicAnd`: stores `old & v` (integer types)
    And,
    /// `atomicOr`: stores `old | v` (integer types)
    Or,
    /// `atomicXor`: stores `old ^ v` (integer types)
    Xor,
    /// `atomicInc` (`u32`, or `i32` memory whose bits it reads as `u32`): stores
    /// `(old >= v) ? 0 : old + 1`
    Inc,
    /// `atomicDec` (`u32`, or `i32` memory whose bits it reads as `u32`): stores
    /// `(old == 0 || old > v) ? v : old - 1`
    Dec,
}

impl AtomicOp {
    /// The CUDA C function name.
    pub fn c_name(self) -> &'static str {
        match self {
            AtomicOp::Add => "atomicAdd",
            AtomicOp::Sub => "atomicSub",
            AtomicOp::Max => "atomicMax",
            AtomicOp::Min => "atomicMin",
            AtomicOp::Exch => "atomicExch",
            AtomicOp::Cas => "atomicCAS",
            AtomicOp::And => "atomicAnd",
            AtomicOp::Or => "atomicOr",
            AtomicOp::Xor => "atomicXor",
            AtomicOp::Inc => "atomicInc",
            AtomicOp::Dec => "atomicDec",
        }
    }
}

impl ShuffleKind {
    /// The CUDA C function name.
    pub fn c_name(self) -> &'static str {
        match self {
            ShuffleKind::Idx => "__shfl_sync",
            ShuffleKind::Up => "__shfl_up_sync",
            ShuffleKind::Down => "__shfl_down_sync",
            ShuffleKind::Xor => "__shfl_xor_sync",
        }
    }
}

impl Stmt {
    /// Builds a statement with no source position.
    pub fn new(kind: StmtKind) -> Stmt {
        Stmt {
            kind,
            span: Span::DUMMY,
        }
    }

    /// Attaches a source span.
    pub fn with_span(mut self, span: Span) -> Stmt {
        self.span = span;
        self
    }

    /// Calls `f` on this statement and every nested statement, parents first.
    pub fn walk(&self, f: &mut dyn FnMut(&Stmt)) {
        f(self);
        match &self.kind {
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                then_body.iter().for_each(|s| s.walk(f));
                else_body.iter().for_each(|s| s.walk(f));
            }
            StmtKind::For {
                init, update, body, ..
            } => {
                init.iter().for_each(|s| s.walk(f));
                body.iter().for_each(|s| s.walk(f));
                update.iter().for_each(|s| s.walk(f));
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                body.iter().for_each(|s| s.walk(f))
            }
            _ => {}
        }
    }

    /// The expressions this statement evaluates directly (not those of nested statements).
    pub fn exprs(&self) -> Vec<&Expr> {
        match &self.kind {
            StmtKind::Let { init, .. } => init.iter().collect(),
            StmtKind::Assign { value, .. } => vec![value],
            StmtKind::Store { indices, value, .. } => indices.iter().chain([value]).collect(),
            StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => vec![cond],
            StmtKind::DoWhile { cond, .. } => vec![cond],
            StmtKind::For { cond, .. } => cond.iter().collect(),
            StmtKind::SyncWarp { mask } => vec![mask],
            StmtKind::Shuffle {
                mask,
                value,
                lane,
                width,
                ..
            } => vec![mask, value, lane, width],
            StmtKind::Vote { mask, pred, .. } => vec![mask, pred],
            StmtKind::SyncThreadsVote { pred, .. } => vec![pred],
            StmtKind::ActiveMask { .. } | StmtKind::Arbitrary { .. } => vec![],
            StmtKind::Atomic {
                indices,
                value,
                compare,
                ..
            } => indices.iter().chain([value]).chain(compare).collect(),
            StmtKind::Assume(e) | StmtKind::Assert(e, _) => vec![e],
            StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::SyncThreads
            | StmtKind::SyncGrid => {
                vec![]
            }
        }
    }
}
