//! Allocations: one global buffer per pointer parameter, one shared or local allocation per
//! `.shared`/`.local` variable, each with the element size its accesses use; and the kernel
//! signature (parameters, shared arrays, contract) the interpreter launches under.

use super::flat::Flat;
use super::provenance::{address_operand, Key, Provenance};
use super::types::{Kind, PtxType};
use super::LowerError;
use crate::ast::{Function, Instruction, Operand, Space as PtxSpace, VarDecl};
use std::collections::{HashMap, HashSet};
use warpsafe_exec::thread::code::{Alloc, AllocSize, MemId, Space};
use warpsafe_ir::{
    ArrayDecl, BinOp, Expr, ExprKind, Kernel, Param, ParamId, ParamKind, ScalarType, Span,
};

/// The memory layout of a lowered kernel.
pub(crate) struct Layout {
    /// Allocations in `MemId` order.
    pub allocs: Vec<Alloc>,
    /// The allocation of each provenance key.
    pub ids: HashMap<Key, MemId>,
    /// Parameter names to indices.
    pub params: HashMap<String, u32>,
    /// Which parameters are buffers (by PTX parameter index).
    pub pointers: Vec<bool>,
    /// The launch parameter index of each PTX parameter (by-value aggregates have one per
    /// field, in `fields`).
    pub prog_index: Vec<u32>,
    /// Fields of by-value aggregate parameters read by `ld.param`: (PTX parameter, byte
    /// offset) to the launch parameter and the field's type.
    pub fields: HashMap<(u32, i64), (u32, PtxType)>,
    /// The signature the program runs under.
    pub kernel: Kernel,
}

/// The element types seen in a body's accesses to one allocation.
#[derive(Default)]
struct Seen {
    first: Option<(PtxType, usize)>,
    float: Option<PtxType>,
    written: bool,
}

/// The memory variables a function can address: module-scope ones and its own.
pub(crate) fn variables<'a>(globals: &'a [VarDecl], flat: &'a Flat) -> Vec<&'a VarDecl> {
    globals.iter().chain(flat.vars.iter()).collect()
}

/// The allocation a memory instruction addresses.
pub(crate) fn access_key(
    i: &Instruction,
    prov: &Provenance,
    vars: &HashSet<String>,
) -> Result<(Key, i64), LowerError> {
    let Some(Operand::Address { base, offset }) = address_operand(i) else {
        return Err(LowerError::at(i, "expected an address operand `[...]`"));
    };
    if base.starts_with('%') {
        let p = prov.of(base);
        let mut keys = p.into_iter();
        return match (keys.next(), keys.next()) {
            (Some(k), None) => Ok((k, *offset)),
            (None, _) => Err(LowerError::at(
                i,
                format!(
                    "cannot tell which buffer `[{base}]` addresses: `{base}` is not derived from a pointer parameter or a .shared/.local variable"
                ),
            )),
            (Some(_), Some(_)) => Err(LowerError::at(
                i,
                format!("`{base}` may point into more than one allocation"),
            )),
        };
    }
    if vars.contains(base) {
        return Ok((Key::Var(base.clone()), *offset));
    }
    Err(LowerError::at(
        i,
        format!("`[{base}]` does not name a .shared or .local variable"),
    ))
}

/// The type of the elements a memory instruction moves.
pub(crate) fn access_type(i: &Instruction) -> Result<PtxType, LowerError> {
    let name = i
        .types
        .last()
        .ok_or_else(|| LowerError::at(i, "missing type suffix"))?;
    PtxType::parse(name).ok_or_else(|| LowerError::at(i, format!("unsupported type `.{name}`")))
}

