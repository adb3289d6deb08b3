//! From a satisfying model to a counterexample: launch dimensions, the threads involved,
//! parameter values, buffer lengths and the address.

use crate::launch::Launch;
use crate::obligation::CexInfo;
use crate::smt::Query;
use crate::term::Term;
use crate::Counterexample;
use warpsafe_ir::{Kernel, ParamKind, ScalarType, Value};

/// Appends the terms a counterexample needs to `q.watch`.
pub fn watch(q: &mut Query, l: &Launch, cex: &CexInfo) {
    let mut w: Vec<Term> = vec![];
    w.extend(l.bdim.iter().cloned());
    w.extend(l.gdim.iter().cloned());
    for th in l.threads.iter().take(cex.threads) {
        w.extend(th.bid.iter().cloned());
        w.extend(th.tid.iter().cloned());
    }
    for p in &l.params {
        if let Some(t) = p.term() {
            w.push(t.clone());
        }
    }
    w.extend(l.lens.iter().flatten().cloned());
    w.push(l.dyn_shared.clone());
    if let Some((_, a)) = &cex.address {
        w.push(a.clone());
    }
    q.watch = w;
}

fn dims(v: &mut impl Iterator<Item = Option<u128>>) -> [u32; 3] {
    std::array::from_fn(|_| v.next().flatten().unwrap_or(1) as u32)
}

/// Decodes the values of the terms [`watch`] asked for.
pub fn decode(
    vals: &[Option<u128>],
    l: &Launch,
    k: &Kernel,
    cex: &CexInfo,
) -> (Counterexample, u64) {
    let mut it = vals.iter().copied();
    let block_dim = dims(&mut it);
    let grid_dim = dims(&mut it);
    let mut threads = vec![];
    for _ in 0..cex.threads {
        let b = std::array::from_fn(|_| it.next().flatten().unwrap_or(0) as u32);
        let t = std::array::from_fn(|_| it.next().flatten().unwrap_or(0) as u32);
        threads.push((b, t));
    }
    let mut params = vec![];
    for (i, p) in k.params.iter().enumerate() {
        if let ParamKind::Scalar(ty) = p.kind {
            let v = if l.params[i].term().is_some() {
                Value::from_bits(ty, it.next().flatten().unwrap_or(0) as u64)
            } else {
                k.contract
                    .defaults
                    .iter()
                    .find(|(q, _)| q.0 as usize == i)
                    .map(|(_, v)| v.cast(ty))
                    .unwrap_or_else(|| Value::from_f64(ty, 1.0))
            };
            params.push((p.name.clone(), v));
        }
    }
    let mut buffer_lens = vec![];
    for (i, p) in k.params.iter().enumerate() {
        if matches!(p.kind, ParamKind::Buffer { .. }) && l.lens[i].is_some() {
            buffer_lens.push((p.name.clone(), it.next().flatten().unwrap_or(0) as u64));
        }
    }
    let dyn_shared = it.next().flatten().unwrap_or(0) as u64;
    let address = cex
        .address
        .as_ref()
        .map(|(m, _)| (m.clone(), it.next().flatten().unwrap_or(0) as u64 as i64));
    let who: Vec<String> = threads
        .iter()
        .map(|(b, t)| {
            format!(
                "block ({},{},{}) thread ({},{},{})",
                b[0], b[1], b[2], t[0], t[1], t[2]
            )
        })
        .collect();
    let mut message = format!("{} ({})", cex.what, who.join(" and "));
    if let Some((m, i)) = &address {
        message.push_str(&format!(" at {m}[{i}]"));
    }
    let vals: Vec<String> = params.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    if !vals.is_empty() {
        message.push_str(&format!(" with {}", vals.join(", ")));
    }
    let _ = ScalarType::Bool;
    (
        Counterexample {
            category: cex.category,
            message,
            block_dim,
            grid_dim,
            threads,
            params,
            buffer_lens,
            spans: cex.spans.clone(),
            address,
            replay: None,
            exact: false,
            epochs: cex.epochs,
        },
        dyn_shared,
    )
}
