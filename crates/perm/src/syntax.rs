//! The annotation language: what a `//@` permission annotation says, as a syntax tree.

use warpsafe_ir::Span;

/// Where an annotation applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AnnotKind {
    /// `kernel requires`: what the whole block holds at launch.
    KernelRequires,
    /// `kernel ensures`: what the whole block holds, and knows, at the end.
    KernelEnsures,
    /// `thread requires`: what each thread holds at launch.
    ThreadRequires,
    /// `thread ensures`: what each thread holds, and knows, when it ends.
    ThreadEnsures,
    /// `barrier requires`: what each thread gives up, and knows, at the next
    /// `__syncthreads()`.
    BarrierRequires,
    /// `barrier ensures`: what each thread holds, and knows, after the next
    /// `__syncthreads()`.
    BarrierEnsures,
    /// `invariant`: what holds at the head of the next loop, every iteration.
    Invariant,
}

impl AnnotKind {
    /// The keywords that introduce the annotation.
    pub fn keywords(self) -> &'static str {
        match self {
            AnnotKind::KernelRequires => "kernel requires",
            AnnotKind::KernelEnsures => "kernel ensures",
            AnnotKind::ThreadRequires => "thread requires",
            AnnotKind::ThreadEnsures => "thread ensures",
            AnnotKind::BarrierRequires => "barrier requires",
            AnnotKind::BarrierEnsures => "barrier ensures",
            AnnotKind::Invariant => "invariant",
        }
    }

    /// Every kind, in the order their keywords are tried.
    pub const ALL: [AnnotKind; 7] = [
        AnnotKind::KernelRequires,
        AnnotKind::KernelEnsures,
        AnnotKind::ThreadRequires,
        AnnotKind::ThreadEnsures,
        AnnotKind::BarrierRequires,
        AnnotKind::BarrierEnsures,
        AnnotKind::Invariant,
    ];
}

/// One parsed annotation line.
#[derive(Clone, Debug)]
pub struct Annotation {
    /// Its kind.
    pub kind: AnnotKind,
    /// The formula after the keywords.
    pub formula: SpecExpr,
    /// The whole comment.
    pub span: Span,
}

/// A formula or term of the annotation language, with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecExpr {
    /// Its shape.
    pub kind: SpecKind,
    /// Where it is written.
    pub span: Span,
}

/// Binary operators of the annotation language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecOp {
    /// `==>`
    Implies,
    /// `||`
    Or,
    /// `&&`
    And,
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
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (C division; a fraction inside a permission amount)
    Div,
    /// `%` (C remainder)
    Rem,
}

/// One index of an array access: a single element or a range `lo..hi`.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecIndex {
    /// One element.
    At(SpecExpr),
    /// The elements `lo..hi` (half-open).
    Range(SpecExpr, SpecExpr),
}

/// The shapes of annotation expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecKind {
    /// An integer literal.
    Int(i128),
    /// `true` / `false`.
    Bool(bool),
    /// A name: parameter, local variable, `tid`, bound variable, or `read`.
    Ident(String),
    /// `threadIdx.x`, `blockDim.x`.
    Member(String, String),
    /// `!e`
    Not(Box<SpecExpr>),
    /// `-e`
    Neg(Box<SpecExpr>),
    /// A binary operator.
    Binary(SpecOp, Box<SpecExpr>, Box<SpecExpr>),
    /// `c ? a : b`
    Cond(Box<SpecExpr>, Box<SpecExpr>, Box<SpecExpr>),
    /// `a[i][j]` with ranges allowed only inside `Perm`.
    Access(String, Vec<SpecIndex>),
    /// `old(e)`: `e` evaluated in the memory at launch.
    Old(Box<SpecExpr>),
    /// `Perm(a[i], amount)`.
    Perm(Box<SpecExpr>, Box<SpecExpr>),
    /// `forall v in lo..hi: body`.
    Forall(String, Box<SpecExpr>, Box<SpecExpr>, Box<SpecExpr>),
}
