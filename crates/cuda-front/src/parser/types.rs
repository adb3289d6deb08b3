//! Type specifiers and qualifiers: `const unsigned long long`, `float* __restrict__`, ….

use super::Parser;
use crate::ast::{Storage, Type};
use crate::error::{err, Result};
use crate::lexer::T;
use warpsafe_ir::{ScalarType, Span};

const TYPE_WORDS: &[&str] = &[
    "void",
    "bool",
    "int",
    "unsigned",
    "signed",
    "long",
    "char",
    "short",
    "float",
    "double",
    "size_t",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
    "ptrdiff_t",
    "int8_t",
    "uint8_t",
    "int16_t",
    "uint16_t",
    "half",
    "__half",
];

const QUALIFIERS: &[&str] = &[
    "const",
    "volatile",
    "__restrict__",
    "__restrict",
    "constexpr",
    "static",
    "inline",
    "__forceinline__",
    "__inline__",
    "extern",
    "__shared__",
    "register",
];

/// Words that name types or qualifiers the subset rejects, with the construct they are.
const REJECTED: &[(&str, &str)] = &[
    ("__nv_bfloat16", "the `bfloat16` type is"),
    ("auto", "`auto` type deduction is"),
    ("struct", "structs are"),
    ("class", "classes are"),
    ("union", "unions are"),
    ("enum", "enums are"),
    ("typename", "templates are"),
    ("template", "templates are"),
    ("typedef", "typedefs are"),
    ("__constant__", "`__constant__` memory is"),
    ("__device__", "`__device__` variables are"),
    ("__managed__", "`__managed__` variables are"),
];

/// The construct a rejected type word stands for, if it is one.
pub(crate) fn rejected_word(word: &str) -> Option<&'static str> {
    REJECTED
        .iter()
        .find(|(w, _)| *w == word)
        .map(|(_, what)| *what)
}

/// True for vector and other CUDA types that the subset does not model (`float4`, `dim3`).
pub(crate) fn is_unsupported_type_name(word: &str) -> bool {
    let vector = [
        "char",
        "uchar",
        "short",
        "ushort",
        "int",
        "uint",
        "long",
        "ulong",
        "float",
        "double",
        "longlong",
        "ulonglong",
        "half",
    ]
    .iter()
    .any(|b| {
        word.strip_prefix(b)
            .is_some_and(|n| ["1", "2", "3", "4"].contains(&n))
    });
    vector || word == "dim3" || word == "cudaStream_t"
}

impl Parser {
    /// True when the current token can start a declaration's type.
    pub(crate) fn at_type_start(&self) -> bool {
        let t = self.peek();
        t.kind == T::Ident
            && (TYPE_WORDS.contains(&t.text.as_str()) || QUALIFIERS.contains(&t.text.as_str()))
    }

    /// True when the current token is a plain type word (for casts).
    pub(crate) fn at_type_word(&self, n: usize) -> bool {
        let t = self.peek_at(n);
        t.kind == T::Ident
            && (TYPE_WORDS.contains(&t.text.as_str())
                || ["const", "volatile"].contains(&t.text.as_str()))
    }

