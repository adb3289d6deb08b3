//! Pointers. A pointer value is a base (a buffer, shared or local array), leading indices for
//! multi-dimensional arrays and an element offset in the last dimension.
//!
//! A pointer variable whose every assignment gives it the same base is an offset variable.
//! One that may point into several memories (assigned in branches, `c ? A : B`, reassigned,
//! declared before it is assigned, or null) also gets a tag variable numbering its candidate
//! bases, and every access through it is a chain `if (tag == 0) … else if (tag == 1) …` with
//! one exact access per candidate; a candidate that is no memory (null, not yet assigned)
//! is `assert(false)` there. The candidates of a variable are the bases of its initialiser
//! and of every assignment: lowering runs again with what the previous run saw assigned
//! until nothing new is found (see `lower_kernel`).

use super::{Lowerer, Val};
use crate::error::{err, Result};
use warpsafe_ir::{
    BinOp, Check, Expr, MemRef, ParamId, ScalarType, Span, Stmt, StmtKind, Value, VarId,
};

/// A candidate base: a memory, or `None` for no memory (null, or not assigned yet).
pub(crate) type Base = Option<MemRef>;

/// The key of a pointer variable for candidate collection: its declaration's span.
pub(crate) type PtrKey = (u32, u32);

/// The bases a pointer value may have: it points into `bases[tag]`.
#[derive(Debug, Clone)]
pub(crate) struct Choice {
    /// An `i32` in `0..bases.len()`.
    pub tag: Expr,
    pub bases: Vec<Base>,
}

/// A pointer value: `mem[prefix...][off + i]` is what `p[i]` reads.
#[derive(Debug, Clone)]
pub(crate) struct PtrVal {
    /// The base; with a `choice`, only a representative (never accessed directly).
    pub mem: MemRef,
    pub elem: ScalarType,
    pub writable: bool,
    /// Indices already applied to the outer dimensions of a multi-dimensional array.
    pub prefix: Vec<Expr>,
    /// Offset in the innermost applied dimension (`None` is zero; always set with a choice).
    pub off: Option<Expr>,
    /// Dimensions not yet indexed (1 for a plain pointer).
    pub rest: usize,
    /// Several candidate bases (`None`: `mem` is the base).
    pub choice: Option<Choice>,
}

/// A pointer variable (a local, a parameter, an inlined helper's result).
#[derive(Debug, Clone)]
pub(crate) struct PtrVar {
    pub key: PtrKey,
    pub elem: ScalarType,
    pub writable: bool,
    /// The candidate bases; one without `tag`.
    pub bases: Vec<Base>,
    /// The offset (`None`: zero, never changed).
    pub off: Option<VarId>,
    /// The index into `bases` (`None` when there is one base).
    pub tag: Option<VarId>,
}

/// A pointer held in shared memory (`__shared__ T *p;`): its offset and base tag are
/// one-element shared arrays, so every thread's write and read of it is a memory access the
/// race checks see.
#[derive(Debug, Clone)]
pub(crate) struct SharedPtr {
    pub key: PtrKey,
    pub elem: ScalarType,
    pub writable: bool,
    /// The candidate bases (what the kernel assigns it).
    pub bases: Vec<Base>,
    /// The `i64` offset cell.
    pub off: MemRef,
    /// The `i32` tag cell (with several bases).
    pub tag: Option<MemRef>,
}

/// Where a pointer variable's candidates come from across lowering runs.
#[derive(Debug, Default, Clone)]
pub(crate) struct Candidates {
    /// What the previous run saw assigned, by variable.
    pub hint: std::collections::HashMap<PtrKey, Vec<Base>>,
    /// What this run sees assigned.
    pub seen: std::collections::HashMap<PtrKey, Vec<Base>>,
    /// An assignment gave a variable a base outside its candidates: run again.
    pub grew: bool,
    /// A pointer read while no assignment to it is known (an error unless a later run
    /// knows one).
    pub unassigned: Option<(Span, String)>,
}

