//! Type inference for unsuffixed literals: a union-find over type variables, solved after a
//! first recording pass and replayed, in creation order, by the second.

use warpsafe_ir::ScalarType;

/// The type of a recorded value: known, or a variable still to be solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// A concrete scalar type.
    Known(ScalarType),
    /// Type variable number `n` (first pass only).
    Var(u32),
}

/// What a type variable may become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An unsuffixed integer literal: an integer type, `i32` by default (as in Rust).
    Int,
    /// An unsuffixed float literal: a float type, `f64` by default (as in Rust).
    Float,
    /// Anything (a temporary whose type comes from its uses).
    Any,
}

/// Union-find over type variables (first pass), or the solution replayed (second pass).
#[derive(Debug, Default)]
pub(crate) struct Infer {
    parent: Vec<u32>,
    kind: Vec<Kind>,
    bound: Vec<Option<ScalarType>>,
    replay: Option<Vec<ScalarType>>,
    next: usize,
}

impl Infer {
    /// A second-pass inference that hands out `solution` in creation order.
    pub(crate) fn replaying(solution: Vec<ScalarType>) -> Infer {
        Infer {
            replay: Some(solution),
            ..Infer::default()
        }
    }

    /// A fresh type (a variable in the first pass, its solution in the second).
    pub(crate) fn fresh(&mut self, kind: Kind) -> Ty {
        let n = self.next;
        self.next += 1;
        if let Some(sol) = &self.replay {
            return Ty::Known(sol.get(n).copied().unwrap_or(default_of(kind)));
        }
        self.parent.push(n as u32);
        self.kind.push(kind);
        self.bound.push(None);
        Ty::Var(n as u32)
    }

    fn find(&mut self, v: u32) -> u32 {
        let mut r = v;
        while self.parent[r as usize] != r {
            r = self.parent[r as usize];
        }
        let mut c = v;
        while self.parent[c as usize] != r {
            let next = self.parent[c as usize];
            self.parent[c as usize] = r;
            c = next;
        }
        r
    }

    /// The type `t` stands for now, if known.
    pub(crate) fn known(&mut self, t: Ty) -> Option<ScalarType> {
        match t {
            Ty::Known(s) => Some(s),
            Ty::Var(v) => {
                let r = self.find(v);
                self.bound[r as usize]
            }
        }
    }

    /// Whether `t` is (or must become) an integer / a float.
    pub(crate) fn kind_of(&mut self, t: Ty) -> Kind {
        match t {
            Ty::Known(s) if s.is_int() => Kind::Int,
            Ty::Known(s) if s.is_float() => Kind::Float,
            Ty::Known(_) => Kind::Any,
            Ty::Var(v) => {
                let r = self.find(v) as usize;
                match self.bound[r] {
                    Some(s) => self.kind_of(Ty::Known(s)),
                    None => self.kind[r],
                }
            }
        }
    }

    /// Makes `a` and `b` the same type; the error names both.
    pub(crate) fn unify(&mut self, a: Ty, b: Ty) -> Result<(), String> {
        match (a, b) {
            (Ty::Known(x), Ty::Known(y)) if x == y => Ok(()),
            (Ty::Known(x), Ty::Known(y)) => Err(format!("mismatched types: {x} and {y}")),
            (Ty::Var(v), Ty::Known(s)) | (Ty::Known(s), Ty::Var(v)) => self.bind(v, s),
            (Ty::Var(v), Ty::Var(w)) => {
                let (rv, rw) = (self.find(v), self.find(w));
                if rv == rw {
                    return Ok(());
                }
                let kind = merge(self.kind[rv as usize], self.kind[rw as usize])?;
                let bound = match (self.bound[rv as usize], self.bound[rw as usize]) {
                    (Some(x), Some(y)) if x != y => {
                        return Err(format!("mismatched types: {x} and {y}"))
                    }
                    (x, y) => x.or(y),
                };
                self.parent[rw as usize] = rv;
                self.kind[rv as usize] = kind;
                self.bound[rv as usize] = bound;
                Ok(())
            }
        }
    }

    fn bind(&mut self, v: u32, s: ScalarType) -> Result<(), String> {
        let r = self.find(v) as usize;
        if let Some(old) = self.bound[r] {
            return self.unify(Ty::Known(old), Ty::Known(s));
        }
        let fits = match self.kind[r] {
            Kind::Int => s.is_int(),
            Kind::Float => s.is_float(),
            Kind::Any => true,
        };
        if !fits {
            let what = if self.kind[r] == Kind::Int {
                "an integer literal"
            } else {
                "a float literal"
            };
            return Err(format!("{what} used as {s}"));
        }
        self.bound[r] = Some(s);
        Ok(())
    }

    /// The solution of every variable, in creation order (unbound ones take Rust's defaults).
    pub(crate) fn solve(&mut self) -> Vec<ScalarType> {
        (0..self.parent.len() as u32)
            .map(|v| {
                let r = self.find(v) as usize;
                self.bound[r].unwrap_or(default_of(self.kind[r]))
            })
            .collect()
    }

    /// The concrete type `t` stands for, or a placeholder in the first pass.
    pub(crate) fn concrete(&mut self, t: Ty) -> ScalarType {
        let kind = self.kind_of(t);
        self.known(t).unwrap_or(default_of(kind))
    }
}

fn merge(a: Kind, b: Kind) -> Result<Kind, String> {
    match (a, b) {
        (Kind::Any, k) | (k, Kind::Any) => Ok(k),
        (x, y) if x == y => Ok(x),
        _ => Err("mismatched types: an integer and a float".into()),
    }
}

fn default_of(kind: Kind) -> ScalarType {
    match kind {
        Kind::Int | Kind::Any => ScalarType::I32,
        Kind::Float => ScalarType::F64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_takes_the_other_operand_type() {
        let mut inf = Infer::default();
        let a = inf.fresh(Kind::Float);
        let b = inf.fresh(Kind::Any);
        inf.unify(b, a).unwrap();
        inf.unify(b, Ty::Known(ScalarType::F32)).unwrap();
        assert_eq!(inf.solve(), vec![ScalarType::F32, ScalarType::F32]);
    }

    #[test]
    fn defaults_and_kind_errors() {
        let mut inf = Infer::default();
        let i = inf.fresh(Kind::Int);
        let f = inf.fresh(Kind::Float);
        assert!(inf.unify(i, Ty::Known(ScalarType::F32)).is_err());
        assert!(inf.unify(i, f).is_err());
        assert_eq!(inf.solve(), vec![ScalarType::I32, ScalarType::F64]);
    }
}
