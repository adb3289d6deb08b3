//! The pretty printer: a C-like rendering of the IR, stable enough for snapshots.

use crate::{Check, Expr, ExprKind, Kernel, LogicOp, MemRef, ParamKind, Stmt, StmtKind, UnOp};
use std::fmt::{self, Write};

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = Printer {
            k: self,
            out: String::new(),
            indent: 1,
        };
        p.kernel();
        f.write_str(&p.out)
    }
}

impl Kernel {
    /// Renders one expression of this kernel as text.
    pub fn expr_to_string(&self, e: &Expr) -> String {
        let mut p = Printer {
            k: self,
            out: String::new(),
            indent: 0,
        };
        p.expr(e);
        p.out
    }
}

struct Printer<'k> {
    k: &'k Kernel,
    out: String,
    indent: usize,
}

impl Printer<'_> {
    fn kernel(&mut self) {
        let k = self.k;
        let params: Vec<String> = k
            .params
            .iter()
            .map(|p| match p.kind {
                ParamKind::Scalar(t) => format!("{}: {t}", p.name),
                ParamKind::Buffer { elem, writable } => {
                    format!(
                        "{}: &{}[{elem}]",
                        p.name,
                        if writable { "mut " } else { "" }
                    )
                }
            })
            .collect();
        let _ = writeln!(self.out, "kernel {}({}) {{", k.name, params.join(", "));
        let c = &k.contract;
        if let Some(b) = c.block_dim {
            self.line(&format!("// blockDim = {b:?}"));
        }
        if let Some(g) = c.grid_dim {
            self.line(&format!("// gridDim = {g:?}"));
        }
        for l in &c.lengths {
            let len = k.expr_to_string(&l.len);
            self.line(&format!(
                "requires len({}) == {len};",
                k.param(l.param).name
            ));
        }
        for r in &c.requires {
            let r = k.expr_to_string(r);
            self.line(&format!("requires {r};"));
        }
        for (p, v) in &c.defaults {
            self.line(&format!("// default {} = {v}", k.param(*p).name));
        }
        for a in &k.shared {
            let dims: String = a.dims.iter().map(|d| format!("[{d}]")).collect();
            let kw = if a.dynamic { "extern shared" } else { "shared" };
            self.line(&format!("{kw} {}: {}{dims};", a.name, a.elem));
        }
        for a in &k.locals {
            let dims: String = a.dims.iter().map(|d| format!("[{d}]")).collect();
            self.line(&format!("local {}: {}{dims};", a.name, a.elem));
        }
        self.block(&k.body);
        self.out.push_str("}\n");
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn block(&mut self, b: &[Stmt]) {
        for s in b {
            self.stmt(s);
        }
    }

    fn nested(&mut self, head: String, body: &[Stmt], tail: &str) {
        self.line(&head);
        self.indent += 1;
        self.block(body);
        self.indent -= 1;
        self.line(tail);
    }

    fn e(&self, e: &Expr) -> String {
        self.k.expr_to_string(e)
    }

    fn var(&self, v: crate::VarId) -> String {
        format!("{}_{}", self.k.var(v).name, v.0)
    }

    fn mem(&self, mem: MemRef, indices: &[Expr]) -> String {
        let mut s = self.k.mem_name(mem).to_string();
        for i in indices {
            let _ = write!(s, "[{}]", self.e(i));
        }
        s
    }

    fn inline(&self, b: &[Stmt]) -> String {
        let mut p = Printer {
            k: self.k,
            out: String::new(),
            indent: 0,
        };
        p.block(b);
        p.out
            .trim()
            .replace('\n', " ")
            .trim_end_matches(';')
            .to_string()
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { var, init } => {
                let ty = self.k.var(*var).ty;
                let name = self.var(*var);
                match init {
                    Some(e) => self.line(&format!("let {name}: {ty} = {};", self.e(e))),
                    None => self.line(&format!("let {name}: {ty};")),
                }
            }
            StmtKind::Assign { var, value } => {
                self.line(&format!("{} = {};", self.var(*var), self.e(value)))
            }
            StmtKind::Store {
                mem,
                indices,
                value,
            } => self.line(&format!("{} = {};", self.mem(*mem, indices), self.e(value))),
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => {
                let head = format!("if ({}) {{", self.e(cond));
                if else_body.is_empty() {
                    self.nested(head, then_body, "}");
                } else {
                    self.nested(head, then_body, "} else {");
                    self.indent += 1;
                    self.block(else_body);
                    self.indent -= 1;
                    self.line("}");
                }
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                let c = cond.as_ref().map(|c| self.e(c)).unwrap_or_default();
                let head = format!(
                    "for ({}; {c}; {}) {{",
                    self.inline(init),
                    self.inline(update)
                );
                self.nested(head, body, "}");
            }
            StmtKind::While { cond, body } => {
                self.nested(format!("while ({}) {{", self.e(cond)), body, "}")
            }
            StmtKind::DoWhile { body, cond } => {
                let tail = format!("}} while ({});", self.e(cond));
                self.nested("do {".into(), body, &tail)
            }
            StmtKind::Break => self.line("break;"),
            StmtKind::Continue => self.line("continue;"),
            StmtKind::Return => self.line("return;"),
            StmtKind::SyncThreads => self.line("__syncthreads();"),
            StmtKind::SyncGrid => self.line("this_grid().sync();"),
            StmtKind::SyncWarp { mask } => self.line(&format!("__syncwarp({});", self.e(mask))),
            StmtKind::Vote {
                dst,
                kind,
                mask,
                pred,
            } => self.line(&format!(
                "{} = {}({}, {});",
                self.var(*dst),
                kind.c_name(),
                self.e(mask),
                self.e(pred)
            )),
            StmtKind::ActiveMask { dst } => {
                self.line(&format!("{} = __activemask();", self.var(*dst)))
            }
            StmtKind::Arbitrary { dst } => self.line(&format!("{} = arbitrary();", self.var(*dst))),
            StmtKind::SyncThreadsVote { dst, kind, pred } => self.line(&format!(
                "{} = {}({});",
                self.var(*dst),
                kind.c_name(),
                self.e(pred)
            )),
            StmtKind::Shuffle {
                dst,
                kind,
                mask,
                value,
                lane,
                width,
            } => self.line(&format!(
                "{} = {}({}, {}, {}, {});",
                self.var(*dst),
                kind.c_name(),
                self.e(mask),
                self.e(value),
                self.e(lane),
                self.e(width)
            )),
            StmtKind::Atomic {
                dst,
                op,
                mem,
                indices,
                value,
                compare,
            } => {
                let lhs = dst
                    .map(|d| format!("{} = ", self.var(d)))
                    .unwrap_or_default();
                let cmp = compare
                    .as_ref()
                    .map(|c| format!("{}, ", self.e(c)))
                    .unwrap_or_default();
                self.line(&format!(
                    "{lhs}{}(&{}, {cmp}{});",
                    op.c_name(),
                    self.mem(*mem, indices),
                    self.e(value)
                ))
            }
            StmtKind::Assume(e) => self.line(&format!("assume({});", self.e(e))),
            StmtKind::Assert(e, Check::User) => self.line(&format!("assert({});", self.e(e))),
            StmtKind::Assert(e, check) => {
                self.line(&format!("assert({}); // {:?}", self.e(e), check))
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        let s = match &e.kind {
            ExprKind::Const(v) => v.to_string(),
            ExprKind::Var(v) => self.var(*v),
            ExprKind::Param(p) => self.k.param(*p).name.clone(),
            ExprKind::Builtin(b) => b.c_name(),
            ExprKind::BufferLen(p) => format!("len({})", self.k.param(*p).name),
            ExprKind::Unary(op, a) => {
                let sym = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::Not => "!",
                };
                format!("{sym}{}", self.atom(a))
            }
            ExprKind::Binary(op, a, b) if op.symbol().len() > 2 => {
                format!("{}({}, {})", op.symbol(), self.e(a), self.e(b))
            }
            ExprKind::Binary(op, a, b) => {
                format!("{} {} {}", self.atom(a), op.symbol(), self.atom(b))
            }
            ExprKind::Logical(op, a, b) => {
                let sym = if *op == LogicOp::And { "&&" } else { "||" };
                format!("{} {sym} {}", self.atom(a), self.atom(b))
            }
            ExprKind::Cast(a) => format!("({}){}", e.ty, self.atom(a)),
            ExprKind::Select(c, a, b) => {
                format!("{} ? {} : {}", self.atom(c), self.atom(a), self.atom(b))
            }
            ExprKind::Call(f, args) => {
                let args: Vec<String> = args.iter().map(|a| self.e(a)).collect();
                format!("{}.{}({})", f.name(), e.ty, args.join(", "))
            }
            ExprKind::Load(mem, indices) => self.mem(*mem, indices),
        };
        self.out.push_str(&s);
    }

    fn atom(&self, e: &Expr) -> String {
        let s = self.e(e);
        match e.kind {
            ExprKind::Binary(op, ..) if op.symbol().len() <= 2 => format!("({s})"),
            ExprKind::Logical(..) | ExprKind::Select(..) | ExprKind::Cast(..) => format!("({s})"),
            _ => s,
        }
    }
}
