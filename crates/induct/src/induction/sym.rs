//! Symbolic execution of one barrier interval for one symbolic thread: integers are 32-bit
//! vectors, input combinations are (start, step, count) triples, and every shared access,
//! store and obligation is collected for the caller to turn into queries.

use crate::summary::Mode;
use warpsafe_ir::{
    BinOp, Builtin, Dim, Expr, ExprKind, Kernel, LogicOp, MemRef, ParamKind, ScalarType, Stmt,
    StmtKind, UnOp, Value,
};

/// A summary as SMT terms: start, step, count.
pub type Sum3 = [String; 3];

/// A symbolic value.
#[derive(Clone, Debug, PartialEq)]
pub enum SVal {
    /// A 32-bit integer term.
    Int(String),
    /// A boolean term.
    Bool(String),
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
    pub flat: String,
    /// What.
    pub val: SVal,
    /// When.
    pub guard: String,
}

/// A memory access of the interval.
#[derive(Clone, Debug)]
pub struct Access {
    /// Where.
    pub mem: MemRef,
    /// The flattened index.
    pub flat: String,
    /// Write or read.
    pub write: bool,
    /// When.
    pub guard: String,
}

/// The pre-state of shared memory: for array `a` and flat index term, the condition under
/// which the invariant describes the cell and its summary (`None`: nothing is known).
pub type Pre<'a> = &'a CellFn<'a>;

/// A cell description: (array, flat index) to (described?, summary).
pub type CellFn<'a> = dyn Fn(u32, &str) -> Option<(String, Sum3)> + 'a;

/// The 32-bit constant `x`.
pub fn bv(x: i64) -> String {
    format!("(_ bv{} 32)", x.rem_euclid(1 << 32))
}

/// `x * d`, split on the common cases `x = 0` and `x = 1` (row indices of double buffers),
/// which z3 then needs no multiplier for.
pub fn mul_small(x: &str, d: &str) -> String {
    format!(
        "(ite (= {x} {}) {} (ite (= {x} {}) {d} (bvmul {x} {d})))",
        bv(0),
        bv(0),
        bv(1)
    )
}

/// The empty summary.
pub fn empty() -> Sum3 {
    [bv(0), bv(1), bv(0)]
}

/// Two summaries are equal.
pub fn eq3(a: &Sum3, b: &Sum3) -> String {
    format!(
        "(and (= {} {}) (or (= {} {}) (and (= {} {}) (or (= {} {}) (= {} {})))))",
        a[2],
        b[2],
        a[2],
        bv(0),
        a[0],
        b[0],
        a[2],
        bv(1),
        a[1],
        b[1]
    )
}

fn ite3(c: &str, a: &Sum3, b: &Sum3) -> Sum3 {
    [0, 1, 2].map(|i| format!("(ite {c} {} {})", a[i], b[i]))
}

/// The symbolic executor for one thread.
pub struct Sym<'a> {
    k: &'a Kernel,
    tid: String,
    n: String,
    mode: Mode,
    /// Variable values.
    pub env: Vec<Option<SVal>>,
    path: String,
    /// Stores, in program order.
    pub stores: Vec<Store>,
    /// Accesses, in program order.
    pub accesses: Vec<Access>,
    /// Formulas that must hold, with what each guarantees.
    pub checks: Vec<(&'static str, String)>,
    pre: Pre<'a>,
    dims: Vec<Vec<String>>,
    stale_loads: bool,
}

