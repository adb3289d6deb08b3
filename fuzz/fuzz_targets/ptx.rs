//! libFuzzer target: arbitrary bytes (as UTF-8, invalid sequences replaced) through
//! [`warpsafe_fuzz::ptx::run`]; it must return, never panic, overflow the stack or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = warpsafe_fuzz::ptx::run(&String::from_utf8_lossy(data));
});
