//! Symbolic execution of one barrier interval for one symbolic thread: integers are 32-bit
//! vectors, input combinations are (start, step, count) triples, and every shared access,
//! store and obligation is collected for the caller to turn into queries.

use super::term::{bv, le, lt, nonzero, of_bool, sge, sgt, uge, ugt, T};
use crate::summary::Mode;
use warpsafe_ir::{
    BinOp, Builtin, Dim, Expr, ExprKind, Kernel, LogicOp, MemRef, ParamKind, ScalarType, Stmt,
    StmtKind, UnOp, Value,
};

/// A summary as terms: start, step, count.
pub type Sum3 = [T; 3];

/// A symbolic value.
#[derive(Clone, Debug, PartialEq)]
pub enum SVal {
    /// A 32-bit integer term.
    Int(T),
    /// A boolean term.
    Bool(T),
    /// A summary.
    Data(Sum3),
    /// A value computed from memory in an earlier phase (must not be used).
    Stale,
}

/// A store of the interval.
#[derive(Clone, Debug)]
pub struct Store {
    /// Where.
    pub mem: MemRef,
    /// The flattened index.
    pub flat: T,
    /// What.
    pub val: SVal,
    /// When.
    pub guard: T,
}

/// A memory access of the interval.
#[derive(Clone, Debug)]
pub struct Access {
    /// Where.
    pub mem: MemRef,
    /// The flattened index.
    pub flat: T,
    /// Write or read.
    pub write: bool,
    /// When.
    pub guard: T,
}

/// The pre-state of shared memory: for array `a` and flat index term, the condition under
/// which the invariant describes the cell and its summary (`None`: nothing is known).
pub type Pre<'a> = &'a CellFn<'a>;

/// A cell description: (array, flat index) to (described?, summary).
pub type CellFn<'a> = dyn Fn(u32, &T) -> Option<(T, Sum3)> + 'a;

/// `x * d`, split on the common cases `x = 0` and `x = 1` (row indices of double buffers),
/// which z3 then needs no multiplier for.
pub fn mul_small(x: &T, d: &T) -> T {
    T::ite(&x.eq(&bv(0)), &bv(0), &T::ite(&x.eq(&bv(1)), d, &x.mul(d)))
}

/// The empty summary.
pub fn empty() -> Sum3 {
    [bv(0), bv(1), bv(0)]
}

/// Two summaries are equal.
pub fn eq3(a: &Sum3, b: &Sum3) -> T {
    let same_cells = a[2]
        .eq(&bv(0))
        .or(&a[0].eq(&b[0]).and(&a[2].eq(&bv(1)).or(&a[1].eq(&b[1]))));
    a[2].eq(&b[2]).and(&same_cells)
}

/// `if c then a else b`, componentwise.
pub fn ite3(c: &T, a: &Sum3, b: &Sum3) -> Sum3 {
    [0, 1, 2].map(|i| T::ite(c, &a[i], &b[i]))
}

fn is_zero(v: &SVal) -> bool {
    matches!(v, SVal::Int(z) if z.is_value(0))
}

/// The symbolic executor for one thread.
pub struct Sym<'a> {
    k: &'a Kernel,
    tid: T,
    n: T,
    mode: Mode,
    /// Variable values.
    pub env: Vec<Option<SVal>>,
    path: T,
    /// Stores, in program order.
    pub stores: Vec<Store>,
    /// Accesses, in program order.
    pub accesses: Vec<Access>,
    /// Formulas that must hold, with what each guarantees.
    pub checks: Vec<(&'static str, T)>,
    pre: Pre<'a>,
    dims: Vec<Vec<T>>,
    stale_loads: bool,
}