/// Builds the layout of `f`.
pub(crate) fn layout(
    f: &Function,
    flat: &Flat,
    vars: &[&VarDecl],
    prov: &Provenance,
    pointers: Vec<bool>,
    signature: Option<&Kernel>,
) -> Result<Layout, LowerError> {
    let params: HashMap<String, u32> = f
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.clone(), i as u32))
        .collect();
    let var_names: HashSet<String> = vars.iter().map(|v| v.name.clone()).collect();
    let mut seen: HashMap<Key, Seen> = HashMap::new();
    let mut param_loads: HashMap<u32, PtxType> = HashMap::new();
    // Fields read from by-value aggregates: offset to (type, line).
    let mut field_loads: HashMap<u32, std::collections::BTreeMap<i64, (PtxType, usize)>> =
        HashMap::new();
    for i in flat.instrs() {
        if i.opcode == "ld" && i.modifiers.iter().any(|m| m == "param") {
            if let (Some(Operand::Address { base, offset }), Ok(t)) =
                (i.operands.get(1), access_type(i))
            {
                if let Some(&k) = params.get(base) {
                    let aggregate = f.params.get(k as usize).is_some_and(|p| !p.dims.is_empty());
                    if aggregate {
                        let n = if i.modifiers.iter().any(|m| m == "v2") {
                            2
                        } else if i.modifiers.iter().any(|m| m == "v4") {
                            4
                        } else {
                            1
                        };
                        let fl = field_loads.entry(k).or_default();
                        for e in 0..n {
                            let off = offset + e * t.bytes() as i64;
                            match fl.get(&off) {
                                Some((t0, _)) if t0.bytes() != t.bytes() => {
                                    return Err(LowerError::at(
                                        i,
                                        format!("field at byte {off} of `{base}` is read with {} and {} bytes", t0.bytes(), t.bytes()),
                                    ))
                                }
                                Some(_) => {}
                                None => {
                                    fl.insert(off, (t, i.line));
                                }
                            }
                        }
                    } else {
                        param_loads.entry(k).or_insert(t);
                    }
                }
            }
            continue;
        }
        if address_operand(i).is_none() {
            continue;
        }
        let (key, _) = access_key(i, prov, &var_names)?;
        let t = access_type(i)?;
        let s = seen.entry(key.clone()).or_default();
        match s.first {
            None => s.first = Some((t, i.line)),
            Some((t0, line0)) if t0.bytes() != t.bytes() => {
                return Err(LowerError::at(
                    i,
                    format!(
                        "`{}` is accessed with {}-byte elements here and {}-byte elements on line {line0}; warpsafe models each allocation as an array of one element size",
                        key_name(&key, f),
                        t.bytes(),
                        t0.bytes()
                    ),
                ));
            }
            Some(_) => {}
        }
        if t.kind == Kind::Float && s.float.is_none() {
            s.float = Some(t);
        }
        s.written |=
            i.opcode != "ld" && !(i.opcode == "wmma" && i.modifiers.iter().any(|m| m == "load"));
    }

    let mut allocs = Vec::new();
    let mut ids = HashMap::new();
    let mut kparams = Vec::new();
    let mut prog_index = Vec::new();
    let mut fields = HashMap::new();
    if let Some(sig) = signature {
        if sig.params.len() < f.params.len() {
            return Err(LowerError::new(
                format!(
                    "kernel `{}` has {} parameters in PTX but {} in its signature",
                    f.name,
                    f.params.len(),
                    sig.params.len()
                ),
                0,
            ));
        }
    }
    for (idx, p) in f.params.iter().enumerate() {
        let k = idx as u32;
        prog_index.push(kparams.len() as u32);
        let decl_ty = PtxType::parse(&p.ty);
        if !p.dims.is_empty() && signature.is_none() && !pointers[idx] {
            // A by-value aggregate: each field read becomes a scalar launch parameter.
            let size = p.dims.iter().flatten().product::<u64>() * decl_ty.map_or(1, |t| t.bytes());
            for (&off, &(t, line)) in field_loads.get(&k).into_iter().flatten() {
                if off < 0 || off as u64 + t.bytes() > size {
                    return Err(LowerError::new(
                        format!(
                            "`ld.param` reads bytes {off}..{} of the {size}-byte parameter `{}`",
                            off as u64 + t.bytes(),
                            p.name
                        ),
                        line,
                    ));
                }
                let ty = t
                    .scalar()
                    .map_err(|e| LowerError::new(format!("parameter `{}`: {e}", p.name), line))?;
                fields.insert((k, off), (kparams.len() as u32, t));
                kparams.push(Param {
                    name: format!("{}_f{off}", p.name),
                    kind: ParamKind::Scalar(ty),
                    span: Span::DUMMY,
                });
            }
            continue;
        }
        if !p.dims.is_empty() && signature.is_some() {
            return Err(LowerError::new(
                format!(
                    "parameter `{}` is a by-value aggregate ({} bytes); lowering it under a source signature is not supported (lower without the signature to get one scalar parameter per field read)",
                    p.name,
                    p.dims.iter().flatten().product::<u64>() * decl_ty.map_or(1, |t| t.bytes())
                ),
                0,
            ));
        }
        if !p.dims.is_empty() || decl_ty.is_none() {
            return Err(LowerError::new(
                format!(
                    "parameter `{}` ({} {}) is not a scalar or pointer; by-value aggregates are not supported",
                    p.name,
                    p.ty,
                    p.dims.len()
                ),
                0,
            ));
        }
        let decl_ty = decl_ty.unwrap_or(PtxType {
            kind: Kind::Bits,
            bits: 32,
        });
        let key = Key::Param(k);
        let s = seen.get(&key);
        let sig_param = signature.and_then(|s| s.params.get(idx));
        let param = if pointers[idx] {
            let elem = match sig_param.map(|q| q.kind) {
                Some(ParamKind::Buffer { elem, .. }) => {
                    if let Some((t, line)) = s.and_then(|s| s.first) {
                        if t.bytes() != elem.size_bytes() {
                            return Err(LowerError::new(
                                format!(
                                    "buffer `{}` holds {elem} elements but is accessed with {}-byte elements",
                                    sig_param.map(|q| q.name.as_str()).unwrap_or(&p.name),
                                    t.bytes()
                                ),
                                line,
                            ));
                        }
                    }
                    elem
                }
                _ => elem_of(s)?,
            };
            let name = sig_param.map(|q| q.name.clone()).unwrap_or(p.name.clone());
            ids.insert(key, allocs.len() as MemId);
            allocs.push(Alloc {
                name: name.clone(),
                space: Space::Global,
                elem,
                size: AllocSize::Param(kparams.len() as u32),
                dims: vec![],
            });
            match sig_param {
                Some(q) => q.clone(),
                None => Param {
                    name,
                    kind: ParamKind::Buffer {
                        elem,
                        writable: s.is_some_and(|s| s.written),
                    },
                    span: Span::DUMMY,
                },
            }
        } else {
            let loaded = param_loads.get(&k).copied().unwrap_or(decl_ty);
            let ty = loaded
                .scalar()
                .map_err(|e| LowerError::new(format!("parameter `{}`: {e}", p.name), 0))?;
            match sig_param {
                Some(q) => {
                    let ok = match q.kind {
                        ParamKind::Scalar(t) => t.size_bytes() == decl_ty.bytes(),
                        ParamKind::Buffer { .. } => false,
                    };
                    if !ok {
                        return Err(LowerError::new(
                            format!(
                                "parameter `{}` is {} in PTX but `{}` in the signature",
                                p.name, p.ty, q.name
                            ),
                            0,
                        ));
                    }
                    q.clone()
                }
                None => Param {
                    name: p.name.clone(),
                    kind: ParamKind::Scalar(ty),
                    span: Span::DUMMY,
                },
            }
        };
        kparams.push(param);
    }
    if let Some(sig) = signature {
        for (j, q) in sig.params.iter().enumerate().skip(f.params.len()) {
            module_global(f, vars, &seen, sig, j, q, &mut allocs, &mut ids)?;
            kparams.push(q.clone());
        }
    }

    let mut shared = Vec::new();
    let mut locals = Vec::new();
    for v in vars {
        let space = match v.space {
            PtxSpace::Shared => Space::Shared,
            PtxSpace::Local => Space::Local,
            _ => continue,
        };
        let key = Key::Var(v.name.clone());
        let s = seen.get(&key);
        let elem = elem_of(s)?;
        let decl = PtxType::parse(&v.ty).ok_or_else(|| {
            LowerError::new(
                format!("variable `{}` has unsupported type `{}`", v.name, v.ty),
                0,
            )
        })?;
        let mut bytes = decl.bytes();
        let mut dynamic = false;
        for d in &v.dims {
            match d {
                Some(n) => bytes = bytes.saturating_mul(*n),
                None => dynamic = true,
            }
        }
        let size = if dynamic {
            if space != Space::Shared {
                return Err(LowerError::new(
                    format!("`{}`: only extern .shared arrays may be unsized", v.name),
                    0,
                ));
            }
            AllocSize::Dynamic
        } else {
            if bytes % elem.size_bytes() != 0 {
                return Err(LowerError::new(
                    format!(
                        "`{}` has {bytes} bytes, not a whole number of {}-byte elements",
                        v.name,
                        elem.size_bytes()
                    ),
                    s.and_then(|s| s.first).map(|f| f.1).unwrap_or(0),
                ));
            }
            AllocSize::Static(bytes / elem.size_bytes())
        };
        let name = demangle(&v.name);
        let dims = match size {
            AllocSize::Static(n) => vec![n],
            _ => vec![0],
        };
        ids.insert(key, allocs.len() as MemId);
        allocs.push(Alloc {
            name: name.clone(),
            space,
            elem,
            size,
            dims: dims.clone(),
        });
        let decl = ArrayDecl {
            name,
            elem,
            dims,
            dynamic,
            span: Span::DUMMY,
        };
        match space {
            Space::Shared => shared.push(decl),
            _ => locals.push(decl),
        }
    }

    let kernel = Kernel {
        name: f.name.clone(),
        params: kparams,
        vars: vec![],
        shared,
        locals,
        body: vec![],
        contract: signature.map(|s| s.contract.clone()).unwrap_or_default(),
        span: Span::DUMMY,
    };
    Ok(Layout {
        allocs,
        ids,
        params,
        pointers,
        prog_index,
        fields,
        kernel,
    })
}

