//! Executes one instruction for the lanes of a warp that stand at the same pc: decode once,
//! then loop over lanes.

use super::alu::{self, Lanes};
use super::context::{coords, Ctx};
use super::findings::Party;
use super::memory::{self, lanes};
use super::worker::{Worker, BARRIER, EXITED, PARKED, WARP};
use crate::report::Severity;
use crate::thread::code::Inst;
use warpsafe_ir::{Builtin, Category, Check};

const FULL: u32 = u32::MAX;

/// Writes `v` into the lanes of `d` selected by `mask`.
#[inline(always)]
fn put(d: &mut Lanes, mask: u32, v: &Lanes) {
    if mask == FULL {
        *d = *v;
    } else {
        for i in 0..32 {
            if mask >> i & 1 != 0 {
                d[i] = v[i];
            }
        }
    }
}

/// Runs instruction `pc` for the lanes of `warp` in `mask` and advances their pcs.
pub(crate) fn exec(ctx: &Ctx, w: &mut Worker, warp: usize, pc: u32, mask: u32) {
    let Some(&inst) = ctx.insts.get(pc as usize) else {
        park(w, warp, pc, mask, EXITED);
        return;
    };
    let base = warp * ctx.nregs;
    let r = |x: u32| base + x as usize;
    match inst {
        Inst::Const { dst, bits, .. } => put(&mut w.regs[r(dst)], mask, &[bits; 32]),
        Inst::Param { dst, index, .. } => {
            let bits = ctx.params.get(index as usize).copied().unwrap_or(0);
            put(&mut w.regs[r(dst)], mask, &[bits; 32]);
        }
        Inst::AllocLen { dst, mem } => {
            let bits = ctx.mems.get(mem as usize).map(|m| m.len).unwrap_or(0);
            put(&mut w.regs[r(dst)], mask, &[bits; 32]);
        }
        Inst::Mov { dst, src } => {
            let v = w.regs[r(src)];
            put(&mut w.regs[r(dst)], mask, &v);
        }
        Inst::Unary {
            op,
            ty,
            dst,
            a,
            checked,
        } => {
            let av = w.regs[r(a)];
            let res = alu::unary(op, ty, checked, &av);
            put(&mut w.regs[r(dst)], mask, &res.value);
            let ovf = res.overflow & mask;
            if ovf != 0 && ctx.checks.overflow {
                for lane in lanes(ovf) {
                    let v = warpsafe_ir::Value::from_bits(ty, av[lane]);
                    arith(ctx, w, warp, lane, pc, Category::Overflow, || {
                        format!("signed overflow in {ty} negation of {v}")
                    });
                }
            }
        }
        Inst::Binary {
            op,
            ty,
            dst,
            a,
            b,
            checked,
        } => {
            let av = w.regs[r(a)];
            let bv = w.regs[r(b)];
            let res = alu::binary(op, ty, checked, &av, &bv);
            put(&mut w.regs[r(dst)], mask, &res.value);
            let ovf = res.overflow & mask;
            let dz = res.div_zero & mask;
            if (ovf != 0 && ctx.checks.overflow) || (dz != 0 && ctx.checks.div_by_zero) {
                binary_faults(ctx, w, warp, pc, (ovf, dz), &inst, (&av, &bv));
            }
        }
        Inst::Cmp { op, ty, dst, a, b } => {
            let v = alu::compare(op, ty, &w.regs[r(a)], &w.regs[r(b)]);
            put(&mut w.regs[r(dst)], mask, &v);
        }
        Inst::Cast { from, to, dst, src } => {
            let s = w.regs[r(src)];
            let mut v = [0u64; 32];
            for lane in lanes(mask) {
                v[lane] = alu::cast(from, to, s[lane]);
            }
            put(&mut w.regs[r(dst)], mask, &v);
        }
        Inst::Select { dst, cond, a, b } => {
            let (c, av, bv) = (w.regs[r(cond)], w.regs[r(a)], w.regs[r(b)]);
            let mut v = [0u64; 32];
            for i in 0..32 {
                v[i] = if c[i] & 1 != 0 { av[i] } else { bv[i] };
            }
            put(&mut w.regs[r(dst)], mask, &v);
        }
        Inst::Math { f, ty, dst, args } => {
            let rows = args.map(|x| w.regs[r(x)]);
            let mut v = [0u64; 32];
            for lane in lanes(mask) {
                v[lane] = alu::math(f, ty, [rows[0][lane], rows[1][lane], rows[2][lane]]);
            }
            put(&mut w.regs[r(dst)], mask, &v);
        }
        Inst::Special { dst, which } => {
            let mut v = [0u64; 32];
            for lane in lanes(mask) {
                let tid = (warp * 32 + lane) as u32;
                v[lane] = match which {
                    Builtin::ThreadIdx(d) => ctx.thread_idx(tid)[d.index()],
                    Builtin::BlockIdx(d) => w.block[d.index()],
                    Builtin::BlockDim(d) => ctx.cfg.block[d.index()],
                    Builtin::GridDim(d) => ctx.cfg.grid[d.index()],
                    Builtin::WarpSize => 32,
                    Builtin::LaneId => tid % 32,
                } as u64;
            }
            put(&mut w.regs[r(dst)], mask, &v);
        }
        Inst::Load {
            dst, mem, offset, ..
        } => memory::load(ctx, w, warp, pc, mask, dst, mem, offset),
        Inst::Store {
            mem, offset, src, ..
        } => memory::store(ctx, w, warp, pc, mask, mem, offset, src),
        Inst::Atomic {
            op,
            ty,
            dst,
            mem,
            offset,
            value,
            compare,
        } => memory::atomic(
            ctx, w, warp, pc, mask, op, ty, dst, mem, offset, value, compare,
        ),
        Inst::Jump { target } => {
            let pcs = &mut w.pcs[warp];
            for (i, p) in pcs.iter_mut().enumerate() {
                if mask >> i & 1 != 0 {
                    *p = target;
                }
            }
            return;
        }
        Inst::Branch { cond, target, when } => {
            let c = w.regs[r(cond)];
            let pcs = &mut w.pcs[warp];
            for (i, p) in pcs.iter_mut().enumerate() {
                if mask >> i & 1 != 0 {
                    *p = if (c[i] & 1 != 0) == when {
                        target
                    } else {
                        pc + 1
                    };
                }
            }
            return;
        }
        Inst::Barrier { .. } | Inst::BarrierVote { .. } | Inst::GridBarrier { .. } => {
            park(w, warp, pc, mask, BARRIER);
            return;
        }
        Inst::ActiveMask { dst } => {
            // The lanes executing together: those at this pc in this step of the warp.
            let d = r(dst);
            for lane in lanes(mask) {
                w.regs[d][lane] = mask as u64;
            }
        }
        Inst::Arbitrary { dst, ty } => {
            let d = r(dst);
            let block = (w.block[2] as u64) << 42 | (w.block[1] as u64) << 21 | w.block[0] as u64;
            for lane in lanes(mask) {
                let tid = (warp * 32 + lane) as u64;
                let n = w.draws[warp][lane];
                w.draws[warp][lane] = n.wrapping_add(1);
                let seed = splitmix64(splitmix64(block) ^ tid << 32 ^ n);
                w.regs[d][lane] = arbitrary_bits(ty, seed);
            }
        }
        Inst::SyncWarp { mask: m } | Inst::Shuffle { mask: m, .. } | Inst::Vote { mask: m, .. } => {
            let mv = w.regs[r(m)];
            for lane in lanes(mask) {
                w.wait_mask[warp][lane] = mv[lane] as u32;
            }
            park(w, warp, pc, mask, WARP);
            return;
        }
        Inst::Assume { cond } | Inst::Assert { cond, .. } => {
            let c = w.regs[r(cond)];
            let failed = lanes(mask).filter(|&l| c[l] & 1 == 0);
            let check = match inst {
                Inst::Assert { check, .. } => Some(check),
                _ => None,
            };
            let assume = check.is_none();
            for lane in failed.collect::<Vec<_>>() {
                let tid = (warp * 32 + lane) as u32;
                let block = w.block;
                let sev = if assume {
                    Severity::Warning
                } else {
                    Severity::Error
                };
                w.sink.report(
                    ctx,
                    check.map_or(Category::Assert, Check::category),
                    sev,
                    Party { block, tid, pc },
                    None,
                    || {
                        let what = match check {
                            None => "assumption does not hold for this launch",
                            Some(Check::User) => "assertion failed",
                            Some(c) => c.failure(),
                        };
                        (
                            format!(
                                "{what} in thread {} of block {}",
                                ctx.thread_text(tid),
                                coords(block)
                            ),
                            None,
                        )
                    },
                );
            }
        }
        Inst::Exit => {
            park(w, warp, pc, mask, EXITED);
            return;
        }
    }
    let next = pc + 1;
    let pcs = &mut w.pcs[warp];
    for (i, p) in pcs.iter_mut().enumerate() {
        if mask >> i & 1 != 0 {
            *p = next;
        }
    }
}