impl<'a> Sym<'a> {
    /// An executor for thread `tid` with block size `n`.
    pub fn new(k: &'a Kernel, tid: &T, n: &T, mode: Mode, pre: Pre<'a>) -> Sym<'a> {
        let declared = k.contract.block_dim.map(|d| d[0] as u64);
        let dims = k
            .shared
            .iter()
            .map(|a| {
                a.dims
                    .iter()
                    .map(|&d| {
                        if Some(d) == declared {
                            n.clone()
                        } else {
                            bv(d as i64)
                        }
                    })
                    .collect()
            })
            .collect();
        Sym {
            k,
            tid: tid.clone(),
            n: n.clone(),
            mode,
            env: vec![None; k.vars.len()],
            path: T::tt(),
            stores: vec![],
            accesses: vec![],
            checks: vec![],
            pre,
            dims,
            stale_loads: false,
        }
    }

    /// Makes loads yield [`SVal::Stale`] and drops memory effects (rebuilding the variables
    /// of an earlier phase).
    pub fn replay_only(mut self) -> Self {
        self.stale_loads = true;
        self
    }

    /// Runs `stmts`.
    pub fn block(&mut self, stmts: &[Stmt]) -> Result<(), String> {
        stmts.iter().try_for_each(|s| self.stmt(s))
    }

    fn check(&mut self, what: &'static str, f: T) {
        if !self.stale_loads {
            self.checks.push((what, self.path.implies(&f)));
        }
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), String> {
        match &s.kind {
            StmtKind::Let { var, init } => {
                let v = match init {
                    Some(e) => Some(self.eval(e)?),
                    None => None,
                };
                self.env[var.0 as usize] = v;
            }
            StmtKind::Assign { var, value } => {
                let v = self.eval(value)?;
                self.env[var.0 as usize] = Some(v);
            }
            StmtKind::Store {
                mem,
                indices,
                value,
            } => {
                let v = self.eval(value)?;
                let v = match v {
                    v if is_zero(&v) => SVal::Data(empty()),
                    SVal::Data(d) => SVal::Data(d),
                    SVal::Stale if self.stale_loads => SVal::Stale,
                    _ => return Err("stores a value that is not a summary".into()),
                };
                let flat = self.flat(*mem, indices)?;
                if !self.stale_loads {
                    let guard = self.path.clone();
                    self.accesses.push(Access {
                        mem: *mem,
                        flat: flat.clone(),
                        write: true,
                        guard: guard.clone(),
                    });
                    self.stores.push(Store {
                        mem: *mem,
                        flat,
                        val: v,
                        guard,
                    });
                }
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = self.cond(cond)?;
                let saved_env = self.env.clone();
                let saved_path = self.path.clone();
                self.path = saved_path.and(&c);
                self.block(then_body)?;
                let then_env = std::mem::replace(&mut self.env, saved_env);
                self.path = saved_path.and(&c.not());
                self.block(else_body)?;
                self.path = saved_path;
                for (i, tv) in then_env.into_iter().enumerate() {
                    let merged = match (tv, self.env[i].take()) {
                        (Some(a), Some(b)) if a == b => Some(a),
                        (Some(a), Some(b)) => ite(&c, a, b).ok(),
                        _ => None,
                    };
                    self.env[i] = merged;
                }
            }
            StmtKind::SyncThreads => {
                return Err("a barrier inside a barrier interval's branch".into())
            }
            _ => return Err("a statement outside straight-line code with branches".into()),
        }
        Ok(())
    }

    /// The boolean term of condition `e`.
    pub fn cond(&mut self, e: &Expr) -> Result<T, String> {
        match self.eval(e)? {
            SVal::Bool(b) => Ok(b),
            SVal::Int(i) => Ok(nonzero(&i)),
            _ => Err("a branch on input data".into()),
        }
    }

    fn int(&mut self, e: &Expr) -> Result<T, String> {
        match self.eval(e)? {
            SVal::Int(i) => Ok(i),
            SVal::Bool(b) => Ok(of_bool(&b)),
            _ => Err("input data used as an integer".into()),
        }
    }

    fn flat(&mut self, mem: MemRef, indices: &[Expr]) -> Result<T, String> {
        let dims: Vec<T> = match mem {
            MemRef::Shared(a) => self.dims[a.0 as usize].clone(),
            MemRef::Global(p) => vec![self.buffer_len(p)?],
            MemRef::Local(_) => return Err("local arrays".into()),
        };
        if dims.len() != indices.len() {
            return Err("an access with the wrong number of indices".into());
        }
        let mut flat: Option<T> = None;
        for (e, d) in indices.iter().zip(&dims) {
            let i = self.int(e)?;
            self.check("in bounds", i.ult(d));
            flat = Some(match flat {
                None => i,
                Some(f) => mul_small(&f, d).add(&i),
            });
        }
        Ok(flat.unwrap_or_else(|| bv(0)))
    }

    fn buffer_len(&mut self, p: warpsafe_ir::ParamId) -> Result<T, String> {
        match self.k.contract.lengths.iter().find(|l| l.param == p) {
            Some(l) => {
                let len = l.len.clone();
                self.int(&len)
            }
            None => Ok(self.n.clone()),
        }
    }

    fn load(&mut self, mem: MemRef, indices: &[Expr]) -> Result<SVal, String> {
        let flat = self.flat(mem, indices)?;
        if self.stale_loads {
            return Ok(SVal::Stale);
        }
        match mem {
            MemRef::Global(p) => match self.k.param(p).kind {
                ParamKind::Buffer {
                    writable: false, ..
                } => Ok(SVal::Data([flat, bv(1), bv(1)])),
                _ => Err("reads a writable global buffer".into()),
            },
            MemRef::Shared(a) => {
                self.accesses.push(Access {
                    mem,
                    flat: flat.clone(),
                    write: false,
                    guard: self.path.clone(),
                });
                let (cons, base) = (self.pre)(a.0, &flat).unwrap_or((T::ff(), empty()));
                let mut val = base;
                let mut hit = vec![cons];
                for s in &self.stores {
                    if s.mem != mem {
                        continue;
                    }
                    let SVal::Data(d) = &s.val else { continue };
                    let h = s.guard.and(&s.flat.eq(&flat));
                    val = ite3(&h, d, &val);
                    hit.push(h);
                }
                self.check("reads only cells the invariant describes", T::or_all(hit));
                Ok(SVal::Data(val))
            }
            MemRef::Local(_) => Err("local arrays".into()),
        }
    }

    fn eval(&mut self, e: &Expr) -> Result<SVal, String> {
        let wide = matches!(e.ty, ScalarType::I64 | ScalarType::U64);
        if wide && !matches!(e.kind, ExprKind::Cast(_)) {
            return Err("64-bit integer arithmetic".into());
        }
        // Integers are 32-bit vectors here: an 8/16-bit value would lose its wrap-around.
        if e.ty.is_small_int() {
            return Err("8- and 16-bit integers".into());
        }
        Ok(match &e.kind {
            ExprKind::Const(v) => match v {
                Value::Bool(b) => SVal::Bool(T::bool(*b)),
                Value::F16(_) | Value::F32(_) | Value::F64(_) if v.as_f64() == 0.0 => {
                    SVal::Data(empty())
                }
                Value::F16(_) | Value::F32(_) | Value::F64(_) => {
                    return Err("a float constant other than 0".into())
                }
                _ => SVal::Int(bv(v.as_i128().ok_or("a constant")? as i64)),
            },
            ExprKind::Var(v) => match &self.env[v.0 as usize] {
                Some(SVal::Stale) => {
                    return Err("a value read from memory in an earlier phase".into())
                }
                Some(x) => x.clone(),
                None => return Err(format!("`{}` is unset here", self.k.var(*v).name)),
            },
            ExprKind::Param(p) => match self.k.param(*p).kind {
                ParamKind::Scalar(t) if t.is_int() => SVal::Int(self.n.clone()),
                _ => return Err("a non-integer scalar parameter".into()),
            },
            ExprKind::Builtin(b) => SVal::Int(match b {
                Builtin::ThreadIdx(Dim::X) => self.tid.clone(),
                Builtin::BlockDim(Dim::X) => self.n.clone(),
                Builtin::BlockIdx(_) | Builtin::ThreadIdx(_) => bv(0),
                Builtin::BlockDim(_) | Builtin::GridDim(_) => bv(1),
                _ => return Err("warp builtins".into()),
            }),
            ExprKind::BufferLen(p) => SVal::Int(self.buffer_len(*p)?),
            ExprKind::Unary(op, a) => match (op, self.eval(a)?) {
                (UnOp::Neg, SVal::Int(x)) => SVal::Int(x.neg()),
                (UnOp::BitNot, SVal::Int(x)) => SVal::Int(x.bvnot()),
                (UnOp::Not, SVal::Bool(x)) => SVal::Bool(x.not()),
                (UnOp::Not, SVal::Int(x)) => SVal::Bool(x.eq(&bv(0))),
                _ => return Err("an operator other than + on input data".into()),
            },
            ExprKind::Binary(op, a, b) => {
                let signed = a.ty.is_signed();
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                self.binary(*op, x, y, signed)?
            }
            ExprKind::Logical(op, a, b) => {
                let x = self.cond(a)?;
                let saved = self.path.clone();
                self.path = match op {
                    LogicOp::And => saved.and(&x),
                    LogicOp::Or => saved.and(&x.not()),
                };
                let y = self.cond(b);
                self.path = saved;
                let y = y?;
                SVal::Bool(match op {
                    LogicOp::And => x.and(&y),
                    LogicOp::Or => x.or(&y),
                })
            }
            ExprKind::Cast(a) if wide => {
                // A non-negative 32-bit value keeps its bits when widened.
                let x = self.int(a)?;
                self.check("widened values are non-negative", sge(&x, &bv(0)));
                SVal::Int(x)
            }
            ExprKind::Cast(a) => match (self.eval(a)?, e.ty) {
                (SVal::Data(_), t) if a.ty.is_float() != t.is_float() => {
                    return Err("input data converted between integer and float".into())
                }
                (SVal::Int(x), ScalarType::Bool) => SVal::Bool(nonzero(&x)),
                (SVal::Bool(b), t) if t.is_int() => SVal::Int(of_bool(&b)),
                (SVal::Int(x), t) if t.is_int() => SVal::Int(x),
                (v, _) if is_zero(&v) => SVal::Data(empty()),
                (SVal::Data(d), t) if t != ScalarType::Bool => SVal::Data(d),
                (v @ SVal::Bool(_), ScalarType::Bool) => v,
                _ => return Err("a conversion of input data".into()),
            },
            ExprKind::Select(c, a, b) => {
                let c = self.cond(c)?;
                let saved = self.path.clone();
                self.path = saved.and(&c);
                let x = self.eval(a);
                self.path = saved.and(&c.not());
                let y = self.eval(b);
                self.path = saved;
                ite(&c, x?, y?)?
            }
            ExprKind::Call(..) => return Err("math functions".into()),
            ExprKind::Load(mem, idx) => self.load(*mem, idx)?,
        })
    }

    fn binary(&mut self, op: BinOp, x: SVal, y: SVal, signed: bool) -> Result<SVal, String> {
        let data = |v: &SVal| match v {
            SVal::Data(d) => Some(d.clone()),
            v if is_zero(v) => Some(empty()),
            _ => None,
        };
        if matches!(x, SVal::Data(_)) || matches!(y, SVal::Data(_)) {
            let (Some(a), Some(b), BinOp::Add) = (data(&x), data(&y), op) else {
                return Err("an operator other than + on input data".into());
            };
            let (valid, res) = combine(&a, &b, self.mode);
            self.check("combines only adjacent summaries", valid);
            return Ok(SVal::Data(res));
        }
        let (SVal::Int(a), SVal::Int(b)) = (&x, &y) else {
            return match (op, x, y) {
                (BinOp::Eq, SVal::Bool(a), SVal::Bool(b)) => Ok(SVal::Bool(a.eq(&b))),
                (BinOp::Ne, SVal::Bool(a), SVal::Bool(b)) => Ok(SVal::Bool(a.ne(&b))),
                _ => Err("boolean arithmetic".into()),
            };
        };
        let int = |f: T| Ok(SVal::Int(f));
        let boolean = |f: T| Ok(SVal::Bool(f));
        match op {
            BinOp::Add => int(a.add(b)),
            BinOp::Sub => int(a.sub(b)),
            BinOp::Mul => int(a.mul(b)),
            BinOp::Div | BinOp::Rem => {
                self.check("no division by zero", nonzero(b));
                int(match (op, signed) {
                    (BinOp::Div, true) => a.sdiv(b),
                    (BinOp::Div, false) => a.udiv(b),
                    (_, true) => a.srem(b),
                    (_, false) => a.urem(b),
                })
            }
            BinOp::BitAnd => int(a.bvand(b)),
            BinOp::BitOr => int(a.bvor(b)),
            BinOp::BitXor => int(a.bvxor(b)),
            BinOp::Shl => int(a.shl(b)),
            BinOp::Shr if signed => int(a.ashr(b)),
            BinOp::Shr => int(a.lshr(b)),
            BinOp::Eq => boolean(a.eq(b)),
            BinOp::Ne => boolean(a.ne(b)),
            BinOp::Lt => boolean(lt(a, b, signed)),
            BinOp::Le => boolean(le(a, b, signed)),
            BinOp::Gt => boolean(if signed { sgt(a, b) } else { ugt(a, b) }),
            BinOp::Ge => boolean(if signed { sge(a, b) } else { uge(a, b) }),
            BinOp::Min => int(T::ite(&lt(a, b, signed), a, b)),
            BinOp::Max => int(T::ite(&lt(a, b, signed), b, a)),
        }
    }
}

