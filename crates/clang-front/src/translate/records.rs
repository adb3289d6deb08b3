//! Record declarations: their fields, constructors, member functions, static members and
//! nested records, collected once per translation unit, and the lookup of a record by the
//! type spelling clang writes (`const BlockSum<256>::TempStorage &`, `ns::Acc`).

use super::{aggregate::Fields, headers, is_system_header, types, Unit};
use crate::node::Node;
use warpsafe_cuda_front::ast::FnKind;

/// The key of a class-template specialisation as clang spells its type (`BlockSum<256>`,
/// `Pair<float, 3>`), or the plain name.
fn record_key(n: &Node, name: &str) -> String {
    let args: Vec<String> = n
        .inner
        .iter()
        .filter(|c| c.kind == "TemplateArgument")
        .map(|a| {
            a.fields
                .get("value")
                .map(|v| v.to_string().trim_matches('"').to_string())
                .or_else(|| {
                    a.fields
                        .get("type")
                        .and_then(|t| t.get("qualType"))
                        .and_then(|t| t.as_str())
                        .map(str::to_string)
                })
                .unwrap_or_default()
        })
        .collect();
    if n.kind == "ClassTemplateSpecializationDecl" && !args.is_empty() {
        format!("{name}<{}>", args.join(", "))
    } else {
        name.to_string()
    }
}

/// The name of the `i`-th field: its own, or `__capI` for a lambda's unnamed captures.
fn field_name(f: &Node, i: usize) -> String {
    match f.name() {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => format!("__cap{i}"),
    }
}

/// The key of the unnamed record `rec` declared in `outer`: clang's spelling of the type of
/// the field that follows it (`(unnamed struct at k.cu:5:3)`), `None` for a named record or
/// one no field uses.
fn unnamed_field_key(outer: &Node, rec: &Node) -> Option<String> {
    if rec.name().is_some_and(|n| !n.is_empty()) {
        return None;
    }
    let at = outer.inner.iter().position(|c| std::ptr::eq(c, rec))?;
    let field = outer.inner[at + 1..]
        .iter()
        .find(|c| c.kind == "FieldDecl")?
        .ty()?;
    unnamed_key(field)
}

/// `(unnamed struct at k.cu:5:3)` from a spelling of an unnamed record's type (`struct
/// (unnamed struct at k.cu:5:3)`, `S::(unnamed struct at k.cu:5:3)`, `const …`).
fn unnamed_key(ty: &str) -> Option<String> {
    let i = ty.find("(unnamed ").or_else(|| ty.find("(anonymous "))?;
    let rest = ty[i..].trim_end();
    let rest = rest.strip_suffix(" const").unwrap_or(rest);
    (rest.ends_with(')') && rest.matches('(').count() == 1).then(|| rest.to_string())
}

/// `s` without its leading top-level `A::` qualifier (not one inside template arguments).
fn drop_qualifier(s: &str) -> Option<&str> {
    let mut depth = 0i32;
    let b = s.as_bytes();
    for i in 0..b.len() {
        match b[i] {
            b'<' | b'(' => depth += 1,
            b'>' | b')' => depth -= 1,
            b':' if depth == 0 && b.get(i + 1) == Some(&b':') => return Some(&s[i + 2..]),
            _ => {}
        }
    }
    None
}

