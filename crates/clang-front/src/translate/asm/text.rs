//! Reading an `asm` statement from its source text: clang's JSON dump gives a `GCCAsmStmt`
//! only its operand expressions, so the template, the constraints and the clobbers are read
//! from the characters the statement spans.

/// An `asm` statement as written: `asm volatile("…" : outputs : inputs : clobbers)`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AsmText {
    /// The template, its adjacent string literals joined and their escapes decoded.
    pub template: String,
    /// Output operands, in order (numbered from 0).
    pub outputs: Vec<Constraint>,
    /// Input operands, in order (numbered after the outputs).
    pub inputs: Vec<Constraint>,
    /// Clobbers (`"memory"`, `"cc"`).
    pub clobbers: Vec<String>,
    /// False for basic `asm("…")` without any `:`, whose template is taken as written
    /// (no `%` substitution).
    pub extended: bool,
}

/// One operand's constraint: `"=r"`, `"+l"`, `[sum] "=r"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    /// The constraint string (`=r`, `+f`, `l`, `n`, `0`).
    pub text: String,
    /// The symbolic name in `[name]`, when given.
    pub name: Option<String>,
}

impl Constraint {
    /// The register letter with the `=`/`+`/`&` prefixes taken off (`r`, `l`, `f`, `0`).
    pub fn letter(&self) -> &str {
        self.text.trim_start_matches(['=', '+', '&'])
    }

    /// True for a read-write output (`+r`).
    pub fn read_write(&self) -> bool {
        self.text.contains('+')
    }
}

