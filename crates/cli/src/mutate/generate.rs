//! Mutants of a kernel, made on a clone of its IR (never its text): each mutation kind has
//! numbered sites in a fixed traversal order, and a mutant changes exactly one site.

use serde::Serialize;
use warpsafe_ir::{
    AtomicOp, BinOp, Block, Builtin, Dim, Expr, ExprKind, Kernel, MemRef, SourceFile, Stmt,
    StmtKind, Value, VarDecl, VarId,
};

/// What a mutation changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Removes one `__syncthreads()` or `__syncwarp()`.
    DropBarrier,
    /// Adds 1 to one memory index.
    IndexPlus,
    /// Subtracts 1 from one memory index.
    IndexMinus,
    /// Swaps `.x` and `.y` of `threadIdx` and `blockIdx` in one index (or in one integer
    /// variable's definition, where most kernels compute their indices).
    SwapXy,
    /// Turns one `<` into `<=` (or `>` into `>=`, and back) in a guard: an `if`, a loop
    /// condition or a `?:` condition.
    FlipGuard,
    /// Forgets that one memory is accessed through `volatile`.
    DropVolatile,
    /// Replaces one atomic read-modify-write by a plain load, operation and store.
    DropAtomic,
}

impl Kind {
    /// Every kind, in the order a `--limit` hands out its mutants (round robin): the
    /// kinds most kernels have first, so that a small limit still mixes them.
    pub const ROUND_ROBIN: [Kind; 7] = [
        Kind::DropBarrier,
        Kind::IndexPlus,
        Kind::FlipGuard,
        Kind::SwapXy,
        Kind::IndexMinus,
        Kind::DropAtomic,
        Kind::DropVolatile,
    ];

    /// The stable name used in tables, JSON and file names.
    pub fn name(self) -> &'static str {
        match self {
            Kind::DropBarrier => "drop-barrier",
            Kind::IndexPlus => "index+1",
            Kind::IndexMinus => "index-1",
            Kind::SwapXy => "swap-xy",
            Kind::FlipGuard => "flip-guard",
            Kind::DropVolatile => "drop-volatile",
            Kind::DropAtomic => "drop-atomic",
        }
    }
}

/// One mutant: the mutated kernel and what was changed.
#[derive(Clone, Debug)]
pub struct Mutant {
    /// The mutation kind.
    pub kind: Kind,
    /// The site's number among the kind's sites (traversal order).
    pub site: usize,
    /// What changed, readably: `line 23: sdata[tid] -> sdata[tid + 1]`.
    pub what: String,
    /// Source line of the change (0 when unknown).
    pub line: usize,
    /// The mutated kernel (type-checked).
    pub kernel: Kernel,
}

impl Mutant {
    /// A short name for file names: `index+1_l23_2` becomes `index_plus1_l23`.
    pub fn slug(&self) -> String {
        let kind = self
            .kind
            .name()
            .replace('+', "_plus")
            .replace("-1", "_minus1")
            .replace('-', "_");
        format!("{kind}_l{}_{}", self.line, self.site)
    }
}

/// Every mutant of `kernel` that type-checks and differs from it, kind by kind, sites in
/// traversal order. `file` turns spans into line numbers for the descriptions.
pub fn mutants(kernel: &Kernel, file: &SourceFile) -> Vec<Mutant> {
    let mut out = vec![];
    for kind in Kind::ROUND_ROBIN {
        for site in 0.. {
            let mut k = kernel.clone();
            let Some((what, line)) = apply(&mut k, kernel, kind, site, file) else {
                break;
            };
            if k == *kernel || warpsafe_ir::check_kernel(&k).is_err() {
                continue;
            }
            out.push(Mutant {
                kind,
                site,
                what,
                line,
                kernel: k,
            });
        }
    }
    out
}

