//! `wmma.load`, `wmma.store` and `wmma.mma` (warp matrix fragments) with the fragment layout
//! of our `<mma.h>` (the PTX ISA, like the CUDA guide, leaves it unspecified): each lane
//! holds `n = rows·cols/32` elements of its tile, element `e` of lane `l` being element
//! `p = l·n + e` of A and C taken row by row and of B column by column. A fragment's
//! registers hold more slots than `n` where the hardware duplicates (`.f16` A and B: eight
//! `.b32` registers, sixteen halves): slot `s` holds element `s mod n`. `mma` gathers each
//! product's operands with two `shfl.sync.idx` (the source slot is the same on every lane
//! because `n` divides K) and sums them onto C's element in `k` order. Every operation
//! first waits for the warp (`bar.warp.sync`), as the `.sync` qualifier requires.

use super::{bin, cast, has, Lowerer, Res};
use crate::ast::{Instruction, Operand};
use crate::lower::flat::Flat;
use crate::lower::LowerError;
use std::collections::HashSet;
use warpsafe_exec::thread::code::{BinaryOp, Inst, Reg};
use warpsafe_ir::{Builtin, ScalarType, ShuffleKind};

/// The fragment a `wmma` operand holds.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    A,
    B,
    C,
}

/// `mMnNkK`.
#[derive(Clone, Copy)]
struct Shape {
    m: u32,
    n: u32,
    k: u32,
}

impl Shape {
    /// Rows and columns of the tile of `role`.
    fn dims(self, role: Role) -> (u32, u32) {
        match role {
            Role::A => (self.m, self.k),
            Role::B => (self.k, self.n),
            Role::C => (self.m, self.n),
        }
    }

    /// Elements of the tile each lane holds.
    fn per_lane(self, role: Role) -> u32 {
        let (r, c) = self.dims(role);
        r * c / 32
    }
}

fn shape(i: &Instruction) -> Res<Shape> {
    for m in &i.modifiers {
        let dims: Option<Vec<u32>> = m
            .strip_prefix('m')
            .and_then(|r| r.split_once('n'))
            .and_then(|(a, r)| r.split_once('k').map(|(b, c)| vec![a, b, c]))
            .map(|v| v.iter().filter_map(|x| x.parse().ok()).collect());
        if let Some(d) = dims.filter(|d| d.len() == 3) {
            let s = Shape {
                m: d[0],
                n: d[1],
                k: d[2],
            };
            let fits = [Role::A, Role::B, Role::C]
                .iter()
                .all(|&r| s.per_lane(r) > 0 && (s.dims(r).0 * s.dims(r).1).is_multiple_of(32))
                && s.k.is_multiple_of(s.per_lane(Role::A))
                && s.k.is_multiple_of(s.per_lane(Role::B));
            if !fits {
                return Err(LowerError::at(
                    i,
                    format!("`wmma` shape `{m}` is not modelled"),
                ));
            }
            return Ok(s);
        }
    }
    Err(LowerError::at(
        i,
        "`wmma` needs a shape (`.m16n16k16`, ...)",
    ))
}

/// The register names of vector operand `n` of a `wmma` instruction.
pub(super) fn fragment_names(i: &Instruction, n: usize) -> Res<Vec<String>> {
    let Some(Operand::Vector(v)) = i.operands.get(n) else {
        return Err(LowerError::at(
            i,
            "`wmma` fragments are `{...}` register vectors",
        ));
    };
    v.iter()
        .map(|o| match o {
            Operand::Reg(r) => Ok(r.clone()),
            _ => Err(LowerError::at(i, "`wmma` fragments are registers")),
        })
        .collect()
}

