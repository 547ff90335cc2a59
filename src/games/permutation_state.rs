//! A permutation of at most 32 entries stored inline, so game states are
//! plain values that never allocate.

/// A permutation of `0..len`, at most 32 entries, held in a fixed array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermutationBuffer {
    entries: [u8; 32],
    len: usize,
}

impl PermutationBuffer {
    /// The identity permutation of `len` entries (at most 32).
    pub fn identity(len: usize) -> Self {
        assert!(len <= 32, "inline permutations hold at most 32 entries");
        let mut entries = [0u8; 32];
        for (i, slot) in entries.iter_mut().enumerate().take(len) {
            *slot = i as u8;
        }
        PermutationBuffer { entries, len }
    }

    /// The entries in order.
    #[inline(always)]
    pub fn as_slice(&self) -> &[u8] {
        &self.entries[..self.len]
    }

    /// The entries in order, to change in place.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.entries[..self.len]
    }

    /// All 32 entries (those past `len` are unspecified): copying a
    /// fixed-size array compiles to a few vector moves, where a copy of a
    /// variable-length slice calls memmove.
    #[inline(always)]
    pub fn as_array(&self) -> &[u8; 32] {
        &self.entries
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the permutation has no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Integers separated by commas and/or spaces ("3,1,-2" or "3 1 -2").
pub fn parse_numbers(text: &str) -> crate::Result<Vec<i64>> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|token| !token.is_empty())
        .map(|token| {
            token.parse::<i64>().map_err(|_| {
                crate::Error::InvalidParameter(format!(
                    "{} in the position is not a number",
                    crate::error::quoted(token)
                ))
            })
        })
        .collect()
}

/// Checks that `values` hold each of `first..first+len` once.
pub fn check_permutation(values: &[i64], first: i64, what: &str) -> crate::Result<()> {
    let len = values.len() as i64;
    // A bit mask, no allocation: bindings check millions of rows with this
    // (a Vec here cost Python's `g.rank` on Pancake 12 about 20 ns a row).
    let mut seen = [0u64; 4];
    if values.len() > 64 * seen.len() {
        return Err(crate::Error::InvalidParameter(format!(
            "{what} has {} entries, more than any game holds",
            values.len()
        )));
    }
    for &value in values {
        // Checked: a value may be any i64 the user typed.
        let index = value.checked_sub(first).filter(|i| (0..len).contains(i));
        match index {
            Some(index) if seen[index as usize / 64] >> (index % 64) & 1 == 0 => {
                seen[index as usize / 64] |= 1 << (index % 64)
            }
            _ => {
                return Err(crate::Error::InvalidParameter(format!(
                    "{what} must hold each of {first}..={} exactly once",
                    first + len - 1
                )));
            }
        }
    }
    Ok(())
}