/// At most `limit` of `all`, spread over the kinds (round robin in [`Kind::ROUND_ROBIN`]
/// order) and, within a kind, spread evenly over its sites.
pub fn select(all: Vec<Mutant>, limit: Option<usize>) -> Vec<Mutant> {
    let Some(limit) = limit else {
        return all;
    };
    let per_kind: Vec<usize> = Kind::ROUND_ROBIN
        .iter()
        .map(|k| all.iter().filter(|m| m.kind == *k).count())
        .collect();
    let mut take = vec![0usize; per_kind.len()];
    let mut left = limit.min(all.len());
    while left > 0 {
        for (t, have) in take.iter_mut().zip(&per_kind) {
            if left > 0 && *t < *have {
                *t += 1;
                left -= 1;
            }
        }
    }
    let mut chosen = vec![];
    for ((kind, n), have) in Kind::ROUND_ROBIN.iter().zip(take).zip(per_kind) {
        let of_kind: Vec<&Mutant> = all.iter().filter(|m| m.kind == *kind).collect();
        // The middle of each of n equal slices, so a single pick is not always the first site.
        for j in 0..n {
            if let Some(m) = of_kind.get((2 * j + 1) * have / (2 * n)) {
                chosen.push((*m).clone());
            }
        }
    }
    chosen
}

/// Counts sites of one kind and changes the one numbered `target`.
struct Cursor<'a> {
    target: usize,
    seen: usize,
    /// The description and line, once the target site was changed.
    done: Option<(String, usize)>,
    /// The unmutated kernel, for printing names and expressions.
    orig: &'a Kernel,
    file: &'a SourceFile,
}

impl Cursor<'_> {
    /// True when the next site is the one to change.
    fn hit(&mut self) -> bool {
        let hit = self.seen == self.target && self.done.is_none();
        self.seen += 1;
        hit
    }

    fn record(&mut self, span: warpsafe_ir::Span, what: String) {
        let line = self.file.line(span);
        let place = if line == 0 {
            String::new()
        } else {
            format!("line {line}: ")
        };
        self.done = Some((format!("{place}{what}"), line));
    }

    fn show(&self, e: &Expr) -> String {
        self.orig.expr_to_string(e)
    }

    fn access(&self, mem: MemRef, indices: &[Expr]) -> String {
        let idx: Vec<String> = indices.iter().map(|i| self.show(i)).collect();
        format!("{}[{}]", self.orig.mem_name(mem), idx.join("]["))
    }
}

/// Applies site `target` of `kind` to `k` (a clone of `orig`); `None` when there are fewer
/// sites.
fn apply(
    k: &mut Kernel,
    orig: &Kernel,
    kind: Kind,
    target: usize,
    file: &SourceFile,
) -> Option<(String, usize)> {
    let mut cur = Cursor {
        target,
        seen: 0,
        done: None,
        orig,
        file,
    };
    match kind {
        Kind::DropVolatile => {
            if target < k.contract.volatile.len() {
                let mem = k.contract.volatile.remove(target);
                let what = format!("`{}` no longer volatile", orig.mem_name(mem));
                cur.done = Some((what, 0));
            }
        }
        Kind::DropBarrier => each_block(&mut k.body, &mut |b| drop_barriers(b, &mut cur)),
        Kind::DropAtomic => {
            let mut fresh = vec![];
            let next = VarId(k.vars.len() as u32);
            each_block(&mut k.body, &mut |b| {
                drop_atomics(b, &mut cur, next, &mut fresh)
            });
            k.vars.extend(fresh);
        }
        Kind::IndexPlus | Kind::IndexMinus | Kind::SwapXy | Kind::FlipGuard => {
            for s in &mut k.body {
                each_stmt(s, &mut |s| expr_sites(s, kind, &mut cur));
            }
        }
    }
    cur.done
}