/// `wmma.mma` reads its `.f16` A and B operands from the values `wmma.load` kept beside the
/// registers ([`Emitter::shadow`](crate::lower::emit::Emitter::shadow)), which is exact only
/// when nothing else writes those registers: any other writer is refused here, naming it.
pub(crate) fn check_wmma_fragments(flat: &Flat) -> Res<()> {
    let is = |i: &Instruction, m: &str| i.opcode == "wmma" && has(i, m);
    let mut operands: HashSet<String> = HashSet::new();
    for i in flat.instrs().filter(|i| is(i, "mma")) {
        for n in [1, 2] {
            operands.extend(fragment_names(i, n)?);
        }
    }
    if operands.is_empty() {
        return Ok(());
    }
    for i in flat.instrs() {
        if is(i, "load") || is(i, "store") || matches!(i.opcode.as_str(), "st" | "red") {
            continue;
        }
        if let Some(r) = written_registers(i)
            .into_iter()
            .find(|r| operands.contains(*r))
        {
            return Err(LowerError::at(
                i,
                format!(
                    "`{r}` is an A or B fragment of `wmma.mma` and is written here by `{}`; \
                     warpsafe models fragments written only by `wmma.load`",
                    i.opcode
                ),
            ));
        }
    }
    Ok(())
}

/// The registers instruction `i` writes through its first operand (one register, or the
/// registers of a `{...}` vector).
pub(super) fn written_registers(i: &Instruction) -> Vec<&str> {
    match i.operands.first() {
        Some(Operand::Reg(r)) => vec![r.as_str()],
        Some(Operand::Vector(v)) => v
            .iter()
            .filter_map(|o| match o {
                Operand::Reg(r) => Some(r.as_str()),
                _ => None,
            })
            .collect(),
        _ => vec![],
    }
}

/// Element type and elements per register of a fragment of PTX type `name`.
fn element(i: &Instruction, name: &str) -> Res<(ScalarType, u32)> {
    match name {
        "f16" => Ok((ScalarType::F16, 2)),
        "f32" => Ok((ScalarType::F32, 1)),
        other => Err(LowerError::at(
            i,
            format!("`wmma` fragments of `.{other}` are not modelled (only .f16 and .f32)"),
        )),
    }
}

