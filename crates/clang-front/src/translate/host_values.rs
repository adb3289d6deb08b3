//! What host code says about the values a launch passes: the integers host variables hold
//! (`int n = 50000;`, `size_t bytes = n * sizeof(float);`) and the byte counts of the
//! `cudaMalloc`/`cudaMallocManaged` calls that allocate the pointers passed.
//!
//! Conservative by construction: a local variable has a value only when it is initialised
//! with a constant expression and never written afterwards (no assignment, `++`, `&x`,
//! binding to a non-`const` reference, capture that writes it); a `const` file-scope
//! variable has the value of its initialiser. A pointer has an allocation only when it is a
//! local allocated exactly once, outside every loop, before the launch, and never written
//! otherwise. A function with a `goto` gives nothing.
//!
//! One address-taking is not a write: `&x` stored into the kernel-argument array of a
//! `cudaLaunchKernel`/`cudaLaunchCooperativeKernel` call (`void *args[] = {&d_x, &n};`),
//! or of the driver's `cuLaunchKernel`/`cuLaunchCooperativeKernel`, when that array is used
//! for nothing but such calls; the launch reads `x` then. The driver API's allocations
//! (`cuMemAlloc(&dptr, bytes)` of a `CUdeviceptr`) count as `cudaMalloc`s, and a
//! `CUfunction` handle names a kernel when one `cuModuleGetFunction(&f, mod, "name")`,
//! with a string literal, outside loops and before the launch, is its only write.
//!
//! An integer is known by its value and, where it can be, as an affine form over the kernel
//! parameters the launch passes host variables to (`n * sizeof(float)` is `4·n` when `n`
//! is passed as `numElements`), so that a buffer length can follow a scalar argument.

use super::types;
use crate::node::Node;
use std::collections::{BTreeMap, HashMap, HashSet};

/// `constant + Σ coefficient · parameter`, over kernel parameters named by their names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Affine {
    /// The constant term.
    pub constant: i128,
    /// Parameter name → coefficient (never zero).
    pub terms: BTreeMap<String, i128>,
}

impl Affine {
    fn constant(c: i128) -> Affine {
        Affine {
            constant: c,
            terms: BTreeMap::new(),
        }
    }

    fn param(name: &str) -> Affine {
        Affine {
            constant: 0,
            terms: BTreeMap::from([(name.to_string(), 1)]),
        }
    }

    /// True when no parameter occurs.
    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    fn add(&self, other: &Affine, sign: i128) -> Option<Affine> {
        let mut out = self.clone();
        out.constant = out
            .constant
            .checked_add(other.constant.checked_mul(sign)?)?;
        for (p, c) in &other.terms {
            let e = out.terms.entry(p.clone()).or_insert(0);
            *e = e.checked_add(c.checked_mul(sign)?)?;
        }
        out.terms.retain(|_, c| *c != 0);
        Some(out)
    }

    fn scale(&self, k: i128) -> Option<Affine> {
        let mut out = Affine::constant(self.constant.checked_mul(k)?);
        for (p, c) in &self.terms {
            out.terms.insert(p.clone(), c.checked_mul(k)?);
        }
        out.terms.retain(|_, c| *c != 0);
        Some(out)
    }

    /// `self / k` when every coefficient and the constant are multiples of `k` (then the
    /// division is exact for every value of the parameters).
    pub fn exact_div(&self, k: i128) -> Option<Affine> {
        if k == 0 || self.constant % k != 0 || self.terms.values().any(|c| c % k != 0) {
            return None;
        }
        Some(Affine {
            constant: self.constant / k,
            terms: self.terms.iter().map(|(p, c)| (p.clone(), c / k)).collect(),
        })
    }
}

/// An integer host code computes: its value at the launch, and its affine form over the
/// launch's parameters when it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostInt {
    /// The value.
    pub value: i128,
    /// The value as an affine form over kernel parameters (a constant form when no
    /// parameter is involved); `None` when the expression is not affine in them.
    pub sym: Option<Affine>,
}

