//! Property test: on random small systems (seeded), F4 and Buchberger agree and the result is
//! a reduced Gröbner basis of the input.

use warpsafe_groebner::{
    groebner, is_groebner_basis, is_reduced, Algorithm, Options, Order, Poly, System, Term,
};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_system(rng: &mut Rng) -> System {
    let primes = [2u32, 3, 7, 101, 65521, 2147483647, 1073741789];
    let prime = primes[rng.below(primes.len() as u64) as usize];
    let nvars = 2 + rng.below(3) as usize;
    let npolys = 1 + rng.below(nvars as u64 + 1) as usize;
    let maxdeg = 1 + rng.below(3) as u16;
    let polys = (0..npolys)
        .map(|_| {
            let nterms = 1 + rng.below(4);
            Poly {
                terms: (0..nterms)
                    .map(|_| {
                        let mut exps = vec![0u16; nvars];
                        let deg = rng.below(u64::from(maxdeg) + 1) as u16;
                        for _ in 0..deg {
                            exps[rng.below(nvars as u64) as usize] += 1;
                        }
                        Term {
                            coef: 1 + rng.below(u64::from(prime - 1).max(1)) as u32,
                            exps,
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    System {
        vars: (0..nvars).map(|i| format!("v{i}")).collect(),
        prime,
        polys,
        order: if rng.below(3) == 0 {
            Order::Lex
        } else {
            Order::Grevlex
        },
    }
}

#[test]
fn random_small_systems() {
    let mut rng = Rng(0x5eed);
    for case in 0..1000 {
        let sys = random_system(&mut rng);
        let opts = Options::default();
        let f4 = groebner(&sys, Algorithm::F4, &opts).expect("f4");
        let bb = groebner(&sys, Algorithm::Buchberger, &opts).expect("buchberger");
        assert_eq!(f4.polys, bb.polys, "case {case}:\n{}", sys.to_text());
        assert!(is_reduced(&f4), "case {case}: not reduced");
        assert!(is_groebner_basis(&sys, &f4), "case {case}: not a basis");
    }
}
