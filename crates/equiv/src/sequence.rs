//! Several kernels launched one after another on the same buffers (a split-K GEMM and then
//! the kernel that sums its partial products), as one side of an equivalence.
//!
//! Each kernel runs symbolically on its own, its inputs fresh symbols; the runs are then
//! composed: in the later kernel's terms, every element of a buffer an earlier kernel could
//! write is replaced by that kernel's final term for it (buffers match by parameter name). A
//! kernel boundary orders everything, so there are no races between kernels; each kernel's
//! findings are its own. Concretely, the interpreter runs the kernels in order, each reading
//! the buffers the ones before left.

use crate::replay::{self, Outputs};
use crate::symexec::SymOutcome;
use crate::{EquivError, ExecConfig};
use warpsafe_algebra::{FxHashMap, Node, Store, SymId, TermId};
use warpsafe_exec::{Arg, Options, Program};
use warpsafe_ir::ParamKind;

/// One kernel of a sequence and how it is launched.
#[derive(Clone, Copy)]
pub struct Stage<'a> {
    /// The compiled kernel.
    pub program: &'a Program,
    /// Its launch, lengths, scalars and initial contents.
    pub exec: &'a ExecConfig,
}

/// Composes `next` after `first`: the outcome of running both kernels in order.
pub(crate) fn compose(first: SymOutcome, next: SymOutcome) -> Result<SymOutcome, EquivError> {
    let mut out = first;
    let mut carried: FxHashMap<(&str, u64), TermId> = FxHashMap::default();
    for b in out.buffers.iter().filter(|b| b.writable) {
        for (i, &t) in b.values.iter().enumerate() {
            carried.insert((b.name.as_str(), i as u64), t);
        }
    }
    let carried: FxHashMap<(String, u64), TermId> = carried
        .into_iter()
        .map(|((n, i), t)| ((n.to_string(), i), t))
        .collect();
    let mut sub = Substitution::new(&next.store, &carried);
    let mut merged = Vec::with_capacity(next.buffers.len());
    for b in &next.buffers {
        let earlier = out.buffers.iter().position(|e| e.name == b.name);
        if let Some(e) = earlier.map(|k| &out.buffers[k]) {
            if e.writable && b.writable && e.values.len() != b.values.len() {
                return Err(EquivError::Mismatch(format!(
                    "buffer `{}` has {} elements in `{}` but {} in `{}`",
                    b.name,
                    e.values.len(),
                    out.kernel,
                    b.values.len(),
                    next.kernel
                )));
            }
        }
        if !b.writable {
            continue;
        }
        let values: Vec<TermId> = b
            .values
            .iter()
            .map(|&t| sub.apply(&mut out.store, t))
            .collect();
        merged.push((earlier, b, values));
    }
    for (earlier, b, values) in merged {
        match earlier {
            Some(k) => {
                let e = &mut out.buffers[k];
                let written: Vec<bool> = if e.written.len() == b.written.len() {
                    e.written
                        .iter()
                        .zip(&b.written)
                        .map(|(x, y)| *x || *y)
                        .collect()
                } else {
                    b.written.clone()
                };
                e.values = values;
                e.written = written;
                e.writable = true;
            }
            None => {
                let mut nb = b.clone();
                nb.values = values;
                out.buffers.push(nb);
            }
        }
    }
    out.kernel = format!("{} then {}", out.kernel, next.kernel);
    out.launch = next.launch;
    out.findings.extend(next.findings);
    out.stats.blocks += next.stats.blocks;
    out.stats.thread_instructions += next.stats.thread_instructions;
    out.stats.barriers += next.stats.barriers;
    out.stats.seconds += next.stats.seconds;
    out.stats.terms = out.store.len() as u64;
    for s in next.starts {
        if !out.starts.iter().any(|t| t.name == s.name) {
            out.starts.push(s);
        }
    }
    Ok(out)
}

/// Copies terms of one store into another, replacing the input symbols `name[i]` that
/// `carried` maps by the terms it gives (which live in the destination already).
struct Substitution<'s> {
    src: &'s Store,
    carried: &'s FxHashMap<(String, u64), TermId>,
    memo: Vec<u32>,
}

impl<'s> Substitution<'s> {
    fn new(src: &'s Store, carried: &'s FxHashMap<(String, u64), TermId>) -> Self {
        Substitution {
            src,
            carried,
            memo: vec![u32::MAX; src.len()],
        }
    }

    /// The destination term for source term `t` (post-order, without recursion: terms of a
    /// long reduction are deep).
    fn apply(&mut self, dst: &mut Store, t: TermId) -> TermId {
        let mut stack = vec![(t, false)];
        while let Some((u, expanded)) = stack.pop() {
            if self.memo[u.0 as usize] != u32::MAX {
                continue;
            }
            let node = *self.src.node(u);
            if !expanded {
                stack.push((u, true));
                for &k in node.children().iter() {
                    if self.memo[k.0 as usize] == u32::MAX {
                        stack.push((k, false));
                    }
                }
                continue;
            }
            let v = self.rebuild(dst, node);
            self.memo[u.0 as usize] = v.0;
        }
        TermId(self.memo[t.0 as usize])
    }

