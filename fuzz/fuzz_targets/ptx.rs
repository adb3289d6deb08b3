//! Feeds arbitrary UTF-8 to the PTX parser and, when it parses, to the lowering: both must
//! return errors, never panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|src: &str| {
    if let Ok(module) = warpsafe_ptx::parse(src) {
        let _ = warpsafe_ptx::lower(&module, None);
    }
});
