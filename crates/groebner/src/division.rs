//! The division algorithm on hashed polynomials: S-polynomials and full normal forms.
//!
//! This is the plain reference used by Buchberger, the checker and the naive inter-reduction;
//! F4 never calls it.

use crate::field::Field;
use crate::monomial::{Mon, MonoTable};
use crate::poly::HPoly;
use std::cmp::Ordering;

/// `f[from..] - c * m * g[1..]` for monic `g`, as a sorted polynomial.
fn sub_mul_tail(
    f: &HPoly,
    from: usize,
    c: u32,
    m: Mon,
    g: &HPoly,
    table: &mut MonoTable,
    field: Field,
) -> HPoly {
    let mut out = HPoly {
        mons: Vec::with_capacity(f.len() + g.len()),
        cfs: Vec::with_capacity(f.len() + g.len()),
    };
    let nc = field.neg(c);
    let (mut a, mut b) = (from, 1);
    let mut gm = if g.len() > 1 {
        table.mul(m, g.mons[1])
    } else {
        0
    };
    while a < f.len() || b < g.len() {
        let ord = if a == f.len() {
            Ordering::Less
        } else if b == g.len() {
            Ordering::Greater
        } else {
            table.cmp(f.mons[a], gm)
        };
        match ord {
            Ordering::Greater => {
                out.mons.push(f.mons[a]);
                out.cfs.push(f.cfs[a]);
                a += 1;
            }
            Ordering::Less | Ordering::Equal => {
                let mut cf = field.mul(nc, g.cfs[b]);
                if ord == Ordering::Equal {
                    cf = field.add(cf, f.cfs[a]);
                    a += 1;
                }
                if cf != 0 {
                    out.mons.push(gm);
                    out.cfs.push(cf);
                }
                b += 1;
                if b < g.len() {
                    gm = table.mul(m, g.mons[b]);
                }
            }
        }
    }
    out
}

/// The S-polynomial of monic `f` and `g`.
pub(crate) fn spoly(f: &HPoly, g: &HPoly, table: &mut MonoTable, field: Field) -> HPoly {
    let l = table.lcm(f.lm(), g.lm());
    let mf = table.div(l, f.lm());
    let mg = table.div(l, g.lm());
    let f1 = HPoly {
        mons: f.mons[1..].iter().map(|&t| table.mul(mf, t)).collect(),
        cfs: f.cfs[1..].to_vec(),
    };
    sub_mul_tail(&f1, 0, 1, mg, g, table, field)
}

/// The fully reduced normal form of `f` modulo the monic polynomials `basis[i]`, `i` in `reducers`.
pub(crate) fn normal_form(
    f: HPoly,
    basis: &[HPoly],
    reducers: &[usize],
    table: &mut MonoTable,
    field: Field,
) -> HPoly {
    let mut rem = HPoly::default();
    let mut cur = f;
    let mut pos = 0;
    while pos < cur.len() {
        let t = cur.mons[pos];
        let hit = reducers
            .iter()
            .map(|&r| &basis[r])
            .find(|g| table.divides(g.lm(), t));
        match hit {
            None => {
                rem.mons.push(t);
                rem.cfs.push(cur.cfs[pos]);
                pos += 1;
            }
            Some(g) => {
                let q = table.div(t, g.lm());
                cur = sub_mul_tail(&cur, pos + 1, cur.cfs[pos], q, g, table, field);
                pos = 0;
            }
        }
    }
    rem
}