impl<'a> Unit<'a> {
    /// Records `n` (a complete struct, class or specialisation) and everything declared in
    /// it; `outer` is the key of the record it is nested in. Static member functions are
    /// helpers like free functions (pushed on `found`).
    pub(super) fn collect_record(
        &mut self,
        n: &'a Node,
        outer: Option<&str>,
        found: &mut Vec<(&'a Node, FnKind, Option<String>)>,
    ) {
        let name = n.name().unwrap_or("").to_string();
        self.collect_record_as(n, &name, outer, found);
    }

    /// The records a function body declares (`union { float4 v; float a[4]; } u;`): each
    /// under its name, or an unnamed one under clang's spelling of the type of the variable
    /// it declares. A name another record has too names neither (a use is rejected rather
    /// than read with the other record's fields).
    pub(super) fn collect_local_records(
        &mut self,
        n: &'a Node,
        found: &mut Vec<(&'a Node, FnKind, Option<String>)>,
    ) {
        for (i, c) in n.inner.iter().enumerate() {
            let record = matches!(c.kind.as_str(), "CXXRecordDecl" | "RecordDecl")
                && c.flag("completeDefinition")
                && !c.flag("isImplicit");
            if !record {
                if c.kind != "LambdaExpr" {
                    self.collect_local_records(c, found);
                }
                continue;
            }
            let key = match c.name().filter(|n| !n.is_empty()) {
                Some(name) => Some(name.to_string()),
                None => n.inner[i + 1..]
                    .iter()
                    .find(|v| v.kind == "VarDecl")
                    .and_then(|v| v.ty())
                    .and_then(unnamed_key),
            };
            let Some(key) = key else { continue };
            if self
                .record_decls
                .get(&key)
                .is_some_and(|d| d.id() != c.id())
            {
                self.records.remove(&key);
                self.record_decls.remove(&key);
                self.ambiguous_records.insert(key);
                continue;
            }
            self.local_records.insert(key.clone());
            self.collect_record_as(c, &key, None, found);
        }
    }

    /// [`Unit::collect_record`] under the name `name`: a record's own, or the typedef name of
    /// an unnamed one (`typedef struct { short x, y; } pair_t;`).
    pub(super) fn collect_record_as(
        &mut self,
        n: &'a Node,
        name: &str,
        outer: Option<&str>,
        found: &mut Vec<(&'a Node, FnKind, Option<String>)>,
    ) {
        let name = name.to_string();
        for m in n.inner.iter().filter(|c| c.kind == "CXXConversionDecl") {
            self.conversions.insert(m.id().to_string(), m);
        }
        let user = !headers::is_ours(&n.file) && !is_system_header(&n.file);
        // A derived record's fields: its bases' (a prefix, in order), then its own.
        let mut fields: Fields = self.base_fields(n);
        fields.extend(
            n.inner
                .iter()
                .filter(|c| c.kind == "FieldDecl")
                .enumerate()
                .filter_map(|(i, c)| Some((field_name(c, i), c.ty()?.to_string()))),
        );
        let key = match outer {
            Some(o) => format!("{o}::{}", record_key(n, &name)),
            None => record_key(n, &name),
        };
        let clash = |u: &Self, k: &str| {
            u.local_records.contains(k) && u.record_decls.get(k).is_some_and(|d| d.id() != n.id())
        };
        if clash(self, &key) || clash(self, &name) {
            for k in [&key, &name] {
                self.records.remove(k);
                self.record_decls.remove(k);
                self.ambiguous_records.insert(k.clone());
            }
        }
        let ambiguous = self.ambiguous_records.contains(&key);
        if !ambiguous && !name.is_empty() && (!fields.is_empty() || user) {
            self.records.entry(key.clone()).or_insert(fields.clone());
            self.records.entry(name.clone()).or_insert(fields);
            self.record_decls.entry(key.clone()).or_insert(n);
            self.record_decls.entry(name).or_insert(n);
        }
        for c in &n.inner {
            match c.kind.as_str() {
                "CXXMethodDecl" | "CXXConstructorDecl" => {
                    if !c.inner.iter().any(|b| b.kind == "CompoundStmt") {
                        continue;
                    }
                    self.methods.entry(c.id().to_string()).or_insert(c);
                    let device = c.inner.iter().any(|a| a.kind == "CUDADeviceAttr");
                    if c.kind == "CXXMethodDecl"
                        && c.str("storageClass") == Some("static")
                        && device
                        && user
                    {
                        found.push((c, FnKind::Device, None));
                    }
                }
                "CXXRecordDecl" | "ClassTemplateSpecializationDecl"
                    if c.flag("completeDefinition") && !c.flag("isImplicit") =>
                {
                    match unnamed_field_key(n, c) {
                        // `struct S { struct { int *p; } s; }`: keyed by clang's spelling.
                        Some(k) => self.collect_record_as(c, &k, None, found),
                        None => self.collect_record(c, Some(&key), found),
                    }
                }
                "ClassTemplateDecl" => {
                    for s in c
                        .inner
                        .iter()
                        .filter(|s| s.kind == "ClassTemplateSpecializationDecl")
                    {
                        self.collect_record(s, Some(&key), found);
                    }
                }
                "EnumDecl" => self.walk(c, found, None),
                "VarDecl" if c.str("storageClass") == Some("static") => {
                    self.static_vars.insert(c.id().to_string(), c);
                }
                _ => {}
            }
        }
    }

    /// The fields of the non-virtual bases of record `n`, in order (`struct t : s {}` has
    /// `s`'s fields).
    fn base_fields(&self, n: &Node) -> Fields {
        let Some(bases) = n.fields.get("bases").and_then(|b| b.as_array()) else {
            return vec![];
        };
        let mut out = vec![];
        for b in bases {
            if b.get("isVirtual").and_then(|v| v.as_bool()) == Some(true) {
                continue;
            }
            let ty = b
                .get("type")
                .and_then(|t| t.get("desugaredQualType").or_else(|| t.get("qualType")))
                .and_then(|t| t.as_str())
                .unwrap_or("");
            if let Some(f) = self.record(ty) {
                out.extend(f.iter().cloned());
            }
        }
        out
    }

    /// Every lambda of the unit: its closure type as a record whose fields are the captures
    /// (`__cap0`, …), its call operator as a member function, and which declaration each
    /// capture copies or refers to.
    pub(super) fn collect_lambdas(&mut self, n: &'a Node) {
        if n.kind == "LambdaExpr" {
            if let (Some(ty), Some(closure)) =
                (n.ty(), n.inner.iter().find(|c| c.kind == "CXXRecordDecl"))
            {
                let fields: Fields = closure
                    .inner
                    .iter()
                    .filter(|c| c.kind == "FieldDecl")
                    .enumerate()
                    .filter_map(|(i, c)| Some((field_name(c, i), c.ty()?.to_string())))
                    .collect();
                let inits: Vec<&Node> = n
                    .inner
                    .iter()
                    .filter(|c| c.kind != "CXXRecordDecl" && c.kind != "CompoundStmt")
                    .collect();
                let captured = inits
                    .iter()
                    .map(|e| {
                        super::expr::strip_implicit(e)
                            .referenced()
                            .map(|(id, _, _)| id.to_string())
                    })
                    .collect();
                for m in closure.inner.iter().filter(|c| c.kind == "CXXMethodDecl") {
                    self.methods.insert(m.id().to_string(), m);
                }
                self.records.insert(ty.to_string(), fields);
                self.record_decls.insert(ty.to_string(), closure);
                self.captures.insert(ty.to_string(), captured);
            }
        }
        for c in &n.inner {
            self.collect_lambdas(c);
        }
    }

    /// The ids of every file- and namespace-scope variable (never renamed when inlined).
    pub(super) fn collect_file_vars(&self, n: &Node) {
        match n.kind.as_str() {
            "TranslationUnitDecl" | "NamespaceDecl" | "LinkageSpecDecl" => {
                for c in &n.inner {
                    self.collect_file_vars(c);
                }
            }
            "VarDecl" => {
                self.inl.file_vars.borrow_mut().insert(n.id().to_string());
            }
            _ => {}
        }
    }

    /// The key under which the record type `ty` is known (through `const`, references,
    /// `struct`, namespaces and enclosing classes), when it is a record.
    pub fn record_key_of(&self, ty: &str) -> Option<String> {
        let mut t = ty.trim();
        if let Some(r) = t.strip_suffix("&&") {
            t = r.trim_end();
        } else if let Some(r) = t.strip_suffix('&') {
            t = r.trim_end();
        }
        loop {
            let before = t;
            for q in ["const ", "volatile ", "struct ", "class ", "union "] {
                if let Some(r) = t.strip_prefix(q) {
                    t = r.trim_start();
                }
            }
            if let Some(r) = t.strip_suffix(" const") {
                t = r.trim_end();
            }
            if t == before {
                break;
            }
        }
        if t.starts_with('(') && t.contains("lambda at") {
            return self.records.contains_key(t).then(|| t.to_string());
        }
        if let Some(k) = unnamed_key(t).filter(|k| self.records.contains_key(k)) {
            return Some(k);
        }
        if t.contains('*') || t.contains('[') || t.contains('(') {
            return None;
        }
        if matches!(types::scalar(t), Ok(Some(_))) {
            // `__half` is a class in the headers and a scalar here.
            return None;
        }
        let mut cur = t;
        loop {
            if self.records.contains_key(cur) {
                return Some(cur.to_string());
            }
            if let Some(k) = self.with_defaulted_arguments(cur) {
                return Some(k);
            }
            cur = drop_qualifier(cur)?;
        }
    }

    /// The one specialisation key that extends `ty` (`fragment<accumulator, 16, 16, 16,
    /// float>`, as clang prints a type whose trailing template arguments are defaulted) with
    /// more arguments (`…, float, void>`); `None` when there is none or more than one.
    fn with_defaulted_arguments(&self, ty: &str) -> Option<String> {
        let stem = ty.strip_suffix('>')?;
        let prefix = format!("{stem}, ");
        let mut found = self.records.keys().filter(|k| {
            k.strip_prefix(prefix.as_str())
                .is_some_and(|rest| rest.ends_with('>') && !rest.contains('<'))
        });
        let first = found.next()?;
        found.next().is_none().then(|| first.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::drop_qualifier;

    #[test]
    fn qualifiers_are_dropped_outside_template_arguments() {
        assert_eq!(drop_qualifier("ns::Acc"), Some("Acc"));
        assert_eq!(
            drop_qualifier("BlockSum<256>::TempStorage"),
            Some("TempStorage")
        );
        assert_eq!(drop_qualifier("Vec<ns::T>"), None);
    }
}