/// A stand-in base for a choice with no memory candidate (never accessed).
const NO_MEM: MemRef = MemRef::Global(ParamId(u32::MAX));

fn union_into(set: &mut Vec<Base>, b: &[Base]) {
    for x in b {
        if !set.contains(x) {
            set.push(*x);
        }
    }
}

fn i32c(v: i32, span: Span) -> Expr {
    Expr::i32(v).with_span(span)
}

/// `a + b` on offsets, in `i64` unless one side is absent.
pub(crate) fn add_offsets(a: Option<Expr>, b: Expr, span: Span) -> Expr {
    let zero = b.as_const().and_then(|v| v.as_i128()) == Some(0);
    match a {
        None => b,
        Some(a) if zero => a,
        Some(a) => {
            let a = crate::types::convert(a, ScalarType::I64);
            let b = crate::types::convert(b, ScalarType::I64);
            Expr::binary(BinOp::Add, a, b).with_span(span)
        }
    }
}

impl PtrVal {
    /// A null pointer to `elem`.
    pub fn null(elem: ScalarType, span: Span) -> PtrVal {
        PtrVal {
            mem: NO_MEM,
            elem,
            writable: true,
            prefix: vec![],
            off: Some(Expr::constant(Value::I64(0)).with_span(span)),
            rest: 1,
            choice: Some(Choice {
                tag: i32c(0, span),
                bases: vec![None],
            }),
        }
    }

    /// The candidate bases.
    pub fn bases(&self) -> Vec<Base> {
        match &self.choice {
            Some(c) => c.bases.clone(),
            None => vec![Some(self.mem)],
        }
    }

    /// The memory indices of the element this pointer points at; a pointer with several
    /// candidate bases has none (its accesses go through [`Lowerer::per_base`]).
    pub fn indices(&self, span: Span) -> Result<Vec<Expr>> {
        if self.choice.is_some() {
            return err(
                span,
                "this use of a pointer that may point into several memories (or be null) is \
                 not supported (only loads and stores through it are)",
            );
        }
        self.indices_any(span)
    }

    /// The indices, whatever the base.
    fn indices_any(&self, span: Span) -> Result<Vec<Expr>> {
        if self.rest != 1 {
            return err(
                span,
                "a multi-dimensional array needs one index per dimension",
            );
        }
        let mut idx = self.prefix.clone();
        idx.push(self.off.clone().unwrap_or_else(|| i32c(0, span)));
        Ok(idx)
    }

    /// The offset as an `i64` (zero when absent).
    pub fn off_i64(&self, span: Span) -> Expr {
        match &self.off {
            Some(o) => crate::types::convert(o.clone(), ScalarType::I64),
            None => Expr::constant(Value::I64(0)).with_span(span),
        }
    }

    /// The tag selecting among `to`'s candidates that this pointer's base has (every base of
    /// this pointer is one of `to`).
    fn tag_in(&self, to: &[Base], span: Span) -> Expr {
        let pos = |b: &Base| to.iter().position(|x| x == b).unwrap_or(0) as i32;
        match &self.choice {
            None => i32c(pos(&Some(self.mem)), span),
            Some(c) => {
                let n = c.bases.len();
                let mut e = i32c(pos(&c.bases[n - 1]), span);
                for j in (0..n - 1).rev() {
                    let is = Expr::binary(BinOp::Eq, c.tag.clone(), i32c(j as i32, span));
                    e = Expr::select(is.with_span(span), i32c(pos(&c.bases[j]), span), e)
                        .with_span(span);
                }
                e
            }
        }
    }
}

fn key_of(span: Span) -> PtrKey {
    (span.lo, span.hi)
}