/// Calls `f` on `block` and every block nested in it, outer first.
fn each_block(block: &mut Block, f: &mut dyn FnMut(&mut Block)) {
    f(block);
    for s in block.iter_mut() {
        match &mut s.kind {
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                each_block(then_body, f);
                each_block(else_body, f);
            }
            StmtKind::For {
                init, update, body, ..
            } => {
                each_block(init, f);
                each_block(body, f);
                each_block(update, f);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => each_block(body, f),
            _ => {}
        }
    }
}

/// Calls `f` on `s` and every statement nested in it, parents first.
fn each_stmt(s: &mut Stmt, f: &mut dyn FnMut(&mut Stmt)) {
    f(s);
    match &mut s.kind {
        StmtKind::If {
            then_body,
            else_body,
            ..
        } => {
            then_body.iter_mut().for_each(|s| each_stmt(s, f));
            else_body.iter_mut().for_each(|s| each_stmt(s, f));
        }
        StmtKind::For {
            init, update, body, ..
        } => {
            init.iter_mut().for_each(|s| each_stmt(s, f));
            body.iter_mut().for_each(|s| each_stmt(s, f));
            update.iter_mut().for_each(|s| each_stmt(s, f));
        }
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
            body.iter_mut().for_each(|s| each_stmt(s, f))
        }
        _ => {}
    }
}

/// Calls `f` on `e` and every subexpression, parents first.
fn each_expr(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    f(e);
    match &mut e.kind {
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Param(_)
        | ExprKind::Builtin(_)
        | ExprKind::BufferLen(_) => {}
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => each_expr(a, f),
        ExprKind::Binary(_, a, b) | ExprKind::Logical(_, a, b) => {
            each_expr(a, f);
            each_expr(b, f);
        }
        ExprKind::Select(c, a, b) => {
            each_expr(c, f);
            each_expr(a, f);
            each_expr(b, f);
        }
        ExprKind::Call(_, args) | ExprKind::Load(_, args) => {
            args.iter_mut().for_each(|a| each_expr(a, f));
        }
    }
}

fn drop_barriers(b: &mut Block, cur: &mut Cursor) {
    let mut i = 0;
    while i < b.len() {
        let name = match &b[i].kind {
            StmtKind::SyncThreads => Some("__syncthreads()".to_string()),
            StmtKind::SyncGrid => Some("this_grid().sync()".to_string()),
            StmtKind::SyncWarp { mask } => Some(format!("__syncwarp({})", cur.show(mask))),
            _ => None,
        };
        if let Some(name) = name {
            if cur.hit() {
                let span = b[i].span;
                b.remove(i);
                cur.record(span, format!("drop {name}"));
                continue;
            }
        }
        i += 1;
    }
}