impl<'a> Sym<'a> {
    /// An executor for thread `tid` with block size `n` (both SMT constants).
    pub fn new(k: &'a Kernel, tid: &str, n: &str, mode: Mode, pre: Pre<'a>) -> Sym<'a> {
        let declared = k.contract.block_dim.map(|d| d[0] as u64);
        let dims = k
            .shared
            .iter()
            .map(|a| {
                a.dims
                    .iter()
                    .map(|&d| {
                        if Some(d) == declared {
                            n.to_string()
                        } else {
                            bv(d as i64)
                        }
                    })
                    .collect()
            })
            .collect();
        Sym {
            k,
            tid: tid.into(),
            n: n.into(),
            mode,
            env: vec![None; k.vars.len()],
            path: "true".into(),
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

    fn check(&mut self, what: &'static str, f: String) {
        if !self.stale_loads {
            let p = self.path.clone();
            self.checks.push((what, format!("(=> {p} {f})")));
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
                    SVal::Int(z) if z == bv(0) => SVal::Data(empty()),
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
                self.path = format!("(and {saved_path} {c})");
                self.block(then_body)?;
                let then_env = std::mem::replace(&mut self.env, saved_env);
                self.path = format!("(and {saved_path} (not {c}))");
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
    pub fn cond(&mut self, e: &Expr) -> Result<String, String> {
        match self.eval(e)? {
            SVal::Bool(b) => Ok(b),
            SVal::Int(i) => Ok(format!("(not (= {i} {}))", bv(0))),
            _ => Err("a branch on input data".into()),
        }
    }

    fn int(&mut self, e: &Expr) -> Result<String, String> {
        match self.eval(e)? {
            SVal::Int(i) => Ok(i),
            SVal::Bool(b) => Ok(format!("(ite {b} {} {})", bv(1), bv(0))),
            _ => Err("input data used as an integer".into()),
        }
    }

    fn flat(&mut self, mem: MemRef, indices: &[Expr]) -> Result<String, String> {
        let dims: Vec<String> = match mem {
            MemRef::Shared(a) => self.dims[a.0 as usize].clone(),
            MemRef::Global(p) => vec![self.buffer_len(p)?],
            MemRef::Local(_) => return Err("local arrays".into()),
        };
        if dims.len() != indices.len() {
            return Err("an access with the wrong number of indices".into());
        }
        let mut flat: Option<String> = None;
        for (e, d) in indices.iter().zip(&dims) {
            let i = self.int(e)?;
            self.check("in bounds", format!("(bvult {i} {d})"));
            flat = Some(match flat {
                None => i,
                Some(f) => format!("(bvadd {} {i})", mul_small(&f, d)),
            });
        }
        let flat = flat.unwrap_or_else(|| bv(0));
        Ok(flat)
    }

    fn buffer_len(&mut self, p: warpsafe_ir::ParamId) -> Result<String, String> {
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
                let (cons, base) = (self.pre)(a.0, &flat).unwrap_or(("false".into(), empty()));
                let mut val = base;
                let mut hit = vec![];
                for s in &self.stores {
                    if s.mem != mem {
                        continue;
                    }
                    let SVal::Data(d) = &s.val else { continue };
                    let h = format!("(and {} (= {} {flat}))", s.guard, s.flat);
                    val = ite3(&h, d, &val);
                    hit.push(h);
                }
                self.check(
                    "reads only cells the invariant describes",
                    format!("(or {cons} {})", hit.join(" ")),
                );
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
                Value::Bool(b) => SVal::Bool(b.to_string()),
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
                (UnOp::Neg, SVal::Int(x)) => SVal::Int(format!("(bvneg {x})")),
                (UnOp::BitNot, SVal::Int(x)) => SVal::Int(format!("(bvnot {x})")),
                (UnOp::Not, SVal::Bool(x)) => SVal::Bool(format!("(not {x})")),
                (UnOp::Not, SVal::Int(x)) => SVal::Bool(format!("(= {x} {})", bv(0))),
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
                    LogicOp::And => format!("(and {saved} {x})"),
                    LogicOp::Or => format!("(and {saved} (not {x}))"),
                };
                let y = self.cond(b);
                self.path = saved;
                let y = y?;
                SVal::Bool(match op {
                    LogicOp::And => format!("(and {x} {y})"),
                    LogicOp::Or => format!("(or {x} {y})"),
                })
            }
            ExprKind::Cast(a) if wide => {
                // A non-negative 32-bit value keeps its bits when widened.
                let x = self.int(a)?;
                self.check(
                    "widened values are non-negative",
                    format!("(bvsge {x} {})", bv(0)),
                );
                SVal::Int(x)
            }
            ExprKind::Cast(a) => match (self.eval(a)?, e.ty) {
                (SVal::Data(_), t) if a.ty.is_float() != t.is_float() => {
                    return Err("input data converted between integer and float".into())
                }
                (SVal::Int(x), ScalarType::Bool) => SVal::Bool(format!("(not (= {x} {}))", bv(0))),
                (SVal::Bool(b), t) if t.is_int() => {
                    SVal::Int(format!("(ite {b} {} {})", bv(1), bv(0)))
                }
                (SVal::Int(x), t) if t.is_int() => SVal::Int(x),
                (SVal::Int(x), _) if x == bv(0) => SVal::Data(empty()),
                (SVal::Data(d), t) if t != ScalarType::Bool => SVal::Data(d),
                (v @ SVal::Bool(_), ScalarType::Bool) => v,
                _ => return Err("a conversion of input data".into()),
            },
            ExprKind::Select(c, a, b) => {
                let c = self.cond(c)?;
                let saved = self.path.clone();
                self.path = format!("(and {saved} {c})");
                let x = self.eval(a);
                self.path = format!("(and {saved} (not {c}))");
                let y = self.eval(b);
                self.path = saved;
                ite(&c, x?, y?)?
            }
            ExprKind::Call(..) => return Err("math functions".into()),
            ExprKind::Load(mem, idx) => self.load(*mem, idx)?,
        })
    }

    fn binary(&mut self, op: BinOp, x: SVal, y: SVal, signed: bool) -> Result<SVal, String> {
        let zero = bv(0);
        let data = |v: &SVal| match v {
            SVal::Data(d) => Some(d.clone()),
            SVal::Int(z) if *z == zero => Some(empty()),
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
                (BinOp::Eq, SVal::Bool(a), SVal::Bool(b)) => Ok(SVal::Bool(format!("(= {a} {b})"))),
                (BinOp::Ne, SVal::Bool(a), SVal::Bool(b)) => {
                    Ok(SVal::Bool(format!("(not (= {a} {b}))")))
                }
                _ => Err("boolean arithmetic".into()),
            };
        };
        let s = |sv: &str, uv: &str| {
            if signed {
                sv.to_string()
            } else {
                uv.to_string()
            }
        };
        let int = |f: String| Ok(SVal::Int(f));
        let boolean = |f: String| Ok(SVal::Bool(f));
        match op {
            BinOp::Add => int(format!("(bvadd {a} {b})")),
            BinOp::Sub => int(format!("(bvsub {a} {b})")),
            BinOp::Mul => int(format!("(bvmul {a} {b})")),
            BinOp::Div | BinOp::Rem => {
                self.check("no division by zero", format!("(not (= {b} {zero}))"));
                let f = match op {
                    BinOp::Div => s("bvsdiv", "bvudiv"),
                    _ => s("bvsrem", "bvurem"),
                };
                int(format!("({f} {a} {b})"))
            }
            BinOp::BitAnd => int(format!("(bvand {a} {b})")),
            BinOp::BitOr => int(format!("(bvor {a} {b})")),
            BinOp::BitXor => int(format!("(bvxor {a} {b})")),
            BinOp::Shl => int(format!("(bvshl {a} {b})")),
            BinOp::Shr => int(format!("({} {a} {b})", s("bvashr", "bvlshr"))),
            BinOp::Eq => boolean(format!("(= {a} {b})")),
            BinOp::Ne => boolean(format!("(not (= {a} {b}))")),
            BinOp::Lt => boolean(format!("({} {a} {b})", s("bvslt", "bvult"))),
            BinOp::Le => boolean(format!("({} {a} {b})", s("bvsle", "bvule"))),
            BinOp::Gt => boolean(format!("({} {a} {b})", s("bvsgt", "bvugt"))),
            BinOp::Ge => boolean(format!("({} {a} {b})", s("bvsge", "bvuge"))),
            BinOp::Min => int(format!("(ite ({} {a} {b}) {a} {b})", s("bvslt", "bvult"))),
            BinOp::Max => int(format!("(ite ({} {a} {b}) {b} {a})", s("bvslt", "bvult"))),
        }
    }
}

