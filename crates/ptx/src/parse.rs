//! The hand-written parser: one statement at a time over the token stream.

use crate::ast::*;
use crate::error::ParseError;
use crate::lexer::{lex, Tok, Token};

/// Nested `{ }` scopes deeper than this are rejected rather than risking the stack.
const MAX_DEPTH: usize = 64;

/// Directives accepted and dropped: debug info, hints and performance tuning.
const IGNORED: &[&str] = &[
    ".loc",
    ".file",
    ".pragma",
    ".section",
    ".maxntid",
    ".reqntid",
    ".minnctapersm",
    ".maxnreg",
    ".maxnctapersm",
    ".noreturn",
    ".explicitcluster",
    ".reqnctapercluster",
    ".maxclusterrank",
];

/// Parses a PTX module as NVRTC emits it.
pub fn parse(src: &str) -> Result<Module, ParseError> {
    let toks = lex(src)?;
    let mut p = Parser { toks, pos: 0 };
    p.module()
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
}

type Res<T> = Result<T, ParseError>;

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, n: usize) -> Option<&Token> {
        self.toks.get(self.pos + n)
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn is_dir(&self, d: &str) -> bool {
        matches!(self.peek(), Some(Tok::Dir(x)) if x == d)
    }

    /// Position of the current token, or just past the last one at end of input.
    fn here(&self) -> (usize, usize) {
        match self.toks.get(self.pos).or(self.toks.last()) {
            Some(t) => (t.line, t.col),
            None => (1, 1),
        }
    }

    fn err<T>(&self, msg: impl Into<String>) -> Res<T> {
        let (l, c) = self.here();
        let msg = if self.pos >= self.toks.len() {
            format!("{} (at end of input)", msg.into())
        } else {
            msg.into()
        };
        Err(ParseError::new(msg, l, c))
    }

    fn next(&mut self) -> Res<Token> {
        match self.toks.get(self.pos) {
            Some(t) => {
                self.pos += 1;
                Ok(t.clone())
            }
            None => self.err("unexpected end of input"),
        }
    }

    fn expect_punct(&mut self, c: char) -> Res<()> {
        if self.is_punct(c) {
            self.pos += 1;
            Ok(())
        } else {
            self.err(format!("expected `{c}`, found {}", self.describe()))
        }
    }

    fn describe(&self) -> String {
        match self.peek() {
            None => "end of input".into(),
            Some(Tok::Ident(s) | Tok::Dir(s) | Tok::Num(s)) => format!("`{s}`"),
            Some(Tok::Str(s)) => format!("\"{s}\""),
            Some(Tok::Punct(c)) => format!("`{c}`"),
        }
    }

    fn ident(&mut self, what: &str) -> Res<String> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.pos += 1;
                Ok(s)
            }
            _ => self.err(format!("expected {what}, found {}", self.describe())),
        }
    }

    fn number<T: TryFrom<i128>>(&mut self, what: &str) -> Res<T> {
        let (l, c) = self.here();
        match self.peek() {
            Some(Tok::Num(s)) => {
                let s = s.clone();
                self.pos += 1;
                match parse_int(&s).and_then(|v| T::try_from(v).ok()) {
                    Some(v) => Ok(v),
                    None => Err(ParseError::new(format!("bad {what} `{s}`"), l, c)),
                }
            }
            _ => self.err(format!("expected {what}, found {}", self.describe())),
        }
    }

    /// Skips a directive that needs no meaning: to `;` for statements, else to the end of its line.
    fn skip_ignored(&mut self) {
        let line = self.toks[self.pos].line;
        while let Some(t) = self.toks.get(self.pos) {
            if t.tok == Tok::Punct(';') {
                self.pos += 1;
                return;
            }
            if t.line != line || matches!(t.tok, Tok::Punct('{')) {
                return;
            }
            self.pos += 1;
        }
    }

    /// Skips a `.section` directive and the `{ … }` block of data that follows it (the DWARF
    /// sections `nvcc -lineinfo` and `-G` write after the functions).
    fn skip_section(&mut self) -> Res<()> {
        self.skip_ignored();
        if !self.is_punct('{') {
            return Ok(());
        }
        let mut depth = 0usize;
        while let Some(t) = self.toks.get(self.pos) {
            match t.tok {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => depth -= 1,
                _ => {}
            }
            self.pos += 1;
            if depth == 0 {
                return Ok(());
            }
        }
        self.err("`.section` block without its closing `}`")
    }

    fn module(&mut self) -> Res<Module> {
        let mut m = Module::default();
        let mut linkage = Vec::new();
        while let Some(tok) = self.peek().cloned() {
            let Tok::Dir(d) = tok else {
                return self.err(format!("expected a directive, found {}", self.describe()));
            };
            match d.as_str() {
                ".version" => {
                    self.pos += 1;
                    match self.peek() {
                        Some(Tok::Num(v)) => {
                            m.version = v.clone();
                            self.pos += 1;
                        }
                        _ => return self.err("expected a version number"),
                    }
                }
                ".target" => {
                    self.pos += 1;
                    m.target.push(self.ident("a target")?);
                    while self.is_punct(',') {
                        self.pos += 1;
                        m.target.push(self.ident("a target")?);
                    }
                }
                ".address_size" => {
                    self.pos += 1;
                    m.address_size = self.number("address size")?;
                }
                ".visible" | ".extern" | ".weak" | ".common" => {
                    linkage.push(d);
                    self.pos += 1;
                }
                ".entry" | ".func" => {
                    let f = self.function(std::mem::take(&mut linkage))?;
                    m.functions.push(f);
                }
                _ if Space::from_dir(&d).is_some() => {
                    let v = self.var_decl(std::mem::take(&mut linkage), true)?;
                    self.expect_punct(';')?;
                    m.globals.push(v);
                }
                ".section" => self.skip_section()?,
                _ if IGNORED.contains(&d.as_str()) => self.skip_ignored(),
                _ => return self.err(format!("unsupported directive `{d}`")),
            }
        }
        if !linkage.is_empty() {
            return self.err("linkage directive without a declaration");
        }
        if m.version.is_empty() {
            return Err(ParseError::new("missing `.version` directive", 1, 1));
        }
        if m.target.is_empty() {
            return Err(ParseError::new("missing `.target` directive", 1, 1));
        }
        Ok(m)
    }

    /// `.space [.align N] [attrs] .type name[dims] [= init]` (without the `;`).
    fn var_decl(&mut self, linkage: Vec<String>, allow_init: bool) -> Res<VarDecl> {
        let space = match self.peek() {
            Some(Tok::Dir(d)) => Space::from_dir(d),
            _ => None,
        };
        let Some(space) = space else {
            return self.err(format!("expected a state space, found {}", self.describe()));
        };
        self.pos += 1;
        self.var_body(linkage, space, allow_init)
    }

    /// A declaration after its state space: `[.align N] [attrs] .type name[dims] [= init]`.
    fn var_body(&mut self, linkage: Vec<String>, space: Space, allow_init: bool) -> Res<VarDecl> {
        let mut align = None;
        let mut attrs = Vec::new();
        let mut ty = None;
        while let Some(Tok::Dir(d)) = self.peek().cloned() {
            // `.reg` is a state space, and only a `.func` parameter's (the printer relies on it).
            if d == ".reg" {
                return self.err("`.reg` in a variable declaration");
            }
            self.pos += 1;
            if d == ".align" {
                align = Some(self.number("alignment")?);
            } else if TYPES.contains(&&d[1..]) && ty.is_none() {
                ty = Some(d);
            } else {
                attrs.push(d);
            }
        }
        let Some(ty) = ty else {
            return self.err("declaration without a type");
        };
        let name = self.ident("a variable name")?;
        let mut dims = Vec::new();
        while self.is_punct('[') {
            self.pos += 1;
            if self.is_punct(']') {
                dims.push(None);
            } else {
                dims.push(Some(self.number("array size")?));
            }
            self.expect_punct(']')?;
        }
        let mut init = Vec::new();
        if allow_init && self.is_punct('=') {
            self.pos += 1;
            if self.is_punct('{') {
                self.pos += 1;
                loop {
                    init.push(self.immediate()?);
                    if self.is_punct(',') {
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
                self.expect_punct('}')?;
            } else {
                init.push(self.immediate()?);
            }
        }
        Ok(VarDecl {
            linkage,
            space,
            align,
            attrs,
            ty,
            name,
            dims,
            init,
        })
    }

    fn immediate(&mut self) -> Res<Immediate> {
        match self.operand()? {
            Operand::Imm(i) => Ok(i),
            _ => {
                self.pos -= 1;
                self.err("expected a literal")
            }
        }
    }

    fn param_list(&mut self) -> Res<Vec<VarDecl>> {
        self.expect_punct('(')?;
        let mut out = Vec::new();
        if self.is_punct(')') {
            self.pos += 1;
            return Ok(out);
        }
        loop {
            let v = if self.is_dir(".reg") {
                // `.func` parameters may live in registers; the space is recorded as `.param`
                // with a `.reg` attribute so the printer can restore it.
                self.pos += 1;
                let mut v = self.var_body(Vec::new(), Space::Param, false)?;
                v.attrs.insert(0, ".reg".into());
                v
            } else {
                self.var_decl(Vec::new(), false)?
            };
            out.push(v);
            if self.is_punct(',') {
                self.pos += 1;
            } else {
                break;
            }
        }
        self.expect_punct(')')?;
        Ok(out)
    }

    fn function(&mut self, linkage: Vec<String>) -> Res<Function> {
        let is_entry = self.is_dir(".entry");
        self.pos += 1;
        let returns = if !is_entry && self.is_punct('(') {
            self.param_list()?
        } else {
            Vec::new()
        };
        let name = self.ident("a function name")?;
        let params = if self.is_punct('(') {
            self.param_list()?
        } else {
            Vec::new()
        };
        while let Some(Tok::Dir(d)) = self.peek() {
            if IGNORED.contains(&d.as_str()) {
                self.pos += 1;
                while matches!(self.peek(), Some(Tok::Num(_)) | Some(Tok::Punct(','))) {
                    self.pos += 1;
                }
            } else {
                return self.err(format!("unsupported function directive `{d}`"));
            }
        }
        let mut f = Function {
            linkage,
            name,
            is_entry,
            returns,
            params,
            is_declaration: false,
            regs: Vec::new(),
            body: Vec::new(),
        };
        if self.is_punct(';') {
            self.pos += 1;
            f.is_declaration = true;
            return Ok(f);
        }
        self.expect_punct('{')?;
        let items = self.block(1)?;
        let mut rest = items.into_iter().peekable();
        while let Some(Item::Reg(_)) = rest.peek() {
            if let Some(Item::Reg(r)) = rest.next() {
                f.regs.push(r);
            }
        }
        f.body = rest.collect();
        Ok(f)
    }

    /// Statements up to and including the closing `}`.
    fn block(&mut self, depth: usize) -> Res<Vec<Item>> {
        if depth > MAX_DEPTH {
            return self.err("blocks nested too deeply");
        }
        let mut items = Vec::new();
        loop {
            let Some(tok) = self.peek().cloned() else {
                return self.err("missing `}`");
            };
            match tok {
                Tok::Punct('}') => {
                    self.pos += 1;
                    return Ok(items);
                }
                Tok::Punct('{') => {
                    self.pos += 1;
                    items.push(Item::Block(self.block(depth + 1)?));
                }
                Tok::Dir(d) if d == ".reg" => {
                    self.pos += 1;
                    self.reg_decls(&mut items)?;
                }
                Tok::Dir(d) if Space::from_dir(&d).is_some() => {
                    let v = self.var_decl(Vec::new(), true)?;
                    self.expect_punct(';')?;
                    items.push(Item::Var(v));
                }
                Tok::Dir(d) if IGNORED.contains(&d.as_str()) => self.skip_ignored(),
                Tok::Dir(d) if d == ".extern" => {
                    self.pos += 1;
                    let v = self.var_decl(vec![d], false)?;
                    self.expect_punct(';')?;
                    items.push(Item::Var(v));
                }
                Tok::Dir(d) => return self.err(format!("unsupported directive `{d}`")),
                Tok::Ident(_)
                    if self.peek_at(1).is_some_and(|t| t.tok == Tok::Punct(':'))
                        && self
                            .peek_at(2)
                            .is_some_and(|t| t.tok == Tok::Dir(".callprototype".into())) =>
                {
                    // `proto : .callprototype (...) _ (...);` only types an indirect `call`;
                    // the call is checked against the functions it may reach when lowered.
                    self.pos += 3;
                    while !self.is_punct(';') {
                        if self.peek().is_none() {
                            return self.err("missing `;` after `.callprototype`");
                        }
                        self.pos += 1;
                    }
                    self.pos += 1;
                }
                Tok::Ident(name) if self.peek_at(1).is_some_and(|t| t.tok == Tok::Punct(':')) => {
                    self.pos += 2;
                    items.push(Item::Label(name));
                }
                Tok::Ident(_) | Tok::Punct('@') => items.push(Item::Instr(self.instruction()?)),
                _ => return self.err(format!("expected a statement, found {}", self.describe())),
            }
        }
    }

    /// After `.reg`: `.TYPE a, b<N>, ...;`.
    fn reg_decls(&mut self, items: &mut Vec<Item>) -> Res<()> {
        let ty = match self.peek() {
            Some(Tok::Dir(d)) if TYPES.contains(&&d[1..]) => d.clone(),
            _ => {
                return self.err(format!(
                    "expected a register type, found {}",
                    self.describe()
                ))
            }
        };
        self.pos += 1;
        loop {
            let name = self.ident("a register name")?;
            let count = if self.is_punct('<') {
                self.pos += 1;
                let n = self.number("register count")?;
                self.expect_punct('>')?;
                Some(n)
            } else {
                None
            };
            items.push(Item::Reg(RegDecl {
                ty: ty.clone(),
                name,
                count,
            }));
            if self.is_punct(',') {
                self.pos += 1;
            } else {
                break;
            }
        }
        self.expect_punct(';')
    }

    fn instruction(&mut self) -> Res<Instruction> {
        let pred = if self.is_punct('@') {
            self.pos += 1;
            let negated = self.is_punct('!');
            if negated {
                self.pos += 1;
            }
            Some(Pred {
                negated,
                reg: self.ident("a predicate register")?,
            })
        } else {
            None
        };
        let (line, col) = self.here();
        let opcode = self.ident("an opcode")?;
        let mut modifiers = Vec::new();
        let mut types = Vec::new();
        let mut full = opcode.clone();
        while let Some(t) = self.toks.get(self.pos) {
            match &t.tok {
                Tok::Dir(d) if t.glued => {
                    full.push_str(d);
                    let m = d[1..].to_string();
                    if TYPES.contains(&m.as_str()) {
                        types.push(m);
                    } else {
                        modifiers.push(m);
                    }
                    self.pos += 1;
                }
                _ => break,
            }
        }
        if !OPCODES.contains(&opcode.as_str()) {
            return Err(ParseError::new(
                format!("unsupported instruction `{opcode}` (in `{full}`)"),
                line,
                col,
            ));
        }
        let mut operands = Vec::new();
        if !self.is_punct(';') {
            loop {
                operands.push(self.operand()?);
                if self.is_punct(',') {
                    self.pos += 1;
                } else {
                    break;
                }
            }
        }
        self.expect_punct(';')?;
        Ok(Instruction {
            pred,
            opcode,
            modifiers,
            types,
            operands,
            line,
        })
    }

    /// A register name with glued component suffixes: `%tid.x`.
    fn name_with_suffix(&mut self, mut name: String) -> String {
        while let Some(Token {
            tok: Tok::Dir(d),
            glued: true,
            ..
        }) = self.toks.get(self.pos)
        {
            name.push_str(d);
            self.pos += 1;
        }
        name
    }

    fn operand(&mut self) -> Res<Operand> {
        let t = self.next()?;
        Ok(match t.tok {
            Tok::Punct('{') => Operand::Vector(self.operand_list('}')?),
            Tok::Punct('(') => Operand::List(self.operand_list(')')?),
            Tok::Punct('[') => {
                let base = match self.peek().cloned() {
                    Some(Tok::Ident(s)) => {
                        self.pos += 1;
                        self.name_with_suffix(s)
                    }
                    _ => String::new(),
                };
                let mut offset: i64 = 0;
                if base.is_empty() {
                    offset = self.signed_int()?;
                } else if self.is_punct('+') {
                    self.pos += 1;
                    offset = self.signed_int()?;
                } else if self.is_punct('-') {
                    offset = self.signed_int()?;
                }
                self.expect_punct(']')?;
                Operand::Address { base, offset }
            }
            Tok::Punct('!') => Operand::Not(self.ident("a predicate register")?),
            Tok::Punct('-') => {
                self.pos -= 1;
                match self.immediate_token()? {
                    Immediate::Int(v) => Operand::Imm(Immediate::Int(v)),
                    other => Operand::Imm(other),
                }
            }
            Tok::Num(_) => {
                self.pos -= 1;
                Operand::Imm(self.immediate_token()?)
            }
            Tok::Ident(s) if s == "_" && !self.is_punct('|') => Operand::Sink,
            Tok::Ident(s) => {
                let s = self.name_with_suffix(s);
                if self.is_punct('|') {
                    self.pos += 1;
                    let q = self.ident("a predicate register")?;
                    Operand::Pair(s, q)
                } else if s.starts_with('%') {
                    Operand::Reg(s)
                } else {
                    Operand::Symbol(s)
                }
            }
            _ => {
                self.pos -= 1;
                return self.err(format!("expected an operand, found {}", self.describe()));
            }
        })
    }

    fn operand_list(&mut self, close: char) -> Res<Vec<Operand>> {
        let mut out = Vec::new();
        if self.is_punct(close) {
            self.pos += 1;
            return Ok(out);
        }
        loop {
            if self.is_punct('{') || self.is_punct('(') {
                return self.err("nested operand lists are not PTX");
            }
            out.push(self.operand()?);
            if self.is_punct(',') {
                self.pos += 1;
            } else {
                break;
            }
        }
        self.expect_punct(close)?;
        Ok(out)
    }

    fn signed_int(&mut self) -> Res<i64> {
        let (l, c) = self.here();
        match self.immediate_token()? {
            Immediate::Int(v) => {
                i64::try_from(v).map_err(|_| ParseError::new("address offset out of range", l, c))
            }
            _ => Err(ParseError::new("expected an integer offset", l, c)),
        }
    }

    /// An optionally negated numeric literal.
    fn immediate_token(&mut self) -> Res<Immediate> {
        let neg = self.is_punct('-');
        if neg {
            self.pos += 1;
        }
        let (l, c) = self.here();
        let Some(Tok::Num(s)) = self.peek().cloned() else {
            return self.err(format!("expected a number, found {}", self.describe()));
        };
        self.pos += 1;
        let bad = || ParseError::new(format!("bad numeric literal `{s}`"), l, c);
        let imm = parse_imm(&s).ok_or_else(bad)?;
        Ok(match (neg, imm) {
            (false, i) => i,
            (true, Immediate::Int(v)) => Immediate::Int(-v),
            (true, Immediate::F32(b)) => Immediate::F32(b ^ 0x8000_0000),
            (true, Immediate::F64(b)) => Immediate::F64(b ^ (1 << 63)),
        })
    }
}

/// Integer literals: decimal, `0x` hex, `0b` binary, leading-zero octal, optional `U` suffix.
fn parse_int(s: &str) -> Option<i128> {
    let s = s.strip_suffix(['U', 'u']).unwrap_or(s);
    let (digits, radix) = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        (b, 2)
    } else if s.len() > 1 && s.starts_with('0') {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return None;
    }
    let v = u64::from_str_radix(digits, radix).ok()?;
    Some(i128::from(v))
}

