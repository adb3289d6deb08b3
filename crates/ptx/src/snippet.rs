//! Parsing a bare statement list, as an inline `asm` statement of CUDA C++ holds one.
//!
//! The text is parsed as the body of a kernel, so every statement the module parser reads is
//! read the same way here (scoped `{ .reg … }` blocks, predicates, vectors, addresses). The
//! extended-precision and three-input-logic opcodes that inline PTX uses and NVRTC's own output
//! rarely does (`addc`, `subc`, `madc`, `lop3`) are read too: each is passed through the module
//! parser under an opcode it knows, tagged, and given back its own name.

use crate::ast::{Instruction, Item};
use crate::error::ParseError;
use crate::lexer::{lex, Tok};
use crate::parse::parse;

/// Opcodes read only in snippets, with the opcode they travel through the parser under.
const EXTRA: &[(&str, &str)] = &[
    ("addc", "add"),
    ("subc", "sub"),
    ("madc", "mad"),
    ("lop3", "and"),
];

/// The modifier that marks a renamed opcode; its suffix is the original opcode.
const TAG: &str = "__warpsafe_op_";

/// Lines of the wrapper before the snippet's first line.
const HEADER_LINES: usize = 5;

/// Parses `src`, a sequence of PTX statements (instructions, `.reg` declarations, nested
/// `{ }` scopes), as in the template of an inline `asm` statement. Errors give lines and
/// columns within `src`.
///
/// ```
/// use warpsafe_ptx::{parse_statements, Item};
/// let items = parse_statements("{ .reg .pred p; setp.ne.b32 p, %r1, 0; selp.u32 %r0, 1, 0, p; }")?;
/// let Item::Block(inner) = &items[0] else { unreachable!() };
/// assert!(matches!(&inner[0], Item::Reg(r) if r.ty == ".pred"));
/// let carry = parse_statements("addc.cc.u32 %r0, %r1, %r2;")?;
/// let Item::Instr(i) = &carry[0] else { unreachable!() };
/// assert_eq!((i.opcode.as_str(), i.modifiers.as_slice()), ("addc", &["cc".to_string()][..]));
/// # Ok::<(), warpsafe_ptx::ParseError>(())
/// ```
pub fn parse_statements(src: &str) -> Result<Vec<Item>, ParseError> {
    let renamed = rename_extra(src).map_err(relative)?;
    let wrapped = format!(
        ".version 8.0\n.target sm_80\n.address_size 64\n.entry __warpsafe_asm()\n{{\n{renamed}\n}}\n"
    );
    debug_assert_eq!(
        wrapped.lines().position(|l| l == "{"),
        Some(HEADER_LINES - 1)
    );
    let module = parse(&wrapped).map_err(relative)?;
    let Some(f) = module.functions.into_iter().next() else {
        return Ok(vec![]);
    };
    let mut items: Vec<Item> = f.regs.into_iter().map(Item::Reg).collect();
    items.extend(f.body);
    for item in &mut items {
        restore(item);
    }
    Ok(items)
}

/// An error's position made relative to the snippet (the wrapper's lines taken off).
fn relative(mut e: ParseError) -> ParseError {
    e.line = e.line.saturating_sub(HEADER_LINES).max(1);
    e
}

/// `src` with each extra opcode at the start of a statement written as a known opcode plus
/// a tag modifier (`addc.cc.u32` → `add.__warpsafe_op_addc.cc.u32`).
fn rename_extra(src: &str) -> Result<String, ParseError> {
    let toks = lex(src)?;
    let mut at_start = true;
    let mut edits = vec![];
    for (i, t) in toks.iter().enumerate() {
        match &t.tok {
            Tok::Punct(';' | '{' | '}' | ':') => at_start = true,
            // `@p` / `@!p` guards keep the statement start after them.
            Tok::Punct('@' | '!') if at_start => {}
            Tok::Ident(_) if at_start && i > 0 && toks[i - 1].tok == Tok::Punct('@') => {}
            Tok::Ident(_)
                if at_start
                    && i > 1
                    && toks[i - 1].tok == Tok::Punct('!')
                    && toks[i - 2].tok == Tok::Punct('@') => {}
            Tok::Ident(name) if at_start => {
                if let Some((_, via)) = EXTRA.iter().find(|(x, _)| x == name) {
                    edits.push((t.line, t.col, name.len(), format!("{via}.{TAG}{name}")));
                }
                at_start = false;
            }
            _ => at_start = false,
        }
    }
    let mut lines: Vec<String> = src.split('\n').map(str::to_string).collect();
    for (line, col, len, text) in edits.into_iter().rev() {
        if let Some(l) = lines.get_mut(line - 1) {
            let chars: Vec<char> = l.chars().collect();
            let start = col - 1;
            let mut out: String = chars[..start].iter().collect();
            out.push_str(&text);
            out.extend(&chars[start + len..]);
            *l = out;
        }
    }
    Ok(lines.join("\n"))
}

/// Gives a renamed instruction its own opcode back.
fn restore(item: &mut Item) {
    match item {
        Item::Instr(i) => restore_instr(i),
        Item::Block(items) => items.iter_mut().for_each(restore),
        _ => {}
    }
}

fn restore_instr(i: &mut Instruction) {
    if let Some(pos) = i.modifiers.iter().position(|m| m.starts_with(TAG)) {
        let m = i.modifiers.remove(pos);
        i.opcode = m[TAG.len()..].to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Operand;

    fn instrs(src: &str) -> Vec<Instruction> {
        fn walk(items: &[Item], out: &mut Vec<Instruction>) {
            for i in items {
                match i {
                    Item::Instr(x) => out.push(x.clone()),
                    Item::Block(b) => walk(b, out),
                    _ => {}
                }
            }
        }
        let mut out = vec![];
        walk(&parse_statements(src).unwrap(), &mut out);
        out
    }

    #[test]
    fn extra_opcodes_come_back_with_their_names() {
        let is = instrs(
            "add.cc.u32 %a, %b, %c;\n\taddc.cc.u32 %d, %e, %f;\n\t@!p subc.u32 %g, %h, 0;\n\
             madc.hi.cc.u32 x, y, z, w;\n lop3.b32 %r0, %r1, %r2, %r3, 0x96;",
        );
        let ops: Vec<&str> = is.iter().map(|i| i.opcode.as_str()).collect();
        assert_eq!(ops, ["add", "addc", "subc", "madc", "lop3"]);
        assert_eq!(is[1].modifiers, ["cc"]);
        assert_eq!(is[3].modifiers, ["hi", "cc"]);
        assert!(is[2]
            .pred
            .as_ref()
            .is_some_and(|p| p.negated && p.reg == "p"));
        assert_eq!(is[4].operands.len(), 5);
        // An operand named like an extra opcode is left alone.
        let m = instrs("mov.u32 addc, lop3;");
        assert_eq!(m[0].operands[1], Operand::Symbol("lop3".into()));
    }

    #[test]
    fn scoped_registers_and_relative_errors() {
        let items = parse_statements(".reg .b32 t;\nmov.u32 t, %laneid;").unwrap();
        assert!(matches!(&items[0], Item::Reg(r) if r.name == "t"));
        let e = parse_statements(
            "mov.u32 %r0, 1;\ncp.async.ca.shared.global [a], [b], 16;\nfoo.u32 x;",
        )
        .unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("`foo`"), "{e}");
    }
}
