//! `%0`, `%[name]` and `%%` in an extended `asm` template, replaced by the PTX text bound to
//! each operand.

/// The template with each operand reference replaced by `bound[n]` and `%%` by `%`; `names`
/// gives the operand number of each `[name]`.
pub fn substitute(
    template: &str,
    bound: &[String],
    names: &[(String, usize)],
) -> Result<String, String> {
    let chars: Vec<char> = template.chars().collect();
    let mut out = String::with_capacity(template.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.get(i) {
            Some('%') => {
                out.push('%');
                i += 1;
            }
            Some(d) if d.is_ascii_digit() => {
                let start = i;
                while chars.get(i).is_some_and(|d| d.is_ascii_digit()) {
                    i += 1;
                }
                let digits: String = chars[start..i].iter().collect();
                let n: usize = digits
                    .parse()
                    .map_err(|_| format!("operand `%{digits}` out of range"))?;
                let text = bound.get(n).ok_or_else(|| {
                    format!(
                        "`%{n}` names no operand (the statement has {})",
                        bound.len()
                    )
                })?;
                out.push_str(text);
            }
            Some('[') => {
                let close = chars[i..]
                    .iter()
                    .position(|&c| c == ']')
                    .ok_or("unterminated `%[` in the template")?;
                let name: String = chars[i + 1..i + close].iter().collect();
                i += close + 1;
                let n = names
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, n)| *n)
                    .ok_or_else(|| format!("`%[{name}]` names no operand"))?;
                out.push_str(&bound[n]);
            }
            Some('=') => return Err("`%=` (a unique number per asm instance)".into()),
            Some(m) => {
                return Err(format!(
                    "`%{m}` in an extended asm template (an operand modifier, or a PTX \
                     register written with one `%` where `%%` is needed)"
                ))
            }
            None => return Err("a `%` at the end of the template".into()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn operands_names_and_percent() {
        let s = substitute(
            "mov.u32 %0, %%laneid;\n\tadd.u32 %0, %0, %[k]; shfl %10",
            &b(&[
                "%__op0", "%__op1", "", "", "", "", "", "", "", "", "%__op10",
            ]),
            &[("k".into(), 1)],
        )
        .unwrap();
        assert_eq!(
            s,
            "mov.u32 %__op0, %laneid;\n\tadd.u32 %__op0, %__op0, %__op1; shfl %__op10"
        );
    }

    #[test]
    fn bad_references_are_named() {
        assert!(substitute("mov %2;", &b(&["a", "b"]), &[])
            .unwrap_err()
            .contains("`%2` names no operand"));
        assert!(substitute("mov %laneid;", &b(&["a"]), &[])
            .unwrap_err()
            .contains("`%l`"));
        assert!(substitute("x%=", &b(&[]), &[])
            .unwrap_err()
            .contains("`%=`"));
        assert!(substitute("%[nope]", &b(&["a"]), &[])
            .unwrap_err()
            .contains("`%[nope]`"));
    }
}
