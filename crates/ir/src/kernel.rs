//! Kernels: parameters, variables, arrays, body and the launch contract.

use crate::{Block, Category, Expr, MemRef, ScalarType, Span, Value};

use serde::{Deserialize, Serialize};

/// Index of a kernel parameter in [`Kernel::params`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ParamId(pub u32);

/// Index of a local variable in [`Kernel::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VarId(pub u32);

/// Index of a shared array in [`Kernel::shared`] or a local array in [`Kernel::locals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ArrayId(pub u32);

/// A translation unit: the kernels of one source file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Module {
    /// The `__global__` kernels, in source order.
    pub kernels: Vec<Kernel>,
}

impl Module {
    /// The kernel called `name`.
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

/// One kernel: what a launch runs on every thread.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kernel {
    /// The kernel's name.
    pub name: String,
    /// Parameters in call order.
    pub params: Vec<Param>,
    /// Every local variable, each declared by exactly one `Let`.
    pub vars: Vec<VarDecl>,
    /// `__shared__` arrays (one per block).
    pub shared: Vec<ArrayDecl>,
    /// Per-thread local arrays.
    pub locals: Vec<ArrayDecl>,
    /// The statements every thread runs.
    pub body: Block,
    /// Launch configuration, buffer lengths and preconditions stated by the user.
    pub contract: Contract,
    /// The kernel's definition in the source.
    pub span: Span,
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Scalar or buffer.
    pub kind: ParamKind,
    /// Where it is declared.
    pub span: Span,
}

/// What a parameter carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamKind {
    /// A scalar passed by value.
    Scalar(ScalarType),
    /// A pointer to a global buffer of `elem`s.
    Buffer {
        /// The element type.
        elem: ScalarType,
        /// False for `const T*` buffers, which the kernel must not write.
        writable: bool,
    },
}

/// A local variable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VarDecl {
    /// Its source name (not necessarily unique).
    pub name: String,
    /// Its type.
    pub ty: ScalarType,
    /// Where it is declared.
    pub span: Span,
}

/// A shared or local array with static dimensions (or a dynamic `extern __shared__` array).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArrayDecl {
    /// Its name.
    pub name: String,
    /// The element type.
    pub elem: ScalarType,
    /// Extents, outermost first (`[16][17]` is `[16, 17]`); a dynamic array has one extent of 0.
    pub dims: Vec<u64>,
    /// True for `extern __shared__ T a[]`, sized by the launch's dynamic shared memory.
    pub dynamic: bool,
    /// Where it is declared.
    pub span: Span,
}

impl ArrayDecl {
    /// Number of elements for a static array.
    pub fn len(&self) -> u64 {
        self.dims.iter().product()
    }

    /// True when the array has no elements (for example a dynamic array before launch).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What the user states about launches: fixed dimensions, buffer lengths, preconditions,
/// default arguments and policies. Written in the source header (`//--blockDim=`, `//@ …`)
/// and overridable on the command line.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Contract {
    /// `blockDim` the kernel is meant for, if fixed.
    pub block_dim: Option<[u32; 3]>,
    /// `gridDim` the kernel is meant for, if fixed.
    pub grid_dim: Option<[u32; 3]>,
    /// Buffer lengths in elements, as expressions over scalar parameters and launch dims.
    pub lengths: Vec<LengthSpec>,
    /// Preconditions over scalar parameters, buffer lengths and launch dims.
    pub requires: Vec<Expr>,
    /// Default values of scalar parameters for `run`.
    pub defaults: Vec<(ParamId, Value)>,
    /// Dynamic shared memory in bytes, as an expression (for `extern __shared__`).
    pub dynamic_shared_bytes: Option<Expr>,
    /// Finding categories promoted from warnings to errors (for example `overflow`).
    pub deny: Vec<Category>,
    /// Finding categories the kernel is known to exhibit (for test corpora of buggy twins).
    pub expect: Vec<Category>,
    /// Memory the source reaches through `volatile` (a `volatile T*` pointer or a `volatile`
    /// array): generated code must perform every access to it, as the IR's semantics do,
    /// rather than keep values in registers (warp-synchronous code depends on this).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volatile: Vec<MemRef>,
    /// Annotations of the source (GPUVerify's `__ensures` of a helper, `__read`, `__other_int`
    /// and the like) that no engine translates: a checker of assertions must answer
    /// `unknown` while any that is not a [`UncheckedAnnotation::hint`] remains, never
    /// `verified`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unchecked: Vec<UncheckedAnnotation>,
    /// Buffers whose every element starts as a constant (`//@ init(m) = -inf`) instead of an
    /// arbitrary input.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init: Vec<crate::BufferInit>,
}

