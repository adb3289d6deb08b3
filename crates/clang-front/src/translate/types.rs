//! clang's type spellings (`const float *__restrict`, `float[32][33]`, `unsigned long`) read
//! into the subset syntax tree's types.

use crate::node::Node;
use serde_json::Value;
use warpsafe_cuda_front::ast::Type;
use warpsafe_ir::{ScalarType, Span};

/// A declared type: the element type, the array extents (outermost first) and whether the
/// name is a pointer.
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    /// The scalar (or pointed-to scalar) type with its qualifiers.
    pub ty: Type,
    /// Array extents, outermost first (`None` for `[]`).
    pub dims: Vec<Option<u64>>,
}

/// Reads a desugared clang type. The error names the part we do not model.
pub fn declared(spelling: &str, span: Span) -> Result<Declared, String> {
    let s = spelling.trim();
    if super::fn_pointers::is_fn_pointer(s) {
        // A pointer to a device function is its number among the file's targets.
        let (dims, konst) = super::fn_pointers::fn_pointer_dims(s)
            .ok_or_else(|| format!("function pointer type `{s}`"))?;
        return Ok(Declared {
            ty: Type {
                base: Some(ScalarType::I32),
                ptr: false,
                konst,
                volatile: false,
                span,
            },
            dims,
        });
    }
    let (elem, dims) = split_dims(s)?;
    let ty = pointer_or_scalar(elem, span)?;
    Ok(Declared { ty, dims })
}

/// `float &` → (`float`, true): an lvalue reference, which the translation models as a
/// pointer. An rvalue reference (`&&`) is not stripped (and is rejected when read).
pub fn strip_reference(spelling: &str) -> (&str, bool) {
    let t = spelling.trim();
    match t.strip_suffix('&') {
        Some(rest) if !rest.ends_with('&') => (rest.trim_end(), true),
        _ => (t, false),
    }
}

/// Reads a scalar or pointer-to-scalar type (no arrays).
pub fn scalar_or_pointer(spelling: &str, span: Span) -> Result<Type, String> {
    let d = declared(spelling, span)?;
    if !d.dims.is_empty() {
        return Err(format!("array type `{spelling}` here"));
    }
    Ok(d.ty)
}

fn split_dims(s: &str) -> Result<(&str, Vec<Option<u64>>), String> {
    let Some(open) = s.find('[') else {
        return Ok((s, vec![]));
    };
    if s[..open].contains('(') {
        return Err(format!("pointer to array `{s}`"));
    }
    let mut dims = vec![];
    let mut rest = &s[open..];
    while let Some(r) = rest.strip_prefix('[') {
        let close = r.find(']').ok_or_else(|| format!("type `{s}`"))?;
        let n = r[..close].trim();
        dims.push(if n.is_empty() {
            None
        } else {
            Some(n.parse().map_err(|_| format!("array extent `{n}`"))?)
        });
        rest = r[close + 1..].trim_start();
    }
    if !rest.is_empty() {
        return Err(format!("type `{s}`"));
    }
    Ok((s[..open].trim(), dims))
}

fn pointer_or_scalar(s: &str, span: Span) -> Result<Type, String> {
    let (pointee, ptr) = match s.rfind('*') {
        Some(star) => {
            let after = s[star + 1..].trim();
            let after_ok = after
                .split_whitespace()
                .all(|q| matches!(q, "const" | "volatile" | "__restrict" | "restrict"));
            if !after_ok {
                return Err(format!("type `{s}`"));
            }
            let before = s[..star].trim();
            if before.contains('*') {
                return Err(format!("pointer to pointer `{s}`"));
            }
            if before.contains('(') {
                return Err(format!("function pointer `{s}`"));
            }
            (before, true)
        }
        None => (s, false),
    };
    if s.contains('&') {
        return Err(format!("reference type `{s}`"));
    }
    let mut konst = false;
    let mut volatile = false;
    let mut words = vec![];
    for w in pointee.split_whitespace() {
        match w {
            "const" => konst = true,
            "volatile" => volatile = true,
            "__restrict" | "restrict" | "struct" | "enum" => {}
            _ => words.push(w),
        }
    }
    let base = scalar(&words.join(" ")).map_err(|e| format!("{e} in `{s}`"))?;
    Ok(Type {
        base,
        ptr,
        konst,
        volatile,
        span,
    })
}

