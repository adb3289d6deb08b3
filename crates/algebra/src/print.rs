//! Human-readable rendering of terms, truncated for very large DAGs.

use crate::rat::rat_text;
use crate::term::{IntOp, Node, TermId};
use crate::Store;

/// Longest rendering before the text is cut with `…`.
const MAX_CHARS: usize = 600;

impl Store {
    /// `t` as infix text, cut after a few hundred characters.
    pub fn show(&self, t: TermId) -> String {
        let mut out = String::new();
        self.write(t, &mut out, 0);
        if out.len() > MAX_CHARS {
            let mut cut = MAX_CHARS;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push('…');
        }
        out
    }

    fn write(&self, t: TermId, out: &mut String, depth: usize) {
        if out.len() > MAX_CHARS || depth > 200 {
            out.push('…');
            return;
        }
        let bin = |s: &Store, out: &mut String, a: TermId, op: &str, b: TermId| {
            out.push('(');
            s.write(a, out, depth + 1);
            out.push_str(op);
            s.write(b, out, depth + 1);
            out.push(')');
        };
        let call = |s: &Store, out: &mut String, name: &str, args: &[TermId]| {
            out.push_str(name);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                s.write(*a, out, depth + 1);
            }
            out.push(')');
        };
        match self.node(t) {
            Node::Const(c) => out.push_str(&rat_text(self.constant_value(*c))),
            Node::Inf(true) => out.push_str("inf"),
            Node::Inf(false) => out.push_str("-inf"),
            Node::NaN => out.push_str("nan"),
            Node::Sym(s) => out.push_str(&self.sym(*s).to_string()),
            Node::Opaque(n) => out.push_str(&format!("?{n}")),
            Node::Add(a, b) => bin(self, out, *a, " + ", *b),
            Node::Sub(a, b) => bin(self, out, *a, " - ", *b),
            Node::Mul(a, b) => bin(self, out, *a, "*", *b),
            Node::Div(a, b) => bin(self, out, *a, "/", *b),
            Node::Neg(a) => {
                out.push('-');
                self.write(*a, out, depth + 1);
            }
            Node::Fn(f, a) => call(self, out, f.name(), &[*a]),
            Node::Fn2(g, a, b) => call(self, out, g.name(), &[*a, *b]),
            Node::Pow(a, b) => call(self, out, "pow", &[*a, *b]),
            Node::Max(a, b) => call(self, out, "max", &[*a, *b]),
            Node::Min(a, b) => call(self, out, "min", &[*a, *b]),
            Node::Cmp(op, a, b) => bin(self, out, *a, &format!(" {} ", op.symbol()), *b),
            Node::Not(a) => {
                out.push('!');
                self.write(*a, out, depth + 1);
            }
            Node::And(a, b) => bin(self, out, *a, " && ", *b),
            Node::Or(a, b) => bin(self, out, *a, " || ", *b),
            Node::Select(c, a, b) => call(self, out, "select", &[*c, *a, *b]),
            Node::Int(op, _, _, a, b) => {
                let sym = match op {
                    IntOp::Div => " / ",
                    IntOp::Rem => " % ",
                    IntOp::And => " & ",
                    IntOp::Or => " | ",
                    IntOp::Xor => " ^ ",
                    IntOp::Shl => " << ",
                    IntOp::Shr => " >> ",
                    IntOp::Wrap => return call(self, out, "wrap", &[*a]),
                };
                bin(self, out, *a, sym, *b)
            }
        }
    }
}