impl Lowerer<'_> {
    /// A null pointer constant (`0`) used as a pointer to `elem`.
    ///
    /// Rejected for now: the clang front end folds `p == NULL`, `p != NULL`, `!p` and `if (p)`
    /// as if pointers were never null (true of buffers), so a pointer that may be null
    /// would take the wrong branch there and a bug on the null path could be missed. The
    /// lowering of null itself is in place ([`PtrVal::null`]; a dereference fails an
    /// assertion), ready once those comparisons reach this lowering unfolded.
    pub(crate) fn null_const(&mut self, elem: ScalarType, span: Span) -> Result<PtrVal> {
        let _ = PtrVal::null(elem, span);
        err(
            span,
            "a null pointer value is not supported: comparisons with null are folded as if \
             pointers were never null, which would hide the null path",
        )
    }

    /// `p[i]`: a narrower pointer for a multi-dimensional array, else a load.
    pub(crate) fn index(
        &mut self,
        p: PtrVal,
        i: Expr,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Val> {
        let i = self.index_value(i)?;
        if p.rest > 1 {
            if p.off.is_some() {
                return err(
                    span,
                    "pointer arithmetic on a multi-dimensional array is not supported",
                );
            }
            let mut prefix = p.prefix;
            prefix.push(i);
            return Ok(Val::Ptr(PtrVal {
                prefix,
                rest: p.rest - 1,
                ..p
            }));
        }
        let q = self.ptr_add(p, i, span)?;
        self.load_ptr(q, span, out).map(Val::Scalar)
    }

    /// `*p`: the element `p` points at.
    pub(crate) fn load_ptr(&mut self, p: PtrVal, span: Span, out: &mut Vec<Stmt>) -> Result<Expr> {
        if p.choice.is_none() {
            let idx = p.indices(span)?;
            return Ok(Expr::load(p.mem, idx, p.elem).with_span(span));
        }
        let t = self.new_var("deref", p.elem, span)?;
        out.push(Stmt::new(StmtKind::Let { var: t, init: None }).with_span(span));
        let elem = p.elem;
        self.per_base(&p, span, out, |_, m, idx, o| {
            let value = Expr::load(m, idx, elem).with_span(span);
            o.push(Stmt::new(StmtKind::Assign { var: t, value }).with_span(span));
            Ok(())
        })?;
        Ok(self.var_expr(t, span))
    }

    /// Emits `f`'s access for the base `p` has: directly for one base, else as a chain over
    /// the candidates where a candidate that is no memory fails an assertion.
    pub(crate) fn per_base(
        &mut self,
        p: &PtrVal,
        span: Span,
        out: &mut Vec<Stmt>,
        mut f: impl FnMut(&mut Self, MemRef, Vec<Expr>, &mut Vec<Stmt>) -> Result<()>,
    ) -> Result<()> {
        let idx = p.indices_any(span)?;
        let Some(c) = &p.choice else {
            return f(self, p.mem, idx, out);
        };
        let idx = self.stable_indices(idx, out)?;
        let null = c.bases.contains(&None);
        let mut chain: Option<Vec<Stmt>> = null.then(|| {
            let no = Expr::bool(false).with_span(span);
            vec![Stmt::new(StmtKind::Assert(no, Check::NonNull)).with_span(span)]
        });
        for (j, b) in c.bases.iter().enumerate().rev() {
            let Some(m) = b else { continue };
            let mut body = vec![];
            f(self, *m, idx.clone(), &mut body)?;
            chain = Some(match chain {
                None => body,
                Some(rest) => {
                    let cond = Expr::binary(BinOp::Eq, c.tag.clone(), i32c(j as i32, span));
                    let kind = StmtKind::If {
                        cond: cond.with_span(span),
                        then_body: body,
                        else_body: rest,
                    };
                    vec![Stmt::new(kind).with_span(span)]
                }
            });
        }
        out.extend(chain.unwrap_or_default());
        Ok(())
    }

    /// Checks and promotes an index expression.
    pub(crate) fn index_value(&mut self, i: Expr) -> Result<Expr> {
        if !crate::types::promote(i.ty).is_int() {
            return err(
                i.span,
                format!(
                    "an array index must be an integer, found `{}`",
                    i.ty.c_name()
                ),
            );
        }
        Ok(crate::types::promoted(i))
    }

    /// `p + i`.
    pub(crate) fn ptr_add(&mut self, p: PtrVal, i: Expr, span: Span) -> Result<PtrVal> {
        if p.rest != 1 {
            return err(
                span,
                "pointer arithmetic on a multi-dimensional array is not supported",
            );
        }
        let i = self.index_value(i)?;
        let off = match p.off.clone() {
            None => i,
            Some(o) => add_offsets(Some(o), i, span),
        };
        Ok(PtrVal {
            off: Some(off),
            ..p
        })
    }

    /// Records that the source reaches `mem` through `volatile` (see `Contract::volatile`).
    pub(crate) fn mark_volatile(&mut self, mem: MemRef, volatile: bool) {
        if volatile && mem != NO_MEM && !self.k.contract.volatile.contains(&mem) {
            self.k.contract.volatile.push(mem);
        }
    }

    /// [`Self::mark_volatile`] for every base `p` may have.
    pub(crate) fn mark_volatile_ptr(&mut self, p: &PtrVal, volatile: bool) {
        for m in p.bases().into_iter().flatten() {
            self.mark_volatile(m, volatile);
        }
    }

    /// `c ? p : q` on pointers without side effects in the arms.
    pub(crate) fn choose(&mut self, c: Expr, p: PtrVal, q: PtrVal, span: Span) -> Result<PtrVal> {
        if p.elem != q.elem {
            return err(span, "the arms of `?:` point to different types");
        }
        let same = p.choice.is_none() && q.choice.is_none() && p.mem == q.mem;
        if same && p.rest == q.rest && p.prefix.len() == q.prefix.len() {
            let prefix = p.prefix.iter().zip(&q.prefix).map(|(i, j)| {
                let t = crate::types::common(i.ty, j.ty);
                let (i, j) = (
                    crate::types::convert(i.clone(), t),
                    crate::types::convert(j.clone(), t),
                );
                Expr::select(c.clone(), i, j).with_span(span)
            });
            let prefix = prefix.collect();
            let off = Expr::select(c, p.off_i64(span), q.off_i64(span)).with_span(span);
            return Ok(PtrVal {
                off: Some(off),
                prefix,
                writable: p.writable && q.writable,
                ..p
            });
        }
        if p.rest != 1 || q.rest != 1 || !p.prefix.is_empty() || !q.prefix.is_empty() {
            return err(
                span,
                "the arms of `?:` point into different multi-dimensional arrays",
            );
        }
        let mut bases = p.bases();
        union_into(&mut bases, &q.bases());
        let tag = Expr::select(c.clone(), p.tag_in(&bases, span), q.tag_in(&bases, span));
        let off = Expr::select(c, p.off_i64(span), q.off_i64(span)).with_span(span);
        Ok(PtrVal {
            mem: bases.iter().flatten().next().copied().unwrap_or(NO_MEM),
            elem: p.elem,
            writable: p.writable && q.writable,
            prefix: vec![],
            off: Some(off),
            rest: 1,
            choice: Some(Choice {
                tag: tag.with_span(span),
                bases,
            }),
        })
    }

    /// A pointer variable `name` declared at `decl` (its key), initialised to `init` (`None`:
    /// not yet assigned); `mutable` when the body assigns it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn bind_pointer_var(
        &mut self,
        name: &str,
        decl: Span,
        elem: ScalarType,
        init: Option<PtrVal>,
        konst: bool,
        mutable: bool,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<PtrVar> {
        if let Some(p) = &init {
            if p.rest != 1 || !p.prefix.is_empty() {
                return err(
                    span,
                    "pointers into multi-dimensional arrays cannot be stored in variables",
                );
            }
        }
        let key = key_of(decl);
        let mut bases = init.as_ref().map_or(vec![None], PtrVal::bases);
        if let Some(h) = self.cands.hint.get(&key) {
            union_into(&mut bases, h);
        }
        let writable = init.as_ref().is_none_or(|p| p.writable) && !konst;
        let zero = Expr::constant(Value::I64(0)).with_span(span);
        if bases.len() == 1 {
            let fixed = match init.as_ref().and_then(|p| p.off.as_ref()) {
                None => true,
                Some(o) => o.as_const().and_then(|v| v.as_i128()) == Some(0),
            };
            let off = if fixed && !mutable {
                None
            } else {
                let init = init.as_ref().map_or(zero, |p| p.off_i64(span));
                Some(self.let_var(&format!("{name}_off"), init, span, out)?)
            };
            return Ok(PtrVar {
                key,
                elem,
                writable,
                bases,
                off,
                tag: None,
            });
        }
        let (tag, off) = match &init {
            Some(p) => (p.tag_in(&bases, span), p.off_i64(span)),
            None => (i32c(0, span), zero),
        };
        let off = self.let_var(&format!("{name}_off"), off, span, out)?;
        let tag = self.let_var(&format!("{name}_base"), tag, span, out)?;
        Ok(PtrVar {
            key,
            elem,
            writable,
            bases,
            off: Some(off),
            tag: Some(tag),
        })
    }

    /// The value of a pointer with candidates `bases` named `what`, or a stand-in null
    /// pointer (recorded as an error for the run) when nothing is known to be assigned to it.
    pub(crate) fn known_bases(&mut self, bases: &[Base], what: String, span: Span) -> bool {
        if bases.is_empty() && self.cands.unassigned.is_none() {
            self.cands.unassigned = Some((span, what));
        }
        !bases.is_empty()
    }

    /// The value of pointer variable `v`.
    pub(crate) fn ptr_of_var(&self, v: &PtrVar, span: Span) -> PtrVal {
        let off = v.off.map(|o| self.var_expr(o, span));
        let single = v.bases.len() == 1 && v.bases[0].is_some();
        let choice = (!single).then(|| Choice {
            tag: v
                .tag
                .map_or_else(|| i32c(0, span), |t| self.var_expr(t, span)),
            bases: v.bases.clone(),
        });
        let zero = Expr::constant(Value::I64(0)).with_span(span);
        PtrVal {
            mem: v.bases.iter().flatten().next().copied().unwrap_or(NO_MEM),
            elem: v.elem,
            writable: v.writable,
            prefix: vec![],
            off: if single {
                off
            } else {
                Some(off.unwrap_or(zero))
            },
            rest: 1,
            choice,
        }
    }

    /// Assigns the pointer value `p` to the pointer variable `v` named `name`.
    pub(crate) fn assign_pointer(
        &mut self,
        name: &str,
        v: &PtrVar,
        p: PtrVal,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if p.rest != 1 || !p.prefix.is_empty() {
            return err(
                span,
                "pointers into multi-dimensional arrays cannot be stored in variables",
            );
        }
        if p.elem != v.elem {
            return err(
                span,
                format!(
                    "pointer to `{}` assigned a pointer to `{}`",
                    v.elem.c_name(),
                    p.elem.c_name()
                ),
            );
        }
        let new = p.bases();
        union_into(self.cands.seen.entry(v.key).or_default(), &new);
        if new.iter().any(|b| !v.bases.contains(b)) {
            // A new candidate: this run's output is dropped and lowering runs again.
            self.cands.grew = true;
            return Ok(());
        }
        let Some(off) = v.off else {
            return err(span, format!("cannot reassign pointer `{name}`"));
        };
        let tag = match v.tag {
            Some(t) => {
                let value = p.tag_in(&v.bases, span);
                let value = if value.as_const().is_some() {
                    value
                } else {
                    self.temp("base", value, out)?
                };
                Some((t, value))
            }
            None => None,
        };
        let value = p.off_i64(span);
        out.push(Stmt::new(StmtKind::Assign { var: off, value }).with_span(span));
        if let Some((var, value)) = tag {
            out.push(Stmt::new(StmtKind::Assign { var, value }).with_span(span));
        }
        Ok(())
    }
}

