//! The symbolic launch: dimensions, the two threads' ids, scalar parameters, buffer lengths and
//! dynamic shared memory, constrained by CUDA's limits and by the kernel's contract.

use crate::eval::{as_bool, cast_int, eval, Hooks, SVal, Shared};
use crate::term::{Op, Sort, SymKind, Term};
use crate::{Config, DimSpec};

/// Largest `blockDim.d · gridDim.d` assumed for symbolic launches: a thread's global index
/// along a dimension fits in `int` (what `blockIdx.x * blockDim.x + threadIdx.x` stored in an
/// `int` needs; `prove` assumes the same).
pub const MAX_GLOBAL_EXTENT: u64 = i32::MAX as u64;

/// The sentences a report prints about the launches it covers beyond the contract: symbolic
/// dimensions the kernel never reads are 1, and global indices fit in `int`.
pub fn notes(kernel: &Kernel, cfg: &Config) -> Vec<String> {
    let used = kernel.launch_dims_read();
    let mut out = vec![];
    if [cfg.block, cfg.grid].contains(&DimSpec::Any) && used < 3 {
        let (n, comps) = if used == 1 {
            ("1-D", ".x")
        } else {
            ("2-D", ".x and .y")
        };
        out.push(format!(
            "assuming a {n} launch: the kernel reads only {comps} of the launch variables \
             (--block any,any,any / --grid any,any,any checks every dimension)"
        ));
    }
    if [cfg.block, cfg.grid]
        .iter()
        .any(|s| !matches!(s, DimSpec::Fixed(_)))
    {
        out.push(format!(
            "assuming blockDim.d * gridDim.d <= {MAX_GLOBAL_EXTENT} in every dimension (a \
             global thread index fits in int)"
        ));
    }
    out
}
use warpsafe_ir::{
    Builtin, Category, Kernel, MemRef, ParamKind, ScalarType, Span, StmtKind, VarId,
};

/// The symbols a fact pins to one value: its conjuncts `x == c`, also through a zero or sign
/// extension of `x` (`(long)w == 1024`), as the symbol's name and value in its own width.
pub(crate) fn fixed_symbols(fact: &Term, out: &mut Vec<(String, u128)>) {
    let Some((op, args)) = fact.as_app() else {
        return;
    };
    match (op, args) {
        (Op::And, _) => args.iter().for_each(|a| fixed_symbols(a, out)),
        (Op::Eq, [a, b]) => {
            let pinned = match (a.as_bv(), b.as_bv()) {
                (None, Some(c)) => pinned_symbol(a, c),
                (Some(c), None) => pinned_symbol(b, c),
                _ => None,
            };
            out.extend(pinned);
        }
        _ => {}
    }
}

/// `(name, value)` when `t == c` says that the symbol under `t`'s extensions is `value`.
fn pinned_symbol(t: &Term, c: u128) -> Option<(String, u128)> {
    if let Some(s) = t.as_sym() {
        return matches!(s.sort, Sort::BitVec(_)).then(|| (s.name.clone(), c));
    }
    let (op, [x]) = t.as_app()? else {
        return None;
    };
    let (w, wide) = (x.width(), t.width());
    if w == 0 || w >= 128 || wide > 128 {
        return None;
    }
    let low = c & ((1u128 << w) - 1);
    let back = match op {
        Op::Zext(_) => low,
        Op::Sext(_) if low >> (w - 1) == 1 => low | (!0u128 << w) & width_mask(wide),
        Op::Sext(_) => low,
        _ => return None,
    };
    // `c` outside the extension's range: the fact is false, which pins nothing.
    (back == c).then_some(())?;
    pinned_symbol(x, low)
}

/// The mask of the low `w` bits (`w ≤ 128`).
fn width_mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// `threadIdx` and `blockIdx` of one of the two threads.
#[derive(Clone, Debug)]
pub struct ThreadIds {
    /// `threadIdx` (`u32` each).
    pub tid: [Term; 3],
    /// `blockIdx` (`u32` each).
    pub bid: [Term; 3],
    /// `tid < blockDim`, `bid < gridDim`.
    pub constraints: Vec<Term>,
    /// Linear thread id within the block (`u32`).
    pub linear: Term,
}

