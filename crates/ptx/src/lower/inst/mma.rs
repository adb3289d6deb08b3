//! `mma.sync.aligned` (warp-level tensor-core multiply-accumulate) and `ldmatrix` (the
//! warp-collective load of 8×8 `b16` matrices that feeds it), with the fragment layouts the
//! PTX ISA specifies.
//!
//! `mma.m16n8kK.row.col` (K = 8 or 16) with `.f16` A and B: with `g = lane >> 2` and
//! `t = lane % 4`, A element `a_i` is at row `g + 8·((i >> 1) & 1)`, column
//! `2t + (i & 1) + 8·(i >> 2)`; B element `b_i` at row `2t + (i & 1) + 8·(i >> 1)`, column
//! `g`; C and D element `c_i` at row `g + 8·(i >> 1)`, column `2t + (i & 1)`. So A element
//! `(r, k)` is slot `(k & 1) + 2·(r >> 3) + 4·(k >> 3)` of lane `4·(r & 7) + (k & 7) / 2`
//! and B element `(k, n)` slot `(k & 1) + 2·(k >> 3)` of lane `4n + (k & 7) / 2`: for one
//! element of D and one `k` the slot is the same on every lane, so each operand is gathered
//! with one `shfl.sync.idx`, and the products are summed onto C in `k` order. A and B are
//! read from the values `ldmatrix` kept beside their registers, as
//! `wmma.mma` does ([`check_mma_fragments`] refuses any other writer); `.f16` C is read from
//! its register bits.
//!
//! `ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared.b16`: lanes `8j..8j+7` give the
//! row addresses of matrix `j`; each lane receives, in register `j`, the two `b16` of row
//! `lane / 4` at columns `2·(lane % 4)` and `+1` (`.trans`: of column `lane / 4` at rows
//! `2·(lane % 4)` and `+1`). Each row address is fetched from its lane with a shuffle, then
//! loaded from shared memory.
//!
//! Both are warp-collective: each first waits for the whole warp (`bar.warp.sync` of the full
//! mask), so a missing or diverged lane is reported by the executor, never assumed away.

use super::wmma::fragment_names;
use super::{bin, cast, has, Lowerer, Res};
use crate::ast::Instruction;
use crate::lower::flat::Flat;
use crate::lower::LowerError;
use std::collections::HashSet;
use warpsafe_exec::thread::code::{BinaryOp, Inst, MemId, Reg};
use warpsafe_ir::{Builtin, ScalarType, ShuffleKind};

/// The `mma` shapes modelled: `m16n8k8` and `m16n8k16`; the value is K.
fn mma_k(i: &Instruction) -> Res<u32> {
    let shape = i.modifiers.iter().find(|m| {
        m.starts_with('m')
            && m.contains('n')
            && m.contains('k')
            && m[1..].starts_with(char::is_numeric)
    });
    match shape.map(String::as_str) {
        Some("m16n8k16") => Ok(16),
        Some("m16n8k8") => Ok(8),
        Some(other) => Err(LowerError::at(
            i,
            format!(
                "`mma` shape `.{other}` is not modelled (only .m16n8k8 and .m16n8k16), in `{}`",
                full(i)
            ),
        )),
        None => Err(LowerError::at(i, "`mma` needs a shape (`.m16n8k16`, ...)")),
    }
}

/// `opcode.mods.types` as written.
fn full(i: &Instruction) -> String {
    super::full_name(i, &i.opcode)
}

/// The names of A and B fragment registers of every `mma` of `flat`.
fn operand_names(flat: &Flat) -> Res<HashSet<String>> {
    let mut out = HashSet::new();
    for i in flat.instrs().filter(|i| i.opcode == "mma") {
        for n in [1, 2] {
            out.extend(fragment_names(i, n)?);
        }
    }
    Ok(out)
}

