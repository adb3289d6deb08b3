//! Generators of the standard benchmark systems Cyclic-n and Katsura-n over F_65521.

use crate::order::Order;
use crate::poly::{Poly, Term};
use crate::system::System;
use std::collections::BTreeMap;

const PRIME: u32 = 65521;

fn poly_of(map: BTreeMap<Vec<u16>, u32>) -> Poly {
    let mut p = Poly {
        terms: map
            .into_iter()
            .filter(|&(_, c)| c % PRIME != 0)
            .map(|(exps, coef)| Term {
                coef: coef % PRIME,
                exps,
            })
            .collect(),
    };
    p.sort(Order::Grevlex);
    p
}

/// Cyclic-n (n ≥ 1) in variables `x0 > … > x{n-1}`: for `k = 1..n-1` the sum over `i` of
/// `x_i x_{i+1} … x_{i+k-1}` (indices mod n), and `x0 x1 … x{n-1} - 1`.
pub fn cyclic(n: usize) -> System {
    let mut polys = Vec::new();
    for k in 1..n {
        let mut map = BTreeMap::new();
        for i in 0..n {
            let mut e = vec![0u16; n];
            for j in 0..k {
                e[(i + j) % n] += 1;
            }
            *map.entry(e).or_insert(0) += 1;
        }
        polys.push(poly_of(map));
    }
    let mut map = BTreeMap::new();
    map.insert(vec![1u16; n], 1);
    map.insert(vec![0u16; n], PRIME - 1);
    polys.push(poly_of(map));
    System {
        vars: (0..n).map(|i| format!("x{i}")).collect(),
        prime: PRIME,
        polys,
        order: Order::Grevlex,
    }
}

/// Katsura-n (n ≥ 1) in the n+1 variables `x0 > … > xn` (with `u_l = x_|l|`, zero beyond n):
/// `sum_{l=-n}^{n} u_l u_{m-l} - u_m` for `m = 0..n-1`, and `x0 + 2 (x1 + … + xn) - 1`.
pub fn katsura(n: usize) -> System {
    let nv = n + 1;
    let var = |l: i64| -> Option<usize> {
        let a = l.unsigned_abs() as usize;
        (a <= n).then_some(a)
    };
    let mut polys = Vec::new();
    for m in 0..n as i64 {
        let mut map: BTreeMap<Vec<u16>, u32> = BTreeMap::new();
        for l in -(n as i64)..=(n as i64) {
            if let (Some(a), Some(b)) = (var(l), var(m - l)) {
                let mut e = vec![0u16; nv];
                e[a] += 1;
                e[b] += 1;
                *map.entry(e).or_insert(0) += 1;
            }
        }
        let mut e = vec![0u16; nv];
        e[m as usize] = 1;
        let c = map.entry(e).or_insert(0);
        *c = (*c + PRIME - 1) % PRIME;
        polys.push(poly_of(map));
    }
    let mut map = BTreeMap::new();
    for v in 0..nv {
        let mut e = vec![0u16; nv];
        e[v] = 1;
        map.insert(e, if v == 0 { 1 } else { 2 });
    }
    map.insert(vec![0u16; nv], PRIME - 1);
    polys.push(poly_of(map));
    System {
        vars: (0..nv).map(|i| format!("x{i}")).collect(),
        prime: PRIME,
        polys,
        order: Order::Grevlex,
    }
}

fn small(vars: &str, polys: &str) -> System {
    crate::parse::parse_system(&format!("{vars}\n{PRIME}\n{polys}"))
        .expect("bundled small systems parse")
}

/// Every system bundled in `examples/systems/` (file stem, system): a few small ones,
/// Cyclic-4..8 and Katsura-4..11.
pub fn bundled_systems() -> Vec<(String, System)> {
    let mut v = vec![
        (
            "circle_line".to_string(),
            small("x,y", "x^2 + y^2 - 1,\nx - y"),
        ),
        (
            "twisted_cubic".to_string(),
            small("x,y,z,w", "x*z - y^2,\ny*w - z^2,\nx*w - y*z"),
        ),
        (
            "inconsistent".to_string(),
            small("x,y", "x*y - 1,\nx^2 + y,\nx^3 - 2"),
        ),
        (
            "sparse4".to_string(),
            small(
                "x1,x2,x3,x4",
                "x1*x2*x4 + x1*x4 + x2*x3*x4 - 1,\nx1*x3*x4 + x2*x4 - 2,\nx1*x4 - 3,\nx1 + x2 + x3 + 1",
            ),
        ),
    ];
    v.extend((4..=8).map(|n| (format!("cyclic{n}"), cyclic(n))));
    v.extend((4..=11).map(|n| (format!("katsura{n}"), katsura(n))));
    v
}