impl HostInt {
    /// A constant.
    pub fn constant(v: i128) -> HostInt {
        HostInt {
            value: v,
            sym: Some(Affine::constant(v)),
        }
    }
}

/// One `cudaMalloc(&p, bytes)` (or `cudaMallocManaged`, `cuMemAlloc`).
struct Alloc<'n> {
    call: &'n Node,
    bytes: &'n Node,
    in_loop: bool,
}

/// One `cuModuleGetFunction(&f, module, name)`.
struct GetFunction<'n> {
    call: &'n Node,
    name: &'n Node,
    in_loop: bool,
}

/// What one host function writes and allocates.
pub struct HostScope<'n> {
    /// Local variables declared in the function, by id.
    decls: HashMap<String, &'n Node>,
    /// Variables the function may write after their declaration.
    written: HashSet<String>,
    /// The allocations of each pointer variable.
    allocs: HashMap<String, Vec<Alloc<'n>>>,
    /// The function contains a `goto` (loops we do not see).
    gotos: bool,
    /// Kernel-argument arrays (`void *args[] = {&a, &b}`) by id: the variables whose
    /// addresses they hold, in order (`None` for an element that is not `&variable`).
    arg_arrays: HashMap<String, Vec<Option<&'n Node>>>,
    /// References to each variable, and those that are the `args` of a launch call.
    refs: HashMap<String, (u32, u32)>,
    /// The `cuModuleGetFunction` calls that assign each `CUfunction` variable.
    handles: HashMap<String, Vec<GetFunction<'n>>>,
}

/// The facts of the whole file every scope shares: `const` variables with initialisers
/// and enumerator values.
pub struct FileFacts<'n, 'u> {
    /// `const` variables (any scope) with their declarations.
    pub consts: HashMap<String, &'n Node>,
    /// Enumerator id → value.
    pub enumerators: &'u HashMap<String, i128>,
}

impl<'n> FileFacts<'n, '_> {
    /// Collects the `const` variables with initialisers under `root`.
    pub fn collect<'u>(
        root: &'n Node,
        enumerators: &'u HashMap<String, i128>,
    ) -> FileFacts<'n, 'u> {
        let mut consts = HashMap::new();
        collect_consts(root, &mut consts, 0);
        FileFacts {
            consts,
            enumerators,
        }
    }
}

fn collect_consts<'n>(n: &'n Node, out: &mut HashMap<String, &'n Node>, depth: u32) {
    if depth > 4000 {
        return;
    }
    if n.kind == "VarDecl"
        && n.str("init").is_some()
        && n.ty().is_some_and(|t| t.starts_with("const "))
    {
        out.insert(n.id().to_string(), n);
    }
    for c in &n.inner {
        collect_consts(c, out, depth + 1);
    }
}

const LOOPS: [&str; 4] = ["ForStmt", "WhileStmt", "CXXForRangeStmt", "DoStmt"];
const ALLOCATORS: [&str; 4] = [
    "cudaMalloc",
    "cudaMallocManaged",
    "cuMemAlloc",
    "cuMemAlloc_v2",
];

/// The launch calls that take a kernel-argument array, with the array's position among
/// their arguments: the runtime's `cudaLaunchKernel(f, grid, block, args, shmem, stream)`
/// and the driver's `cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, stream, args,
/// extra)` (the cooperative forms alike; the driver's has no `extra`).
pub const LAUNCH_APIS: [(&str, usize); 4] = [
    ("cudaLaunchKernel", 3),
    ("cudaLaunchCooperativeKernel", 3),
    ("cuLaunchKernel", 9),
    ("cuLaunchCooperativeKernel", 9),
];

/// The driver API's launch calls, whose kernel is a `CUfunction` handle.
pub const DRIVER_LAUNCHES: [&str; 2] = ["cuLaunchKernel", "cuLaunchCooperativeKernel"];