/// Everything launch-wide, as terms.
#[derive(Clone, Debug)]
pub struct Launch {
    /// `blockDim`.
    pub bdim: [Term; 3],
    /// `gridDim`.
    pub gdim: [Term; 3],
    /// Scalar parameter values (buffers hold `Opaque`).
    pub params: Vec<SVal>,
    /// Buffer lengths in elements (`u64`), for buffer parameters.
    pub lens: Vec<Option<Term>>,
    /// Dynamic shared memory in bytes (`u64`).
    pub dyn_shared: Term,
    /// CUDA limits and the contract.
    pub assumptions: Vec<Term>,
    /// The two threads.
    pub threads: [ThreadIds; 2],
    /// Contract expressions the verifier could not encode.
    pub problems: Vec<String>,
    /// Facts relating the two threads' executions (atomic counters hand out distinct
    /// values), assumed by every two-thread query.
    pub pair_facts: Vec<Term>,
}

fn dim_terms(
    spec: [Option<u32>; 3],
    prefix: &str,
    limits: [u32; 3],
    out: &mut Vec<Term>,
) -> [Term; 3] {
    let names = ["x", "y", "z"];
    std::array::from_fn(|d| match spec[d] {
        Some(v) => Term::bv(32, v as u128),
        None => {
            let t = narrow_sym(
                format!("{prefix}_{}", names[d]),
                limits[d],
                SymKind::Shared,
                0,
            );
            out.push(Term::bv(32, 1).ule(&t));
            out.push(t.ule(&Term::bv(32, limits[d] as u128)));
            t
        }
    })
}