    /// Parses specifiers and qualifiers into a storage class and a base type.
    pub(crate) fn type_spec(&mut self) -> Result<(Storage, Type)> {
        let start = self.peek().span;
        let mut storage = Storage::default();
        let (mut unsigned, mut signed, mut longs, mut int) = (false, false, 0u32, false);
        let (mut chars, mut shorts) = (0u32, 0u32);
        let mut volatile = false;
        let mut word: Option<(String, Span)> = None;
        loop {
            let t = self.peek().clone();
            if t.kind != T::Ident {
                break;
            }
            if let Some(what) = rejected_word(&t.text) {
                return err(t.span, format!("{what} not supported"));
            }
            match t.text.as_str() {
                "const" | "constexpr" => storage.konst = true,
                "__shared__" => storage.shared = true,
                "extern" => storage.extern_ = true,
                "volatile" => volatile = true,
                "__restrict__" | "__restrict" | "static" | "inline" | "__forceinline__"
                | "__inline__" | "register" => {}
                "unsigned" => unsigned = true,
                "signed" => signed = true,
                "long" => longs += 1,
                "int" => int = true,
                "char" => chars += 1,
                "short" => shorts += 1,
                w if TYPE_WORDS.contains(&w) => {
                    if let Some((prev, _)) = &word {
                        return err(t.span, format!("`{w}` after `{prev}` is not a type"));
                    }
                    word = Some((w.to_string(), t.span));
                }
                _ => break,
            }
            self.bump();
        }
        let span = self.since(start);
        if (unsigned && signed)
            || chars + shorts > 1
            || (chars + shorts > 0 && longs > 0)
            || (chars > 0 && int)
        {
            return err(span, "these type specifiers do not form a type");
        }
        let integer = unsigned || signed || longs > 0 || int || chars > 0 || shorts > 0;
        let base = match word {
            // `char` is signed on CUDA's targets, like `signed char`.
            None if chars > 0 => Some(if unsigned {
                ScalarType::U8
            } else {
                ScalarType::I8
            }),
            None if shorts > 0 => Some(if unsigned {
                ScalarType::U16
            } else {
                ScalarType::I16
            }),
            None if integer => Some(match (unsigned, longs) {
                (false, 0) => ScalarType::I32,
                (true, 0) => ScalarType::U32,
                (false, _) => ScalarType::I64,
                (true, _) => ScalarType::U64,
            }),
            None => {
                let t = self.peek();
                if t.kind == T::Ident && is_unsupported_type_name(&t.text) {
                    return err(t.span, format!("the type `{}` is not supported", t.text));
                }
                return err(t.span, format!("expected a type, found `{}`", t.text));
            }
            Some((w, wspan)) => {
                if integer {
                    return err(
                        span,
                        format!("`{w}` cannot be combined with integer modifiers"),
                    );
                }
                match w.as_str() {
                    "void" => None,
                    "bool" => Some(ScalarType::Bool),
                    "float" => Some(ScalarType::F32),
                    "double" => Some(ScalarType::F64),
                    "int32_t" => Some(ScalarType::I32),
                    "uint32_t" => Some(ScalarType::U32),
                    "int64_t" | "ptrdiff_t" => Some(ScalarType::I64),
                    "size_t" | "uint64_t" => Some(ScalarType::U64),
                    "int8_t" => Some(ScalarType::I8),
                    "uint8_t" => Some(ScalarType::U8),
                    "int16_t" => Some(ScalarType::I16),
                    "uint16_t" => Some(ScalarType::U16),
                    "half" | "__half" => Some(ScalarType::F16),
                    _ => return err(wspan, format!("unsupported type `{w}`")),
                }
            }
        };
        Ok((
            storage,
            Type {
                base,
                ptr: false,
                konst: storage.konst,
                volatile,
                span,
            },
        ))
    }

    /// Parses `*` with trailing qualifiers; returns whether a pointer was written.
    pub(crate) fn pointer_suffix(&mut self) -> Result<bool> {
        if let Some(t) = self.eat(T::Amp).or_else(|| self.eat(T::AndAnd)) {
            return err(t.span, "references are not supported");
        }
        if self.eat(T::Star).is_none() {
            return Ok(false);
        }
        while ["const", "volatile", "__restrict__", "__restrict"]
            .iter()
            .any(|q| self.at_ident(q))
        {
            self.bump();
        }
        if let Some(t) = self.eat(T::Star) {
            return err(t.span, "pointers to pointers are not supported");
        }
        if let Some(t) = self.eat(T::Amp) {
            return err(t.span, "references are not supported");
        }
        Ok(true)
    }

    /// Parses a full type for casts and `sizeof`: specifiers plus an optional `*`.
    pub(crate) fn type_name(&mut self) -> Result<Type> {
        let (_, mut ty) = self.type_spec()?;
        ty.ptr = self.pointer_suffix()?;
        ty.span = self.since(ty.span);
        Ok(ty)
    }
}
