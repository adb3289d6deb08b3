//! Launch dimensions: what `grid` and `block` accept.

/// Grid or block dimensions `[x, y, z]`. Converts from `u32`, `(x, y)`, `(x, y, z)` and
/// `[x, y, z]` (unsuffixed literals work too); values that do not fit a `u32` become 0, which
/// the launch then rejects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3(pub [u32; 3]);

fn fit<T: TryInto<u32>>(v: T) -> u32 {
    v.try_into().unwrap_or(0)
}

macro_rules! dim_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Dim3 {
            fn from(x: $t) -> Dim3 {
                Dim3([fit(x), 1, 1])
            }
        }
        impl From<($t, $t)> for Dim3 {
            fn from((x, y): ($t, $t)) -> Dim3 {
                Dim3([fit(x), fit(y), 1])
            }
        }
        impl From<($t, $t, $t)> for Dim3 {
            fn from((x, y, z): ($t, $t, $t)) -> Dim3 {
                Dim3([fit(x), fit(y), fit(z)])
            }
        }
        impl From<[$t; 3]> for Dim3 {
            fn from([x, y, z]: [$t; 3]) -> Dim3 {
                Dim3([fit(x), fit(y), fit(z)])
            }
        }
    )*};
}

dim_from!(u32, i32, usize);

#[cfg(test)]
mod tests {
    use super::Dim3;

    #[test]
    fn literals_tuples_and_arrays_convert() {
        let d: Dim3 = 4.into();
        assert_eq!(d, Dim3([4, 1, 1]));
        assert_eq!(Dim3::from((16, 8)), Dim3([16, 8, 1]));
        assert_eq!(Dim3::from([2u32, 3, 4]), Dim3([2, 3, 4]));
        assert_eq!(Dim3::from(-1), Dim3([0, 1, 1]));
    }
}