impl<'n> HostScope<'n> {
    /// Reads the body of host function `f`.
    pub fn of(f: &'n Node) -> HostScope<'n> {
        let mut s = HostScope {
            decls: HashMap::new(),
            written: HashSet::new(),
            allocs: HashMap::new(),
            gotos: false,
            arg_arrays: HashMap::new(),
            refs: HashMap::new(),
            handles: HashMap::new(),
        };
        s.walk(f, None, false, 0);
        // An argument array used for anything but launches (`args[0] = &y;`, passed to
        // another function) may change or expose what it points to: its variables count as
        // written.
        let leaked: Vec<String> = s
            .arg_arrays
            .iter()
            .filter(|(id, _)| s.refs.get(*id).is_some_and(|(all, launch)| all != launch))
            .flat_map(|(_, vars)| vars.iter().flatten().map(|v| v.id().to_string()))
            .collect();
        s.written.extend(leaked);
        s
    }

    /// The variables (their `DeclRefExpr`s) whose addresses kernel-argument array `array`
    /// (by id) holds, in order; `None` for an element that is not `&variable`.
    pub fn launch_args(&self, array: &str) -> Option<&[Option<&'n Node>]> {
        if self.gotos || self.written_array(array) {
            return None;
        }
        self.arg_arrays.get(array).map(Vec::as_slice)
    }

    fn written_array(&self, array: &str) -> bool {
        self.refs
            .get(array)
            .is_some_and(|(all, launch)| all != launch)
    }

    fn walk(&mut self, n: &'n Node, parent: Option<&'n Node>, in_loop: bool, depth: u32) {
        if depth > 4000 {
            self.gotos = true;
            return;
        }
        match n.kind.as_str() {
            "VarDecl" => {
                self.decls.insert(n.id().to_string(), n);
                if let Some(elems) = arg_array(n) {
                    let mut vars = vec![];
                    for e in elems {
                        match address_of(e) {
                            Some(var) => vars.push(Some(var)),
                            None => {
                                vars.push(None);
                                self.walk(e, Some(n), in_loop, depth + 1);
                            }
                        }
                    }
                    self.arg_arrays.insert(n.id().to_string(), vars);
                    return;
                }
            }
            "GotoStmt" | "IndirectGotoStmt" => self.gotos = true,
            "DeclRefExpr" => {
                if let Some((id, kind, _)) = n.referenced() {
                    self.refs.entry(id.to_string()).or_default().0 += 1;
                    if matches!(kind, "VarDecl" | "ParmVarDecl") && !is_read(parent) {
                        self.written.insert(id.to_string());
                    }
                }
            }
            "CallExpr" => {
                if let Some((var, bytes)) = allocation(n) {
                    self.allocs.entry(var.to_string()).or_default().push(Alloc {
                        call: n,
                        bytes,
                        in_loop,
                    });
                    // The callee and the size are walked; the `&p` is the allocation itself.
                    for (i, c) in n.inner.iter().enumerate() {
                        if i != 1 {
                            self.walk(c, Some(n), in_loop, depth + 1);
                        }
                    }
                    return;
                }
                if let Some((var, name)) = get_function(n) {
                    self.handles
                        .entry(var.to_string())
                        .or_default()
                        .push(GetFunction {
                            call: n,
                            name,
                            in_loop,
                        });
                    // The `&f` is the assignment itself; the module and name are walked.
                    for (i, c) in n.inner.iter().enumerate() {
                        if i != 1 {
                            self.walk(c, Some(n), in_loop, depth + 1);
                        }
                    }
                    return;
                }
                if let Some(array) = launch_array(n) {
                    self.refs.entry(array.to_string()).or_default().1 += 1;
                }
            }
            _ => {}
        }
        let looping = in_loop || (LOOPS.contains(&n.kind.as_str()) && !is_do_once(n));
        for c in &n.inner {
            self.walk(c, Some(n), looping, depth + 1);
        }
    }

    /// The byte count and call of the one allocation of local pointer `var` (by id), when
    /// it is allocated exactly once, outside loops, before `before` (a byte offset), and
    /// never written otherwise.
    pub fn allocation(&self, var: &str, before: u32) -> Option<(&'n Node, &'n Node)> {
        if self.gotos || self.written.contains(var) || !self.decls.contains_key(var) {
            return None;
        }
        match &self.allocs.get(var)?[..] {
            [a] if !a.in_loop && a.call.span.is_some_and(|s| s.hi <= before) => {
                Some((a.call, a.bytes))
            }
            _ => None,
        }
    }

    /// The symbol `CUfunction` variable `var` (by id) holds at a launch at byte offset
    /// `before`: the string literal of the one `cuModuleGetFunction(&var, mod, "name")`
    /// that assigns it, when that call is outside loops, before the launch, and the
    /// variable is a local never written otherwise.
    pub fn kernel_symbol(&self, var: &str, before: u32) -> Option<String> {
        if self.gotos || self.written.contains(var) || !self.decls.contains_key(var) {
            return None;
        }
        match &self.handles.get(var)?[..] {
            [g] if !g.in_loop && g.call.span.is_some_and(|s| s.hi <= before) => {
                string_literal(g.name)
            }
            _ => None,
        }
    }

    /// True when local variable `var` (by id) keeps the value of its initialiser.
    pub fn is_stable(&self, var: &str) -> bool {
        !self.gotos
            && !self.written.contains(var)
            && !self.allocs.contains_key(var)
            && self.decls.get(var).is_some_and(|d| d.str("init").is_some())
    }

    /// The initialiser of a stable local variable.
    fn init(&self, var: &str) -> Option<&'n Node> {
        if !self.is_stable(var) {
            return None;
        }
        initialiser(self.decls.get(var)?)
    }
}