/// `if c then a else b` for values of one kind (an integer 0 stands for the empty summary).
pub fn ite(c: &str, a: SVal, b: SVal) -> Result<SVal, String> {
    let zero = bv(0);
    Ok(match (a, b) {
        (SVal::Stale, _) | (_, SVal::Stale) => SVal::Stale,
        (SVal::Int(x), SVal::Int(y)) => SVal::Int(format!("(ite {c} {x} {y})")),
        (SVal::Bool(x), SVal::Bool(y)) => SVal::Bool(format!("(ite {c} {x} {y})")),
        (SVal::Data(x), SVal::Data(y)) => SVal::Data(ite3(c, &x, &y)),
        (SVal::Data(x), SVal::Int(z)) if z == zero => SVal::Data(ite3(c, &x, &empty())),
        (SVal::Int(z), SVal::Data(y)) if z == zero => SVal::Data(ite3(c, &empty(), &y)),
        _ => return Err("values of different kinds meet".into()),
    })
}

/// `a ⊕ b`: (when the combination is allowed, the result), mirroring [`Summary::combine`](crate::Summary::combine).
pub fn combine(a: &Sum3, b: &Sum3, mode: Mode) -> (String, Sum3) {
    let (z, one) = (bv(0), bv(1));
    let ae = format!("(= {} {z})", a[2]);
    let be = format!("(= {} {z})", b[2]);
    let count = format!("(bvadd {} {})", a[2], b[2]);
    let (valid, start, step) = match mode {
        Mode::Interval => {
            let iv = |s: &Sum3| format!("(or (= {} {one}) (bvule {} {one}))", s[1], s[2]);
            let inorder = format!("(= (bvadd {} {}) {})", a[0], a[2], b[0]);
            let swapped = format!("(= (bvadd {} {}) {})", b[0], b[2], a[0]);
            let small = [&a[0], &a[2], &b[0], &b[2]]
                .map(|t| format!("(bvult {t} #x00008000)"))
                .join(" ");
            (
                format!("(and {small} {} {} (or {inorder} {swapped}))", iv(a), iv(b)),
                format!("(ite {inorder} {} {})", a[0], b[0]),
                one.clone(),
            )
        }
        Mode::Commutative => {
            let lt = format!("(bvult {} {})", a[0], b[0]);
            let x = ite3(&lt, a, b);
            let y = ite3(&lt, b, a);
            let x1 = format!("(= {} {one})", x[2]);
            let y1 = format!("(= {} {one})", y[2]);
            let s = format!(
                "(ite (and {x1} {y1}) (bvsub {} {}) (ite {x1} {} {}))",
                y[0], x[0], y[1], x[1]
            );
            let steps_ok = format!("(or {x1} {y1} (= {} {}))", x[1], y[1]);
            let cont = format!("(= {} (bvadd {} (bvmul {s} {})))", y[0], x[0], x[2]);
            let inter = format!(
                "(and (= (bvand {s} {one}) {z}) (= {} (bvadd {} (bvlshr {s} {one}))) (or (= {} {}) (= (bvadd {} {one}) {})))",
                y[0], x[0], y[2], x[2], y[2], x[2]
            );
            // Small enough that the counts and indices cannot wrap.
            let small = format!(
                "(and (bvult {} #x00008000) (bvult {} #x00008000) (bvult {s} #x00008000))",
                x[2], y[2]
            );
            (
                format!(
                    "(and (not (= {} {})) {steps_ok} {small} (or {cont} {inter}))",
                    a[0], b[0]
                ),
                x[0].clone(),
                format!("(ite {cont} {s} (bvlshr {s} {one}))"),
            )
        }
    };
    let res = ite3(&ae, b, &ite3(&be, a, &[start, step, count]));
    (format!("(or {ae} {be} {valid})"), res)
}
