//! File-level items: kernels, device helpers, file-scope constants. Host-only functions
//! are skipped unparsed (their bodies hold launch syntax and runtime calls).

use super::Parser;
use crate::ast::{FnKind, Function, Item, ParamDecl, TranslationUnit};
use crate::error::{err, Result};
use crate::lexer::T;

const FN_QUALIFIERS: &[&str] = &[
    "__global__",
    "__device__",
    "__host__",
    "static",
    "inline",
    "__forceinline__",
    "__noinline__",
    "__inline__",
    "extern",
];

impl Parser {
    pub(crate) fn translation_unit(&mut self) -> Result<TranslationUnit> {
        let mut tu = TranslationUnit::default();
        let mut extern_blocks = 0usize;
        while !self.at(T::Eof) {
            let t = self.peek().clone();
            if self.eat(T::Semi).is_some() {
                continue;
            }
            if t.kind == T::RBrace && extern_blocks > 0 {
                self.bump();
                extern_blocks -= 1;
                continue;
            }
            if t.is_ident("extern") && self.peek_at(1).kind == T::Str {
                self.bump();
                self.bump();
                if self.eat(T::LBrace).is_some() {
                    extern_blocks += 1;
                }
                continue;
            }
            for (word, what) in [
                ("template", "templates are"),
                ("typedef", "typedefs are"),
                ("struct", "structs are"),
                ("class", "classes are"),
                ("union", "unions are"),
                ("enum", "enums are"),
                ("namespace", "namespaces are"),
                ("using", "`using` declarations are"),
            ] {
                if t.is_ident(word) {
                    return err(t.span, format!("{what} not supported"));
                }
            }
            if let Some(item) = self.item()? {
                tu.items.push(item);
            }
        }
        if extern_blocks > 0 {
            return err(self.peek().span, "unclosed `extern \"C\" {` block");
        }
        Ok(tu)
    }

    fn item(&mut self) -> Result<Option<Item>> {
        let start = self.peek().span;
        let start_pos = self.pos;
        let (mut global, mut device, mut host) = (false, false, false);
        loop {
            let t = self.peek().clone();
            if t.is_ident("__launch_bounds__") {
                self.bump();
                if self.at(T::LParen) {
                    self.skip_group()?;
                }
                continue;
            }
            if t.kind != T::Ident || !FN_QUALIFIERS.contains(&t.text.as_str()) {
                break;
            }
            // `extern __shared__` and `static const` at file level are declarations.
            if t.text == "extern" && self.peek_at(1).is_ident("__shared__") {
                return err(
                    t.span,
                    "`extern __shared__` arrays must be declared inside a kernel",
                );
            }
            global |= t.text == "__global__";
            device |= t.text == "__device__";
            host |= t.text == "__host__";
            self.bump();
        }
        if !global && !device {
            return self.file_const_or_host(start_pos);
        }
        let (storage, mut ret) = self.type_spec()?;
        if self.at_ident("__launch_bounds__") {
            self.bump();
            if self.at(T::LParen) {
                self.skip_group()?;
            }
        }
        ret.ptr = self.pointer_suffix()?;
        let name = self.expect_name("a name")?;
        if !self.at(T::LParen) {
            if storage.shared {
                return err(
                    start,
                    "`__shared__` variables must be declared inside a kernel",
                );
            }
            return err(name.span, "`__device__` variables are not supported");
        }
        let params = self.params()?;
        while ["const", "__launch_bounds__"]
            .iter()
            .any(|w| self.at_ident(w))
        {
            self.bump();
            if self.at(T::LParen) {
                self.skip_group()?;
            }
        }
        if self.eat(T::Semi).is_some() {
            return Ok(None);
        }
        if !self.at(T::LBrace) {
            return err(self.peek().span, "expected a function body `{`");
        }
        let _ = host;
        let kind = if global {
            FnKind::Kernel
        } else {
            FnKind::Device
        };
        if kind == FnKind::Kernel && (ret.base.is_some() || ret.ptr) {
            return err(ret.span, "a `__global__` kernel must return `void`");
        }
        let body = self.block()?;
        Ok(Some(Item::Function(Function {
            kind,
            name: name.text,
            name_span: name.span,
            ret,
            params,
            body,
            span: self.since(start),
        })))
    }

    /// A file-scope `const` scalar (kept), or host code (skipped up to its `;` or body).
    fn file_const_or_host(&mut self, start_pos: usize) -> Result<Option<Item>> {
        let mut konst = false;
        let mut shared = None;
        let mut i = 0;
        let end = loop {
            let t = self.peek_at(i);
            if t.is_ident("const") || t.is_ident("constexpr") {
                konst = true;
            }
            if t.is_ident("__shared__") {
                shared = Some(t.span);
            }
            if t.is_ident("__constant__") || t.is_ident("__managed__") {
                return err(t.span, format!("`{}` variables are not supported", t.text));
            }
            if matches!(t.kind, T::LParen | T::Semi | T::Assign | T::LBrace | T::Eof) {
                break t.kind;
            }
            i += 1;
        };
        if let Some(span) = shared {
            return err(
                span,
                "`__shared__` variables must be declared inside a kernel",
            );
        }
        if konst && end == T::Assign {
            self.pos = start_pos;
            let d = self.decl()?;
            self.expect(T::Semi, "`;` after the declaration")?;
            return Ok(Some(Item::Const(d)));
        }
        loop {
            match self.peek().kind {
                T::Eof => return Ok(None),
                T::Semi => {
                    self.bump();
                    return Ok(None);
                }
                T::LBrace => {
                    self.skip_group()?;
                    return Ok(None);
                }
                T::LParen => self.skip_group()?,
                _ => {
                    self.bump();
                }
            }
        }
    }

    fn params(&mut self) -> Result<Vec<ParamDecl>> {
        self.expect(T::LParen, "`(`")?;
        let mut params = Vec::new();
        if self.at_ident("void") && self.peek_at(1).kind == T::RParen {
            self.bump();
        }
        if self.eat(T::RParen).is_some() {
            return Ok(params);
        }
        loop {
            let start = self.peek().span;
            if let Some(t) = self.eat(T::Ellipsis) {
                return err(t.span, "variadic functions are not supported");
            }
            let (_, mut ty) = self.type_spec()?;
            ty.ptr = self.pointer_suffix()?;
            if self.at(T::LParen) {
                return err(self.peek().span, "function pointers are not supported");
            }
            let name = self.expect_name("a parameter name")?;
            if self.eat(T::LBracket).is_some() {
                self.expect(T::RBracket, "`]` (array parameters are written `T a[]`)")?;
                if ty.ptr {
                    return err(name.span, "pointers to pointers are not supported");
                }
                ty.ptr = true;
            }
            if let Some(t) = self.eat(T::Assign) {
                return err(t.span, "default arguments are not supported");
            }
            ty.span = self.since(ty.span);
            params.push(ParamDecl {
                name: name.text,
                ty,
                span: self.since(start),
                constant: false,
            });
            if self.eat(T::Comma).is_none() {
                self.expect(T::RParen, "`)` or `,` in the parameter list")?;
                return Ok(params);
            }
        }
    }
}