impl Launch {
    /// Builds the symbolic launch of `kernel` under `cfg`.
    pub fn new(kernel: &Kernel, cfg: &Config) -> Launch {
        let mut asm = vec![];
        let used = kernel.launch_dims_read();
        let (block, grid) = (cfg.block.resolve(used), cfg.grid.resolve(used));
        let bdim = dim_terms(block, "bdim", [1024, 1024, 64], &mut asm);
        let gdim = dim_terms(grid, "gdim", [i32::MAX as u32, 65535, 65535], &mut asm);
        for d in 0..3 {
            if block[d].is_none() || grid[d].is_none() {
                let max = Term::bv(64, MAX_GLOBAL_EXTENT as u128);
                let (b, g) = (bdim[d].zext_to(64), gdim[d].zext_to(64));
                asm.push(b.mul(&g).ule(&max));
                // Also in the other order: the integer translation reads a bound on an exact
                // 64-bit product as one on the 32-bit product kernels compute.
                asm.push(g.mul(&b).ule(&max));
            }
        }
        if block.iter().any(|d| d.is_none()) {
            let p = bdim[0]
                .zext_to(64)
                .mul(&bdim[1].zext_to(64))
                .mul(&bdim[2].zext_to(64));
            asm.push(p.ule(&Term::bv(64, 1024)));
        }
        let params = kernel
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| match p.kind {
                ParamKind::Scalar(ScalarType::Bool) => SVal::Bool(crate::term::sym(
                    format!("p{i}_{}", p.name),
                    Sort::Bool,
                    SymKind::Shared,
                    0,
                )),
                ParamKind::Scalar(t) if t.is_int() => SVal::int(
                    crate::term::sym(
                        format!("p{i}_{}", p.name),
                        Sort::BitVec(t.bits()),
                        SymKind::Shared,
                        0,
                    ),
                    t,
                ),
                _ => SVal::Opaque,
            })
            .collect();
        let lens = kernel
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| match p.kind {
                ParamKind::Buffer { .. } => Some(crate::term::sym(
                    format!("len{i}_{}", p.name),
                    Sort::BitVec(64),
                    SymKind::Shared,
                    0,
                )),
                _ => None,
            })
            .collect();
        let dyn_shared =
            crate::term::sym("dyn_shared".into(), Sort::BitVec(64), SymKind::Shared, 0);
        let threads = [1u8, 2].map(|t| thread_ids(t, block, grid, &bdim, &gdim));
        for th in &threads {
            for d in 0..3 {
                if block[d].is_none() || grid[d].is_none() {
                    asm.extend(global_index_bounds(&th.tid[d], &th.bid[d], &bdim[d]));
                }
            }
        }
        let mut l = Launch {
            bdim,
            gdim,
            params,
            lens,
            dyn_shared,
            assumptions: asm,
            threads,
            problems: vec![],
            pair_facts: vec![],
        };
        l.add_contract(kernel);
        l.fix_params(kernel);
        l
    }

    /// Scalar parameters fixed to one value by the assumptions the kernel opens with
    /// (GPUVerify's `__requires(w == 1024)` before any other statement, which every thread
    /// executes first) become that constant: the body's terms fold, and an index `y * w`
    /// stays linear. The equality joins the assumptions, so a model still names the value; the
    /// `assume` statements themselves still execute. A `//@ requires` line pins nothing: on
    /// tests/real's sgemm_float4 (`M == gridDim.y * 128`) the constant made the race queries
    /// five times slower (8.6 s against 45 s).
    fn fix_params(&mut self, kernel: &Kernel) {
        let mut facts = vec![];
        for s in &kernel.body {
            let StmtKind::Assume(e) = &s.kind else {
                break;
            };
            let mut h = ContractHooks::default();
            let v = eval(&mut h, self, e, &Term::tt());
            let b = as_bool(&mut h, v);
            if !h.bad {
                facts.push(b);
            }
        }
        let mut fixed = vec![];
        for f in &facts {
            fixed_symbols(f, &mut fixed);
        }
        for (name, value) in fixed {
            for p in self.params.iter_mut() {
                let SVal::Int { t, ty, .. } = p else {
                    continue;
                };
                if t.as_sym().is_some_and(|s| s.name == name) {
                    let (sym, ty) = (t.clone(), *ty);
                    let constant = Term::bv(sym.width(), value);
                    self.assumptions.push(sym.eq(&constant));
                    *p = SVal::int(constant, ty);
                }
            }
        }
    }

    fn add_contract(&mut self, kernel: &Kernel) {
        let c = &kernel.contract;
        let mut out = vec![];
        for ls in &c.lengths {
            let Some(Some(len)) = self.lens.get(ls.param.0 as usize).cloned() else {
                continue;
            };
            let mut h = ContractHooks::default();
            let v = eval(&mut h, self, &ls.len, &Term::tt());
            match v {
                SVal::Int { t, ty, .. } => {
                    out.push(len.eq(&cast_int(&t, ty, ScalarType::U64)));
                    out.extend(h.defined);
                }
                _ => self
                    .problems
                    .push("a buffer length is not an integer".into()),
            }
            if h.bad {
                self.problems
                    .push("a `len` line reads thread-specific values".into());
            }
        }
        for r in &c.requires {
            let mut h = ContractHooks::default();
            let v = eval(&mut h, self, r, &Term::tt());
            let b = as_bool(&mut h, v);
            out.push(b);
            out.extend(h.defined);
            if h.bad {
                self.problems
                    .push("a `requires` line reads thread-specific values".into());
            }
        }
        if let Some(e) = &c.dynamic_shared_bytes {
            let mut h = ContractHooks::default();
            if let SVal::Int { t, ty, .. } = eval(&mut h, self, e, &Term::tt()) {
                out.push(self.dyn_shared.eq(&cast_int(&t, ty, ScalarType::U64)));
                out.extend(h.defined);
            }
        }
        self.assumptions.extend(out);
    }

    /// Both threads in the same block.
    pub fn same_block(&self) -> Term {
        let [a, b] = &self.threads;
        Term::and_all((0..3).map(|d| a.bid[d].eq(&b.bid[d])))
    }

    /// Both threads in the same warp of the same block.
    pub fn same_warp(&self) -> Term {
        let [a, b] = &self.threads;
        let five = Term::bv(32, 5);
        self.same_block()
            .and(&a.linear.lshr(&five).eq(&b.linear.lshr(&five)))
    }

    /// The two threads differ.
    pub fn distinct(&self) -> Term {
        let [a, b] = &self.threads;
        Term::or_all(
            (0..3)
                .map(|d| a.tid[d].ne(&b.tid[d]))
                .chain((0..3).map(|d| a.bid[d].ne(&b.bid[d]))),
        )
    }

    /// Assumptions preferring small launches, for readable counterexamples.
    pub fn small(&self, kernel: &Kernel) -> Term {
        let mut xs = vec![];
        for d in 0..3 {
            if self.bdim[d].as_bv().is_none() {
                xs.push(self.bdim[d].ule(&Term::bv(32, if d == 0 { 64 } else { 4 })));
            }
            if self.gdim[d].as_bv().is_none() {
                xs.push(self.gdim[d].ule(&Term::bv(32, if d == 0 { 8 } else { 2 })));
            }
        }
        for (i, p) in self.params.iter().enumerate() {
            if let SVal::Int { t, ty, .. } = p {
                let w = t.width();
                if w < 16 {
                    // Every 8-bit value is small; 4096 does not fit.
                } else if ty.is_signed() {
                    xs.push(Term::bvi(w, -4096).sle(t).and(&t.sle(&Term::bv(w, 4096))));
                } else {
                    xs.push(t.ule(&Term::bv(w, 4096)));
                }
            }
            if let Some(Some(l)) = self.lens.get(i) {
                xs.push(l.ule(&Term::bv(64, 1 << 16)));
            }
        }
        if kernel.shared.iter().any(|a| a.dynamic) {
            xs.push(self.dyn_shared.ule(&Term::bv(64, 1 << 16)));
        }
        Term::and_all(xs)
    }
}

