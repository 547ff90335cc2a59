//! Packing the bits of a board at the free cells of a mask, and back: how
//! two-colour boards rank their second colour among the cells the first
//! leaves (Dodgem's red cars, Morris's black stones), as the paper's
//! multinomial ranks do one colour at a time.

/// The bits of `value` at the set positions of `mask`, packed low.
#[inline]
pub fn compress(value: u64, mut mask: u64) -> u64 {
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

/// The inverse of [`compress`]: packed bits spread onto `mask`'s positions.
#[inline]
pub fn expand(packed: u64, mut mask: u64) -> u64 {
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
        }
    }
}