impl Lowerer<'_> {
    /// `__shared__ T *name;` declared at `decl`.
    pub(crate) fn shared_pointer(
        &mut self,
        name: &str,
        decl: Span,
        elem: ScalarType,
        konst: bool,
    ) -> Result<SharedPtr> {
        let key = key_of(decl);
        let bases = self.cands.hint.get(&key).cloned().unwrap_or_default();
        let (off, tag) = match self.shared_ptrs.get(&key) {
            Some(c) => *c,
            None => {
                let cell = |lw: &mut Self, n: String, ty: ScalarType| {
                    let id = warpsafe_ir::ArrayId(lw.k.shared.len() as u32);
                    lw.k.shared.push(warpsafe_ir::ArrayDecl {
                        name: n,
                        elem: ty,
                        dims: vec![1],
                        dynamic: false,
                        span: decl,
                    });
                    id
                };
                let off = cell(self, format!("{name}_off"), ScalarType::I64);
                let tag =
                    (bases.len() > 1).then(|| cell(self, format!("{name}_base"), ScalarType::I32));
                self.shared_ptrs.insert(key, (off, tag));
                (off, tag)
            }
        };
        Ok(SharedPtr {
            key,
            elem,
            writable: !konst,
            bases,
            off: MemRef::Shared(off),
            tag: tag.map(MemRef::Shared),
        })
    }

    /// The value of the `__shared__` pointer `v` (read from its cells).
    pub(crate) fn shared_ptr_value(&self, v: &SharedPtr, span: Span) -> PtrVal {
        let zero = || vec![i32c(0, span)];
        let off = Expr::load(v.off, zero(), ScalarType::I64).with_span(span);
        let single = v.bases.len() == 1 && v.bases[0].is_some();
        let choice = (!single).then(|| Choice {
            tag: v.tag.map_or_else(
                || i32c(0, span),
                |t| Expr::load(t, zero(), ScalarType::I32).with_span(span),
            ),
            bases: v.bases.clone(),
        });
        PtrVal {
            mem: v.bases.iter().flatten().next().copied().unwrap_or(NO_MEM),
            elem: v.elem,
            writable: v.writable,
            prefix: vec![],
            off: Some(off),
            rest: 1,
            choice,
        }
    }

    /// Stores `p` into the `__shared__` pointer `v`.
    pub(crate) fn assign_shared_pointer(
        &mut self,
        v: &SharedPtr,
        p: PtrVal,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if p.rest != 1 || !p.prefix.is_empty() || p.elem != v.elem {
            return err(
                span,
                "a `__shared__` pointer is assigned a pointer of another type (or into a \
                 multi-dimensional array)",
            );
        }
        let new = p.bases();
        union_into(self.cands.seen.entry(v.key).or_default(), &new);
        if new.iter().any(|b| !v.bases.contains(b)) {
            self.cands.grew = true;
            return Ok(());
        }
        let zero = || vec![i32c(0, span)];
        let tag = p.tag_in(&v.bases, span);
        let value = p.off_i64(span);
        out.push(
            Stmt::new(StmtKind::Store {
                mem: v.off,
                indices: zero(),
                value,
            })
            .with_span(span),
        );
        if let Some(t) = v.tag {
            let kind = StmtKind::Store {
                mem: t,
                indices: zero(),
                value: tag,
            };
            out.push(Stmt::new(kind).with_span(span));
        }
        Ok(())
    }
}

/// Safe name lookup for messages.
pub(crate) trait MemName {
    fn mem_name_safe(&self, m: MemRef) -> String;
}

impl MemName for warpsafe_ir::Kernel {
    fn mem_name_safe(&self, m: MemRef) -> String {
        let name = match m {
            MemRef::Global(p) => self.params.get(p.0 as usize).map(|p| p.name.clone()),
            MemRef::Shared(a) => self.shared.get(a.0 as usize).map(|a| a.name.clone()),
            MemRef::Local(a) => self.locals.get(a.0 as usize).map(|a| a.name.clone()),
        };
        name.unwrap_or_else(|| "?".into())
    }
}
