//! The proof obligations of the induction, one z3 query each: for every barrier phase a
//! Hoare triple (safety of its accesses, race freedom for two symbolic threads, the
//! post-state of every written cell, the frame of every cell nobody writes), with the loop
//! invariants as pre- and postconditions and the spec after the last phase.

use super::fit::{Bound, Selector};
use super::shape::{BarrierLoop, Phase};
use super::smt::{check, Answer};
use super::sym::{empty, eq3, ite3, mul_small, CellFn, SVal, Sum3, Sym};
use super::term::{bv, sym, uge, T};
use super::{LoopInvariant, Sizes};
use crate::outcome::{Method, Obligation, SizeDomain};
use crate::summary::Mode;
use crate::target::unit_coefficient;
use rayon::prelude::*;
use std::collections::HashMap;
use std::time::Instant;
use warpsafe_equiv::{Reduce, Spec, SpecExpr, SpecExprKind};
use warpsafe_ir::{Kernel, MemRef, ParamKind, Stmt};

/// The block size.
fn n() -> T {
    sym("N")
}

/// The cell of the post-state an obligation is about.
fn f() -> T {
    sym("f")
}
/// The largest block size the proof covers (CUDA allows 1024).
pub const MAX_N: i64 = 1 << 15;

type Env = Vec<Option<SVal>>;

pub(super) struct Ctx<'a> {
    pub k: &'a Kernel,
    pub spec: &'a Spec,
    pub mode: Mode,
    pub domain: SizeDomain,
    pub phases: &'a [Phase<'a>],
    pub invs: &'a [LoopInvariant],
    pub sizes: Sizes,
    pub timeout_ms: u64,
}

/// An obligation settled without z3, or the query that settles it.
pub(super) enum Pending {
    Done(Obligation),
    Query(String, Vec<T>),
}

enum Post {
    Loop(usize),
    Spec,
}

fn loop_sym(li: usize, var: u32) -> T {
    sym(&format!("l{li}_{var}"))
}

