//! The names a kernel body may call: builtins, math, warp collectives, atomics and arrays.

/// `thread_idx()`-style 3-D builtins: their code for `builtin_dim`.
pub fn dim_builtin(name: &str) -> Option<u8> {
    Some(match name {
        "thread_idx" => 0,
        "block_idx" => 1,
        "block_dim" => 2,
        "grid_dim" => 3,
        _ => return None,
    })
}

/// Nullary builtins: the `Builtin` variant.
pub fn scalar_builtin(name: &str) -> Option<&'static str> {
    Some(match name {
        "warp_size" => "WarpSize",
        "lane_id" => "LaneId",
        _ => return None,
    })
}

/// One-argument math: the `MathFn` variant, for methods (`x.sqrt()`) and free functions.
pub fn unary_math(name: &str, free: bool) -> Option<&'static str> {
    Some(match name {
        "abs" => "Abs",
        "sqrt" => "Sqrt",
        "exp" => "Exp",
        "exp2" => "Exp2",
        "ln" => "Log",
        "log2" => "Log2",
        "log10" => "Log10",
        "sin" => "Sin",
        "cos" => "Cos",
        "tan" => "Tan",
        "tanh" => "Tanh",
        "floor" => "Floor",
        "ceil" => "Ceil",
        "round" => "Round",
        "trunc" => "Trunc",
        // Rust's own float methods: no free-function spelling.
        "atan" if !free => "Atan",
        "asin" if !free => "Asin",
        "acos" if !free => "Acos",
        "sinh" if !free => "Sinh",
        "cosh" if !free => "Cosh",
        "asinh" if !free => "Asinh",
        "acosh" if !free => "Acosh",
        "atanh" if !free => "Atanh",
        "cbrt" if !free => "Cbrt",
        "exp_m1" if !free => "Expm1",
        "ln_1p" if !free => "Log1p",
        "round_ties_even" if !free => "Rint",
        "rsqrt" if free => "Rsqrt",
        "fast_exp" if free => "FastExp",
        _ => return None,
    })
}

/// Warp shuffles: the `ShuffleKind` variant.
pub fn shuffle(name: &str) -> Option<&'static str> {
    Some(match name {
        "shfl_sync" => "Idx",
        "shfl_up_sync" => "Up",
        "shfl_down_sync" => "Down",
        "shfl_xor_sync" => "Xor",
        _ => return None,
    })
}

/// Atomics: the `AtomicOp` variant.
pub fn atomic(name: &str) -> Option<&'static str> {
    Some(match name {
        "atomic_add" => "Add",
        "atomic_sub" => "Sub",
        "atomic_min" => "Min",
        "atomic_max" => "Max",
        "atomic_exch" => "Exch",
        "atomic_cas" => "Cas",
        "atomic_and" => "And",
        "atomic_or" => "Or",
        "atomic_xor" => "Xor",
        "atomic_inc" => "Inc",
        "atomic_dec" => "Dec",
        _ => return None,
    })
}

/// Functions with no side effects (their calls may be evaluated in any order).
pub fn is_pure_call(name: &str) -> bool {
    dim_builtin(name).is_some()
        || scalar_builtin(name).is_some()
        || unary_math(name, true).is_some()
        || matches!(name, "min" | "max" | "powf" | "fma")
}

/// Array constructors, valid only as `let` initialisers.
pub fn is_array_ctor(name: &str) -> bool {
    matches!(name, "shared" | "shared2" | "dyn_shared")
}

/// The methods of the subset, for error messages.
pub const METHODS: &str = "abs, sqrt, exp, exp2, ln, log2, log10, sin, cos, tan, tanh, floor, \
ceil, round, trunc, atan, asin, acos, sinh, cosh, asinh, acosh, atanh, cbrt, exp_m1, ln_1p, \
round_ties_even, atan2, hypot, copysign, powf, mul_add, min, max, clamp, len";
