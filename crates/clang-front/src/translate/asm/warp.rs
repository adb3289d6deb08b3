//! Barriers, fences and warp collectives: `bar.sync 0`/`barrier.sync 0` is `__syncthreads()`,
//! `bar.warp.sync m` is `__syncwarp(m)`, `membar`/`fence` order nothing between threads
//! without a barrier and are dropped (as the front end drops `__threadfence`),
//! `shfl.sync.{up,down,bfly,idx}.b32` is the shuffle intrinsic of the same width (its
//! clamp operand must be a constant that a width gives), with the `d|p` lane-valid predicate
//! computed from PTX's definition, `vote.sync.{ballot,any,all,uni}`, `activemask` and
//! `match.any.sync`.

use super::instr::{only, op, why, Step};
use super::regs::Tr;
use super::special::lane_id;
use warpsafe_cuda_front::ast::{BinaryOp, Stmt, StmtKind};
use warpsafe_ir::ScalarType;
use warpsafe_ptx::{Instruction, Operand};

use BinaryOp::*;

const U32: ScalarType = ScalarType::U32;

/// `bar`, `barrier`, `membar`, `fence`, `shfl`, `vote`, `activemask`, `match`.
pub fn warp(tr: &mut Tr, i: &Instruction, out: &mut Vec<Stmt>) -> Step {
    let b = tr.b;
    let m: Vec<&str> = i.modifiers.iter().map(String::as_str).collect();
    match i.opcode.as_str() {
        "bar" | "barrier" => {
            if m.first() == Some(&"warp") {
                only(i, &["warp", "sync"])?;
                let mask = why(tr.read(op(i, 0)?, U32))?;
                out.push(b.stmt(StmtKind::Expr(b.call("__syncwarp", vec![mask]))));
                return Ok(());
            }
            only(i, &["sync", "aligned"])?;
            if m.first() != Some(&"sync") && !(i.opcode == "bar" && m.is_empty()) {
                return Err(None);
            }
            if tr.konst(op(i, 0)?) != Some(0) {
                return Err(Some("a named barrier other than the constant 0".into()));
            }
            if i.operands.len() > 1 {
                return Err(Some("a barrier with a thread count".into()));
            }
            out.push(b.stmt(StmtKind::Expr(b.call("__syncthreads", vec![]))));
            Ok(())
        }
        "membar" => {
            only(i, &["cta", "gl", "sys"])?;
            Ok(())
        }
        "fence" => {
            only(i, &["sc", "acq_rel", "cta", "gpu", "sys", "cluster"])?;
            Ok(())
        }
        "activemask" => {
            let v = b.call("__activemask", vec![]);
            why(tr.write(op(i, 0)?, v, U32, out))
        }
        "vote" => vote(tr, i, &m, out),
        "match" => {
            if m != ["any", "sync"] || i.types.first().map(String::as_str) != Some("b32") {
                return Err(None);
            }
            let v = why(tr.read(op(i, 1)?, U32))?;
            let mask = why(tr.read(op(i, 2)?, U32))?;
            let r = b.call("__match_any_sync", vec![mask, v]);
            why(tr.write(op(i, 0)?, r, U32, out))
        }
        "shfl" => shfl(tr, i, &m, out),
        _ => Err(None),
    }
}

fn vote(tr: &mut Tr, i: &Instruction, m: &[&str], out: &mut Vec<Stmt>) -> Step {
    let b = tr.b;
    if m.len() != 2 || m[1] != "sync" {
        return Err(Some("a vote without `.sync`".into()));
    }
    let p = why(tr.read(op(i, 1)?, ScalarType::Bool))?;
    let p = tr.temp(ScalarType::Bool, p, out);
    let mask = tr.temp(U32, why(tr.read(op(i, 2)?, U32))?, out);
    let d = op(i, 0)?;
    match m[0] {
        "ballot" => {
            let v = b.call("__ballot_sync", vec![mask, p]);
            why(tr.write(d, v, U32, out))
        }
        "any" | "all" => {
            let f = if m[0] == "any" {
                "__any_sync"
            } else {
                "__all_sync"
            };
            let v = b.bin(Ne, b.call(f, vec![mask, p]), b.int(0, ScalarType::I32));
            why(tr.write(d, v, ScalarType::Bool, out))
        }
        "uni" => {
            let all = b.call("__all_sync", vec![mask.clone(), p.clone()]);
            let all = tr.temp(ScalarType::I32, all, out);
            let any = b.call("__any_sync", vec![mask, p]);
            let any = tr.temp(ScalarType::I32, any, out);
            let z = || b.int(0, ScalarType::I32);
            let v = b.bin(Or, b.bin(Ne, all, z()), b.bin(Eq, any, z()));
            why(tr.write(d, v, ScalarType::Bool, out))
        }
        _ => Err(None),
    }
}