/// Reads the `asm` statement whose text is `src` (from the `asm` keyword to its `)`).
pub fn read(src: &str) -> Result<AsmText, String> {
    let mut c = Cursor {
        s: src.as_bytes(),
        i: 0,
    };
    c.ws();
    let kw = c.word();
    if !matches!(kw.as_str(), "asm" | "__asm__" | "__asm") {
        return Err(format!(
            "the `asm` statement is written through a macro (`{kw}`)"
        ));
    }
    loop {
        c.ws();
        let save = c.i;
        match c.word().as_str() {
            "volatile" | "__volatile__" | "__volatile" | "inline" | "__inline__" => {}
            "goto" => return Err("`asm goto`".into()),
            _ => {
                c.i = save;
                break;
            }
        }
    }
    c.expect(b'(')?;
    let mut out = AsmText {
        template: c.strings("the template")?,
        ..AsmText::default()
    };
    for section in 0..3 {
        c.ws();
        if c.peek() == Some(b')') {
            break;
        }
        // `::` is two section separators.
        c.expect(b':')?;
        out.extended = true;
        c.ws();
        if matches!(c.peek(), Some(b':' | b')')) {
            continue;
        }
        loop {
            c.ws();
            if section == 2 {
                out.clobbers.push(c.strings("a clobber")?);
            } else {
                let name = if c.peek() == Some(b'[') {
                    c.i += 1;
                    c.ws();
                    let n = c.word();
                    c.ws();
                    c.expect(b']')?;
                    Some(n)
                } else {
                    None
                };
                let text = c.strings("a constraint")?;
                c.ws();
                c.skip_parens()?;
                let k = Constraint { text, name };
                if section == 0 {
                    out.outputs.push(k);
                } else {
                    out.inputs.push(k);
                }
            }
            c.ws();
            if c.peek() == Some(b',') {
                c.i += 1;
            } else {
                break;
            }
        }
    }
    c.ws();
    c.expect(b')')?;
    Ok(out)
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn found(&self) -> String {
        match self.peek() {
            None => "the end of the statement".into(),
            Some(b) => format!("`{}`", b as char),
        }
    }

    /// Skips white space, comments and line continuations.
    fn ws(&mut self) {
        while let Some(b) = self.peek() {
            if b.is_ascii_whitespace() {
                self.i += 1;
            } else if b == b'\\' && matches!(self.s.get(self.i + 1), Some(b'\n' | b'\r')) {
                self.i += 2;
            } else if self.s[self.i..].starts_with(b"//") {
                while self.peek().is_some_and(|b| b != b'\n') {
                    self.i += 1;
                }
            } else if self.s[self.i..].starts_with(b"/*") {
                match find(&self.s[self.i + 2..], b"*/") {
                    Some(k) => self.i += k + 4,
                    None => self.i = self.s.len(),
                }
            } else {
                break;
            }
        }
    }

    fn word(&mut self) -> String {
        let start = self.i;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
    }

    fn expect(&mut self, b: u8) -> Result<(), String> {
        if self.peek() == Some(b) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!(
                "expected `{}` in the `asm` statement, found {}",
                b as char,
                self.found()
            ))
        }
    }

    /// One or more adjacent string literals, joined, escapes decoded.
    fn strings(&mut self, what: &str) -> Result<String, String> {
        let mut out = String::new();
        let mut any = false;
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                break;
            }
            any = true;
            self.i += 1;
            let mut bytes = vec![];
            loop {
                let Some(b) = self.peek() else {
                    return Err("unterminated string in the `asm` statement".into());
                };
                self.i += 1;
                match b {
                    b'"' => break,
                    b'\\' => bytes.extend(self.escape()?),
                    _ => bytes.push(b),
                }
            }
            out.push_str(&String::from_utf8_lossy(&bytes));
        }
        if !any {
            return Err(format!(
                "{what} of the `asm` statement is not a string literal (found {}; a macro?)",
                self.found()
            ));
        }
        Ok(out)
    }

    /// The bytes of the escape after a `\`.
    fn escape(&mut self) -> Result<Vec<u8>, String> {
        let Some(b) = self.peek() else {
            return Err("unterminated escape in the `asm` statement".into());
        };
        self.i += 1;
        Ok(vec![match b {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'v' => 0x0b,
            b'f' => 0x0c,
            b'a' => 0x07,
            b'b' => 0x08,
            b'\n' => return Ok(vec![]),
            b'x' => {
                let mut v: u32 = 0;
                while let Some(d) = self.peek().and_then(|d| (d as char).to_digit(16)) {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    self.i += 1;
                }
                v as u8
            }
            b'0'..=b'7' => {
                let mut v = u32::from(b - b'0');
                for _ in 0..2 {
                    match self.peek() {
                        Some(d @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(d - b'0');
                            self.i += 1;
                        }
                        _ => break,
                    }
                }
                v as u8
            }
            other => other,
        }])
    }

    /// Skips `( … )`, balanced, over strings and character literals.
    fn skip_parens(&mut self) -> Result<(), String> {
        self.expect(b'(')?;
        let mut depth = 1;
        while depth > 0 {
            let Some(b) = self.peek() else {
                return Err("unbalanced `(` in an `asm` operand".into());
            };
            self.i += 1;
            match b {
                b'(' => depth += 1,
                b')' => depth -= 1,
                b'"' | b'\'' => {
                    while let Some(c) = self.peek() {
                        self.i += 1;
                        if c == b'\\' {
                            self.i += 1;
                        } else if c == b {
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_template_constraints_and_clobbers() {
        let a = read(
            "asm volatile(\"{\\n\\t.reg .pred p;\\n\\t\"\n  \"setp.ne.b32 p, %1, 0;\\n\\t}\" \
             : \"=r\"(x[f(1, \")\")]) : [v] \"r\"(b), \"l\"(p + (i * 4)) : \"memory\")",
        )
        .unwrap();
        assert_eq!(
            a.template,
            "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %1, 0;\n\t}"
        );
        assert_eq!(a.outputs.len(), 1);
        assert_eq!(a.outputs[0].letter(), "r");
        assert_eq!(a.inputs[0].name.as_deref(), Some("v"));
        assert_eq!(a.inputs[1].text, "l");
        assert_eq!(a.clobbers, ["memory"]);
        assert!(a.extended);
    }

    #[test]
    fn empty_sections_and_basic_asm() {
        let a = read("__asm__ __volatile__(\"\" ::: \"memory\")").unwrap();
        assert!(a.template.is_empty() && a.outputs.is_empty() && a.inputs.is_empty());
        assert_eq!(a.clobbers, ["memory"]);
        let b = read("asm(\"add.u32 %0, %0, %1;\" : \"+r\"(a) : \"r\"(b))").unwrap();
        assert!(b.outputs[0].read_write());
        let c = read("asm(\"bar.sync 0;\")").unwrap();
        assert!(!c.extended);
        let d = read("asm(\"x\" :: \"r\"(a))").unwrap();
        assert_eq!((d.outputs.len(), d.inputs.len()), (0, 1));
    }

    #[test]
    fn macros_and_goto_are_named() {
        assert!(read("ASM(\"x\")").unwrap_err().contains("macro"));
        assert!(read("asm(TEMPLATE : \"=r\"(x))")
            .unwrap_err()
            .contains("not a string literal"));
        assert!(read("asm goto(\"x\" :::: l)").unwrap_err().contains("goto"));
    }
}
