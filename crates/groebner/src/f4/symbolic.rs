//! Symbolic preprocessing: the rows of an F4 matrix (multiples of basis elements) and the
//! reducer for every monomial that some leading monomial divides.

use crate::monomial::{Mon, MonoTable};
use crate::pairs::Pair;
use crate::poly::HPoly;

/// A matrix row: `mult * polys[src]`, as the range `start..start + len` of a shared array of
/// monomials (later rewritten to column indices), one entry per term of `polys[src]`.
#[derive(Clone, Copy)]
pub(crate) struct Row {
    pub(crate) start: u32,
    pub(crate) len: u32,
    pub(crate) src: u32,
}

impl Row {
    /// The row's entries in `cols`, the shared array it indexes.
    #[inline]
    pub(crate) fn of<'a>(&self, cols: &'a [u32]) -> &'a [u32] {
        &cols[self.start as usize..(self.start + self.len) as usize]
    }
}

/// Per-monomial scratch marks, stamped with a generation so they never need clearing, and the
/// rows of earlier matrices.
#[derive(Default)]
pub(crate) struct Marks {
    pub(crate) seen: Vec<u32>,
    pub(crate) pivot: Vec<u32>,
    pub(crate) col: Vec<u32>,
    pub(crate) gen: u32,
    cache: RowCache,
}

impl Marks {
    fn fit(&mut self, len: usize) {
        if self.seen.len() < len {
            let n = len.next_power_of_two();
            self.seen.resize(n, 0);
            self.pivot.resize(n, 0);
            self.col.resize(n, 0);
        }
    }
}

/// The pivot rows `mult * polys[g]` of earlier matrices, by leading monomial: a monomial is
/// usually reduced by the same element in every matrix it occurs in, so most pivot rows are
/// copied instead of multiplied term by term.
#[derive(Default)]
struct RowCache {
    /// `head[m]`: the first entry for rows led by `m`, or `NONE`.
    head: Vec<u32>,
    /// (source element, start in `mons`, next entry with the same leading monomial).
    entries: Vec<(u32, u32, u32)>,
    mons: Vec<Mon>,
}

const NONE: u32 = u32::MAX;

impl RowCache {
    /// Appends the monomials of `mult * polys[src]` to `out`, from the cache or computed (and
    /// cached when `keep`).
    fn product(
        &mut self,
        mult: Mon,
        src: usize,
        polys: &[HPoly],
        table: &mut MonoTable,
        keep: bool,
        out: &mut Vec<Mon>,
    ) {
        let g = &polys[src];
        let lead = table.mul(mult, g.lm()) as usize;
        let mut e = self.head.get(lead).copied().unwrap_or(NONE);
        while e != NONE {
            let (s, k, next) = self.entries[e as usize];
            if s == src as u32 {
                out.extend_from_slice(&self.mons[k as usize..k as usize + g.len()]);
                return;
            }
            e = next;
        }
        let start = out.len();
        table.mul_row(mult, &g.mons, out);
        if keep {
            if self.head.len() <= lead {
                self.head.resize(table.len().max(lead + 1), NONE);
            }
            let e = self.entries.len() as u32;
            self.entries
                .push((src as u32, self.mons.len() as u32, self.head[lead]));
            self.head[lead] = e;
            self.mons.extend_from_slice(&out[start..]);
        }
    }
}

/// The candidate reducers: leading monomials of the active basis elements with their masks.
pub(crate) struct Reducers {
    entries: Vec<(u32, Mon, u32)>,
}

impl Reducers {
    /// The reducers `active` (indices into `polys`).
    pub(crate) fn new(active: &[usize], polys: &[HPoly], table: &MonoTable) -> Reducers {
        Reducers {
            entries: active
                .iter()
                .map(|&g| {
                    let lm = polys[g].lm();
                    (table.mask(lm), lm, g as u32)
                })
                .collect(),
        }
    }