impl Lowerer<'_> {
    /// Every `wmma` instruction.
    pub(super) fn wmma(&mut self, i: &Instruction) -> Res<()> {
        if !has(i, "sync") || !has(i, "aligned") {
            return Err(LowerError::at(i, "`wmma` needs `.sync.aligned`"));
        }
        let full = self.e.konst(0xffff_ffff, ScalarType::U32);
        self.e.emit(Inst::SyncWarp { mask: full });
        if has(i, "load") {
            self.wmma_load(i)
        } else if has(i, "store") {
            self.wmma_store(i)
        } else if has(i, "mma") {
            self.wmma_mma(i)
        } else {
            Err(LowerError::at(i, "`wmma` needs .load, .store or .mma"))
        }
    }

    /// The registers of vector operand `n`.
    pub(super) fn fragment_regs(&mut self, i: &Instruction, n: usize) -> Res<Vec<Reg>> {
        fragment_names(i, n)?
            .iter()
            .map(|r| Ok(self.e.reg(i, r)?.0))
            .collect()
    }

    /// Checks that `regs` registers of `per_reg` elements hold a whole number of copies of
    /// the `n` elements of a lane.
    fn slots(i: &Instruction, regs: usize, per_reg: u32, n: u32) -> Res<u32> {
        let slots = regs as u32 * per_reg;
        if slots < n || !slots.is_multiple_of(n) {
            return Err(LowerError::at(
                i,
                format!("a `wmma` fragment of {regs} registers cannot hold {n} elements per lane"),
            ));
        }
        Ok(slots)
    }

    /// `p = lane·n + e` and the tile row and column of element `e` of this lane's fragment
    /// of `role`.
    fn tile_position(&mut self, s: Shape, role: Role, e: u32) -> (Reg, Reg) {
        let u = ScalarType::U32;
        let n = s.per_lane(role);
        let (lane, p, r, c) = (self.e.temp(), self.e.temp(), self.e.temp(), self.e.temp());
        self.e.emit(Inst::Special {
            dst: lane,
            which: Builtin::LaneId,
        });
        let (kn, ke) = (self.e.konst(u64::from(n), u), self.e.konst(u64::from(e), u));
        self.e.emit(bin(BinaryOp::Mul, u, p, lane, kn));
        self.e.emit(bin(BinaryOp::Add, u, p, p, ke));
        // A and C row by row (p = r·cols + c), B column by column (p = c·K + r).
        let (major, minor) = match role {
            Role::A => (s.k, true),
            Role::B => (s.k, false),
            Role::C => (s.n, true),
        };
        let km = self.e.konst(u64::from(major), u);
        let (q, rem) = (self.e.temp(), self.e.temp());
        self.e.emit(bin(BinaryOp::Div, u, q, p, km));
        self.e.emit(bin(BinaryOp::Rem, u, rem, p, km));
        if minor {
            self.e.emit(Inst::Mov { dst: r, src: q });
            self.e.emit(Inst::Mov { dst: c, src: rem });
        } else {
            self.e.emit(Inst::Mov { dst: r, src: rem });
            self.e.emit(Inst::Mov { dst: c, src: q });
        }
        (r, c)
    }

    /// The memory role, layout and leading dimension of a `wmma.load`/`wmma.store`, whose
    /// stride is operand `stride_at` (the tile's own leading dimension when absent).
    fn wmma_access(
        &mut self,
        i: &Instruction,
        role: Role,
        s: Shape,
        stride_at: usize,
    ) -> Res<(bool, Reg)> {
        let row = if has(i, "row") {
            true
        } else if has(i, "col") {
            false
        } else {
            return Err(LowerError::at(i, "`wmma.load`/`.store` needs .row or .col"));
        };
        let (rows, cols) = s.dims(role);
        let ld = match i.operands.get(stride_at) {
            Some(_) => self.src(i, stride_at, ScalarType::U32)?,
            None => self
                .e
                .konst(u64::from(if row { cols } else { rows }), ScalarType::U32),
        };
        Ok((row, ld))
    }

    /// The byte offset of element `e` of this lane's fragment: the address operand plus
    /// `(r·ld + c)` (row layout) or `(c·ld + r)` (column layout) elements of `bytes`.
    fn element_offset(
        &mut self,
        base: Reg,
        (row, ld): (bool, Reg),
        (r, c): (Reg, Reg),
        bytes: u32,
    ) -> Reg {
        let (u, w) = (ScalarType::U32, ScalarType::I64);
        let idx = self.e.temp();
        let (major, minor) = if row { (r, c) } else { (c, r) };
        self.e.emit(bin(BinaryOp::Mul, u, idx, major, ld));
        self.e.emit(bin(BinaryOp::Add, u, idx, idx, minor));
        let wide = self.e.temp();
        self.e.emit(cast(u, w, wide, idx));
        let kb = self.e.konst(u64::from(bytes), w);
        self.e.emit(bin(BinaryOp::Mul, w, wide, wide, kb));
        self.e.emit(bin(BinaryOp::Add, w, wide, wide, base));
        wide
    }

    /// `wmma.load.{a,b,c}.sync.aligned.{row,col}.shape[.space].type {regs}, [addr][, stride]`.
    fn wmma_load(&mut self, i: &Instruction) -> Res<()> {
        let role = if has(i, "a") {
            Role::A
        } else if has(i, "b") {
            Role::B
        } else if has(i, "c") {
            Role::C
        } else {
            return Err(LowerError::at(i, "`wmma.load` needs .a, .b or .c"));
        };
        let s = shape(i)?;
        let ty = i.types.last().cloned().unwrap_or_default();
        let (et, per_reg) = element(i, &ty)?;
        let regs = self.fragment_regs(i, 0)?;
        let n = s.per_lane(role);
        Self::slots(i, regs.len(), per_reg, n)?;
        let access = self.wmma_access(i, role, s, 2)?;
        let (mem, base) = self.address(i, 0)?;
        let bytes = if et == ScalarType::F16 { 2 } else { 4 };
        let mut values = Vec::new();
        for e in 0..n {
            let pos = self.tile_position(s, role, e);
            let offset = self.element_offset(base, access, pos, bytes);
            let v = self.e.temp();
            self.e.emit(Inst::Load {
                ty: et,
                dst: v,
                mem,
                offset,
                volatile: false,
            });
            values.push(v);
        }
        self.fill_registers(&regs, per_reg, &values);
        if per_reg == 2 {
            for (j, name) in fragment_names(i, 0)?.iter().enumerate() {
                for h in 0..2u32 {
                    let shadow = self.e.shadow(name, h);
                    let src = values[((2 * j as u32 + h) % n) as usize];
                    self.e.emit(Inst::Mov { dst: shadow, src });
                }
            }
        }
        Ok(())
    }

    /// Writes slot `s` of `regs` (`per_reg` elements each) from `values[s mod n]`.
    pub(super) fn fill_registers(&mut self, regs: &[Reg], per_reg: u32, values: &[Reg]) {
        let u = ScalarType::U32;
        let n = values.len() as u32;
        for (j, &r) in regs.iter().enumerate() {
            let first = j as u32 * per_reg;
            if per_reg == 1 {
                self.e.emit(Inst::Mov {
                    dst: r,
                    src: values[(first % n) as usize],
                });
                continue;
            }
            let (lo, hi) = (
                values[(first % n) as usize],
                values[((first + 1) % n) as usize],
            );
            let (a, b) = (self.e.temp(), self.e.temp());
            self.e.emit(cast(ScalarType::U16, u, a, lo));
            self.e.emit(cast(ScalarType::U16, u, b, hi));
            let k16 = self.e.konst(16, u);
            self.e.emit(bin(BinaryOp::Shl, u, b, b, k16));
            self.e.emit(bin(BinaryOp::Or, u, r, a, b));
        }
    }

    /// The bits of slot `s` of a fragment (`per_reg` elements per register): the register,
    /// or its half `s mod 2` in the low 16 bits of a fresh register.
    pub(super) fn slot_bits(&mut self, regs: &[Reg], per_reg: u32, s: u32) -> Reg {
        let r = regs[(s / per_reg) as usize];
        if per_reg == 1 {
            return r;
        }
        let u = ScalarType::U32;
        let t = self.e.temp();
        let sh = self.e.konst(u64::from(16 * (s % 2)), u);
        self.e.emit(bin(BinaryOp::Shr, u, t, r, sh));
        let m = self.e.konst(0xffff, u);
        self.e.emit(bin(BinaryOp::And, u, t, t, m));
        t
    }

    /// `wmma.store.d.sync.aligned.{row,col}.shape[.space].type [addr], {regs}[, stride]`.
    fn wmma_store(&mut self, i: &Instruction) -> Res<()> {
        if !has(i, "d") {
            return Err(LowerError::at(i, "`wmma.store` stores .d fragments"));
        }
        let s = shape(i)?;
        let ty = i.types.last().cloned().unwrap_or_default();
        let (et, per_reg) = element(i, &ty)?;
        let regs = self.fragment_regs(i, 1)?;
        let n = s.per_lane(Role::C);
        Self::slots(i, regs.len(), per_reg, n)?;
        let access = self.wmma_access(i, Role::C, s, 2)?;
        let (mem, base) = self.address(i, 0)?;
        let bytes = if et == ScalarType::F16 { 2 } else { 4 };
        for e in 0..n {
            let v = self.slot_bits(&regs, per_reg, e);
            let pos = self.tile_position(s, Role::C, e);
            let offset = self.element_offset(base, access, pos, bytes);
            self.e.emit(Inst::Store {
                ty: et,
                mem,
                offset,
                src: v,
                volatile: false,
            });
        }
        Ok(())
    }

    /// Slot `s` of a fragment as an `f32` value.
    pub(super) fn slot_f32(&mut self, regs: &[Reg], per_reg: u32, et: ScalarType, s: u32) -> Reg {
        let bits = self.slot_bits(regs, per_reg, s);
        if et == ScalarType::F32 {
            return bits;
        }
        let f = self.e.temp();
        self.e.emit(cast(ScalarType::F16, ScalarType::F32, f, bits));
        f
    }

    /// `wmma.mma.sync.aligned.{alayout}.{blayout}.shape.dtype.ctype d, a, b, c` with `.f16`
    /// A and B.
    fn wmma_mma(&mut self, i: &Instruction) -> Res<()> {
        let s = shape(i)?;
        let [dty, cty] = i.types.as_slice() else {
            return Err(LowerError::at(
                i,
                "`wmma.mma` of operands other than .f16 (with .f16/.f32 accumulators) is not modelled",
            ));
        };
        if i.modifiers.iter().any(|m| {
            matches!(
                m.as_str(),
                "bf16" | "tf32" | "s8" | "u8" | "s4" | "u4" | "b1" | "f64"
            )
        }) {
            return Err(LowerError::at(
                i,
                "`wmma.mma` of operands other than .f16 is not modelled",
            ));
        }
        let (dt, dper) = element(i, dty)?;
        let (ct, cper) = element(i, cty)?;
        let (d, c) = (self.fragment_regs(i, 0)?, self.fragment_regs(i, 3)?);
        let (a, b) = (fragment_names(i, 1)?, fragment_names(i, 2)?);
        let (na, nb, nc) = (
            s.per_lane(Role::A),
            s.per_lane(Role::B),
            s.per_lane(Role::C),
        );
        Self::slots(i, a.len(), 2, na)?;
        Self::slots(i, b.len(), 2, nb)?;
        Self::slots(i, c.len(), cper, nc)?;
        Self::slots(i, d.len(), dper, nc)?;
        let (u, f) = (ScalarType::U32, ScalarType::F32);
        let full = self.e.konst(0xffff_ffff, u);
        let k32 = self.e.konst(32, u);
        let mut out = Vec::new();
        for e in 0..nc {
            let (row, col) = self.tile_position(s, Role::C, e);
            let acc = self.e.temp();
            let c0 = self.slot_f32(&c, cper, ct, e);
            self.e.emit(Inst::Mov { dst: acc, src: c0 });
            for k in 0..s.k {
                let av = self.gathered(&a, na, row, k, s.k, (full, k32));
                let bv = self.gathered(&b, nb, col, k, s.k, (full, k32));
                let p = self.e.temp();
                self.e.emit(bin(BinaryOp::Mul, f, p, av, bv));
                self.e.emit(bin(BinaryOp::Add, f, acc, acc, p));
            }
            let v = if dt == ScalarType::F16 {
                let h = self.e.temp();
                self.e.emit(cast(f, ScalarType::F16, h, acc));
                h
            } else {
                acc
            };
            out.push(v);
        }
        self.fill_registers(&d, dper, &out);
        Ok(())
    }

    /// The `.f16` element `k` of line `line` (a row of A, a column of B) as `f32`: slot
    /// `k mod n` of lane `(line·K + k) / n` (kept beside register `names[slot / 2]`), fetched
    /// with `shfl.sync.idx`.
    fn gathered(
        &mut self,
        names: &[String],
        n: u32,
        line: Reg,
        k: u32,
        kk: u32,
        (mask, width): (Reg, Reg),
    ) -> Reg {
        let (u, f) = (ScalarType::U32, ScalarType::F32);
        let slot = k % n;
        let half = self.e.shadow(&names[(slot / 2) as usize], slot % 2);
        let mine = self.e.temp();
        self.e.emit(cast(ScalarType::F16, f, mine, half));
        let lane = self.e.temp();
        let (kk, kc, kn) = (
            self.e.konst(u64::from(kk), u),
            self.e.konst(u64::from(k), u),
            self.e.konst(u64::from(n), u),
        );
        self.e.emit(bin(BinaryOp::Mul, u, lane, line, kk));
        self.e.emit(bin(BinaryOp::Add, u, lane, lane, kc));
        self.e.emit(bin(BinaryOp::Div, u, lane, lane, kn));
        let got = self.e.temp();
        self.e.emit(Inst::Shuffle {
            kind: ShuffleKind::Idx,
            ty: f,
            dst: got,
            mask,
            value: mine,
            lane,
            width,
        });
        got
    }
}