/// `if c then a else b` for values of one kind (an integer 0 stands for the empty summary).
pub fn ite(c: &T, a: SVal, b: SVal) -> Result<SVal, String> {
    Ok(match (a, b) {
        (SVal::Stale, _) | (_, SVal::Stale) => SVal::Stale,
        (SVal::Int(x), SVal::Int(y)) => SVal::Int(T::ite(c, &x, &y)),
        (SVal::Bool(x), SVal::Bool(y)) => SVal::Bool(T::ite(c, &x, &y)),
        (SVal::Data(x), SVal::Data(y)) => SVal::Data(ite3(c, &x, &y)),
        (SVal::Data(x), z) if is_zero(&z) => SVal::Data(ite3(c, &x, &empty())),
        (z, SVal::Data(y)) if is_zero(&z) => SVal::Data(ite3(c, &empty(), &y)),
        _ => return Err("values of different kinds meet".into()),
    })
}

/// `a ⊕ b`: (when the combination is allowed, the result), mirroring [`Summary::combine`](crate::Summary::combine).
pub fn combine(a: &Sum3, b: &Sum3, mode: Mode) -> (T, Sum3) {
    let (z, one) = (bv(0), bv(1));
    // Small enough that counts and indices cannot wrap.
    let limit = bv(1 << 15);
    let small = |t: &T| t.ult(&limit);
    let ae = a[2].eq(&z);
    let be = b[2].eq(&z);
    let count = a[2].add(&b[2]);
    let (valid, start, step) = match mode {
        Mode::Interval => {
            let iv = |s: &Sum3| s[1].eq(&one).or(&s[2].ule(&one));
            let inorder = a[0].add(&a[2]).eq(&b[0]);
            let swapped = b[0].add(&b[2]).eq(&a[0]);
            let valid = T::and_all([
                small(&a[0]),
                small(&a[2]),
                small(&b[0]),
                small(&b[2]),
                iv(a),
                iv(b),
                inorder.or(&swapped),
            ]);
            (valid, T::ite(&inorder, &a[0], &b[0]), one.clone())
        }
        Mode::Commutative => {
            let lt = a[0].ult(&b[0]);
            let x = ite3(&lt, a, b);
            let y = ite3(&lt, b, a);
            let x1 = x[2].eq(&one);
            let y1 = y[2].eq(&one);
            let s = T::ite(&x1.and(&y1), &y[0].sub(&x[0]), &T::ite(&x1, &y[1], &x[1]));
            let steps_ok = T::or_all([x1.clone(), y1.clone(), x[1].eq(&y[1])]);
            let cont = y[0].eq(&x[0].add(&s.mul(&x[2])));
            let half = s.lshr(&one);
            let inter = T::and_all([
                s.bvand(&one).eq(&z),
                y[0].eq(&x[0].add(&half)),
                y[2].eq(&x[2]).or(&y[2].add(&one).eq(&x[2])),
            ]);
            let valid = T::and_all([
                a[0].ne(&b[0]),
                steps_ok,
                small(&x[2]),
                small(&y[2]),
                small(&s),
                cont.or(&inter),
            ]);
            (valid, x[0].clone(), T::ite(&cont, &s, &half))
        }
    };
    let res = ite3(&ae, b, &ite3(&be, a, &[start, step, count]));
    (T::or_all([ae, be, valid]), res)
}