/// `mma` reads its `.f16` A and B operands from the values `ldmatrix` kept beside the
/// registers, which is exact only when nothing else writes them: any other writer of an `mma`
/// A or B register is refused here, naming it (`wmma.load` too: its fragments have the layout
/// of our `<mma.h>`, not the one `mma` reads).
pub(crate) fn check_mma_fragments(flat: &Flat) -> Res<()> {
    let operands = operand_names(flat)?;
    if operands.is_empty() {
        return Ok(());
    }
    for i in flat.instrs() {
        if matches!(i.opcode.as_str(), "ldmatrix" | "st" | "red") {
            continue;
        }
        let written = super::wmma::written_registers(i);
        if let Some(r) = written.into_iter().find(|r| operands.contains(*r)) {
            return Err(LowerError::at(
                i,
                format!(
                    "`{r}` is an A or B fragment of `mma` and is written here by `{}`; \
                     warpsafe models fragments written only by `ldmatrix`",
                    i.opcode
                ),
            ));
        }
    }
    Ok(())
}

/// Fragment slots of the A element (`row`, `k`) and of the B element (`k`, `col`).
mod layout {
    /// Slot of A element (`r`, `k`) (its lane is `4·(r & 7) + (k & 7) / 2`).
    pub(super) fn a_slot(r_hi: u32, k: u32) -> u32 {
        (k & 1) + 2 * r_hi + 4 * (k >> 3)
    }

    /// Slot of B element (`k`, `n`) (its lane is `4n + (k & 7) / 2`).
    pub(super) fn b_slot(k: u32) -> u32 {
        (k & 1) + 2 * (k >> 3)
    }
}

