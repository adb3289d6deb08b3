//! Kernel names in compiled PTX: nvcc and NVRTC give C++ kernels their Itanium-mangled names
//! (`_Z13reduce_kernelILi256E3SumEvPKfPfi` for `reduce_kernel<256, Sum>`). The names the
//! front end gives the same kernels are read back from them, so a `.ptx` file finds its
//! kernel in the sibling `.cu` (launch contract, parameter names, element types).
//!
//! Only what kernel names need is read: a plain or namespaced name, then template arguments
//! that are integer or boolean literals, builtin types or named types. Anything else
//! (substitutions, pointers, nested templates) gives no name, and the caller falls back.

/// The function's own name: `reduce_kernel` for `_Z13reduce_kernelILi256E3SumEvPKfPfi`,
/// `gemm` for `_ZN6kernel4gemmEPf`.
pub fn base_name(mangled: &str) -> Option<&str> {
    let mut r = Reader::new(mangled)?;
    r.function_name().map(|(_, last)| last)
}

/// The front end's name of a template instantiation: the base name and each template
/// argument spelled with `_` for anything but letters and digits (`reduce_kernel_256_Sum`,
/// `scale_float_true`); `None` when the kernel is not a template or an argument is not read.
pub fn instance_name(mangled: &str) -> Option<String> {
    let mut r = Reader::new(mangled)?;
    let (_, base) = r.function_name()?;
    if !r.eat('I') {
        return None;
    }
    let mut args = vec![];
    while !r.eat('E') {
        args.push(r.template_arg()?);
    }
    if args.is_empty() {
        return None;
    }
    let spelled: Vec<String> = args
        .iter()
        .map(|a| {
            a.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect()
        })
        .collect();
    Some(format!("{base}_{}", spelled.join("_")))
}

struct Reader<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    fn new(mangled: &'a str) -> Option<Self> {
        mangled.strip_prefix("_Z").map(|s| Reader { s, pos: 0 })
    }

    fn peek(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        let yes = self.peek() == Some(c);
        if yes {
            self.pos += c.len_utf8();
        }
        yes
    }

    fn digits(&mut self) -> Option<&'a str> {
        let rest = &self.s[self.pos..];
        let n = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        (n > 0).then(|| {
            self.pos += n;
            &rest[..n]
        })
    }

    /// `<length><identifier>`.
    fn source_name(&mut self) -> Option<&'a str> {
        let len: usize = self.digits()?.parse().ok()?;
        let name = self.s.get(self.pos..self.pos.checked_add(len)?)?;
        self.pos += len;
        Some(name)
    }

    /// The function's qualified name (`ns::f`) and its last component.
    fn function_name(&mut self) -> Option<(String, &'a str)> {
        if self.eat('N') {
            let mut parts = vec![];
            while !self.eat('E') {
                parts.push(self.source_name()?);
                if self.peek() == Some('I') {
                    // Template arguments close the nested name: `N2ns1fILi4EEE…`.
                    let last = *parts.last()?;
                    return Some((parts.join("::"), last));
                }
            }
            let last = *parts.last()?;
            Some((parts.join("::"), last))
        } else {
            let name = self.source_name()?;
            Some((name.to_string(), name))
        }
    }

    /// One template argument as C++ spells it: `256`, `true`, `float`, `Sum`, `ns::Op`.
    fn template_arg(&mut self) -> Option<String> {
        if self.eat('L') {
            let ty = self.peek()?;
            self.pos += 1;
            let negative = self.eat('n');
            let value = self.digits()?;
            if !self.eat('E') {
                return None;
            }
            return Some(match (ty, value) {
                ('b', "0") => "false".into(),
                ('b', "1") => "true".into(),
                ('b', _) => return None,
                (c, v) if "ijlmxysthca".contains(c) => {
                    format!("{}{v}", if negative { "-" } else { "" })
                }
                _ => return None,
            });
        }
        if let Some(t) = self.peek().and_then(builtin) {
            self.pos += 1;
            return Some(t.into());
        }
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return self.source_name().map(str::to_string);
        }
        if self.peek() == Some('N') {
            return self.function_name().map(|(q, _)| q);
        }
        None
    }
}

/// The builtin type a one-letter mangling stands for.
fn builtin(c: char) -> Option<&'static str> {
    Some(match c {
        'b' => "bool",
        'c' => "char",
        'a' => "signed char",
        'h' => "unsigned char",
        's' => "short",
        't' => "unsigned short",
        'i' => "int",
        'j' => "unsigned int",
        'l' => "long",
        'm' => "unsigned long",
        'x' => "long long",
        'y' => "unsigned long long",
        'f' => "float",
        'd' => "double",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{base_name, instance_name};

    #[test]
    fn plain_and_namespaced_names() {
        assert_eq!(
            base_name("_Z9wmma_gemmPK6__halfS1_Pfiiiff"),
            Some("wmma_gemm")
        );
        assert_eq!(
            base_name("_Z21m16n16k16_row_col_rowPK6__halfS1_PKfPf"),
            Some("m16n16k16_row_col_row")
        );
        assert_eq!(base_name("_ZN6kernel4gemmEPf"), Some("gemm"));
        assert_eq!(base_name("saxpy"), None);
        assert_eq!(base_name("_Z99short"), None);
        assert_eq!(instance_name("_Z9wmma_gemmPK6__halfS1_Pfiiiff"), None);
    }

    #[test]
    fn template_instances_spelled_as_the_front_end_names_them() {
        assert_eq!(
            instance_name("_Z13reduce_kernelILi256E3SumEvPKfPfi").as_deref(),
            Some("reduce_kernel_256_Sum")
        );
        assert_eq!(
            instance_name("_Z13reduce_kernelILi256E6AbsMaxEvPKfPfi").as_deref(),
            Some("reduce_kernel_256_AbsMax")
        );
        assert_eq!(
            instance_name("_Z5scaleIfLb1EEvPT_i").as_deref(),
            Some("scale_float_true")
        );
        assert_eq!(
            instance_name("_Z4tileILin2ELj8EjEvPj").as_deref(),
            Some("tile__2_8_unsigned_int")
        );
        assert_eq!(
            instance_name("_ZN2ns4gemmILi64ELi8EEEvPKfS2_Pfiii").as_deref(),
            Some("gemm_64_8")
        );
        // A substitution or a pointer argument is not read: no name, the caller falls back.
        assert_eq!(instance_name("_Z1kIPfEvT_"), None);
        assert_eq!(instance_name("_Z1kIS_EvT_"), None);
    }
}