fn shfl(tr: &mut Tr, i: &Instruction, m: &[&str], out: &mut Vec<Stmt>) -> Step {
    let b = tr.b;
    let (mode, rest) = match m {
        ["sync", mode, rest @ ..] => (*mode, rest),
        _ => return Err(Some("a shuffle without `.sync`".into())),
    };
    if !rest.iter().all(|r| *r == "aligned") {
        return Err(Some(format!("the modifier `.{}`", rest[0])));
    }
    if i.types.first().map(String::as_str) != Some("b32") {
        return Err(Some("a shuffle of a type other than `.b32`".into()));
    }
    let c = tr
        .konst(op(i, 3)?)
        .ok_or_else(|| Some("a shuffle whose clamp operand `c` is not a constant".to_string()))?;
    let seg = (c >> 8) & 0x1f;
    let clamp = c & 0x1f;
    let width = 32 - seg;
    let standard_clamp = if mode == "up" { 0 } else { 0x1f };
    if c >> 13 != 0 || width & (width - 1) != 0 || clamp != standard_clamp {
        return Err(Some(format!(
            "the clamp operand {c:#x} (only `((32 - width) << 8) | {standard_clamp:#x}` for a \
             power-of-two width, as the CUDA intrinsics pass, is modelled)"
        )));
    }
    let f = match mode {
        "up" => "__shfl_up_sync",
        "down" => "__shfl_down_sync",
        "bfly" => "__shfl_xor_sync",
        "idx" => "__shfl_sync",
        other => return Err(Some(format!("the mode `.{other}`"))),
    };
    let (v, vt) = why(tr.read_own(op(i, 1)?, U32))?;
    if vt.bits() != 32 {
        return Err(Some("a shuffled register that is not 32 bits".into()));
    }
    let lane_arg = tr.temp(
        U32,
        b.bin(BitAnd, why(tr.read(op(i, 2)?, U32))?, b.int(0x1f, U32)),
        out,
    );
    let mask = tr.temp(U32, why(tr.read(op(i, 4)?, U32))?, out);
    let w = b.int(width as u64, ScalarType::I32);
    let call = b.call(f, vec![mask, v, lane_arg.clone(), w]);
    let (d, p) = match op(i, 0)? {
        Operand::Pair(d, p) => (Operand::Reg(d.clone()), Some(p.clone())),
        d => (d.clone(), None),
    };
    why(tr.write(&d, call, vt, out))?;
    if let Some(p) = p {
        // PTX: with segment mask `s` and clamp `k`, a lane's bound is `(lane & s) | (k & ~s)`;
        // the source lane is valid when it lies within it.
        let s = b.int((seg as u64) & 0x1f, U32);
        let lane = tr.temp(U32, lane_id(&b), out);
        let max_lane = b.bin(
            BitOr,
            b.bin(BitAnd, lane.clone(), s.clone()),
            b.int((clamp as u64) & !(seg as u64) & 0x1f, U32),
        );
        let max_lane = tr.temp(U32, max_lane, out);
        let valid = match mode {
            "up" => b.bin(
                Ge,
                b.bin(
                    Sub,
                    b.cast(ScalarType::I32, lane.clone()),
                    b.cast(ScalarType::I32, lane_arg.clone()),
                ),
                b.cast(ScalarType::I32, max_lane),
            ),
            "down" => b.bin(Le, b.bin(Add, lane, lane_arg), max_lane),
            "bfly" => b.bin(Le, b.bin(BitXor, lane, lane_arg), max_lane),
            _ => {
                let not_s = b.int(!(seg as u64) & 0x1f, U32);
                let j = b.bin(
                    BitOr,
                    b.bin(BitAnd, lane, s),
                    b.bin(BitAnd, lane_arg, not_s),
                );
                b.bin(Le, j, max_lane)
            }
        };
        let p = Operand::Reg(p);
        why(tr.write(&p, valid, ScalarType::Bool, out))?;
    }
    Ok(())
}
