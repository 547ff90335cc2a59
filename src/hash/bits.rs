//! Packing the bits of a board at the free cells of a mask, and back: how
//! two-colour boards rank their second colour among the cells the first
//! leaves (Dodgem's red cars, Morris's black stones), as the paper's
//! multinomial ranks do one colour at a time.

/// The bits of `value` at the set positions of `mask`, packed low.
///
/// One BMI2 instruction (`pext`) where the CPU has it: the Morris solver's
/// profile spent a fifth of its time in this loop and [`expand`]'s.
#[inline]
pub fn compress(value: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has BMI2, checked just above.
        return unsafe { bmi2::pext(value, mask) };
    }
    compress_portable(value, mask)
}

/// [`compress`] a bit at a time (the reference for the BMI2 path).
#[inline]
pub fn compress_portable(value: u64, mut mask: u64) -> u64 {
    let mut packed = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask.trailing_zeros();
        packed |= (value >> low & 1) << bit;
        bit += 1;
        mask &= mask - 1;
    }
    packed
}

/// The inverse of [`compress`]: packed bits spread onto `mask`'s positions
/// (`pdep` where the CPU has BMI2).
#[inline]
pub fn expand(packed: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has BMI2, checked just above.
        return unsafe { bmi2::pdep(packed, mask) };
    }
    expand_portable(packed, mask)
}

#[cfg(target_arch = "x86_64")]
mod bmi2 {
    #[target_feature(enable = "bmi2")]
    pub(super) fn pext(value: u64, mask: u64) -> u64 {
        std::arch::x86_64::_pext_u64(value, mask)
    }

    #[target_feature(enable = "bmi2")]
    pub(super) fn pdep(packed: u64, mask: u64) -> u64 {
        std::arch::x86_64::_pdep_u64(packed, mask)
    }
}

/// [`expand`] a bit at a time (the reference for the BMI2 path).
#[inline]
pub fn expand_portable(packed: u64, mut mask: u64) -> u64 {
    let mut value = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask.trailing_zeros();
        value |= (packed >> bit & 1) << low;
        bit += 1;
        mask &= mask - 1;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::splitmix64;

    #[test]
    fn expand_inverts_compress_on_the_mask() {
        for i in 0..10_000u64 {
            let mask = splitmix64(i);
            let value = splitmix64(!i) & mask;
            let packed = compress(value, mask);
            if mask.count_ones() < 64 {
                assert!(packed < 1 << mask.count_ones());
            }
            assert_eq!(expand(packed, mask), value);
            // The BMI2 path (where there is one) and the loops agree.
            let any = splitmix64(i ^ 0x55);
            assert_eq!(compress(any, mask), compress_portable(any, mask));
            assert_eq!(expand(any, mask), expand_portable(any, mask));
        }
    }
}
