//! Cutting a kernel body into barrier phases: intervals that end at a top-level barrier,
//! barrier loops, and the final interval.

use warpsafe_ir::{Expr, Kernel, Stmt, StmtKind, VarId};

/// A top-level loop whose body ends with the block's only barrier in it.
#[derive(Clone, Debug)]
pub struct BarrierLoop<'k> {
    /// Scalar statements between the previous barrier and the loop.
    pub lets: &'k [Stmt],
    /// The loop's initialisation.
    pub init: &'k [Stmt],
    /// Its condition.
    pub cond: &'k Expr,
    /// Its update.
    pub update: &'k [Stmt],
    /// Its body without the final barrier.
    pub body: &'k [Stmt],
    /// The variable the update assigns.
    pub var: VarId,
    /// Variables assigned in the loop and declared before it.
    pub carried: Vec<VarId>,
}

/// A phase of the kernel.
#[derive(Clone, Debug)]
pub enum Phase<'k> {
    /// Statements ending at a top-level barrier.
    Interval(&'k [Stmt]),
    /// A barrier loop.
    Loop(BarrierLoop<'k>),
    /// The statements after the last barrier.
    Final(&'k [Stmt]),
}

fn has_barrier(stmts: &[Stmt]) -> bool {
    let mut found = false;
    for s in stmts {
        s.walk(&mut |s| found |= matches!(s.kind, StmtKind::SyncThreads));
    }
    found
}

fn assigned(stmts: &[Stmt], out: &mut Vec<VarId>, lets: &mut Vec<VarId>) {
    for s in stmts {
        s.walk(&mut |s| match &s.kind {
            StmtKind::Assign { var, .. } => out.push(*var),
            StmtKind::Let { var, .. } => lets.push(*var),
            _ => {}
        });
    }
}

/// The phases of `k`, in the order Interval, Loop, (Interval, Loop)*, Final.
pub fn phases(k: &Kernel) -> Result<Vec<Phase<'_>>, String> {
    let body = &k.body;
    let mut grid = false;
    for s in body {
        s.walk(&mut |s| grid |= matches!(s.kind, StmtKind::SyncGrid));
    }
    if grid {
        // Phases are barrier intervals of one block; a grid barrier also orders the blocks.
        return Err(
            "a grid barrier (`this_grid().sync()`): only block barriers are modelled".into(),
        );
    }
    let mut out = vec![];
    let mut start = 0;
    for (i, s) in body.iter().enumerate() {
        match &s.kind {
            StmtKind::SyncThreads => {
                out.push(Phase::Interval(&body[start..i]));
                start = i + 1;
            }
            StmtKind::For {
                init,
                cond: Some(cond),
                update,
                body: lb,
            } if has_barrier(lb) => {
                let Some((last, inner)) = lb.split_last() else {
                    return Err("an empty loop".into());
                };
                if !matches!(last.kind, StmtKind::SyncThreads) || has_barrier(inner) {
                    return Err(
                        "a barrier loop whose only barrier is not the last statement".into(),
                    );
                }
                let var = match update.as_slice() {
                    [Stmt {
                        kind: StmtKind::Assign { var, .. },
                        ..
                    }] => *var,
                    _ => return Err("a loop update that is not one assignment".into()),
                };
                let (mut asg, mut lets) = (vec![], vec![]);
                assigned(inner, &mut asg, &mut lets);
                assigned(update, &mut asg, &mut vec![]);
                let mut carried: Vec<VarId> =
                    asg.into_iter().filter(|v| !lets.contains(v)).collect();
                carried.sort();
                carried.dedup();
                out.push(Phase::Loop(BarrierLoop {
                    lets: &body[start..i],
                    init,
                    cond,
                    update,
                    body: inner,
                    var,
                    carried,
                }));
                start = i + 1;
            }
            _ if has_barrier(std::slice::from_ref(s)) => {
                return Err("a barrier inside a top-level statement other than a for loop".into())
            }
            _ => {}
        }
    }
    out.push(Phase::Final(&body[start..]));
    let shape: String = out
        .iter()
        .map(|p| match p {
            Phase::Interval(_) => 'I',
            Phase::Loop(_) => 'L',
            Phase::Final(_) => 'F',
        })
        .collect();
    let ok = shape.starts_with("IL")
        && shape.ends_with('F')
        && shape.as_bytes()[..shape.len() - 1]
            .chunks(2)
            .all(|c| c == b"IL");
    if !ok {
        return Err(format!(
            "phases {shape} (I: barrier interval, L: barrier loop, F: final) are not of the form I L (I L)* F"
        ));
    }
    Ok(out)
}