/// The initialiser expression of a declaration.
fn initialiser(d: &Node) -> Option<&Node> {
    d.inner.iter().find(|c| !c.kind.ends_with("Attr"))
}

/// True when a reference whose parent is `parent` only reads the variable.
fn is_read(parent: Option<&Node>) -> bool {
    let Some(p) = parent else {
        return false;
    };
    p.kind == "ImplicitCastExpr"
        && match p.str("castKind") {
            Some("LValueToRValue") => true,
            // Binding to a `const` reference (a `dim3` copied, a `const int&` argument).
            Some("NoOp") => p.ty().is_some_and(|t| t.starts_with("const ")),
            _ => false,
        }
}

/// `do { … } while (0)`, the body of error-check macros: not a loop.
fn is_do_once(n: &Node) -> bool {
    n.kind == "DoStmt"
        && n.inner.get(1).is_some_and(|c| {
            let c = strip(c);
            c.kind == "IntegerLiteral" && c.str("value") == Some("0")
        })
}

/// Casts and parentheses around an expression.
fn strip(mut n: &Node) -> &Node {
    while matches!(
        n.kind.as_str(),
        "ImplicitCastExpr"
            | "ParenExpr"
            | "CStyleCastExpr"
            | "CXXStaticCastExpr"
            | "CXXReinterpretCastExpr"
    ) {
        match n.inner.iter().find(|c| !c.kind.ends_with("Decl")) {
            Some(c) => n = c,
            None => break,
        }
    }
    n
}

/// The elements of `void *args[] = {…}`, a candidate kernel-argument array.
fn arg_array(d: &Node) -> Option<&[Node]> {
    let ty = d.ty()?;
    if !(ty.starts_with("void *[") && ty.ends_with(']')) {
        return None;
    }
    let init = initialiser(d)?;
    (init.kind == "InitListExpr").then_some(&init.inner[..])
}

/// `&x` (under casts) for a variable `x`: its `DeclRefExpr`.
fn address_of(e: &Node) -> Option<&Node> {
    let e = strip(e);
    if e.kind != "UnaryOperator" || e.str("opcode") != Some("&") {
        return None;
    }
    let var = strip(e.inner.first()?);
    let (_, kind, _) = var.referenced()?;
    (var.kind == "DeclRefExpr" && kind == "VarDecl").then_some(var)
}