/// The thread's global index along a dimension, exactly (in 64 bits), in the forms kernels
/// write it (`blockIdx * blockDim + threadIdx` and its commuted variants): below the global
/// extent. The integer translation reads these as bounds on the 32-bit expressions kernels
/// compute, which therefore need no wrap-around.
fn global_index_bounds(tid: &Term, bid: &Term, bdim: &Term) -> Vec<Term> {
    let max = Term::bv(64, MAX_GLOBAL_EXTENT as u128 - 1);
    let (t, b, d) = (tid.zext_to(64), bid.zext_to(64), bdim.zext_to(64));
    let mut out = vec![];
    for prod in [b.mul(&d), d.mul(&b)] {
        out.push(prod.ule(&max));
        out.push(prod.add(&t).ule(&max));
        out.push(t.add(&prod).ule(&max));
    }
    out
}

/// A `u32` symbol known to be at most `max`, declared with only the bits it needs (the
/// solver's bit-blaster then sees constant upper bits, which keeps products cheap).
fn narrow_sym(name: String, max: u32, kind: SymKind, thread: u8) -> Term {
    let bits = (32 - max.leading_zeros()).max(1);
    crate::term::sym(name, Sort::BitVec(bits), kind, thread).zext_to(32)
}

fn thread_ids(
    t: u8,
    block: [Option<u32>; 3],
    grid: [Option<u32>; 3],
    bdim: &[Term; 3],
    gdim: &[Term; 3],
) -> ThreadIds {
    let names = ["x", "y", "z"];
    let mut constraints = vec![];
    let mut mk = |kind: &str, spec: [Option<u32>; 3], lim: &[Term; 3], sk: SymKind| -> [Term; 3] {
        std::array::from_fn(|d| {
            if spec[d] == Some(1) {
                return Term::bv(32, 0);
            }
            let max = match spec[d] {
                Some(v) => v.saturating_sub(1),
                None if kind == "tid" => [1023, 1023, 63][d],
                None => [i32::MAX as u32 - 1, 65534, 65534][d],
            };
            let s = narrow_sym(format!("{kind}{t}_{}", names[d]), max, sk, t);
            constraints.push(s.ult(&lim[d]));
            s
        })
    };
    let tid = mk("tid", block, bdim, SymKind::Tid);
    let bid = mk("bid", grid, gdim, SymKind::Bid);
    let linear = tid[0]
        .add(&tid[1].mul(&bdim[0]))
        .add(&tid[2].mul(&bdim[0]).mul(&bdim[1]));
    ThreadIds {
        tid,
        bid,
        constraints,
        linear,
    }
}

