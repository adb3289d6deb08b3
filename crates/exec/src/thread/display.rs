//! A human-readable listing of thread code (`warpsafe ir --thread-code`).

use super::code::{AllocSize, BinaryOp, CmpOp, Inst, ThreadCode, UnaryOp};
use std::fmt::Write;

/// Renders thread code as text: the allocations, then one numbered instruction per line.
pub fn render(code: &ThreadCode) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "thread code for `{}`: {} instructions, {} registers, {} barrier sites",
        code.name,
        code.insts.len(),
        code.num_regs,
        code.num_barriers
    );
    for (i, a) in code.allocs.iter().enumerate() {
        let size = match a.size {
            AllocSize::Param(p) => format!("buffer argument #{p}"),
            AllocSize::Static(n) => format!("{n} elements"),
            AllocSize::Dynamic => "dynamic shared bytes".to_string(),
        };
        let _ = writeln!(
            out,
            "  m{i}: {} {} `{}` ({size})",
            a.space.name(),
            a.elem,
            a.name
        );
    }
    for (pc, inst) in code.insts.iter().enumerate() {
        let span = code.spans.get(pc).copied().unwrap_or_default();
        let text = inst_text(inst);
        if span.is_dummy() {
            let _ = writeln!(out, "{pc:5}: {text}");
        } else {
            let _ = writeln!(out, "{pc:5}: {text:<48} ; @{}..{}", span.lo, span.hi);
        }
    }
    out
}

/// One instruction in assembly-like syntax.
pub fn inst_text(inst: &Inst) -> String {
    match *inst {
        Inst::Const { dst, bits, ty } => format!(
            "r{dst} = const.{ty} {}",
            warpsafe_ir::Value::from_bits(ty, bits)
        ),
        Inst::Param { dst, index, ty } => format!("r{dst} = param.{ty} #{index}"),
        Inst::AllocLen { dst, mem } => format!("r{dst} = len.u64 m{mem}"),
        Inst::Mov { dst, src } => format!("r{dst} = mov r{src}"),
        Inst::Unary {
            op,
            ty,
            dst,
            a,
            checked,
        } => format!("r{dst} = {}{}.{ty} r{a}", unary_name(op), chk(checked)),
        Inst::Binary {
            op,
            ty,
            dst,
            a,
            b,
            checked,
        } => format!(
            "r{dst} = {}{}.{ty} r{a}, r{b}",
            binary_name(op),
            chk(checked)
        ),
        Inst::Cmp { op, ty, dst, a, b } => format!("r{dst} = set.{}.{ty} r{a}, r{b}", cmp_name(op)),
        Inst::Cast { from, to, dst, src } => format!("r{dst} = cvt.{to}.{from} r{src}"),
        Inst::Select { dst, cond, a, b } => format!("r{dst} = selp r{a}, r{b}, r{cond}"),
        Inst::Math { f, ty, dst, args } => {
            let n = f.arity();
            let list: Vec<String> = args[..n].iter().map(|r| format!("r{r}")).collect();
            format!("r{dst} = {}.{ty} {}", f.name(), list.join(", "))
        }
        Inst::Special { dst, which } => format!("r{dst} = special {}", which.c_name()),
        Inst::Load {
            ty,
            dst,
            mem,
            offset,
            volatile,
        } => format!("r{dst} = ld{}.{ty} m{mem}[r{offset}]", vol(volatile)),
        Inst::Store {
            ty,
            mem,
            offset,
            src,
            volatile,
        } => format!("st{}.{ty} m{mem}[r{offset}] = r{src}", vol(volatile)),
        Inst::Atomic {
            op,
            ty,
            dst,
            mem,
            offset,
            value,
            compare,
        } => {
            let d = dst.map(|d| format!("r{d} = ")).unwrap_or_default();
            let c = compare.map(|c| format!(", r{c}")).unwrap_or_default();
            format!("{d}{}.{ty} m{mem}[r{offset}], r{value}{c}", op.c_name())
        }
        Inst::Jump { target } => format!("jump {target}"),
        Inst::Branch { cond, target, when } => {
            format!("branch {}r{cond} -> {target}", if when { "" } else { "!" })
        }
        Inst::Barrier { id } => format!("barrier #{id}"),
        Inst::GridBarrier { id } => format!("grid barrier #{id}"),
        Inst::SyncWarp { mask } => format!("syncwarp r{mask}"),
        Inst::Shuffle {
            kind,
            ty,
            dst,
            mask,
            value,
            lane,
            width,
        } => format!(
            "r{dst} = {}.{ty} r{mask}, r{value}, r{lane}, r{width}",
            kind.c_name()
        ),
        Inst::Vote {
            kind,
            dst,
            mask,
            pred,
        } => format!("r{dst} = {} r{mask}, r{pred}", kind.c_name()),
        Inst::ActiveMask { dst } => format!("r{dst} = __activemask"),
        Inst::Arbitrary { dst, ty } => format!("r{dst} = arbitrary.{ty}"),
        Inst::BarrierVote {
            id,
            kind,
            dst,
            pred,
        } => format!("r{dst} = {} #{id} r{pred}", kind.c_name()),
        Inst::Assume { cond } => format!("assume r{cond}"),
        Inst::Assert { cond, .. } => format!("assert r{cond}"),
        Inst::Exit => "exit".to_string(),
    }
}

fn chk(checked: bool) -> &'static str {
    if checked {
        ".chk"
    } else {
        ""
    }
}

/// The `.volatile` qualifier of a load or store, as PTX writes it.
fn vol(volatile: bool) -> &'static str {
    if volatile {
        ".volatile"
    } else {
        ""
    }
}

fn unary_name(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Neg => "neg",
        UnaryOp::BitNot => "not",
        UnaryOp::Not => "lnot",
    }
}

fn binary_name(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "add",
        BinaryOp::Sub => "sub",
        BinaryOp::Mul => "mul",
        BinaryOp::Div => "div",
        BinaryOp::Rem => "rem",
        BinaryOp::And => "and",
        BinaryOp::Or => "or",
        BinaryOp::Xor => "xor",
        BinaryOp::Shl => "shl",
        BinaryOp::Shr => "shr",
        BinaryOp::Min => "min",
        BinaryOp::Max => "max",
    }
}

fn cmp_name(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "eq",
        CmpOp::Ne => "ne",
        CmpOp::Lt => "lt",
        CmpOp::Le => "le",
        CmpOp::Gt => "gt",
        CmpOp::Ge => "ge",
    }
}