/// A readable description of the fitted invariants.
pub(super) fn describe(k: &Kernel, invs: &[LoopInvariant]) -> String {
    invs.iter()
        .enumerate()
        .map(|(li, inv)| {
            let arrays: Vec<String> = inv
                .arrays
                .iter()
                .map(|a| {
                    let name = &k.shared[a.array as usize].name;
                    let sel = match a.selector {
                        Selector::Whole => String::new(),
                        Selector::Row(r) => format!("[{r}]"),
                        Selector::RowVar(p) => format!("[{}]", k.vars[p as usize].name),
                    };
                    format!("{name}{sel}[c] = {:?}", a.template)
                })
                .collect();
            format!(
                "loop {}: {} ({:?} bound)",
                li + 1,
                arrays.join(", "),
                inv.bound
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl<'a> Ctx<'a> {
    fn loops(&self) -> Vec<(usize, &'a BarrierLoop<'a>)> {
        self.phases
            .iter()
            .enumerate()
            .filter_map(|(j, p)| match p {
                Phase::Loop(l) => Some((j, l)),
                _ => None,
            })
            .collect()
    }

    fn base_facts(&self) -> Vec<T> {
        let n = n();
        let mut f = vec![
            uge(&n, &bv(self.sizes.lo.max(1) as i64)),
            n.ule(&bv((self.sizes.hi as i64).min(MAX_N))),
            sym("t").ult(&n),
            sym("t2").ult(&n),
        ];
        if self.domain == SizeDomain::PowersOfTwo {
            f.push(n.bvand(&n.sub(&bv(1))).eq(&bv(0)));
        }
        f
    }

    fn env_before(&self, j: usize, ts: &T) -> Result<Env, String> {
        let none = |_: u32, _: &T| None;
        let mut s = Sym::new(self.k, ts, &n(), self.mode, &none).replay_only();
        let mut li = 0;
        for p in &self.phases[..j] {
            match p {
                Phase::Interval(st) | Phase::Final(st) => s.block(st)?,
                Phase::Loop(l) => {
                    s.block(l.lets)?;
                    s.block(l.init)?;
                    for c in &l.carried {
                        s.env[c.0 as usize] = Some(SVal::Int(loop_sym(li, c.0)));
                    }
                    li += 1;
                }
            }
        }
        Ok(s.env)
    }

    fn head_env(&self, li: usize, ts: &T) -> Result<Env, String> {
        let (j, l) = self.loops()[li];
        let env = self.env_before(j, ts)?;
        let none = |_: u32, _: &T| None;
        let mut s = Sym::new(self.k, ts, &n(), self.mode, &none).replay_only();
        s.env = env;
        s.block(l.lets)?;
        s.block(l.init)?;
        for c in &l.carried {
            s.env[c.0 as usize] = Some(SVal::Int(loop_sym(li, c.0)));
        }
        Ok(s.env)
    }

    fn cond_at_head(&self, li: usize, ts: &T) -> Result<T, String> {
        let (_, l) = self.loops()[li];
        let none = |_: u32, _: &T| None;
        let mut s = Sym::new(self.k, ts, &n(), self.mode, &none);
        s.env = self.head_env(li, ts)?;
        s.cond(l.cond)
    }

    fn head_terms(&self, li: usize) -> HashMap<u32, T> {
        let (_, l) = self.loops()[li];
        l.carried.iter().map(|c| (c.0, loop_sym(li, c.0))).collect()
    }

    /// The cell of `array` at `flat` under loop `li`'s invariant with carried values `terms`.
    fn cell(&self, li: usize, terms: &HashMap<u32, T>, array: u32, flat: &T) -> Option<(T, Sum3)> {
        let inv = &self.invs[li];
        let fit = inv.arrays.iter().find(|a| a.array == array)?;
        let (_, l) = self.loops()[li];
        let v = terms.get(&l.var.0)?;
        let row = match fit.selector {
            Selector::Whole => None,
            Selector::Row(r) => Some(bv(r)),
            Selector::RowVar(p) => Some(terms.get(&p)?.clone()),
        };
        let n = n();
        let (in_row, col) = match row {
            None => (T::tt(), flat.clone()),
            Some(r) => {
                let base = mul_small(&r, &n);
                let col = flat.sub(&base);
                (uge(flat, &base).and(&col.ult(&n)), col)
            }
        };
        let [cond, start, step, count] = fit.template.smt(&col, v, &n);
        Some((in_row.and(&cond), [start, step, count]))
    }

    fn constraints(&self, li: usize, terms: &HashMap<u32, T>) -> Option<T> {
        let inv = &self.invs[li];
        let (_, l) = self.loops()[li];
        let v = terms.get(&l.var.0)?;
        let n = n();
        let mut c = vec![v.ult(&bv(1 << 16))];
        if inv.pow2 {
            let p2 = v.ne(&bv(0)).and(&v.bvand(&v.sub(&bv(1))).eq(&bv(0)));
            c.push(if inv.zero_seen {
                v.eq(&bv(0)).or(&p2)
            } else {
                p2
            });
        }
        c.push(match inv.bound {
            Bound::HalfN => bv(2).mul(v).ule(&n),
            Bound::N => v.ule(&n),
            Bound::TwiceN => v.ult(&bv(2).mul(&n)),
        });
        for (p, vals) in &inv.values {
            let t = terms.get(p)?;
            c.push(T::or_all(vals.iter().map(|x| t.eq(&bv(*x)))));
        }
        Some(T::and_all(c))
    }

    fn query(&self, name: String, assertions: Vec<T>) -> Pending {
        Pending::Query(name, assertions)
    }

    fn solve(&self, name: String, assertions: Vec<T>) -> Obligation {
        let t0 = Instant::now();
        let mut all = self.base_facts();
        all.extend(assertions);
        let ans = check(&all, self.timeout_ms);
        let (holds, detail) = match ans {
            Answer::Unsat if self.sizes == Sizes::ALL => (
                Some(true),
                "proved for every block size N ≤ 32768 (symbolic N, thread and loop variable)"
                    .to_string(),
            ),
            Answer::Unsat => (
                Some(true),
                format!(
                    "proved for every block size {} ≤ N ≤ {} the contract admits (symbolic N, \
                     thread and loop variable)",
                    self.sizes.lo, self.sizes.hi
                ),
            ),
            Answer::Sat => (
                Some(false),
                "z3 found a state that breaks it: the fitted invariant is not inductive"
                    .to_string(),
            ),
            Answer::Unknown(r) => (None, r),
        };
        Obligation {
            name,
            method: Method::Induction,
            holds,
            detail,
            seconds: t0.elapsed().as_secs_f64(),
        }
    }

    /// Every obligation, in phase order, with the z3 queries run in parallel.
    pub fn run_all(&self) -> Vec<Obligation> {
        self.all()
            .into_par_iter()
            .map(|p| match p {
                Pending::Done(o) => o,
                Pending::Query(name, a) => self.solve(name, a),
            })
            .collect()
    }

    fn unsupported(&self, name: String, why: String) -> Pending {
        Pending::Done(Obligation {
            name,
            method: Method::Induction,
            holds: None,
            detail: why,
            seconds: 0.0,
        })
    }

    fn all(&self) -> Vec<Pending> {
        let mut out = vec![];
        let loops = self.loops();
        for (li, &(j, l)) in loops.iter().enumerate() {
            let Phase::Interval(before) = self.phases[j - 1] else {
                continue;
            };
            let prev = li.checked_sub(1);
            let name = format!("loop {} entry", li + 1);
            let pre_terms = prev.map(|p| self.head_terms(p));
            let pre = |a: u32, flat: &T| match (prev, &pre_terms) {
                (Some(p), Some(t)) => self.cell(p, t, a, flat),
                _ => None,
            };
            let mut assume = vec![];
            if let Some(p) = prev {
                match (
                    self.constraints(p, &self.head_terms(p)),
                    self.cond_at_head(p, &sym("t")),
                ) {
                    (Some(c), Ok(cond)) => assume.extend([c, cond.not()]),
                    (_, Err(e)) => {
                        out.push(self.unsupported(name, e));
                        continue;
                    }
                    (None, _) => continue,
                }
            }
            let env = |ts: &T| self.env_before(j - 1, ts);
            out.extend(self.hoare(
                &name,
                &env,
                &pre,
                &assume,
                &[before, l.lets, l.init],
                Post::Loop(li),
            ));
            let name = format!("loop {} step", li + 1);
            let terms = self.head_terms(li);
            let pre = |a: u32, flat: &T| self.cell(li, &terms, a, flat);
            let conds = self
                .cond_at_head(li, &sym("t"))
                .and_then(|a| Ok((a, self.cond_at_head(li, &sym("t2"))?)));
            let (c, (cond, cond2)) = match (self.constraints(li, &terms), conds) {
                (Some(c), Ok(x)) => (c, x),
                (_, Err(e)) => {
                    out.push(self.unsupported(name, e));
                    continue;
                }
                (None, _) => {
                    out.push(self.unsupported(name, "a loop variable has no fitted values".into()));
                    continue;
                }
            };
            out.push(self.query(
                format!("{name}: uniform loop condition (no barrier divergence)"),
                vec![c.clone(), cond.ne(&cond2)],
            ));
            let env = |ts: &T| self.head_env(li, ts);
            out.extend(self.hoare(
                &name,
                &env,
                &pre,
                &[c, cond],
                &[l.body, l.update],
                Post::Loop(li),
            ));
        }
        let last = loops.len() - 1;
        let Some(Phase::Final(fin)) = self.phases.last() else {
            return out;
        };
        let terms = self.head_terms(last);
        let pre = |a: u32, flat: &T| self.cell(last, &terms, a, flat);
        match (
            self.constraints(last, &terms),
            self.cond_at_head(last, &sym("t")),
        ) {
            (Some(c), Ok(cond)) => {
                let env = |ts: &T| self.env_before(self.phases.len() - 1, ts);
                out.extend(self.hoare("exit", &env, &pre, &[c, cond.not()], &[fin], Post::Spec));
            }
            (_, Err(e)) => out.push(self.unsupported("exit".into(), e)),
            (None, _) => out.push(
                self.unsupported("exit".into(), "a loop variable has no fitted values".into()),
            ),
        }
        out
    }

    fn hoare(
        &self,
        name: &str,
        env: &dyn Fn(&T) -> Result<Env, String>,
        pre: &CellFn<'_>,
        assume: &[T],
        stmts: &[&[Stmt]],
        post: Post,
    ) -> Vec<Pending> {
        let runs: Result<Vec<Sym>, String> = ["t", "t2", "u"]
            .iter()
            .map(|ts| {
                let ts = sym(ts);
                let mut s = Sym::new(self.k, &ts, &n(), self.mode, pre);
                s.env = env(&ts)?;
                for st in stmts {
                    s.block(st)?;
                }
                Ok(s)
            })
            .collect();
        let runs = match runs {
            Ok(r) => r,
            Err(e) => return vec![self.unsupported(name.to_string(), e)],
        };
        let (r1, r2, ru) = (&runs[0], &runs[1], &runs[2]);
        let mut out = vec![];
        let checks = r1.checks.iter().map(|(_, f)| f.clone());
        let mut a = assume.to_vec();
        a.push(T::and_all(checks).not());
        out.push(self.query(format!("{name}: accesses in bounds, only adjacent summaries combined, reads of described cells"), a));
        let mut pairs = vec![];
        for x in &r1.accesses {
            for y in &r2.accesses {
                if x.mem == y.mem && (x.write || y.write) {
                    pairs.push(T::and_all([
                        x.guard.clone(),
                        y.guard.clone(),
                        x.flat.eq(&y.flat),
                    ]));
                }
            }
        }
        let mut a = assume.to_vec();
        a.push(sym("t").ne(&sym("t2")));
        a.push(T::or_all(pairs));
        out.push(self.query(format!("{name}: race freedom"), a));
        match post {
            Post::Loop(li) => self.post_loop(name, li, assume, pre, r1, r2, ru, &mut out),
            Post::Spec => self.post_spec(name, assume, r1, ru, &mut out),
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn post_loop(
        &self,
        name: &str,
        li: usize,
        assume: &[T],
        pre: &CellFn<'_>,
        r1: &Sym,
        r2: &Sym,
        ru: &Sym,
        out: &mut Vec<Pending>,
    ) {
        let (_, l) = self.loops()[li];
        let mut terms = HashMap::new();
        let mut same = vec![];
        for c in &l.carried {
            match (&r1.env[c.0 as usize], &r2.env[c.0 as usize]) {
                (Some(SVal::Int(a)), Some(SVal::Int(b))) => {
                    terms.insert(c.0, a.clone());
                    same.push(a.eq(b));
                }
                _ => {
                    out.push(self.unsupported(
                        format!("{name}: loop variables"),
                        format!(
                            "`{}` is not an integer here",
                            self.k.vars[c.0 as usize].name
                        ),
                    ));
                    return;
                }
            }
        }
        let mut a = assume.to_vec();
        a.push(T::and_all(same).not());
        out.push(self.query(format!("{name}: loop variables uniform"), a));
        let Some(c) = self.constraints(li, &terms) else {
            return;
        };
        let mut a = assume.to_vec();
        a.push(c.not());
        out.push(self.query(format!("{name}: loop-variable invariant"), a));
        for fit in &self.invs[li].arrays {
            let mem = MemRef::Shared(warpsafe_ir::ArrayId(fit.array));
            let arr = &self.k.shared[fit.array as usize].name;
            let Some((pcons, pval)) = self.cell(li, &terms, fit.array, &f()) else {
                continue;
            };
            let (w1, fin) = writes(r1, mem);
            let mut a = assume.to_vec();
            a.extend([pcons.clone(), w1, eq3(&fin, &pval).not()]);
            out.push(self.query(
                format!("{name}: written cells of {arr} meet the invariant"),
                a,
            ));
            let (precons, preval) = pre(fit.array, &f()).unwrap_or((T::ff(), empty()));
            let mut a = assume.to_vec();
            a.extend([
                pcons,
                witnessed(ru, mem).not(),
                precons.and(&eq3(&preval, &pval)).not(),
            ]);
            out.push(self.query(
                format!("{name}: cells of {arr} no thread writes already meet the invariant"),
                a,
            ));
        }
    }

    fn post_spec(&self, name: &str, assume: &[T], r1: &Sym, ru: &Sym, out: &mut Vec<Pending>) {
        for eq in &self.spec.equations {
            let oname = format!("{name}: {} matches the spec", eq.buffer);
            let Some(p) = self.k.param_named(&eq.buffer) else {
                out.push(self.unsupported(oname, format!("`{}` is not a parameter", eq.buffer)));
                continue;
            };
            let target = match self.spec_target(eq) {
                Ok(t) => t,
                Err(e) => {
                    out.push(self.unsupported(oname, e));
                    continue;
                }
            };
            let (range, expected) = target;
            let mem = MemRef::Global(p);
            let (w1, fin) = writes(r1, mem);
            let mut a = assume.to_vec();
            a.extend([range.clone(), w1, eq3(&fin, &expected).not()]);
            out.push(self.query(format!("{oname}: every written element"), a));
            let mut a = assume.to_vec();
            a.extend([range, witnessed(ru, mem).not()]);
            out.push(self.query(format!("{oname}: every element written"), a));
        }
    }

    /// The spec's range for the output index `f` and the summary it asks for there.
    fn spec_target(&self, eq: &warpsafe_equiv::Equation) -> Result<(T, Sum3), String> {
        let ([r], [idx]) = (eq.ranges.as_slice(), eq.indices.as_slice()) else {
            return Err("only one-dimensional equations are proved by induction".into());
        };
        if !matches!(&idx.kind, SpecExprKind::Name(n) if *n == r.var) {
            return Err("the output index is not the range variable".into());
        }
        let mut env = HashMap::new();
        env.insert(r.var.clone(), f());
        let lo = match &r.lo {
            Some(e) => self.spec_term(e, &env)?,
            None => bv(0),
        };
        let hi = self.spec_term(&r.hi, &env)?;
        let below = if r.inclusive {
            f().sle(&hi)
        } else {
            f().slt(&hi)
        };
        let range = lo.sle(&f()).and(&below);
        let expected = match &eq.value.kind {
            SpecExprKind::Num(x) if x.parse::<f64>() == Ok(0.0) => empty(),
            SpecExprKind::Index(_, i) if i.len() == 1 => {
                [self.spec_term(&i[0], &env)?, bv(1), bv(1)]
            }
            SpecExprKind::Reduce(Reduce::Sum, rr, body) => {
                let SpecExprKind::Index(_, i) = &body.kind else {
                    return Err("a sum of something other than input elements".into());
                };
                if i.len() != 1 || !unit_coefficient(&i[0], &rr.var) {
                    return Err("a sum whose elements are not consecutive".into());
                }
                let lo2 = match &rr.lo {
                    Some(e) => self.spec_term(e, &env)?,
                    None => bv(0),
                };
                let mut hi2 = self.spec_term(&rr.hi, &env)?;
                if rr.inclusive {
                    hi2 = hi2.add(&bv(1));
                }
                let mut env2 = env.clone();
                env2.insert(rr.var.clone(), lo2.clone());
                let start = self.spec_term(&i[0], &env2)?;
                let count = T::ite(&hi2.slt(&lo2), &bv(0), &hi2.sub(&lo2));
                [start, bv(1), count]
            }
            _ => return Err("the spec is not a sum of consecutive input elements".into()),
        };
        Ok((range, expected))
    }

    fn spec_term(&self, e: &SpecExpr, env: &HashMap<String, T>) -> Result<T, String> {
        Ok(match &e.kind {
            SpecExprKind::Num(n) => {
                bv(n.parse::<i64>().map_err(|_| format!("`{n}` in an index"))?)
            }
            SpecExprKind::Name(name) => match (env.get(name), name.as_str()) {
                (Some(t), _) => t.clone(),
                (None, "blockDim.x") => n(),
                (None, "gridDim.x" | "blockDim.y" | "blockDim.z" | "gridDim.y" | "gridDim.z") => {
                    bv(1)
                }
                _ => match self.k.param_named(name).map(|p| self.k.param(p).kind) {
                    Some(ParamKind::Scalar(t)) if t.is_int() => n(),
                    _ => return Err(format!("unknown name `{name}`")),
                },
            },
            SpecExprKind::Neg(a) => self.spec_term(a, env)?.neg(),
            SpecExprKind::Bin(op, a, b) => {
                let (x, y) = (self.spec_term(a, env)?, self.spec_term(b, env)?);
                match op {
                    '+' => x.add(&y),
                    '-' => x.sub(&y),
                    '*' => x.mul(&y),
                    '/' => x.sdiv(&y),
                    '%' => x.srem(&y),
                    _ => return Err(format!("`{op}` in an index")),
                }
            }
            _ => return Err("an index expression outside + - * / %".into()),
        })
    }
}

/// Whether thread run `r` writes cell `f` of `mem`, and the last value it writes there.
fn writes(r: &Sym, mem: MemRef) -> (T, Sum3) {
    let mut hits = vec![];
    let mut val = empty();
    for s in r.stores.iter().filter(|s| s.mem == mem) {
        let SVal::Data(d) = &s.val else { continue };
        let h = s.guard.and(&s.flat.eq(&f()));
        val = ite3(&h, d, &val);
        hits.push(h);
    }
    (T::or_all(hits), val)
}

/// Some thread writes cell `f` of `mem`: for each store of run `ru` (whose thread is the
/// symbol `u`), the thread that store would need if its index were affine in `u` is tried
/// as a witness, and so are threads 0 and `f`. A wrong guess only makes the obligation
/// fail, never hold wrongly. A witness `w` is substituted for `u` (the shared printer names
/// the substituted terms once).
fn witnessed(ru: &Sym, mem: MemRef) -> T {
    let (wu, _) = writes(ru, mem);
    let n = n();
    let at = |w: &T| w.ult(&n).and(&wu.replace("u", w));
    let mut alts: Vec<T> = [bv(0), f()].iter().map(at).collect();
    for st in ru.stores.iter().filter(|s| s.mem == mem) {
        let b = st.flat.replace("u", &bv(0));
        let a = st.flat.replace("u", &bv(1)).sub(&b);
        let w = f().sub(&b).udiv(&a);
        alts.push(a.ne(&bv(0)).and(&at(&w)));
    }
    T::or_all(alts)
}