    /// The oldest basis element whose leading monomial divides `m` (older elements have
    /// shorter tails in practice; measured better than the newest or the shortest).
    fn find(&self, m: Mon, table: &MonoTable) -> Option<(Mon, u32)> {
        let mm = !table.mask(m);
        self.entries
            .iter()
            .find(|&&(mask, lm, _)| mask & mm == 0 && table.divides(lm, m))
            .map(|&(_, lm, g)| (lm, g))
    }
}

/// The rows of one F4 matrix before column ordering.
pub(crate) struct Symbolic {
    /// Rows whose leading monomials are pivots (one per pivot monomial).
    pub(crate) pivots: Vec<Row>,
    /// Rows to reduce.
    pub(crate) todo: Vec<Row>,
    /// The monomials of all rows (see [`Row`]).
    pub(crate) cols: Vec<Mon>,
    /// Every monomial of every row, each once.
    pub(crate) mons: Vec<Mon>,
}

impl Symbolic {
    /// An empty matrix; starts a new generation of `marks`.
    pub(crate) fn new(marks: &mut Marks) -> Symbolic {
        marks.gen = marks.gen.wrapping_add(1);
        if marks.gen == 0 {
            marks.seen.fill(0);
            marks.pivot.fill(0);
            marks.gen = 1;
        }
        Symbolic {
            pivots: Vec::new(),
            todo: Vec::new(),
            cols: Vec::new(),
            mons: Vec::new(),
        }
    }

    /// Adds the row `mult * polys[src]`, as a pivot row or as a row to reduce.
    pub(crate) fn push_row(
        &mut self,
        mult: Mon,
        src: usize,
        polys: &[HPoly],
        table: &mut MonoTable,
        marks: &mut Marks,
        pivot: bool,
    ) {
        let start = self.cols.len();
        marks
            .cache
            .product(mult, src, polys, table, pivot, &mut self.cols);
        marks.fit(table.len());
        let gen = marks.gen;
        for &m in &self.cols[start..] {
            let s = &mut marks.seen[m as usize];
            if *s != gen {
                *s = gen;
                self.mons.push(m);
            }
        }
        let row = Row {
            start: start as u32,
            len: (self.cols.len() - start) as u32,
            src: src as u32,
        };
        if pivot {
            marks.pivot[self.cols[start] as usize] = gen;
            self.pivots.push(row);
        } else {
            self.todo.push(row);
        }
    }

    /// Adds a reducer row for every monomial without a pivot that a leading monomial divides.
    pub(crate) fn close(
        &mut self,
        reducers: &Reducers,
        polys: &[HPoly],
        table: &mut MonoTable,
        marks: &mut Marks,
    ) {
        let mut k = 0;
        while k < self.mons.len() {
            let m = self.mons[k];
            k += 1;
            if marks.pivot[m as usize] == marks.gen {
                continue;
            }
            if let Some((lm, g)) = reducers.find(m, table) {
                let q = table.div(m, lm);
                self.push_row(q, g as usize, polys, table, marks, true);
            }
        }
    }
}

/// Rows for the selected pairs (grouped by lcm: the first generator becomes the pivot row,
/// the others rows to reduce), closed under symbolic preprocessing.
pub(crate) fn preprocess(
    pairs: &[Pair],
    polys: &[HPoly],
    reducers: &Reducers,
    table: &mut MonoTable,
    marks: &mut Marks,
) -> Symbolic {
    let mut sym = Symbolic::new(marks);
    let mut k = 0;
    while k < pairs.len() {
        let lcm = pairs[k].lcm;
        let mut gens: Vec<u32> = Vec::new();
        while k < pairs.len() && pairs[k].lcm == lcm {
            gens.push(pairs[k].i);
            gens.push(pairs[k].j);
            k += 1;
        }
        gens.sort_unstable();
        gens.dedup();
        for (n, &g) in gens.iter().enumerate() {
            let q = table.div(lcm, polys[g as usize].lm());
            sym.push_row(q, g as usize, polys, table, marks, n == 0);
        }
    }
    sym.close(reducers, polys, table, marks);
    sym
}