/// `tmp = mem[i]; mem[i] = tmp op value; dst = tmp;` in place of `dst = atomicOp(&mem[i],
/// value)`: the same update, but another thread may now come between the read and the write.
fn drop_atomics(b: &mut Block, cur: &mut Cursor, next: VarId, fresh: &mut Vec<VarDecl>) {
    let mut i = 0;
    while i < b.len() {
        let StmtKind::Atomic {
            dst,
            op,
            mem,
            indices,
            value,
            compare,
        } = &b[i].kind
        else {
            i += 1;
            continue;
        };
        if !cur.hit() {
            i += 1;
            continue;
        }
        let span = b[i].span;
        let elem = cur.orig.elem_type(*mem);
        let tmp = VarId(next.0 + fresh.len() as u32);
        fresh.push(VarDecl {
            name: "rmw_old".into(),
            ty: elem,
            span,
        });
        let old = || Expr::var(tmp, elem).with_span(span);
        let new = match op {
            AtomicOp::Add => Expr::binary(BinOp::Add, old(), value.clone()),
            AtomicOp::Sub => Expr::binary(BinOp::Sub, old(), value.clone()),
            AtomicOp::Max => Expr::binary(BinOp::Max, old(), value.clone()),
            AtomicOp::Min => Expr::binary(BinOp::Min, old(), value.clone()),
            AtomicOp::And => Expr::binary(BinOp::BitAnd, old(), value.clone()),
            AtomicOp::Or => Expr::binary(BinOp::BitOr, old(), value.clone()),
            AtomicOp::Xor => Expr::binary(BinOp::BitXor, old(), value.clone()),
            // `(old >= v) ? 0 : old + 1` on `unsigned int`.
            AtomicOp::Inc => Expr::select(
                Expr::binary(BinOp::Ge, old(), value.clone()),
                Expr::u32(0),
                Expr::binary(BinOp::Add, old(), Expr::u32(1)),
            ),
            // `(old == 0 || old > v) ? v : old - 1` on `unsigned int`.
            AtomicOp::Dec => Expr::select(
                Expr::logical(
                    warpsafe_ir::LogicOp::Or,
                    Expr::binary(BinOp::Eq, old(), Expr::u32(0)),
                    Expr::binary(BinOp::Gt, old(), value.clone()),
                ),
                value.clone(),
                Expr::binary(BinOp::Sub, old(), Expr::u32(1)),
            ),
            AtomicOp::Exch => value.clone(),
            AtomicOp::Cas => {
                let expected = compare.clone().unwrap_or_else(old);
                Expr::select(
                    Expr::binary(BinOp::Eq, old(), expected),
                    value.clone(),
                    old(),
                )
            }
        };
        let what = format!(
            "{} on {} made a plain read-modify-write",
            op.c_name(),
            cur.access(*mem, indices)
        );
        let mut seq = vec![
            Stmt::new(StmtKind::Let {
                var: tmp,
                init: Some(Expr::load(*mem, indices.clone(), elem).with_span(span)),
            })
            .with_span(span),
            Stmt::new(StmtKind::Store {
                mem: *mem,
                indices: indices.clone(),
                value: new,
            })
            .with_span(span),
        ];
        if let Some(d) = dst {
            seq.push(
                Stmt::new(StmtKind::Assign {
                    var: *d,
                    value: old(),
                })
                .with_span(span),
            );
        }
        let n = seq.len();
        b.splice(i..=i, seq);
        cur.record(span, what);
        i += n;
    }
}

/// The expression sites of one statement (not of the statements nested in it).
fn expr_sites(s: &mut Stmt, kind: Kind, cur: &mut Cursor) {
    match &mut s.kind {
        StmtKind::Store {
            mem,
            indices,
            value,
        } => {
            let mem = *mem;
            for d in 0..indices.len() {
                index_site(mem, indices, d, kind, cur);
            }
            for e in indices.iter_mut().chain([value]) {
                nested_sites(e, kind, cur);
            }
        }
        StmtKind::Atomic {
            mem,
            indices,
            value,
            compare,
            ..
        } => {
            let mem = *mem;
            for d in 0..indices.len() {
                index_site(mem, indices, d, kind, cur);
            }
            for e in indices.iter_mut().chain([value]).chain(compare) {
                nested_sites(e, kind, cur);
            }
        }
        StmtKind::If { cond, .. }
        | StmtKind::While { cond, .. }
        | StmtKind::DoWhile { cond, .. }
        | StmtKind::For {
            cond: Some(cond), ..
        } => {
            if kind == Kind::FlipGuard {
                flip_comparisons(cond, cur);
            }
            nested_sites(cond, kind, cur);
        }
        StmtKind::Let {
            var,
            init: Some(value),
        }
        | StmtKind::Assign { var, value } => {
            let var = *var;
            if kind == Kind::SwapXy && value.ty.is_int() && reads_xy(value) && cur.hit() {
                let before = cur.show(value);
                swap_xy(value);
                let span = value.span;
                let what = format!(
                    "{} = {before} -> {}",
                    cur.orig.var(var).name,
                    cur.show(value)
                );
                cur.record(span, what);
            }
            nested_sites(value, kind, cur);
        }
        _ => {
            for e in stmt_exprs_mut(s) {
                nested_sites(e, kind, cur);
            }
        }
    }
}