/// A scalar type name (desugared), `None` for `void`.
pub fn scalar(name: &str) -> Result<Option<ScalarType>, String> {
    Ok(Some(match name {
        "void" => return Ok(None),
        "bool" | "_Bool" => ScalarType::Bool,
        "int" | "signed int" | "signed" => ScalarType::I32,
        "unsigned int" | "unsigned" => ScalarType::U32,
        "long" | "long int" | "long long" | "long long int" | "signed long" => ScalarType::I64,
        "unsigned long" | "unsigned long int" | "unsigned long long" | "unsigned long long int" => {
            ScalarType::U64
        }
        "float" => ScalarType::F32,
        "__half" | "half" => ScalarType::F16,
        "double" => ScalarType::F64,
        "char" | "signed char" => ScalarType::I8,
        "unsigned char" | "char8_t" => ScalarType::U8,
        "short" | "short int" | "signed short" => ScalarType::I16,
        "unsigned short" | "unsigned short int" | "char16_t" => ScalarType::U16,
        _ => match enum_underlying(name) {
            Some(t) => return Ok(Some(t)),
            None => return Err(format!("type `{name}` is not a scalar")),
        },
    }))
}

thread_local! {
    /// The enumeration types and scalar aliases of the translation unit being read, by
    /// unqualified name, with the integer or scalar type they stand for ([`set_enums`],
    /// [`add_alias`]).
    static ENUMS: std::cell::RefCell<std::collections::HashMap<String, ScalarType>> =
        std::cell::RefCell::default();
}

/// Records the enumeration types of the unit being translated: a value of enumeration type
/// is an integer of its underlying type.
pub fn set_enums(enums: std::collections::HashMap<String, ScalarType>) {
    ENUMS.with(|e| *e.borrow_mut() = enums);
}

fn enum_underlying(name: &str) -> Option<ScalarType> {
    let last = name.rsplit("::").next().unwrap_or(name);
    ENUMS.with(|e| e.borrow().get(last).copied())
}

/// Records a `typedef`/`using` alias of a scalar type (by unqualified name), for the places
/// clang spells a type by its alias without the desugared form (function return types).
pub fn add_alias(name: &str, target: &str) {
    if super::fn_pointers::is_fn_pointer(target) && !target.contains('[') {
        let last = name.rsplit("::").next().unwrap_or(name).to_string();
        ENUMS.with(|e| {
            e.borrow_mut().entry(last).or_insert(ScalarType::I32);
        });
        return;
    }
    if let Ok(Some(t)) = scalar(target.trim_start_matches("const ")) {
        let last = name.rsplit("::").next().unwrap_or(name).to_string();
        ENUMS.with(|e| {
            e.borrow_mut().entry(last).or_insert(t);
        });
    }
}

/// Writes every type spelled through a template's member typedef (`typename
/// vec4<float>::Type *`, a function type returning `typename X<T>::type`) in terms of what
/// the member stands for (`float4 *`), as its `desugaredQualType`. clang writes the
/// desugared form only where the member type stands alone; those pairs are read first.
pub fn desugar_members(root: &mut Node) {
    let mut pairs = std::collections::BTreeMap::new();
    collect_members(root, &mut pairs);
    if pairs.is_empty() {
        return;
    }
    let mut pairs: Vec<(String, String)> = pairs.into_iter().collect();
    pairs.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
    rewrite_members(root, &pairs);
}

fn member_sugar(s: &str) -> bool {
    s.contains(">::")
}

