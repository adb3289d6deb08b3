//! `Display` for the syntax tree: prints valid PTX that parses back to an equal tree.

use crate::ast::*;
use std::fmt::{self, Display, Formatter, Write};

impl Display for Module {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        writeln!(f, ".version {}", self.version)?;
        writeln!(f, ".target {}", self.target.join(", "))?;
        writeln!(f, ".address_size {}", self.address_size)?;
        for g in &self.globals {
            writeln!(f, "\n{g};")?;
        }
        for func in &self.functions {
            write!(f, "\n{func}")?;
        }
        Ok(())
    }
}

impl Display for VarDecl {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for l in &self.linkage {
            write!(f, "{l} ")?;
        }
        // A `.func` register parameter keeps `.reg` as its first attribute, in place of `.param`.
        let attrs = match self.attrs.first() {
            Some(r) if r == ".reg" => {
                f.write_str(".reg")?;
                &self.attrs[1..]
            }
            _ => {
                f.write_str(self.space.as_str())?;
                &self.attrs[..]
            }
        };
        // Pointer parameters read `.param .u64 .ptr .global .align 4 p`; other declarations put
        // the alignment first: `.shared .align 4 .b8 tile[1024]`.
        if attrs.is_empty() {
            if let Some(a) = self.align {
                write!(f, " .align {a}")?;
            }
            write!(f, " {}", self.ty)?;
        } else {
            write!(f, " {}", self.ty)?;
            for a in attrs {
                write!(f, " {a}")?;
            }
            if let Some(a) = self.align {
                write!(f, " .align {a}")?;
            }
        }
        write!(f, " {}", self.name)?;
        for d in &self.dims {
            match d {
                Some(n) => write!(f, "[{n}]")?,
                None => f.write_str("[]")?,
            }
        }
        match self.init.as_slice() {
            [] => Ok(()),
            [one] if self.dims.is_empty() => write!(f, " = {one}"),
            many => {
                f.write_str(" = {")?;
                for (i, v) in many.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_char('}')
            }
        }
    }
}

impl Display for RegDecl {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, ".reg {} {}", self.ty, self.name)?;
        if let Some(n) = self.count {
            write!(f, "<{n}>")?;
        }
        f.write_char(';')
    }
}

fn params(f: &mut Formatter<'_>, ps: &[VarDecl]) -> fmt::Result {
    f.write_char('(')?;
    for (i, p) in ps.iter().enumerate() {
        f.write_str(if i == 0 { "\n\t" } else { ",\n\t" })?;
        write!(f, "{p}")?;
    }
    if !ps.is_empty() {
        f.write_char('\n')?;
    }
    f.write_char(')')
}

impl Display for Function {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for l in &self.linkage {
            write!(f, "{l} ")?;
        }
        f.write_str(if self.is_entry { ".entry " } else { ".func " })?;
        if !self.returns.is_empty() {
            params(f, &self.returns)?;
            f.write_char(' ')?;
        }
        f.write_str(&self.name)?;
        params(f, &self.params)?;
        if self.is_declaration {
            return f.write_str(";\n");
        }
        f.write_str("\n{\n")?;
        for r in &self.regs {
            writeln!(f, "\t{r}")?;
        }
        items(f, &self.body, 1)?;
        f.write_str("}\n")
    }
}

fn items(f: &mut Formatter<'_>, items_: &[Item], depth: usize) -> fmt::Result {
    let pad = "\t".repeat(depth);
    for it in items_ {
        match it {
            Item::Label(l) => writeln!(f, "{l}:")?,
            Item::Instr(i) => writeln!(f, "{pad}{i}")?,
            Item::Reg(r) => writeln!(f, "{pad}{r}")?,
            Item::Var(v) => writeln!(f, "{pad}{v};")?,
            Item::Block(b) => {
                writeln!(f, "{pad}{{")?;
                items(f, b, depth + 1)?;
                writeln!(f, "{pad}}}")?;
            }
        }
    }
    Ok(())
}

impl Display for Instruction {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.pred {
            write!(f, "@{}{} ", if p.negated { "!" } else { "" }, p.reg)?;
        }
        f.write_str(&self.opcode)?;
        for m in self.modifiers.iter().chain(&self.types) {
            write!(f, ".{m}")?;
        }
        for (i, o) in self.operands.iter().enumerate() {
            f.write_str(if i == 0 { " \t" } else { ", " })?;
            write!(f, "{o}")?;
        }
        f.write_char(';')
    }
}

impl Display for Immediate {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Immediate::Int(v) => write!(f, "{v}"),
            Immediate::F32(b) => write!(f, "0f{b:08X}"),
            Immediate::F64(b) => write!(f, "0d{b:016X}"),
        }
    }
}

fn list(f: &mut Formatter<'_>, open: char, ops: &[Operand], close: char) -> fmt::Result {
    f.write_char(open)?;
    for (i, o) in ops.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{o}")?;
    }
    f.write_char(close)
}

impl Display for Operand {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Reg(s) | Operand::Symbol(s) => f.write_str(s),
            Operand::Imm(i) => write!(f, "{i}"),
            Operand::Not(p) => write!(f, "!{p}"),
            Operand::Pair(a, b) => write!(f, "{a}|{b}"),
            Operand::Sink => f.write_char('_'),
            Operand::Vector(v) => list(f, '{', v, '}'),
            Operand::List(v) => list(f, '(', v, ')'),
            Operand::Address { base, offset } => match (base.is_empty(), *offset) {
                (true, o) => write!(f, "[{o}]"),
                (false, 0) => write!(f, "[{base}]"),
                (false, o) => write!(f, "[{base}+{o}]"),
            },
        }
    }
}
