//! Truncated and corrupted PTX yields errors, never panics.

const PTX: &str = include_str!("../data/reduce_warp_shuffle.ptx");

#[test]
fn fixture_parses_and_round_trips() {
    let m = warpsafe_ptx::parse(PTX).expect("fixture parses");
    assert_eq!(warpsafe_ptx::parse(&m.to_string()).expect("reparses"), m);
}

#[test]
fn every_prefix_parses_or_errors() {
    let mut errors = 0;
    for end in (0..=PTX.len()).filter(|&i| PTX.is_char_boundary(i)) {
        if warpsafe_ptx::parse(&PTX[..end]).is_err() {
            errors += 1;
        }
    }
    assert!(errors > 0);
}

fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed | 1;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

#[test]
fn random_byte_flips_never_panic() {
    let mut next = xorshift(0x5eed_9a7c);
    // Bytes that steer mutations towards PTX-shaped garbage rather than only invalid characters.
    let alphabet = b"{}[]();:,.@!|_%$-+<>=0123456789abcdefxfdU \n\t/*\"";
    for _ in 0..3000 {
        let mut bytes = PTX.as_bytes().to_vec();
        let flips = 1 + next() % 8;
        for _ in 0..flips {
            let at = (next() % bytes.len() as u64) as usize;
            bytes[at] = match next() % 3 {
                0 => bytes[at] ^ (1 << (next() % 8)),
                1 => alphabet[(next() % alphabet.len() as u64) as usize],
                _ => b' ',
            };
        }
        if next() & 3 == 0 {
            let cut = (next() % bytes.len() as u64) as usize;
            bytes.truncate(cut);
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = warpsafe_ptx::parse(&text).map(|m| m.to_string());
    }
}