fn parse_imm(s: &str) -> Option<Immediate> {
    let hex = |h: &str, n: usize| {
        (h.len() == n)
            .then_some(h)
            .and_then(|h| u64::from_str_radix(h, 16).ok())
    };
    if let Some(h) = s.strip_prefix("0f").or_else(|| s.strip_prefix("0F")) {
        return hex(h, 8).map(|b| Immediate::F32(b as u32));
    }
    if let Some(h) = s.strip_prefix("0d").or_else(|| s.strip_prefix("0D")) {
        return hex(h, 16).map(Immediate::F64);
    }
    if s.contains('.') || (!s.starts_with("0x") && s.contains(['e', 'E'])) {
        return s.parse::<f64>().ok().map(|f| Immediate::F64(f.to_bits()));
    }
    parse_int(s).map(Immediate::Int)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instr(line: &str) -> Result<Instruction, ParseError> {
        let src = format!(
            ".version 9.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{{\n{line}\n}}\n"
        );
        let m = parse(&src)?;
        match m.functions[0].body.first() {
            Some(Item::Instr(i)) => Ok(i.clone()),
            other => panic!("no instruction: {other:?}"),
        }
    }

    #[test]
    fn modifiers_and_types_split() {
        let i = instr("ld.global.nc.v4.f32 {%f1, %f2, %f3, _}, [%rd1+16];").unwrap();
        assert_eq!(i.opcode, "ld");
        assert_eq!(i.modifiers, ["global", "nc", "v4"]);
        assert_eq!(i.types, ["f32"]);
        assert_eq!(
            i.operands[0],
            Operand::Vector(vec![
                Operand::Reg("%f1".into()),
                Operand::Reg("%f2".into()),
                Operand::Reg("%f3".into()),
                Operand::Sink
            ])
        );
        assert_eq!(
            i.operands[1],
            Operand::Address {
                base: "%rd1".into(),
                offset: 16
            }
        );
        let c = instr("cvt.rn.f32.s32 %f1, %r1;").unwrap();
        assert_eq!(
            (c.modifiers, c.types),
            (
                vec!["rn".to_string()],
                vec!["f32".to_string(), "s32".to_string()]
            )
        );
    }

    #[test]
    fn operands() {
        let i = instr("@!%p1 shfl.sync.down.b32 %r1|%p2, %r2, 16, 31, -1;").unwrap();
        assert_eq!(
            i.pred,
            Some(Pred {
                negated: true,
                reg: "%p1".into()
            })
        );
        assert_eq!(i.operands[0], Operand::Pair("%r1".into(), "%p2".into()));
        assert_eq!(i.operands[4], Operand::Imm(Immediate::Int(-1)));
        let m = instr("mov.f32 %f1, 0f3F800000;").unwrap();
        assert_eq!(m.operands[1], Operand::Imm(Immediate::F32(0x3F80_0000)));
        let d = instr("mov.f64 %fd1, 0d3FF0000000000000;").unwrap();
        assert_eq!(d.operands[1], Operand::Imm(Immediate::F64(1f64.to_bits())));
        let s = instr("mov.u32 %r1, %tid.x;").unwrap();
        assert_eq!(s.operands[1], Operand::Reg("%tid.x".into()));
        let a = instr("ld.shared.f32 %f1, [smem+-4];").unwrap();
        assert_eq!(
            a.operands[1],
            Operand::Address {
                base: "smem".into(),
                offset: -4
            }
        );
        let b = instr("bra.uni $L__BB0_2;").unwrap();
        assert_eq!(b.operands, [Operand::Symbol("$L__BB0_2".into())]);
        let p = instr("setp.lt.and.s32 %p1, %r1, %r2, !%p2;").unwrap();
        assert_eq!(p.modifiers, ["lt", "and"]);
        assert_eq!(p.operands[3], Operand::Not("%p2".into()));
        let h = instr("and.b32 %r1, %r2, 0xFF;").unwrap();
        assert_eq!(h.operands[2], Operand::Imm(Immediate::Int(255)));
    }

    #[test]
    fn errors_name_instruction_and_line() {
        let e = instr("tex.2d.v4.f32 %f1, [t, {%r1}];").unwrap_err();
        assert!(e.message.contains("unsupported instruction `tex`"), "{e}");
        assert_eq!((e.line, e.column), (6, 1));
        let e = instr("add.s32 %r1, %r2 %r3;").unwrap_err();
        assert_eq!(e.line, 6);
        let e = parse(".version 9.5\n.target sm_90\n.entry k()\n{\n  ret;\n").unwrap_err();
        assert!(e.message.contains("missing `}`"), "{e}");
        let e = instr("mov.f32 %f1, 0f3F80;").unwrap_err();
        assert!(e.message.contains("bad numeric literal"), "{e}");
        assert_eq!((e.line, e.column), (6, 14));
    }

    /// `nvcc -lineinfo` ends a module with DWARF `.section` blocks of labelled byte data;
    /// they carry no meaning for the kernels and are skipped whole.
    #[test]
    fn debug_sections_after_the_functions_are_skipped() {
        let src = ".version 9.0\n.target sm_80\n.address_size 64\n\
                   .visible .entry k()\n{\n\t.loc 1 3 1\n\tret;\n}\n\
                   \t.file 1 \"/src/k.cu\"\n\t.section .debug_str\n\t{\n\
                   $L__info_string0:\n.b8 95,90,49,107,0\n\n\t}\n\
                   \t.section .debug_abbrev { .b8 1, 17 }\n";
        let m = parse(src).unwrap();
        assert_eq!(m.functions.len(), 1);
        assert_eq!(m.functions[0].name, "k");
        let open = src.replacen("\n\t}\n", "\n", 1).replace(" }", "");
        let e = parse(&open).unwrap_err();
        assert!(e.message.contains("closing `}`"), "{e}");
    }

    #[test]
    fn declarations() {
        let m = parse(
            ".version 9.5\n.target sm_90\n.address_size 64\n.extern .shared .align 16 .b8 smem[];\n\
             .visible .entry k(.param .u64 .ptr .global .align 4 k_p0)\n.maxntid 256, 1, 1\n{\n\
             .reg .pred %p<3>;\n.reg .b32 %r<4>, %t;\n.shared .align 4 .b8 tile[1024];\n\
             // comment\n/* block\ncomment */ .loc 1 2 3\nbar.sync 0;\nret;\n}\n",
        )
        .unwrap();
        let g = &m.globals[0];
        assert_eq!(
            (g.space, g.align, g.dims.as_slice()),
            (Space::Shared, Some(16), &[None][..])
        );
        assert_eq!(g.linkage, [".extern"]);
        let f = &m.functions[0];
        assert_eq!(f.params[0].attrs, [".ptr", ".global"]);
        assert!(
            m.to_string()
                .contains(".param .u64 .ptr .global .align 4 k_p0"),
            "{m}"
        );
        assert!(
            m.to_string()
                .contains(".extern .shared .align 16 .b8 smem[];"),
            "{m}"
        );
        assert_eq!(f.regs.len(), 3);
        assert_eq!(
            f.regs[1],
            RegDecl {
                ty: ".b32".into(),
                name: "%r".into(),
                count: Some(4)
            }
        );
        assert!(matches!(&f.body[0], Item::Var(v) if v.dims == [Some(1024)]));
        assert!(matches!(&f.body[1], Item::Instr(i) if i.line == 14));
    }

    #[test]
    fn device_function_and_call_block_round_trip() {
        let src = ".version 9.5\n.target sm_90\n.address_size 64\n\
            .func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)\n{\n\
            .reg .b32 %r<3>;\nld.param.b32 %r1, [twice_param_0];\nshl.b32 %r2, %r1, 1;\n\
            st.param.b32 [func_retval0], %r2;\nret;\n}\n\
            .visible .entry k()\n{\n.reg .b32 %r<3>;\nmov.u32 %r1, 7;\n{ // callseq 0\n\
            .param .b32 param0;\nst.param.b32 [param0], %r1;\n.param .b32 retval0;\n\
            call.uni (retval0), twice, (param0);\nld.param.b32 %r2, [retval0];\n}\n\
            @%p1 bra.uni $L__BB1_1;\n$L__BB1_1:\nexit;\n}\n";
        let m = parse(src).unwrap();
        let f = &m.functions[0];
        assert!(!f.is_entry);
        assert_eq!((f.returns.len(), f.params.len()), (1, 1));
        let Item::Block(b) = &m.functions[1].body[1] else {
            panic!("{:?}", m.functions[1].body)
        };
        let Item::Instr(call) = &b[3] else {
            panic!("{b:?}")
        };
        assert_eq!(
            call.operands[0],
            Operand::List(vec![Operand::Symbol("retval0".into())])
        );
        assert_eq!(parse(&m.to_string()).unwrap(), m);
    }
}