/// The expressions a statement kind not handled above evaluates.
fn stmt_exprs_mut(s: &mut Stmt) -> Vec<&mut Expr> {
    match &mut s.kind {
        StmtKind::SyncWarp { mask } => vec![mask],
        StmtKind::Shuffle {
            mask,
            value,
            lane,
            width,
            ..
        } => vec![mask, value, lane, width],
        StmtKind::Assume(e) | StmtKind::Assert(e, _) => vec![e],
        _ => vec![],
    }
}

/// Index sites of the loads inside `e`, and guard sites of its `?:` conditions.
fn nested_sites(e: &mut Expr, kind: Kind, cur: &mut Cursor) {
    each_expr(e, &mut |x| match &mut x.kind {
        ExprKind::Load(mem, indices) => {
            let mem = *mem;
            for d in 0..indices.len() {
                index_site(mem, indices, d, kind, cur);
            }
        }
        ExprKind::Select(c, _, _) if kind == Kind::FlipGuard => flip_comparisons(c, cur),
        _ => {}
    });
}

/// Index `d` of an access to `mem` as a site of `kind` (±1 or the x/y swap).
fn index_site(mem: MemRef, indices: &mut [Expr], d: usize, kind: Kind, cur: &mut Cursor) {
    let is_site = match kind {
        Kind::IndexPlus | Kind::IndexMinus => indices[d].ty.is_int(),
        Kind::SwapXy => reads_xy(&indices[d]),
        _ => false,
    };
    if !is_site || !cur.hit() {
        return;
    }
    let before = cur.access(mem, indices);
    let e = &mut indices[d];
    let span = e.span;
    match kind {
        Kind::SwapXy => swap_xy(e),
        _ => {
            let op = if kind == Kind::IndexPlus {
                BinOp::Add
            } else {
                BinOp::Sub
            };
            let one = Expr::constant(Value::from_i128(e.ty, 1)).with_span(span);
            let old = std::mem::replace(e, Expr::bool(false));
            *e = Expr::binary(op, old, one);
        }
    }
    let after = cur.access(mem, indices);
    cur.record(span, format!("{before} -> {after}"));
}

/// Each `<`, `<=`, `>`, `>=` in `cond` as a guard site.
fn flip_comparisons(cond: &mut Expr, cur: &mut Cursor) {
    each_expr(cond, &mut |x| {
        let flipped = match &x.kind {
            ExprKind::Binary(BinOp::Lt, ..) => BinOp::Le,
            ExprKind::Binary(BinOp::Le, ..) => BinOp::Lt,
            ExprKind::Binary(BinOp::Gt, ..) => BinOp::Ge,
            ExprKind::Binary(BinOp::Ge, ..) => BinOp::Gt,
            _ => return,
        };
        if !cur.hit() {
            return;
        }
        let before = cur.show(x);
        if let ExprKind::Binary(op, ..) = &mut x.kind {
            *op = flipped;
        }
        let what = format!("{before} -> {}", cur.show(x));
        cur.record(x.span, what);
    });
}

/// True when `e` reads `.x` or `.y` of `threadIdx` or `blockIdx`.
fn reads_xy(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        found |= matches!(
            x.kind,
            ExprKind::Builtin(
                Builtin::ThreadIdx(Dim::X | Dim::Y) | Builtin::BlockIdx(Dim::X | Dim::Y)
            )
        )
    });
    found
}