impl Lowerer<'_> {
    /// `mma.sync.aligned.m16n8kK.row.col.dtype.f16.f16.ctype d, a, b, c`.
    pub(super) fn mma(&mut self, i: &Instruction) -> Res<()> {
        if !has(i, "sync") || !has(i, "aligned") {
            return Err(LowerError::at(i, "`mma` needs `.sync.aligned`"));
        }
        let k = mma_k(i)?;
        if let Some(m) = i.modifiers.iter().find(|m| {
            !matches!(m.as_str(), "sync" | "aligned" | "row" | "col") && !m.starts_with("m16n8k")
        }) {
            return Err(LowerError::at(
                i,
                format!("`mma` with `.{m}` is not modelled, in `{}`", full(i)),
            ));
        }
        if !has(i, "row") || !has(i, "col") {
            return Err(LowerError::at(
                i,
                format!("`mma` needs `.row.col`, in `{}`", full(i)),
            ));
        }
        let [dty, aty, bty, cty] = i.types.as_slice() else {
            return Err(LowerError::at(
                i,
                format!(
                    "`mma` needs four types (`.f32.f16.f16.f32`), in `{}`",
                    full(i)
                ),
            ));
        };
        if aty != "f16" || bty != "f16" {
            return Err(LowerError::at(
                i,
                format!(
                    "`mma` of `.{aty}` × `.{bty}` operands is not modelled (only .f16), in `{}`",
                    full(i)
                ),
            ));
        }
        let acc = |t: &str| -> Res<(ScalarType, u32)> {
            match t {
                "f32" => Ok((ScalarType::F32, 1)),
                "f16" => Ok((ScalarType::F16, 2)),
                other => Err(LowerError::at(
                    i,
                    format!(
                        "`mma` accumulators of `.{other}` are not modelled (only .f16 and .f32), in `{}`",
                        full(i)
                    ),
                )),
            }
        };
        let ((dt, dper), (ct, cper)) = (acc(dty)?, acc(cty)?);
        let (a, b) = (fragment_names(i, 1)?, fragment_names(i, 2)?);
        let (d, c) = (self.fragment_regs(i, 0)?, self.fragment_regs(i, 3)?);
        let want = [
            ("A", a.len(), k as usize / 4),
            ("B", b.len(), k as usize / 8),
            ("C", c.len(), 4 / cper as usize),
            ("D", d.len(), 4 / dper as usize),
        ];
        if let Some((what, got, n)) = want.iter().find(|(_, got, n)| got != n) {
            return Err(LowerError::at(
                i,
                format!(
                    "`mma` {what} takes {n} registers here, not {got}, in `{}`",
                    full(i)
                ),
            ));
        }
        let full_mask = self.e.konst(0xffff_ffff, ScalarType::U32);
        self.e.emit(Inst::SyncWarp { mask: full_mask });
        let (u, f) = (ScalarType::U32, ScalarType::F32);
        let lane = self.e.temp();
        self.e.emit(Inst::Special {
            dst: lane,
            which: Builtin::LaneId,
        });
        let (g, t) = (self.e.temp(), self.e.temp());
        let (k2, k3) = (self.e.konst(2, u), self.e.konst(3, u));
        self.e.emit(bin(BinaryOp::Shr, u, g, lane, k2));
        self.e.emit(bin(BinaryOp::And, u, t, lane, k3));
        // The operands of row half `h` of A and column `2t + p` of B, by `k`.
        let mut a_of = vec![vec![]; 2];
        let mut b_of = vec![vec![]; 2];
        for h in 0..2u32 {
            for kk in 0..k {
                // Lane 4g + (kk & 7) / 2.
                let src = self.lane_expr(g, 4, (kk & 7) / 2);
                let v = self.fetch_half(&a, layout::a_slot(h, kk), src);
                a_of[h as usize].push(v);
            }
        }
        for p in 0..2u32 {
            let col = self.lane_expr(t, 2, p);
            for kk in 0..k {
                // Lane 4·col + (kk & 7) / 2.
                let src = self.lane_expr(col, 4, (kk & 7) / 2);
                let v = self.fetch_half(&b, layout::b_slot(kk), src);
                b_of[p as usize].push(v);
            }
        }
        let mut out = Vec::new();
        for e in 0..4u32 {
            let accum = self.e.temp();
            let c0 = self.slot_f32(&c, cper, ct, e);
            self.e.emit(Inst::Mov {
                dst: accum,
                src: c0,
            });
            for kk in 0..k as usize {
                let prod = self.e.temp();
                let (av, bv) = (a_of[(e >> 1) as usize][kk], b_of[(e & 1) as usize][kk]);
                self.e.emit(bin(BinaryOp::Mul, f, prod, av, bv));
                self.e.emit(bin(BinaryOp::Add, f, accum, accum, prod));
            }
            out.push(if dt == ScalarType::F16 {
                let h = self.e.temp();
                self.e.emit(cast(f, ScalarType::F16, h, accum));
                h
            } else {
                accum
            });
        }
        self.fill_registers(&d, dper, &out);
        Ok(())
    }

    /// A fresh register holding `x·mul + add` (u32).
    fn lane_expr(&mut self, x: Reg, mul: u32, add: u32) -> Reg {
        let u = ScalarType::U32;
        let r = self.e.temp();
        let (km, ka) = (
            self.e.konst(u64::from(mul), u),
            self.e.konst(u64::from(add), u),
        );
        self.e.emit(bin(BinaryOp::Mul, u, r, x, km));
        self.e.emit(bin(BinaryOp::Add, u, r, r, ka));
        r
    }

    /// The `.f16` in slot `slot` of fragment `names` on lane `src`, as `f32`: this lane's
    /// value (kept beside register `names[slot / 2]`) sent by `shfl.sync.idx`.
    fn fetch_half(&mut self, names: &[String], slot: u32, src: Reg) -> Reg {
        let (u, f) = (ScalarType::U32, ScalarType::F32);
        let half = self.e.shadow(&names[(slot / 2) as usize], slot % 2);
        let mine = self.e.temp();
        self.e.emit(cast(ScalarType::F16, f, mine, half));
        let (mask, width) = (self.e.konst(0xffff_ffff, u), self.e.konst(32, u));
        let got = self.e.temp();
        self.e.emit(Inst::Shuffle {
            kind: ShuffleKind::Idx,
            ty: f,
            dst: got,
            mask,
            value: mine,
            lane: src,
            width,
        });
        got
    }

    /// `ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans].shared[::cta].b16 {regs}, [addr]`.
    pub(super) fn ldmatrix(&mut self, i: &Instruction) -> Res<()> {
        if !has(i, "sync") || !has(i, "aligned") {
            return Err(LowerError::at(i, "`ldmatrix` needs `.sync.aligned`"));
        }
        let count = if has(i, "x1") {
            1
        } else if has(i, "x2") {
            2
        } else if has(i, "x4") {
            4
        } else {
            return Err(LowerError::at(
                i,
                format!("`ldmatrix` needs .x1, .x2 or .x4, in `{}`", full(i)),
            ));
        };
        let trans = has(i, "trans");
        let known = |m: &str| {
            matches!(
                m,
                "sync"
                    | "aligned"
                    | "m8n8"
                    | "x1"
                    | "x2"
                    | "x4"
                    | "trans"
                    | "shared"
                    | "shared::cta"
            )
        };
        if let Some(m) = i.modifiers.iter().find(|m| !known(m)) {
            return Err(LowerError::at(
                i,
                format!("`ldmatrix` with `.{m}` is not modelled, in `{}`", full(i)),
            ));
        }
        if !has(i, "m8n8") || !(has(i, "shared") || has(i, "shared::cta")) {
            return Err(LowerError::at(
                i,
                format!(
                    "`ldmatrix` is modelled for `.m8n8` from `.shared` only, in `{}`",
                    full(i)
                ),
            ));
        }
        if i.types.as_slice() != ["b16"] {
            return Err(LowerError::at(
                i,
                format!(
                    "`ldmatrix` of other than `.b16` is not modelled, in `{}`",
                    full(i)
                ),
            ));
        }
        let names = fragment_names(i, 0)?;
        if names.len() != count {
            return Err(LowerError::at(
                i,
                format!(
                    "`ldmatrix` .x{count} writes {count} registers, not {}",
                    names.len()
                ),
            ));
        }
        let regs = self.fragment_regs(i, 0)?;
        let (mem, base) = self.address(i, 0)?;
        let full_mask = self.e.konst(0xffff_ffff, ScalarType::U32);
        self.e.emit(Inst::SyncWarp { mask: full_mask });
        let u = ScalarType::U32;
        let lane = self.e.temp();
        self.e.emit(Inst::Special {
            dst: lane,
            which: Builtin::LaneId,
        });
        let (q, r) = (self.e.temp(), self.e.temp());
        let (k2, k3) = (self.e.konst(2, u), self.e.konst(3, u));
        self.e.emit(bin(BinaryOp::Shr, u, q, lane, k2));
        self.e.emit(bin(BinaryOp::And, u, r, lane, k3));
        for (j, (&reg, name)) in regs.iter().zip(&names).enumerate() {
            let j = j as u32;
            let mut halves = Vec::new();
            for h in 0..2u32 {
                // Plain: row q of matrix j (lane 8j + q), byte 2·(2r + h) of it.
                // Transposed: row 2r + h (lane 8j + 2r + h), byte 2q of it.
                let (row_lane, col) = if trans {
                    (self.lane_expr(r, 2, 8 * j + h), q)
                } else {
                    let c = self.lane_expr(r, 2, h);
                    (self.lane_expr(q, 1, 8 * j), c)
                };
                let v = self.row_element(mem, base, row_lane, col);
                let shadow = self.e.shadow(name, h);
                self.e.emit(Inst::Mov {
                    dst: shadow,
                    src: v,
                });
                halves.push(v);
            }
            self.fill_registers(&[reg], 2, &halves);
        }
        Ok(())
    }

    /// The `b16` at column `col` of the row whose address (`base`, into `mem`) lane
    /// `row_lane` gave, loaded as `.f16`.
    fn row_element(&mut self, mem: MemId, base: Reg, row_lane: Reg, col: Reg) -> Reg {
        let (u, w) = (ScalarType::U32, ScalarType::I64);
        let (mask, width) = (self.e.konst(0xffff_ffff, u), self.e.konst(32, u));
        let row = self.e.temp();
        self.e.emit(Inst::Shuffle {
            kind: ShuffleKind::Idx,
            ty: w,
            dst: row,
            mask,
            value: base,
            lane: row_lane,
            width,
        });
        let off = self.e.temp();
        self.e.emit(cast(u, w, off, col));
        let k2 = self.e.konst(2, w);
        self.e.emit(bin(BinaryOp::Mul, w, off, off, k2));
        self.e.emit(bin(BinaryOp::Add, w, off, off, row));
        let v = self.e.temp();
        self.e.emit(Inst::Load {
            ty: ScalarType::F16,
            dst: v,
            mem,
            offset: off,
            volatile: false,
        });
        v
    }
}
