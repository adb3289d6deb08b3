//! The names of finding categories, shared by every engine and report.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A kind of bug a check can find. The names are a contract: JSON and human output,
/// header directives and every later command use them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Two unsynchronised conflicting accesses to the same byte.
    Race,
    /// A barrier not reached by all threads that must take part, or threads at different barriers.
    Divergence,
    /// An access outside a buffer or array.
    Oob,
    /// A read of shared or local memory never written.
    Uninit,
    /// Integer division or remainder by zero.
    DivByZero,
    /// Signed integer overflow.
    Overflow,
    /// A failed `__assert`.
    Assert,
}

impl Category {
    /// Every category.
    pub const ALL: [Category; 7] = [
        Category::Race,
        Category::Divergence,
        Category::Oob,
        Category::Uninit,
        Category::DivByZero,
        Category::Overflow,
        Category::Assert,
    ];

    /// The stable name: `race`, `divergence`, `oob`, `uninit`, `div-by-zero`, `overflow`, `assert`.
    pub fn name(self) -> &'static str {
        match self {
            Category::Race => "race",
            Category::Divergence => "divergence",
            Category::Oob => "oob",
            Category::Uninit => "uninit",
            Category::DivByZero => "div-by-zero",
            Category::Overflow => "overflow",
            Category::Assert => "assert",
        }
    }

    /// Parses a stable name.
    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }

    /// True for categories that are warnings unless denied (only `overflow`).
    pub fn is_warning_by_default(self) -> bool {
        self == Category::Overflow
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