/// The module-scope `.const` or `.global` variable that source parameter `q` (index `j` of
/// the signature `sig`, past the PTX parameters) stands for: the source front makes a
/// `__constant__` or `__device__` array the kernel reaches a buffer parameter of its name,
/// with its length fixed by the contract (`len(filter) == 9`). The variable becomes a global
/// allocation sized by that parameter, once its declared bytes are checked to be exactly
/// the contract's length of elements and its accesses to be of the element's size (so the
/// bounds the source's contract gives are those of the PTX memory).
#[allow(clippy::too_many_arguments)]
fn module_global(
    f: &Function,
    vars: &[&VarDecl],
    seen: &HashMap<Key, Seen>,
    sig: &Kernel,
    j: usize,
    q: &Param,
    allocs: &mut Vec<Alloc>,
    ids: &mut HashMap<Key, MemId>,
) -> Result<(), LowerError> {
    let arity = || {
        format!(
            "kernel `{}` has {} parameters in PTX but {} in its signature",
            f.name,
            f.params.len(),
            sig.params.len()
        )
    };
    let ParamKind::Buffer { elem, .. } = q.kind else {
        return Err(LowerError::new(
            format!("{}: `{}` is not a buffer", arity(), q.name),
            0,
        ));
    };
    let v = vars
        .iter()
        .find(|v| {
            matches!(v.space, PtxSpace::Const | PtxSpace::Global) && demangle(&v.name) == q.name
        })
        .ok_or_else(|| {
            LowerError::new(
                format!(
                    "{}: `{}` is no module-scope .const or .global variable of the PTX",
                    arity(),
                    q.name
                ),
                0,
            )
        })?;
    let decl = PtxType::parse(&v.ty);
    let bytes = v.dims.iter().fold(decl.map(|t| t.bytes()), |acc, d| {
        acc.and_then(|a| d.and_then(|n| a.checked_mul(n)))
    });
    let len = fixed_len(sig, ParamId(j as u32));
    match (bytes, len) {
        (Some(b), Some(n)) if n.checked_mul(elem.size_bytes()) == Some(b) => {}
        _ => {
            return Err(LowerError::new(
                format!(
                    "`{}` has {} bytes in PTX but the contract fixes its length at {}",
                    v.name,
                    bytes.map_or("an unknown number of".to_string(), |b| b.to_string()),
                    len.map_or("no number".to_string(), |n| format!("{n} {elem} elements"))
                ),
                0,
            ))
        }
    }
    let key = Key::Var(v.name.clone());
    if let Some((t, line)) = seen.get(&key).and_then(|s| s.first) {
        if t.bytes() != elem.size_bytes() {
            return Err(LowerError::new(
                format!(
                    "`{}` holds {elem} elements but is accessed with {}-byte elements",
                    q.name,
                    t.bytes()
                ),
                line,
            ));
        }
    }
    ids.insert(key, allocs.len() as MemId);
    allocs.push(Alloc {
        name: q.name.clone(),
        space: Space::Global,
        elem,
        size: AllocSize::Param(j as u32),
        dims: vec![],
    });
    Ok(())
}