/// A source annotation left untranslated, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UncheckedAnnotation {
    /// What it is and why it is not checked, in a sentence.
    pub what: String,
    /// Where it is.
    pub span: Span,
    /// A proof hint or an assumption (GPUVerify's loop invariants, a kernel's
    /// preconditions): leaving it out can only add behaviours, so no verdict rests on it and
    /// it is reported as a note; otherwise a claim whose checker must answer `unknown`.
    #[serde(default)]
    pub hint: bool,
}

/// `len(param) = expr`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LengthSpec {
    /// The buffer parameter.
    pub param: ParamId,
    /// Its length in elements (a `u64` expression).
    pub len: Expr,
}

impl Kernel {
    /// The declaration of variable `v`.
    pub fn var(&self, v: VarId) -> &VarDecl {
        &self.vars[v.0 as usize]
    }

    /// True when the source accesses `mem` through `volatile`.
    pub fn is_volatile(&self, mem: MemRef) -> bool {
        self.contract.volatile.contains(&mem)
    }

    /// The parameter `p`.
    pub fn param(&self, p: ParamId) -> &Param {
        &self.params[p.0 as usize]
    }

    /// The parameter called `name`.
    pub fn param_named(&self, name: &str) -> Option<ParamId> {
        self.params
            .iter()
            .position(|p| p.name == name)
            .map(|i| ParamId(i as u32))
    }

    /// The element type of the memory `m`.
    pub fn elem_type(&self, m: MemRef) -> ScalarType {
        match m {
            MemRef::Global(p) => match self.param(p).kind {
                ParamKind::Buffer { elem, .. } => elem,
                ParamKind::Scalar(t) => t,
            },
            MemRef::Shared(a) => self.shared[a.0 as usize].elem,
            MemRef::Local(a) => self.locals[a.0 as usize].elem,
        }
    }

    /// How many launch dimensions the kernel reads (1 to 3): the highest component (`.x`,
    /// `.y`, `.z`) of `threadIdx`, `blockIdx`, `blockDim` or `gridDim` that its body or
    /// contract mentions. A kernel reading only `.x` is meant for 1-D launches: every
    /// command checks it for launches whose other dimensions are 1.
    pub fn launch_dims_read(&self) -> usize {
        let mut dims = 1;
        let mut note = |e: &Expr| {
            e.walk(&mut |x| {
                if let crate::ExprKind::Builtin(
                    crate::Builtin::ThreadIdx(d)
                    | crate::Builtin::BlockIdx(d)
                    | crate::Builtin::BlockDim(d)
                    | crate::Builtin::GridDim(d),
                ) = x.kind
                {
                    dims = dims.max(d.index() + 1);
                }
            })
        };
        for s in &self.body {
            s.walk(&mut |st| st.exprs().into_iter().for_each(&mut note));
        }
        let c = &self.contract;
        c.requires
            .iter()
            .chain(c.lengths.iter().map(|l| &l.len))
            .chain(&c.dynamic_shared_bytes)
            .for_each(&mut note);
        dims
    }

    /// The source name of the memory `m`.
    pub fn mem_name(&self, m: MemRef) -> &str {
        match m {
            MemRef::Global(p) => &self.param(p).name,
            MemRef::Shared(a) => &self.shared[a.0 as usize].name,
            MemRef::Local(a) => &self.locals[a.0 as usize].name,
        }
    }
}
