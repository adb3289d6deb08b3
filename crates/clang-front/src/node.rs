//! clang's JSON AST as a tree of [`Node`]s whose locations are resolved to byte spans in the
//! main file.
//!
//! clang writes a location's `file` only when it differs from the previously written one, so
//! the file of a location is known only by reading the dump in order; [`parse`] does that
//! once, and every node then carries its span in the main file (or none, for nodes written
//! in headers).

use serde_json::{Map, Value};
use warpsafe_ir::Span;

/// One AST node: its kind, its remaining JSON fields, its span in the main file (when it is
/// written there) and its children.
#[derive(Debug, Clone, Default)]
pub struct Node {
    /// `kind` (`FunctionDecl`, `BinaryOperator`, …); empty for the `{}` of an absent child.
    pub kind: String,
    /// The other scalar and object fields (`name`, `type`, `opcode`, `value`, …).
    pub fields: Map<String, Value>,
    /// Where the node is written, when that is in the main file.
    pub span: Option<Span>,
    /// The file of the node's location, as clang names it.
    pub file: String,
    /// `inner`, in order.
    pub inner: Vec<Node>,
}

impl Node {
    /// A string field.
    pub fn str(&self, key: &str) -> Option<&str> {
        self.fields.get(key).and_then(Value::as_str)
    }

    /// A boolean field (absent is false).
    pub fn flag(&self, key: &str) -> bool {
        self.fields
            .get(key)
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    /// The node's `id`.
    pub fn id(&self) -> &str {
        self.str("id").unwrap_or("")
    }

    /// The node's `name`.
    pub fn name(&self) -> Option<&str> {
        self.str("name")
    }

    /// The node's type, desugared (`size_t` is `unsigned long`).
    pub fn ty(&self) -> Option<&str> {
        let t = self.fields.get("type")?;
        t.get("desugaredQualType")
            .or_else(|| t.get("qualType"))
            .and_then(Value::as_str)
    }

    /// The type as written (`size_t`, `float4`).
    pub fn written_ty(&self) -> Option<&str> {
        self.fields
            .get("type")?
            .get("qualType")
            .and_then(Value::as_str)
    }

    /// The `referencedDecl` of a `DeclRefExpr`: its id, kind and name.
    pub fn referenced(&self) -> Option<(&str, &str, &str)> {
        let d = self.fields.get("referencedDecl")?;
        Some((
            d.get("id")?.as_str()?,
            d.get("kind")?.as_str()?,
            d.get("name").and_then(Value::as_str).unwrap_or(""),
        ))
    }

    /// True for the `{}` clang writes for an absent child (a `for` without a condition).
    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }
}

/// Parses clang's `-ast-dump=json` output; `main` is the main file's name as clang was given
/// it. The dump nests as deep as the source: call this on a thread with a large stack.
pub fn parse(json: &str, main: &str) -> Result<Node, String> {
    let mut de = serde_json::Deserializer::from_str(json);
    de.disable_recursion_limit();
    let value: Value = serde::de::Deserialize::deserialize(&mut de)
        .map_err(|e| format!("cannot read clang's AST dump: {e}"))?;
    let mut files = Files {
        main: main.to_string(),
        current: String::new(),
    };
    Ok(convert(value, &mut files, None))
}

struct Files {
    main: String,
    current: String,
}

impl Files {
    /// Reads one location object (`{offset, file?, tokLen, …}` or `{spellingLoc,
    /// expansionLoc}`), updating the current file; returns the (file, offset, length) of the
    /// expansion.
    fn loc(&mut self, loc: &Value) -> Option<(String, usize, usize)> {
        if let Some(s) = loc.get("spellingLoc") {
            self.loc(s);
        }
        if let Some(e) = loc.get("expansionLoc") {
            return self.loc(e);
        }
        if let Some(f) = loc.get("file").and_then(Value::as_str) {
            self.current = f.to_string();
        }
        let offset = loc.get("offset")?.as_u64()? as usize;
        let len = loc.get("tokLen").and_then(Value::as_u64).unwrap_or(0) as usize;
        Some((self.current.clone(), offset, len))
    }
}

fn convert(value: Value, files: &mut Files, parent_file: Option<&str>) -> Node {
    let Value::Object(map) = value else {
        return Node::default();
    };
    let mut node = Node {
        file: parent_file.unwrap_or_default().to_string(),
        ..Node::default()
    };
    let mut lo = None;
    let mut hi = None;
    for (key, v) in map {
        match key.as_str() {
            "kind" => node.kind = v.as_str().unwrap_or("").to_string(),
            "loc" => {
                if let Some((f, offset, len)) = files.loc(&v) {
                    node.file = f.clone();
                    if f == files.main {
                        lo.get_or_insert(offset);
                        hi.get_or_insert(offset + len);
                    }
                }
            }
            "range" => {
                let begin = v.get("begin").and_then(|b| files.loc(b));
                let end = v.get("end").and_then(|e| files.loc(e));
                if let (Some((fb, b, _)), Some((fe, e, len))) = (begin, end) {
                    if fb == files.main && fe == files.main && b <= e + len {
                        lo = Some(b);
                        hi = Some(e + len);
                    }
                }
            }
            "inner" => {
                if let Value::Array(children) = v {
                    let here = node.file.clone();
                    node.inner = children
                        .into_iter()
                        .map(|c| convert(c, files, Some(&here)))
                        .collect();
                }
            }
            _ => {
                track_files(&v, files);
                node.fields.insert(key, v);
            }
        }
    }
    if let (Some(lo), Some(hi)) = (lo, hi) {
        node.span = Some(Span::new(lo, hi));
    }
    node
}

/// Follows file changes in locations nested in other fields (a `referencedDecl`'s, a
/// template argument's), so that later locations resolve to the right file.
fn track_files(v: &Value, files: &mut Files) {
    match v {
        Value::Object(m) => {
            if m.contains_key("offset") {
                files.loc(v);
                return;
            }
            if m.contains_key("spellingLoc") || m.contains_key("expansionLoc") {
                files.loc(v);
                return;
            }
            for x in m.values() {
                track_files(x, files);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| track_files(x, files)),
        _ => {}
    }
}