/// Takes lanes out of scheduling into `state`, remembering where they stopped.
fn park(w: &mut Worker, warp: usize, pc: u32, mask: u32, state: u8) {
    for lane in lanes(mask) {
        w.pcs[warp][lane] = PARKED;
        w.wait_pc[warp][lane] = pc;
        w.state[warp][lane] = state;
    }
}

fn arith(
    ctx: &Ctx,
    w: &mut Worker,
    warp: usize,
    lane: usize,
    pc: u32,
    cat: Category,
    what: impl FnOnce() -> String,
) {
    let tid = (warp * 32 + lane) as u32;
    let block = w.block;
    w.sink.report(
        ctx,
        cat,
        ctx.severity(cat),
        Party { block, tid, pc },
        None,
        || {
            (
                format!(
                    "{} in thread {} of block {}",
                    what(),
                    ctx.thread_text(tid),
                    coords(block)
                ),
                None,
            )
        },
    );
}

fn binary_faults(
    ctx: &Ctx,
    w: &mut Worker,
    warp: usize,
    pc: u32,
    (ovf, dz): (u32, u32),
    inst: &Inst,
    (av, bv): (&Lanes, &Lanes),
) {
    let Inst::Binary { op, ty, .. } = *inst else {
        return;
    };
    let name = match op {
        crate::thread::code::BinaryOp::Add => "+",
        crate::thread::code::BinaryOp::Sub => "-",
        crate::thread::code::BinaryOp::Mul => "*",
        crate::thread::code::BinaryOp::Div => "/",
        crate::thread::code::BinaryOp::Rem => "%",
        _ => "operation",
    };
    let val = |b: u64| warpsafe_ir::Value::from_bits(ty, b);
    if ctx.checks.overflow {
        for lane in lanes(ovf) {
            let (x, y) = (val(av[lane]), val(bv[lane]));
            arith(ctx, w, warp, lane, pc, Category::Overflow, || {
                format!("signed {ty} overflow in `{x} {name} {y}`")
            });
        }
    }
    if ctx.checks.div_by_zero {
        for lane in lanes(dz) {
            let x = val(av[lane]);
            arith(ctx, w, warp, lane, pc, Category::DivByZero, || {
                format!("integer division by zero in `{x} {name} 0`")
            });
        }
    }
}

/// SplitMix64's finaliser: a well-mixed 64-bit hash of `x` (the interpreter's arbitrary values
/// are deterministic, so runs replay).
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The register bits of an arbitrary value of type `ty` drawn from `seed`: any value of the
/// type, except that floats are kept finite (an infinity or NaN is rebuilt with a smaller
/// exponent) so that a run's outputs stay readable.
fn arbitrary_bits(ty: warpsafe_ir::ScalarType, seed: u64) -> u64 {
    use warpsafe_ir::ScalarType as T;
    let width = ty.bits();
    let bits = if width >= 64 {
        seed
    } else {
        seed & ((1u64 << width) - 1)
    };
    let exp_mask = match ty {
        T::Bool => return bits & 1,
        T::F16 => 0x7c00,
        T::F32 => 0x7f80_0000,
        T::F64 => 0x7ff0_0000_0000_0000,
        _ => return bits,
    };
    if bits & exp_mask == exp_mask {
        // Clear the exponent's top bit: a finite value.
        let top = exp_mask & !(exp_mask >> 1);
        bits & !top
    } else {
        bits
    }
}