impl Shared for Launch {
    fn block_dim(&self, d: usize) -> Term {
        self.bdim[d].clone()
    }
    fn grid_dim(&self, d: usize) -> Term {
        self.gdim[d].clone()
    }
    fn param(&self, p: usize) -> SVal {
        self.params.get(p).cloned().unwrap_or(SVal::Opaque)
    }
    fn buffer_len(&self, p: usize) -> Term {
        self.lens
            .get(p)
            .cloned()
            .flatten()
            .unwrap_or_else(|| Term::bv(64, 0))
    }
}

/// Contract expressions are exact: an arithmetic hazard makes the launch invalid.
#[derive(Default)]
struct ContractHooks {
    defined: Vec<Term>,
    bad: bool,
    fresh: u32,
}

impl Hooks for ContractHooks {
    fn var(&mut self, _: VarId, ty: ScalarType) -> SVal {
        self.bad = true;
        SVal::zero(ty)
    }
    fn builtin(&mut self, _: Builtin) -> SVal {
        self.bad = true;
        SVal::int(Term::bv(32, 0), ScalarType::U32)
    }
    fn load(&mut self, _: MemRef, _: Vec<SVal>, ty: ScalarType, _: &Term, _: Span) -> SVal {
        self.bad = true;
        SVal::zero(ty)
    }
    fn hazard(&mut self, _: Category, cond: Term, pc: &Term, _: Span, _: String) {
        self.defined.push(pc.and(&cond).not());
    }
    fn wrap(&mut self, cond: &Term, pc: &Term) {
        self.defined.push(pc.and(cond).not());
    }
    fn fresh(&mut self, s: Sort) -> Term {
        self.fresh += 1;
        crate::term::sym(
            format!("contract_opaque{}_{}", self.fresh, rand_suffix()),
            s,
            SymKind::Shared,
            0,
        )
    }
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str, bits: u32) -> Term {
        crate::term::sym(name.into(), Sort::BitVec(bits), SymKind::Shared, 0)
    }

    fn pinned(fact: &Term) -> Vec<(String, u128)> {
        let mut out = vec![];
        fixed_symbols(fact, &mut out);
        out
    }

    #[test]
    fn equalities_pin_symbols_through_extensions() {
        let w = p("w", 32);
        let h = p("h", 32);
        let fact = w.eq(&Term::bv(32, 1024)).and(&Term::bv(32, 7).eq(&h));
        assert_eq!(pinned(&fact), [("w".into(), 1024), ("h".into(), 7)]);
        // (long)w == -1 pins w to 0xffffffff; (unsigned long)w == 2^32 pins nothing.
        let minus_one = Term::bv(64, u64::MAX as u128);
        assert_eq!(
            pinned(&w.sext_to(64).eq(&minus_one)),
            [("w".into(), 0xffff_ffff)]
        );
        assert!(pinned(&w.zext_to(64).eq(&Term::bv(64, 1 << 32))).is_empty());
        assert!(pinned(&w.sext_to(64).eq(&Term::bv(64, 0xffff_ffff))).is_empty());
        assert!(pinned(&w.ult(&Term::bv(32, 5))).is_empty());
        assert!(pinned(&w.eq(&h)).is_empty());
    }
}