/// The name of the launch call `call` and the position of its kernel-argument array among
/// its arguments, when it is one of [`LAUNCH_APIS`].
pub fn launch_api(call: &Node) -> Option<(&'static str, usize)> {
    if call.kind != "CallExpr" {
        return None;
    }
    let callee = strip(call.inner.first()?);
    let (_, kind, name) = callee.referenced()?;
    if kind != "FunctionDecl" {
        return None;
    }
    LAUNCH_APIS.iter().find(|(api, _)| *api == name).copied()
}

/// The id of the array a launch call (`cudaLaunchKernel(f, grid, block, args, …)`,
/// `cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, stream, args, extra)`) passes as its
/// kernel arguments.
pub fn launch_array(call: &Node) -> Option<&str> {
    let (_, at) = launch_api(call)?;
    let args = strip(call.inner.get(at + 1)?);
    let (id, kind, _) = args.referenced()?;
    (args.kind == "DeclRefExpr" && kind == "VarDecl").then_some(id)
}

/// `cudaMalloc(&p, bytes)`, `cudaMalloc((void**)&p, bytes)`, `cudaMallocManaged(&p, …)`:
/// the variable's id and the size expression.
fn allocation(call: &Node) -> Option<(&str, &Node)> {
    let callee = strip(call.inner.first()?);
    let (_, kind, name) = callee.referenced()?;
    if kind != "FunctionDecl" || !ALLOCATORS.contains(&name) {
        return None;
    }
    let target = strip(call.inner.get(1)?);
    if target.kind != "UnaryOperator" || target.str("opcode") != Some("&") {
        return None;
    }
    let var = target.inner.first()?;
    if var.kind != "DeclRefExpr" {
        return None;
    }
    let (id, kind, _) = var.referenced()?;
    (kind == "VarDecl").then_some(())?;
    Some((id, call.inner.get(2)?))
}

/// `cuModuleGetFunction(&f, module, name)`: the variable's id and the name expression.
fn get_function(call: &Node) -> Option<(&str, &Node)> {
    let callee = strip(call.inner.first()?);
    let (_, kind, name) = callee.referenced()?;
    if kind != "FunctionDecl" || name != "cuModuleGetFunction" {
        return None;
    }
    let target = strip(call.inner.get(1)?);
    if target.kind != "UnaryOperator" || target.str("opcode") != Some("&") {
        return None;
    }
    let var = strip(target.inner.first()?);
    if var.kind != "DeclRefExpr" {
        return None;
    }
    let (id, kind, _) = var.referenced()?;
    (kind == "VarDecl").then_some(())?;
    Some((id, call.inner.get(3)?))
}

/// The text of a plain string literal (`"vector_add"`); a literal with escapes, a prefix
/// or anything computed gives nothing.
fn string_literal(n: &Node) -> Option<String> {
    let n = strip(n);
    if n.kind != "StringLiteral" {
        return None;
    }
    let v = n.str("value")?;
    let inner = v.strip_prefix('"')?.strip_suffix('"')?;
    let plain = !inner.is_empty()
        && inner
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.');
    plain.then(|| inner.to_string())
}

/// Evaluates host expressions of one launch: `passed` maps the ids of the variables the
/// launch passes as scalar arguments to the parameters they are passed to.
pub struct Eval<'a, 'n, 'u> {
    /// The enclosing function.
    pub scope: &'a HostScope<'n>,
    /// The file's constants.
    pub file: &'a FileFacts<'n, 'u>,
    /// Variable id → kernel parameter name.
    pub passed: HashMap<String, String>,
}