    fn get(&self, t: TermId) -> TermId {
        TermId(self.memo[t.0 as usize])
    }

    fn symbol(&self, dst: &mut Store, s: SymId) -> TermId {
        let info = self.src.sym(s);
        if let Some(i) = info.index {
            if let Some(&t) = self.carried.get(&(info.name.clone(), i)) {
                return t;
            }
        }
        dst.symbol(&info.name, info.index, info.integer)
    }

    fn rebuild(&self, dst: &mut Store, node: Node) -> TermId {
        let g = |t: TermId| self.get(t);
        match node {
            Node::Const(c) => dst.constant(self.src.constant_value(c).clone()),
            Node::Inf(positive) => dst.float(if positive {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            }),
            Node::NaN => dst.float(f64::NAN),
            Node::Sym(s) => self.symbol(dst, s),
            Node::Add(a, b) => dst.add(g(a), g(b)),
            Node::Sub(a, b) => dst.sub(g(a), g(b)),
            Node::Mul(a, b) => dst.mul(g(a), g(b)),
            Node::Div(a, b) => dst.div(g(a), g(b)),
            Node::Neg(a) => dst.neg(g(a)),
            Node::Fn(f, a) => dst.func(f, g(a)),
            Node::Fn2(f, a, b) => dst.func2(f, g(a), g(b)),
            Node::Pow(a, b) => dst.pow(g(a), g(b)),
            Node::Max(a, b) => dst.max(g(a), g(b)),
            Node::Min(a, b) => dst.min(g(a), g(b)),
            Node::Cmp(op, a, b) => dst.cmp(op, g(a), g(b)),
            Node::Not(a) => dst.not(g(a)),
            Node::And(a, b) => dst.and(g(a), g(b)),
            Node::Or(a, b) => dst.or(g(a), g(b)),
            Node::Select(c, a, b) => dst.select(g(c), g(a), g(b)),
            Node::Int(op, bits, signed, a, b) => dst.int_op(op, bits, signed, g(a), g(b)),
            Node::Opaque(_) => dst.opaque(),
        }
    }
}

/// Runs `stages` in the interpreter in order on the input at `seed`: each kernel's buffers
/// start as the earlier kernels left them (by name), the others as the seed gives them. The
/// writable buffers at the end, by name.
pub(crate) fn run_at(stages: &[Stage], seed: u64) -> Result<Outputs, String> {
    let mut state: Vec<(String, warpsafe_exec::Buffer)> = Vec::new();
    for stage in stages {
        let kernel = stage.program.kernel();
        let mut args = replay::arguments(stage.program, stage.exec, seed)?;
        for (p, a) in kernel.params.iter().zip(args.iter_mut()) {
            if let (ParamKind::Buffer { .. }, Arg::Buffer(b)) = (p.kind, a) {
                if let Some((_, earlier)) = state.iter().find(|(n, _)| *n == p.name) {
                    if earlier.data.len() != b.data.len() {
                        return Err(format!(
                            "buffer `{}` has {} elements before `{}` but {} in it",
                            p.name,
                            earlier.data.len(),
                            kernel.name,
                            b.data.len()
                        ));
                    }
                    b.data.clone_from(&earlier.data);
                }
            }
        }
        let setup = crate::launch::resolve(kernel, stage.exec).map_err(|e| e.to_string())?;
        let opts = Options {
            lockstep_warps: stage.exec.lockstep_warps,
            max_block_instructions: stage.exec.max_block_instructions,
            max_memory: stage.exec.limits.max_memory,
            ..Options::default()
        };
        let out = warpsafe_exec::run_program(stage.program, &setup.launch, args, &opts)
            .map_err(|e| format!("the interpreter could not run `{}`: {e}", kernel.name))?;
        for (p, a) in kernel.params.iter().zip(out.args) {
            if let (ParamKind::Buffer { writable: true, .. }, Arg::Buffer(b)) = (p.kind, a) {
                match state.iter_mut().find(|(n, _)| *n == p.name) {
                    Some(slot) => slot.1 = b,
                    None => state.push((p.name.clone(), b)),
                }
            }
        }
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carried_symbols_are_replaced_and_the_rest_kept() {
        let mut first = Store::new();
        let a0 = first.symbol("a", Some(0), false);
        let two = first.int(2);
        let written = first.mul(two, a0);
        let mut next = Store::new();
        let p0 = next.symbol("p", Some(0), false);
        let b0 = next.symbol("b", Some(0), false);
        let mut t = next.add(p0, b0);
        // A deep chain: no recursion on the way.
        for _ in 0..100_000 {
            t = next.add(t, p0);
        }
        let top = next.mul(p0, b0);
        let carried: FxHashMap<(String, u64), TermId> =
            [(("p".to_string(), 0), written)].into_iter().collect();
        let mut sub = Substitution::new(&next, &carried);
        let got = sub.apply(&mut first, top);
        let b0_there = first.symbol("b", Some(0), false);
        let want = first.mul(written, b0_there);
        assert_eq!(got, want);
        let deep = sub.apply(&mut first, t);
        assert!(matches!(first.node(deep), Node::Add(..)));
    }
}
