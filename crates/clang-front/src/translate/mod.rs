//! clang's typed AST → the subset syntax tree (`warpsafe_cuda_front::ast`), which the subset
//! frontend's lowering turns into IR: one lowering, two parsers.
//!
//! clang has done the C++: macros, includes, overloads, templates (we read the
//! instantiations), `auto`, default arguments, enumerators, `constexpr` values. What is left
//! is C, which this module writes in the subset's terms, naming every function uniquely
//! (overloads and template instances get distinct names).

pub mod aggregate;
mod asm;
mod expr;
pub mod fn_pointers;
pub mod globals;
mod goto;
mod groups;
pub mod host_values;
mod inline;
mod intrinsics;
pub mod launch_facts;
pub mod launches;
mod layout;
mod memops;
mod param_arrays;
mod place;
mod printf;
mod records;
mod reinterpret;
mod stmt;
mod switch;
pub mod texture;
pub mod types;
mod vector_math;

/// The error for an expression clang could not type (its `RecoveryExpr`).
pub const UNTYPED: &str = "clang could not type this expression";

use crate::headers;
use crate::node::Node;
use std::collections::{HashMap, HashSet};
use warpsafe_cuda_front::ast::{self, FnKind, Item};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::Span;

/// A user function found in the dump (kernel or device helper).
pub struct FoundFn<'a> {
    /// Its declaration (with a body).
    pub node: &'a Node,
    /// Kernel or helper.
    pub kind: FnKind,
    /// Its unique name.
    pub name: String,
}

/// Everything the translation of one file knows: its functions, enumerators and constants.
pub struct Unit<'a> {
    /// User functions with bodies, in source order.
    pub functions: Vec<FoundFn<'a>>,
    /// Function declaration id → the unique name calls use (builtins keep their name).
    pub callee: HashMap<String, Callee<'a>>,
    /// Enumerator id → its value.
    pub enumerators: HashMap<String, i128>,
    /// File-scope constants (`constexpr int TILE = 32;`), as subset declarations.
    pub constants: Vec<Item>,
    /// The length of the main file (spans are clamped into it).
    pub source_len: usize,
    /// Enumeration types by name, with their underlying integer types.
    pub enum_types: HashMap<String, warpsafe_ir::ScalarType>,
    /// `__constant__` and `__device__` arrays, which kernels get as buffers.
    pub globals: Vec<globals::GlobalArray>,
    /// Counter for names the translation makes up (`__switch0`).
    names: std::cell::Cell<u32>,
    /// Record types (structs, vector types) by name, with their fields.
    pub records: HashMap<String, aggregate::Fields>,
    /// Conversion operators of records, by id (the CUDA samples' `SharedMemory<T>`).
    pub conversions: HashMap<String, &'a Node>,
    /// Pointer-to-record parameters read as scalar buffers: (function, parameter, scalars
    /// per record), so that header lengths (in records) can be scaled to scalars.
    pub record_params: std::cell::RefCell<Vec<(String, String, u64)>>,
    /// Record declarations by key (as [`Unit::records`]), for their constructors, methods
    /// and default member initialisers.
    pub record_decls: HashMap<String, &'a Node>,
    /// Names of records a function body defines, and names two different records define
    /// (a function's own `struct Pair` beside the file's): the latter name no record, so a
    /// use is rejected rather than read with the other record's fields.
    pub local_records: HashSet<String>,
    /// File-scope variables seen by the walk, read once the type aliases and function-pointer
    /// tables are known.
    file_vars: Vec<&'a Node>,
    /// See [`Unit::local_records`].
    pub ambiguous_records: HashSet<String>,
    /// Member functions and constructors with bodies, by declaration id (an out-of-line
    /// definition also under its in-class declaration's id).
    pub methods: HashMap<String, &'a Node>,
    /// Static data members (`static constexpr int WARPS = …`), by declaration id.
    pub static_vars: HashMap<String, &'a Node>,
    /// Lambdas: closure type spelling → the captured declarations' ids, one per field.
    pub captures: HashMap<String, Vec<Option<String>>>,
    /// The state of member-function inlining (frames, hoisted statements).
    inl: inline::State,
    /// Textures and surfaces: the header's extents and modes, host code's settings.
    pub textures: texture::Textures,
    /// Device functions whose address is taken, and function-pointer tables.
    pub fn_pointers: fn_pointers::FnPointers<'a>,
    /// The main file's text (inline `asm` statements are read from it).
    pub source: String,
    /// The file's own `__device__` functions declared without a body, by declaration id.
    pub prototypes: HashMap<String, &'a Node>,
    /// Local pointers that read memory of one scalar type as another (`reinterpret`).
    views: reinterpret::Views,
    /// What the translation leaves unchecked (a `printf`'s output), one line per place.
    pub notes: std::cell::RefCell<Vec<(Span, String)>>,
    /// The file is in GPUVerify's test form ([`crate::driver::gpuverify_form`]): its
    /// dialect's file-scope variables with no memory space are the device's.
    pub gpuverify: bool,
    /// Array-of-pointer fields of kernels' by-value parameters, by the name the translation
    /// gives the field, with their element counts ([`param_arrays`]).
    pointer_arrays: std::cell::RefCell<HashMap<String, u64>>,
    /// File-scope `__shared__` variables of the user's file, declared again at the start of
    /// each kernel that (or whose helpers) name them.
    file_shared: Vec<&'a Node>,
}

