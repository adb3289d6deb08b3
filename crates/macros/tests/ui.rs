//! Constructs outside the kernel subset are compile errors that point at the construct.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