impl<'n> Eval<'_, 'n, '_> {
    /// The initialiser of a variable that keeps it: a stable local or a `const` one.
    pub fn var_init(&self, id: &str) -> Option<&'n Node> {
        match self.scope.init(id) {
            Some(i) => Some(i),
            None => initialiser(self.file.consts.get(id)?),
        }
    }

    /// The integer `n` computes, when host code fixes it.
    pub fn int(&self, n: &Node) -> Option<HostInt> {
        self.int_at(n, 0)
    }

    fn int_at(&self, n: &Node, depth: u32) -> Option<HostInt> {
        if depth > 64 {
            return None;
        }
        let d = depth + 1;
        let v = match n.kind.as_str() {
            "IntegerLiteral" => HostInt::constant(n.str("value")?.parse().ok()?),
            "CharacterLiteral" => HostInt::constant(n.fields.get("value")?.as_i64()?.into()),
            "ConstantExpr" if n.str("value").is_some() => {
                HostInt::constant(n.str("value")?.parse().ok()?)
            }
            "ImplicitCastExpr"
            | "ParenExpr"
            | "CStyleCastExpr"
            | "CXXStaticCastExpr"
            | "CXXFunctionalCastExpr"
            | "ConstantExpr"
            | "SubstNonTypeTemplateParmExpr"
            | "MaterializeTemporaryExpr"
            | "ExprWithCleanups" => {
                self.int_at(n.inner.iter().rev().find(|c| !c.kind.ends_with("Decl"))?, d)?
            }
            "UnaryExprOrTypeTraitExpr" if n.str("name") == Some("sizeof") => {
                let ty = match n.fields.get("argType") {
                    Some(t) => t
                        .get("desugaredQualType")
                        .or_else(|| t.get("qualType"))
                        .and_then(|v| v.as_str())?
                        .to_string(),
                    None => n.inner.first()?.ty()?.to_string(),
                };
                HostInt::constant(size_of(&ty)?)
            }
            "UnaryOperator" => {
                let a = self.int_at(n.inner.first()?, d)?;
                match n.str("opcode")? {
                    "+" => a,
                    "-" => HostInt {
                        value: a.value.checked_neg()?,
                        sym: a.sym.and_then(|s| s.scale(-1)),
                    },
                    _ => return None,
                }
            }
            "BinaryOperator" => {
                let a = self.int_at(n.inner.first()?, d)?;
                let b = self.int_at(n.inner.get(1)?, d)?;
                binary(n.str("opcode")?, a, b)?
            }
            "DeclRefExpr" => {
                let (id, kind, _) = n.referenced()?;
                match kind {
                    "EnumConstantDecl" => HostInt::constant(*self.file.enumerators.get(id)?),
                    "VarDecl" => {
                        let init = self.var_init(id)?;
                        let mut v = self.int_at(init, d)?;
                        if let Some(p) = self.passed.get(id) {
                            v.sym = Some(Affine::param(p));
                        }
                        v
                    }
                    _ => return None,
                }
            }
            _ => return None,
        };
        // The value must be one the expression's type holds (no wrapping we would have
        // to model); a floating or unknown type gives nothing.
        let (lo, hi) = int_range(n.ty()?)?;
        (v.value >= lo && v.value <= hi).then_some(v)
    }

    /// The floating value of a literal (or a stable variable initialised with one).
    pub fn float(&self, n: &Node) -> Option<f64> {
        self.float_at(n, 0)
    }

    fn float_at(&self, n: &Node, depth: u32) -> Option<f64> {
        if depth > 32 {
            return None;
        }
        match n.kind.as_str() {
            "FloatingLiteral" => n.str("value")?.parse().ok(),
            "IntegerLiteral" => n.str("value")?.parse::<i64>().ok().map(|v| v as f64),
            "ImplicitCastExpr"
            | "ParenExpr"
            | "CStyleCastExpr"
            | "CXXStaticCastExpr"
            | "CXXFunctionalCastExpr"
            | "ConstantExpr" => self.float_at(
                n.inner.iter().rev().find(|c| !c.kind.ends_with("Decl"))?,
                depth + 1,
            ),
            "UnaryOperator" if n.str("opcode") == Some("-") => {
                Some(-self.float_at(n.inner.first()?, depth + 1)?)
            }
            "DeclRefExpr" => {
                let (id, kind, _) = n.referenced()?;
                (kind == "VarDecl").then_some(())?;
                let init = self.var_init(id)?;
                self.float_at(init, depth + 1)
            }
            _ => None,
        }
    }
}

