//! A permutation of at most 32 entries stored inline, so game states are
//! plain values that never allocate.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermutationBuffer {
    entries: [u8; 32],
    len: usize,
}

impl PermutationBuffer {
    pub fn identity(len: usize) -> Self {
        assert!(len <= 32, "inline permutations hold at most 32 entries");
        let mut entries = [0u8; 32];
        for (i, slot) in entries.iter_mut().enumerate().take(len) {
            *slot = i as u8;
        }
        PermutationBuffer { entries, len }
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[u8] {
        &self.entries[..self.len]
    }

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

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}