fn collect_members(n: &Node, pairs: &mut std::collections::BTreeMap<String, String>) {
    fn walk(v: &Value, pairs: &mut std::collections::BTreeMap<String, String>) {
        match v {
            Value::Object(m) => {
                let q = m.get("qualType").and_then(Value::as_str);
                let d = m.get("desugaredQualType").and_then(Value::as_str);
                if let (Some(q), Some(d)) = (q, d) {
                    if member_sugar(q) && !member_sugar(d) {
                        pairs.insert(q.to_string(), d.to_string());
                    }
                }
                m.values().for_each(|c| walk(c, pairs));
            }
            Value::Array(a) => a.iter().for_each(|c| walk(c, pairs)),
            _ => {}
        }
    }
    n.fields.values().for_each(|v| walk(v, pairs));
    n.inner.iter().for_each(|c| collect_members(c, pairs));
}

fn rewrite_members(n: &mut Node, pairs: &[(String, String)]) {
    fn walk(v: &mut Value, pairs: &[(String, String)]) {
        match v {
            Value::Object(m) => {
                let spelled = m
                    .get("desugaredQualType")
                    .or_else(|| m.get("qualType"))
                    .and_then(Value::as_str)
                    .filter(|s| member_sugar(s))
                    .map(str::to_string);
                if let Some(mut s) = spelled {
                    for (k, d) in pairs {
                        if s.contains(k.as_str()) {
                            s = s.replace(k.as_str(), d);
                        }
                    }
                    m.insert("desugaredQualType".into(), Value::String(s));
                }
                m.values_mut().for_each(|c| walk(c, pairs));
            }
            Value::Array(a) => a.iter_mut().for_each(|c| walk(c, pairs)),
            _ => {}
        }
    }
    n.fields.values_mut().for_each(|v| walk(v, pairs));
    n.inner.iter_mut().for_each(|c| rewrite_members(c, pairs));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Declared {
        declared(s, Span::DUMMY).unwrap()
    }

    fn typed(q: &str, d: Option<&str>, inner: Vec<Node>) -> Node {
        let mut ty = serde_json::Map::new();
        ty.insert("qualType".into(), Value::String(q.into()));
        if let Some(d) = d {
            ty.insert("desugaredQualType".into(), Value::String(d.into()));
        }
        let mut n = Node {
            kind: "ParmVarDecl".into(),
            inner,
            ..Node::default()
        };
        n.fields.insert("type".into(), Value::Object(ty));
        n
    }

    #[test]
    fn member_typedefs_are_spelled_by_what_they_stand_for() {
        let mut root = typed(
            "typename vec4<float>::Type",
            Some("float4"),
            vec![
                typed("typename vec4<float>::Type *", None, vec![]),
                typed("const typename vec3<float>::Type *", None, vec![]),
                typed("typename vec3<float>::Type", Some("float3"), vec![]),
                typed("float *", None, vec![]),
            ],
        );
        desugar_members(&mut root);
        let tys: Vec<&str> = root.inner.iter().filter_map(Node::ty).collect();
        assert_eq!(tys, ["float4 *", "const float3 *", "float3", "float *"]);
        assert_eq!(root.ty(), Some("float4"));
    }

    #[test]
    fn reads_clang_spellings() {
        let p = d("const float *__restrict");
        assert_eq!(p.ty.base, Some(ScalarType::F32));
        assert!(p.ty.ptr && p.ty.konst && !p.ty.volatile);
        let q = d("float *const");
        assert!(q.ty.ptr && !q.ty.konst);
        let a = d("float[32][33]");
        assert_eq!(a.dims, vec![Some(32), Some(33)]);
        assert!(!a.ty.ptr);
        assert_eq!(d("unsigned long").ty.base, Some(ScalarType::U64));
        assert!(d("volatile int *").ty.volatile);
        assert_eq!(d("int[]").dims, vec![None]);
        assert!(declared("float (*)[4]", Span::DUMMY).is_err());
        assert!(declared("int **", Span::DUMMY).is_err());
        assert_eq!(d("const unsigned char *").ty.base, Some(ScalarType::U8));
        assert_eq!(d("short[16]").ty.base, Some(ScalarType::I16));
        assert!(declared("float &", Span::DUMMY).is_err());
    }
}