fn binary(op: &str, a: HostInt, b: HostInt) -> Option<HostInt> {
    let both_const = |f: fn(i128, i128) -> Option<i128>| -> Option<HostInt> {
        let value = f(a.value, b.value)?;
        let sym = match (&a.sym, &b.sym) {
            (Some(x), Some(y)) if x.is_constant() && y.is_constant() => {
                Some(Affine::constant(value))
            }
            _ => None,
        };
        Some(HostInt { value, sym })
    };
    match op {
        "+" | "-" => {
            let sign = if op == "+" { 1 } else { -1 };
            Some(HostInt {
                value: a.value.checked_add(b.value.checked_mul(sign)?)?,
                sym: match (&a.sym, &b.sym) {
                    (Some(x), Some(y)) => x.add(y, sign),
                    _ => None,
                },
            })
        }
        "*" => Some(HostInt {
            value: a.value.checked_mul(b.value)?,
            sym: match (&a.sym, &b.sym) {
                (Some(x), Some(y)) if y.is_constant() => x.scale(y.constant),
                (Some(x), Some(y)) if x.is_constant() => y.scale(x.constant),
                _ => None,
            },
        }),
        "/" => {
            // C truncates toward zero, as Rust's `/` does.
            let value = a.value.checked_div(b.value)?;
            let sym = match (&a.sym, &b.sym) {
                (Some(x), Some(y)) if y.is_constant() && x.is_constant() => {
                    Some(Affine::constant(value))
                }
                (Some(x), Some(y)) if y.is_constant() => x.exact_div(y.constant),
                _ => None,
            };
            Some(HostInt { value, sym })
        }
        "%" => both_const(|x, y| x.checked_rem(y)),
        "<<" => {
            let k = u32::try_from(b.value).ok().filter(|k| *k < 64)?;
            let value = a.value.checked_mul(1i128 << k)?;
            let sym = match (&a.sym, &b.sym) {
                (Some(x), Some(y)) if y.is_constant() => x.scale(1i128 << k),
                _ => None,
            };
            Some(HostInt { value, sym })
        }
        ">>" => both_const(|x, y| {
            let k = u32::try_from(y).ok().filter(|k| *k < 64)?;
            (x >= 0).then_some(x >> k)
        }),
        "&" => both_const(|x, y| Some(x & y)),
        "|" => both_const(|x, y| Some(x | y)),
        "^" => both_const(|x, y| Some(x ^ y)),
        _ => None,
    }
}

/// The values an integer type holds (`None` for other types).
fn int_range(ty: &str) -> Option<(i128, i128)> {
    let ty = ty.strip_prefix("const ").unwrap_or(ty);
    let s = types::scalar(ty).ok()??;
    if !s.is_int() {
        return None;
    }
    s.int_range()
}

/// `sizeof` of a type host code names: scalars, pointers and CUDA's vector types.
pub fn size_of(ty: &str) -> Option<i128> {
    let ty = ty.strip_prefix("const ").unwrap_or(ty).trim();
    if ty.ends_with('*') {
        return Some(8);
    }
    if let Ok(Some(s)) = types::scalar(ty) {
        return Some(s.size_bytes() as i128);
    }
    let (base, n) = ty.split_at(ty.trim_end_matches(|c: char| c.is_ascii_digit()).len());
    let lanes: i128 = n.parse().ok().filter(|n| (1..=4).contains(n))?;
    let scalar: i128 = match base {
        "char" | "uchar" => 1,
        "short" | "ushort" => 2,
        "int" | "uint" | "float" => 4,
        "long" | "ulong" | "longlong" | "ulonglong" | "double" => 8,
        _ => return None,
    };
    // CUDA aligns 2- and 4-vectors to their size; a 3-vector is three packed scalars.
    Some(scalar * lanes)
}