/// What a call names.
#[derive(Clone)]
pub enum Callee<'a> {
    /// A CUDA builtin declared in our headers (`__syncthreads`, `atomicAdd`, `sqrtf`).
    Builtin(String),
    /// A user function, by unique name, with its declaration (for default arguments).
    User(String, &'a Node),
}

impl<'a> Unit<'a> {
    /// Collects the functions, enumerators and constants of the translation unit `root`.
    pub fn collect(root: &'a Node, source_len: usize, gpuverify: bool) -> Unit<'a> {
        let mut unit = Unit {
            functions: vec![],
            callee: HashMap::new(),
            enumerators: HashMap::new(),
            constants: vec![],
            source_len,
            enum_types: HashMap::new(),
            globals: vec![],
            names: std::cell::Cell::new(0),
            records: HashMap::new(),
            conversions: HashMap::new(),
            record_params: std::cell::RefCell::default(),
            record_decls: HashMap::new(),
            local_records: HashSet::new(),
            file_vars: vec![],
            ambiguous_records: HashSet::new(),
            methods: HashMap::new(),
            static_vars: HashMap::new(),
            captures: HashMap::new(),
            inl: inline::State::default(),
            textures: texture::Textures::default(),
            fn_pointers: fn_pointers::FnPointers::default(),
            source: String::new(),
            prototypes: HashMap::new(),
            views: reinterpret::Views::default(),
            notes: std::cell::RefCell::default(),
            gpuverify,
            pointer_arrays: std::cell::RefCell::default(),
            file_shared: vec![],
        };
        let mut found = vec![];
        unit.walk(root, &mut found, None);
        unit.collect_lambdas(root);
        unit.collect_file_vars(root);
        types::set_enums(unit.enum_types.clone());
        add_aliases(root);
        unit.add_record_aliases(root);
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for (n, _, _) in &found {
            *counts.entry(n.name().unwrap_or("")).or_default() += 1;
        }
        let mut used: HashMap<String, usize> = HashMap::new();
        for (node, kind, targs) in found {
            let base = node.name().unwrap_or("anonymous").to_string();
            let mut name = if counts[base.as_str()] == 1 {
                base.clone()
            } else if let Some(t) = targs {
                format!("{base}_{t}")
            } else {
                base.clone()
            };
            let seen = used.entry(name.clone()).or_default();
            *seen += 1;
            if *seen > 1 {
                name = format!("{name}_{seen}");
            }
            unit.callee
                .insert(node.id().to_string(), Callee::User(name.clone(), node));
            if let Some(prev) = node.str("previousDecl") {
                unit.callee
                    .insert(prev.to_string(), Callee::User(name.clone(), node));
            }
            unit.functions.push(FoundFn { node, kind, name });
        }
        unit.collect_fn_pointers(root);
        // After the aliases and the function-pointer tables are known.
        for n in std::mem::take(&mut unit.file_vars) {
            unit.file_var(n);
        }
        unit
    }

    fn walk(
        &mut self,
        n: &'a Node,
        found: &mut Vec<(&'a Node, FnKind, Option<String>)>,
        targs: Option<String>,
    ) {
        match n.kind.as_str() {
            "TranslationUnitDecl" | "NamespaceDecl" | "LinkageSpecDecl" => {
                for (i, c) in n.inner.iter().enumerate() {
                    match typedef_of_unnamed(c, n.inner.get(i + 1)) {
                        // `typedef struct { short x, y; } pair_t;`: the record is `pair_t`.
                        Some(name) => self.collect_record_as(c, name, None, found),
                        None => self.walk(c, found, None),
                    }
                }
            }
            "FunctionTemplateDecl" => {
                for c in &n.inner {
                    if c.kind == "FunctionDecl" {
                        let args = template_args(c);
                        if args.is_some() {
                            self.walk(c, found, args);
                        }
                    }
                }
            }
            "FunctionDecl" => {
                let name = n.name().unwrap_or("").to_string();
                let attr = |k: &str| n.inner.iter().any(|c| c.kind == k);
                let has_body = n.inner.iter().any(|c| c.kind == "CompoundStmt");
                // Our headers' functions are builtins by name, except those with statements
                // in their body (`wmma::mma_sync`): written in CUDA, inlined like the user's
                // helpers. An empty body (`constexpr void assert(bool) {}`) is a builtin's.
                let modelled_in_header = headers::is_ours(&n.file)
                    && attr("CUDADeviceAttr")
                    && n.inner
                        .iter()
                        .any(|c| c.kind == "CompoundStmt" && !c.inner.is_empty());
                if !modelled_in_header && (headers::is_ours(&n.file) || is_system_header(&n.file)) {
                    // Ours, or the C++ library's (`std::max`, `std::abs`): by name, as the
                    // CUDA builtins they stand for.
                    self.callee
                        .entry(n.id().to_string())
                        .or_insert(Callee::Builtin(name));
                    return;
                }
                let kind = if attr("CUDAGlobalAttr") {
                    FnKind::Kernel
                } else if attr("CUDADeviceAttr") {
                    FnKind::Device
                } else {
                    return;
                };
                if has_body {
                    if let Some(body) = n.inner.iter().find(|c| c.kind == "CompoundStmt") {
                        self.collect_local_records(body, found);
                    }
                    self.collect_object_extents(n);
                    found.push((n, kind, targs));
                } else if !self.callee.contains_key(n.id()) {
                    // A prototype: the definition (later) names it as `previousDecl`.
                    self.callee
                        .insert(n.id().to_string(), Callee::Builtin(name));
                    self.prototypes.insert(n.id().to_string(), n);
                }
            }
            "ClassTemplateDecl" => {
                for c in n
                    .inner
                    .iter()
                    .filter(|c| c.kind == "ClassTemplateSpecializationDecl")
                {
                    self.walk(c, found, None);
                }
            }
            "CXXRecordDecl" | "ClassTemplateSpecializationDecl" | "RecordDecl"
                if n.flag("completeDefinition") =>
            {
                self.collect_record(n, None, found);
            }
            "CXXMethodDecl" | "CXXConstructorDecl"
                if n.inner.iter().any(|c| c.kind == "CompoundStmt") =>
            {
                // An out-of-line member definition: calls name the in-class declaration.
                self.methods.insert(n.id().to_string(), n);
                if let Some(prev) = n.str("previousDecl") {
                    self.methods.insert(prev.to_string(), n);
                }
            }
            "EnumDecl" => {
                let underlying = n
                    .fields
                    .get("fixedUnderlyingType")
                    .and_then(|t| t.get("desugaredQualType").or_else(|| t.get("qualType")))
                    .and_then(|t| t.as_str())
                    .and_then(|t| types::scalar(t).ok().flatten())
                    .unwrap_or(warpsafe_ir::ScalarType::I32);
                if let Some(name) = n.name() {
                    self.enum_types.insert(name.to_string(), underlying);
                }
                let mut next = Some(0i128);
                for c in n.inner.iter().filter(|c| c.kind == "EnumConstantDecl") {
                    // No initialiser: one past the previous. An initialiser clang did not
                    // evaluate (in a template not instantiated) leaves this enumerator and the
                    // ones after it without a value, so a use is an error, not a guess.
                    let v = match c.inner.first() {
                        Some(init) => enumerator_value(init),
                        None => next,
                    };
                    if let Some(v) = v {
                        self.enumerators.insert(c.id().to_string(), v);
                    }
                    next = v.map(|v| v + 1);
                }
            }
            "VarDecl" if !headers::is_ours(&n.file) && !is_system_header(&n.file) => {
                // Read once every type alias is known (`__constant__ uint t[4][256]`).
                self.file_vars.push(n);
            }
            _ => {}
        }
    }

    /// A file-scope scalar constant with an initialiser, as a subset declaration.
    fn constant(&self, n: &Node) -> Option<Item> {
        let ty = n.ty()?;
        if !(n.flag("constexpr") || ty.starts_with("const ")) {
            return None;
        }
        let span = self.span(n, Span::DUMMY);
        let declared = types::declared(ty, span).ok()?;
        if declared.ty.ptr || !declared.dims.is_empty() {
            return None;
        }
        let init = n.inner.iter().find(|c| expr::is_expr(c))?;
        let init = self.expr(init, span).ok()?;
        Some(Item::Const(ast::Decl {
            storage: ast::Storage {
                konst: true,
                ..Default::default()
            },
            base: declared.ty,
            declarators: vec![ast::Declarator {
                name: n.name()?.to_string(),
                name_span: span,
                ptr: false,
                dims: vec![],
                init: Some(ast::Init::Expr(init)),
                span,
            }],
        }))
    }

    /// A file-scope variable: a global array or record (a buffer of the kernels using it), a
    /// texture reference with its extents, or a constant.
    fn file_var(&mut self, n: &'a Node) {
        if n.inner.iter().any(|c| c.kind == "CUDASharedAttr") {
            self.file_shared.push(n);
            return;
        }
        if let Some(g) = self.global_array(n) {
            if g.extent.is_none() {
                // A texture reference: its extents, for fetches no header sizes.
                self.globals.extend(globals::texture_extents(&g));
            }
            self.globals.push(g);
        } else if let Some(item) = self.constant(n) {
            self.constants.push(item);
        }
    }

    /// `typedef struct __half2 half2;`: the alias names the record too.
    fn add_record_aliases(&mut self, n: &Node) {
        match n.kind.as_str() {
            "TranslationUnitDecl" | "NamespaceDecl" | "LinkageSpecDecl" => {
                for c in &n.inner {
                    self.add_record_aliases(c);
                }
            }
            "TypedefDecl" | "TypeAliasDecl" => {
                if let (Some(name), Some(ty)) = (n.name(), n.ty()) {
                    if let Some(fields) = self.record(ty).cloned() {
                        self.records.entry(name.to_string()).or_insert(fields);
                        let decl = self
                            .record_key_of(ty)
                            .and_then(|k| self.record_decls.get(&k).copied());
                        if let Some(d) = decl {
                            self.record_decls.entry(name.to_string()).or_insert(d);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// The parameters of a record `name` passed by value: one per scalar or pointer field,
    /// nested records flattened (`depth` bounds the recursion). A kernel's (`prologue` given)
    /// may hold arrays: one parameter per element, and for scalars the statements that
    /// gather them into the local array the body reads ([`param_arrays`]).
    fn record_param(
        &self,
        name: &str,
        fields: &aggregate::Fields,
        pspan: Span,
        params: &mut Vec<ast::ParamDecl>,
        mut prologue: Option<&mut Vec<ast::Stmt>>,
        depth: u32,
    ) -> Result<(), FrontError> {
        for (f, fty) in fields {
            let local = aggregate::field_local(name, f);
            if let Some(inner) = self.record(fty).filter(|_| depth < 8).cloned() {
                let nested = prologue.as_deref_mut();
                self.record_param(&local, &inner, pspan, params, nested, depth + 1)?;
                continue;
            }
            if let Some(prologue) = prologue.as_deref_mut() {
                if self.array_field_param(&local, fty, pspan, params, prologue)? {
                    continue;
                }
            }
            let fty = types::scalar_or_pointer(fty, pspan).map_err(|e| {
                FrontError::new(
                    pspan,
                    format!("unsupported parameter type: field `{f}`: {e}"),
                )
            })?;
            params.push(ast::ParamDecl {
                name: local,
                ty: fty,
                span: pspan,
                constant: false,
            });
        }
        Ok(())
    }

    /// A number not used before in this unit, for made-up names.
    pub fn fresh(&self) -> u32 {
        let n = self.names.get();
        self.names.set(n + 1);
        n
    }

    /// Records `what` the translation leaves unchecked at `span` (once per place).
    pub fn note(&self, span: Span, what: String) {
        let mut notes = self.notes.borrow_mut();
        if !notes.iter().any(|(s, w)| *s == span && *w == what) {
            notes.push((span, what));
        }
    }

    /// True when the kernel `f` never names its pointer parameter `p` of type `ty` (a
    /// `char **argv` kept for a signature): it is then a 64-bit value nothing reads, which a
    /// note records.
    fn unused_pointer(&self, f: &Node, p: &Node, ty: &str, span: Span) -> bool {
        let body = f.inner.iter().find(|c| c.kind == "CompoundStmt");
        let unused = ty.contains('*')
            && !ty.contains('(')
            && body.is_some_and(|b| !fn_pointers::refers_to(b, p.id(), 0));
        if unused {
            let name = p.name().unwrap_or("");
            self.note(
                span,
                format!(
                    "parameter `{name}` (`{ty}`) is never used: passed as an opaque 64-bit value"
                ),
            );
        }
        unused
    }

    /// `n`'s span in the main file, or `outer` when it is written elsewhere.
    pub fn span(&self, n: &Node, outer: Span) -> Span {
        match n.span {
            Some(s) if (s.hi as usize) <= self.source_len => s,
            _ => outer,
        }
    }

    /// The subset function for `f`, or the first construct we cannot translate.
    pub fn function(&self, f: &FoundFn) -> Result<ast::Function, FrontError> {
        let n = f.node;
        let span = self.span(n, Span::DUMMY);
        let ret_spelling = n
            .ty()
            .and_then(|t| t.split_once('(').map(|(r, _)| r.trim().to_string()))
            .unwrap_or_else(|| "void".into());
        let ret = types::scalar_or_pointer(&ret_spelling, span)
            .map_err(|e| FrontError::new(span, format!("unsupported return type: {e}")))?;
        let mut params = vec![];
        let mut prologue = vec![];
        if f.kind == FnKind::Kernel {
            for v in &self.file_shared {
                if self.functions.iter().any(|g| {
                    (g.kind == FnKind::Device || g.node.id() == n.id())
                        && names_decl(g.node, v.id())
                }) {
                    prologue.push(self.file_shared_decl(v, span)?);
                }
            }
        }
        for (i, p) in n
            .inner
            .iter()
            .filter(|c| c.kind == "ParmVarDecl")
            .enumerate()
        {
            let pspan = self.span(p, span);
            let ty = p.ty().unwrap_or("int");
            if f.kind == FnKind::Kernel && self.fn_pointers.resolve(ty).is_some() {
                // The number of a device function the host passes (`fn_pointers.rs`); its
                // candidates become the kernel's precondition.
                let name = p.name().filter(|n| !n.is_empty());
                let name = name.map_or_else(|| format!("__unnamed{i}"), str::to_string);
                if let Some(e) = self.kernel_fn_param_error(&f.name, &name, ty, pspan) {
                    return Err(e);
                }
            }
            if groups::group_of(ty).ok().flatten().is_some() || texture::is_reference_param(p) {
                // A cooperative-groups handle, or a texture reference (the file-scope one its
                // callers pass): callers pass nothing (see `Unit::call`).
                continue;
            }
            if let Some(texels) = self.texture_param(f, p, pspan)? {
                params.push(texels);
                continue;
            }
            if let Some(fields) = self.record(ty).cloned() {
                // A record passed by value: one parameter per leaf field (`A.s.p` is
                // `A__s__p`).
                if let Some(key) = self.record_key_of(ty) {
                    self.reject_union_value(&key, pspan)?;
                }
                let prologue = (f.kind == FnKind::Kernel).then_some(&mut prologue);
                let name = p.name().unwrap_or("");
                self.record_param(name, &fields, pspan, &mut params, prologue, 0)?;
                continue;
            }
            if let Some((ty, stride)) = self.record_pointer(ty, pspan)? {
                let name = p.name().unwrap_or("").to_string();
                self.record_params
                    .borrow_mut()
                    .push((f.name.clone(), name.clone(), stride));
                params.push(ast::ParamDecl {
                    name,
                    ty,
                    span: pspan,
                    constant: false,
                });
                continue;
            }
            let (ty, is_ref) = types::strip_reference(ty);
            let mut ty = match types::scalar_or_pointer(ty, pspan) {
                Ok(t) => t,
                Err(_) if f.kind == FnKind::Kernel && self.unused_pointer(n, p, ty, pspan) => {
                    types::scalar_or_pointer("unsigned long long", pspan)
                        .map_err(|e| FrontError::new(pspan, e))?
                }
                Err(e) => {
                    return Err(FrontError::new(
                        pspan,
                        format!("unsupported parameter type: {e}"),
                    ))
                }
            };
            if is_ref {
                if ty.ptr {
                    return Err(FrontError::new(
                        pspan,
                        "unsupported parameter type: reference to a pointer",
                    ));
                }
                // An lvalue reference is a pointer the callee reads and writes through;
                // callers pass the address (`Unit::call`).
                ty.ptr = true;
            }
            let name = match p.name() {
                Some(n) if !n.is_empty() => n.to_string(),
                _ => format!("__unnamed{i}"),
            };
            params.push(ast::ParamDecl {
                name,
                ty,
                span: pspan,
                constant: false,
            });
        }
        let body = n
            .inner
            .iter()
            .find(|c| c.kind == "CompoundStmt")
            .ok_or_else(|| FrontError::new(span, "function without a body"))?;
        let body = match self.stmt(body, span)?.kind {
            ast::StmtKind::Block(b) => b,
            other => vec![ast::Stmt { kind: other, span }],
        };
        prologue.extend(body);
        let body = prologue;
        Ok(ast::Function {
            kind: f.kind,
            name: f.name.clone(),
            name_span: n.fields.get("loc").map(|_| span).unwrap_or(span),
            ret,
            params,
            body,
            span,
        })
    }
}

/// The value clang computed for an enumerator's initialiser (`value` on its `ConstantExpr`,
/// under the implicit cast to the enum's underlying type).
fn enumerator_value(init: &Node) -> Option<i128> {
    let mut n = init;
    loop {
        if let Some(v) = n.str("value") {
            return v.parse().ok();
        }
        match (n.kind.as_str(), n.inner.first()) {
            ("ImplicitCastExpr" | "ConstantExpr" | "ParenExpr", Some(c)) => n = c,
            _ => return None,
        }
    }
}

/// The typedef name `next` gives the unnamed complete record `n` (`typedef struct { … }
/// pair_t;`), if it does.
fn typedef_of_unnamed<'n>(n: &Node, next: Option<&'n Node>) -> Option<&'n str> {
    if !matches!(n.kind.as_str(), "CXXRecordDecl" | "RecordDecl")
        || !n.flag("completeDefinition")
        || n.name().is_some_and(|s| !s.is_empty())
    {
        return None;
    }
    let next = next.filter(|t| t.kind == "TypedefDecl")?;
    let owned = next
        .inner
        .first()?
        .fields
        .get("ownedTagDecl")?
        .get("id")?
        .as_str()?;
    (owned == n.id()).then_some(next.name()?)
}

/// True for a file of the system's C and C++ libraries.
fn is_system_header(file: &str) -> bool {
    file.starts_with("/usr/include/")
        || file.starts_with("/usr/lib/")
        || file.starts_with("/usr/local/include/")
        || file.contains("/include/c++/")
        || file.contains("/lib/clang/")
}

/// Records every file-scope (and namespace-scope) `typedef`/`using` of a scalar type.
fn add_aliases(n: &Node) {
    match n.kind.as_str() {
        "TranslationUnitDecl" | "NamespaceDecl" | "LinkageSpecDecl" => {
            n.inner.iter().for_each(add_aliases);
        }
        "TypedefDecl" | "TypeAliasDecl" => {
            if let (Some(name), Some(ty)) = (n.name(), n.ty()) {
                types::add_alias(name, ty);
            }
        }
        _ => {}
    }
}

/// `128_8` for a specialisation with template arguments 128 and 8 (types spelled with `_`).
fn template_args(f: &Node) -> Option<String> {
    let args: Vec<String> = f
        .inner
        .iter()
        .filter(|c| c.kind == "TemplateArgument")
        .map(|a| {
            let raw = a
                .fields
                .get("value")
                .map(|v| v.to_string().trim_matches('"').to_string())
                .or_else(|| a.written_ty().map(str::to_string))
                .unwrap_or_else(|| "arg".into());
            raw.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect()
        })
        .collect();
    if args.is_empty() {
        None
    } else {
        Some(args.join("_"))
    }
}

/// True when a `DeclRefExpr` under `n` names the declaration `id`.
fn names_decl(n: &Node, id: &str) -> bool {
    (n.kind == "DeclRefExpr" && n.referenced().is_some_and(|(r, _, _)| r == id))
        || n.inner.iter().any(|c| names_decl(c, id))
}
