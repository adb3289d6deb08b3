//! Block (elimination) orders: F4 and Buchberger agree and the checker accepts the result, and
//! the basis eliminates the first block, as the lex basis does.

use warpsafe_groebner::{
    cyclic, groebner, is_groebner_basis, is_reduced, katsura, Algorithm, Options, Order, Poly,
    System,
};

fn basis(sys: &System, algo: Algorithm) -> Vec<Poly> {
    let b = groebner(sys, algo, &Options::default()).expect("computation succeeds");
    assert!(is_groebner_basis(sys, &b), "{algo} basis fails the check");
    assert!(is_reduced(&b));
    b.polys
}

/// The elements that involve only variables from index `k` on.
fn free_of_first(polys: &[Poly], k: usize) -> Vec<Poly> {
    polys
        .iter()
        .filter(|p| p.terms.iter().all(|t| t.exps[..k].iter().all(|&e| e == 0)))
        .cloned()
        .collect()
}

#[test]
fn f4_and_buchberger_agree_on_block_orders() {
    for (sys, blocks) in [
        (katsura(4), vec![1, 2, 3, 4]),
        (cyclic(4), vec![1, 2, 3]),
        (katsura(5), vec![1, 2]),
    ] {
        for k in blocks {
            let mut s = sys.clone();
            s.order = Order::Block(k);
            let f4 = basis(&s, Algorithm::F4);
            assert_eq!(f4, basis(&s, Algorithm::Buchberger), "block:{k}");
        }
    }
}

#[test]
fn block_order_eliminates_like_lex() {
    for sys in [katsura(3), katsura(4)] {
        let n = sys.vars.len();
        let mut block = sys.clone();
        block.order = Order::Block((n - 1) as u16);
        let mut lex = sys.clone();
        lex.order = Order::Lex;
        // A zero-dimensional ideal meets k[last variable] in a principal ideal: both bases hold
        // its monic generator and nothing else in that variable alone.
        let b = free_of_first(&basis(&block, Algorithm::F4), n - 1);
        let l = free_of_first(&basis(&lex, Algorithm::F4), n - 1);
        assert_eq!(b.len(), 1);
        assert_eq!(b, l);
    }
}