#[cfg(test)]
mod tests {
    use super::super::term::sym;
    use super::*;
    use crate::summary::{Combined, Summary};
    use warpsafe_terms::Value;

    fn value(t: &T, a: Summary, b: Summary) -> Option<u128> {
        let v = t.eval(&|s| {
            let x = match &*s.0 {
                "a0" => a.start,
                "a1" => a.step,
                "a2" => a.count,
                "b0" => b.start,
                "b1" => b.step,
                "b2" => b.count,
                _ => return None,
            };
            Some(Value::Bv(32, x as u128))
        });
        match v? {
            Value::Bv(_, x) => Some(x),
            Value::Bool(x) => Some(x as u128),
            _ => None,
        }
    }

    /// The symbolic combination, evaluated on every small pair of summaries, allows exactly
    /// the pairs the concrete one combines and gives the same index set.
    #[test]
    fn symbolic_combine_agrees_with_the_concrete_one() {
        let a = [sym("a0"), sym("a1"), sym("a2")];
        let b = [sym("b0"), sym("b1"), sym("b2")];
        let mut small = vec![];
        for start in 0..7 {
            for step in 1..4 {
                for count in 0..4 {
                    small.push(Summary { start, step, count });
                }
            }
        }
        for mode in [Mode::Interval, Mode::Commutative] {
            let (valid, res) = combine(&a, &b, mode);
            for &x in &small {
                for &y in &small {
                    let ok = value(&valid, x, y) == Some(1);
                    let expected = match x.combine(y, mode) {
                        Combined::InOrder(s) | Combined::Swapped(s) => Some(s),
                        Combined::Invalid => None,
                    };
                    assert_eq!(ok, expected.is_some(), "{mode:?} {x:?} ⊕ {y:?}");
                    let Some(s) = expected else { continue };
                    let [start, step, count] = res.clone().map(|t| value(&t, x, y));
                    assert_eq!(count, Some(s.count as u128), "{mode:?} {x:?} ⊕ {y:?}");
                    if s.count > 0 {
                        assert_eq!(start, Some(s.start as u128), "{mode:?} {x:?} ⊕ {y:?}");
                    }
                    if s.count > 1 {
                        assert_eq!(step, Some(s.step as u128), "{mode:?} {x:?} ⊕ {y:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn equal_summaries_ignore_the_step_of_singletons() {
        let one = [bv(4), bv(7), bv(1)];
        let other = [bv(4), bv(1), bv(1)];
        assert_eq!(eq3(&one, &other).as_bool(), Some(true));
        let two = [bv(4), bv(2), bv(2)];
        assert_eq!(eq3(&two, &[bv(4), bv(1), bv(2)]).as_bool(), Some(false));
        assert_eq!(eq3(&empty(), &[bv(9), bv(3), bv(0)]).as_bool(), Some(true));
    }
}