fn swap_xy(e: &mut Expr) {
    let other = |d: Dim| match d {
        Dim::X => Dim::Y,
        Dim::Y => Dim::X,
        Dim::Z => Dim::Z,
    };
    each_expr(e, &mut |x| {
        if let ExprKind::Builtin(b) = &mut x.kind {
            *b = match *b {
                Builtin::ThreadIdx(d) => Builtin::ThreadIdx(other(d)),
                Builtin::BlockIdx(d) => Builtin::BlockIdx(other(d)),
                b => b,
            };
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(src: &str) -> (Kernel, SourceFile) {
        let m = warpsafe_cuda_front::compile(src).expect("parses");
        let k = m.kernels.into_iter().next().expect("a kernel");
        (k, SourceFile::new("t.cu", src))
    }

    const REDUCE: &str = "//--blockDim=64 --gridDim=2
//@ len(x) = 128
//@ len(out) = gridDim.x
__global__ void r(const float* x, float* out) {
    __shared__ float s[64];
    unsigned int t = threadIdx.x;
    s[t] = x[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned int k = 32; k > 0; k >>= 1) {
        if (t < k) { s[t] += s[t + k]; }
        __syncthreads();
    }
    if (t == 0) { atomicAdd(&out[0], s[0]); }
}
";

    #[test]
    fn every_kind_finds_its_sites() {
        let (k, f) = kernel(REDUCE);
        let all = mutants(&k, &f);
        let count = |kind| all.iter().filter(|m| m.kind == kind).count();
        assert_eq!(count(Kind::DropBarrier), 2);
        assert_eq!(count(Kind::DropAtomic), 1);
        // s[t], x[..], s[t] (store), s[t], s[t + k], s[0], out[0]
        assert!(count(Kind::IndexPlus) >= 6, "{}", count(Kind::IndexPlus));
        assert_eq!(count(Kind::IndexPlus), count(Kind::IndexMinus));
        assert_eq!(count(Kind::FlipGuard), 2, "k > 0 and t < k");
        assert!(count(Kind::SwapXy) >= 2, "t = threadIdx.x and x's index");
        assert!(all.iter().all(|m| m.line > 0), "every change has a line");
    }

    #[test]
    fn a_dropped_barrier_is_gone_and_the_rest_untouched() {
        let (k, f) = kernel(REDUCE);
        let m = mutants(&k, &f)
            .into_iter()
            .find(|m| m.kind == Kind::DropBarrier && m.site == 1)
            .expect("second barrier");
        assert!(
            m.what.starts_with("line 11: drop __syncthreads()"),
            "{}",
            m.what
        );
        let mut barriers = 0;
        for s in &m.kernel.body {
            s.walk(&mut |s| barriers += usize::from(matches!(s.kind, StmtKind::SyncThreads)));
        }
        assert_eq!(barriers, 1);
    }

    #[test]
    fn index_and_guard_mutations_read_as_source() {
        let (k, f) = kernel(REDUCE);
        let all = mutants(&k, &f);
        let has = |kind: Kind, what: &str| all.iter().any(|m| m.kind == kind && m.what == what);
        assert!(has(
            Kind::IndexPlus,
            "line 10: s[t_0 + k_1] -> s[(t_0 + k_1) + 1u]"
        ));
        assert!(has(Kind::IndexMinus, "line 13: s[0] -> s[0 - 1]"));
        assert!(has(Kind::FlipGuard, "line 10: t_0 < k_1 -> t_0 <= k_1"));
        assert!(has(Kind::SwapXy, "line 6: t = threadIdx.x -> threadIdx.y"));
        assert!(has(
            Kind::DropAtomic,
            "line 13: atomicAdd on out[0] made a plain read-modify-write"
        ));
    }

    #[test]
    fn the_limit_spreads_over_kinds() {
        let (k, f) = kernel(REDUCE);
        let chosen = select(mutants(&k, &f), Some(4));
        let kinds: Vec<Kind> = chosen.iter().map(|m| m.kind).collect();
        assert_eq!(
            kinds,
            [
                Kind::DropBarrier,
                Kind::IndexPlus,
                Kind::FlipGuard,
                Kind::SwapXy
            ]
        );
        assert_eq!(select(mutants(&k, &f), None).len(), mutants(&k, &f).len());
    }
}