/// The length the contract of `k` fixes for buffer `p` (`len(p) == c`), when it does.
fn fixed_len(k: &Kernel, p: ParamId) -> Option<u64> {
    let konst = |e: &Expr| match &e.kind {
        ExprKind::Const(v) => v.as_i128().and_then(|c| u64::try_from(c).ok()),
        _ => None,
    };
    let is_len = |e: &Expr| matches!(e.kind, ExprKind::BufferLen(q) if q == p);
    let from_lengths = k
        .contract
        .lengths
        .iter()
        .filter(|l| l.param == p)
        .find_map(|l| konst(&l.len));
    from_lengths.or_else(|| {
        k.contract.requires.iter().find_map(|r| match &r.kind {
            ExprKind::Binary(BinOp::Eq, a, b) if is_len(a) => konst(b),
            ExprKind::Binary(BinOp::Eq, a, b) if is_len(b) => konst(a),
            _ => None,
        })
    })
}

/// The element type of an allocation from its accesses: the first float type seen, else the
/// first type; 32-bit words when never accessed.
fn elem_of(s: Option<&Seen>) -> Result<ScalarType, LowerError> {
    let Some(s) = s else {
        return Ok(ScalarType::U32);
    };
    let Some((first, line)) = s.first else {
        return Ok(ScalarType::U32);
    };
    s.float
        .unwrap_or(first)
        .scalar()
        .map_err(|e| LowerError::new(format!("memory access: {e}"), line))
}

fn key_name(k: &Key, f: &Function) -> String {
    match k {
        Key::Param(i) => f
            .params
            .get(*i as usize)
            .map(|p| p.name.clone())
            .unwrap_or_default(),
        Key::Var(v) => demangle(v),
    }
}

/// The source name of a demoted function-scope variable: `_ZZ6kernelE4tile` is `tile`.
pub(crate) fn demangle(name: &str) -> String {
    fn take(s: &str) -> Option<(&str, &str)> {
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        let n: usize = s.get(..digits)?.parse().ok()?;
        let rest = s.get(digits..)?;
        Some((rest.get(..n)?, rest.get(n..)?))
    }
    let demangled = name.strip_prefix("_ZZ").and_then(|s| {
        let (_, rest) = take(s)?;
        let rest = rest.strip_prefix('E')?;
        let (var, _) = take(rest)?;
        Some(var.to_string())
    });
    demangled.unwrap_or_else(|| name.to_string())
}
