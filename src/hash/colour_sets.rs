//! Arrangements of a multiset of colours (n cells, `counts[u]` of colour
//! u) ranked onto `0..n!/(c_0! c_1! ... c_{c-1}!)` as nested sets: the
//! one multinomial hash the games share. The positional games' boards
//! (three colours: empty, white, black, see [`super::StoneRanker`]) and
//! the alike pieces of definition files (any number of colours) both rank
//! through it, on the CPU and in the kernels (`shaders/colour_sets.wgsl`).
//!
//! Level j chooses, among the cells of colour j or more, the set of those
//! of colour above j: a colexicographic binomial rank (Algorithm 8 of
//! Edelkamp et al., *Solving Games in Parallel with Linear-Time Perfect
//! Hash Functions*, 2009) of that set's bits packed onto the level's
//! cells. The c − 1 levels' ranks are the digits of the rank in mixed
//! radix, the first level most significant. Their radices multiply to the
//! multinomial, so the rank is perfect and dense, as Algorithm 10 of the
//! same report is in another order ([`super::MultinomialRanker`], the
//! paper's algorithm, kept for the hash API).
//!
//! Why this order rather than Algorithm 10's: a colour's cells are one
//! 64-bit mask, so a level is a bit gather and a byte-wise table rank
//! (no walk of the cells through a table indexed by the remaining
//! counts), a move's successor ranks can follow by table steps from the
//! masks (the positional games' placements), and boards of one occupied
//! set are consecutive, so successors of consecutive ranks stay close.

use crate::error::{Error, Result};
use crate::hash::binomial::{BinomialRanker, low_bits};
use crate::hash::bits::{compress, expand};
use crate::hash::multinomial::{MAX_MULTINOMIAL_LEN, check_arrangement, check_counts};
use crate::hash::{check_len, check_rank};

/// The most colours, and cells, an arrangement may have (as for
/// Algorithm 10: both hashes check counts alike).
pub const MAX_COLOUR_CELLS: usize = MAX_MULTINOMIAL_LEN;

/// One level of the nesting: among the cells of colour j or more, the set
/// of those of colour above j.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColourLevel {
    /// The binomial rank of the level's set among the level's cells.
    among: BinomialRanker,
    /// The cells of the colours above j.
    pub chosen: usize,
    /// C(level's cells, chosen): this level's radix.
    pub size: u64,
    /// The product of the radices of the levels after this one: the
    /// weight of this level's digit in the rank.
    pub weight: u64,
}

impl ColourLevel {
    /// The binomial hash of the level's set among the level's cells.
    pub fn binomial(&self) -> BinomialRanker {
        self.among
    }
}

/// Rank/unrank of the arrangements of n cells over c colours with fixed
/// counts, by nested sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourSetRanker {
    counts: Vec<u8>,
    n: usize,
    levels: Vec<ColourLevel>,
    size: u64,
    /// Whether the CPU has BMI2's bit gather (`pext`), checked once.
    bmi2: bool,
}

impl ColourSetRanker {
    /// A ranker for arrangements with `counts[u]` cells of colour u;
    /// refused with fewer than two colours, beyond 64 cells, or when the
    /// arrangements do not fit a 64-bit rank.
    pub fn new(counts: &[u8]) -> Result<Self> {
        let n = check_counts(counts)?;
        let mut levels = Vec::with_capacity(counts.len() - 1);
        let mut among = n;
        for &count in &counts[..counts.len() - 1] {
            let chosen = among - count as usize;
            let ranker = BinomialRanker::new(among, chosen)?;
            levels.push(ColourLevel {
                among: ranker,
                chosen,
                size: ranker.size(),
                weight: 1,
            });
            among = chosen;
        }
        let mut size = 1u64;
        for level in levels.iter_mut().rev() {
            level.weight = size;
            size = size.checked_mul(level.size).ok_or_else(|| {
                Error::SpaceTooLarge(format!(
                    "{n} cells with colour counts {counts:?} do not fit a 64-bit rank"
                ))
            })?;
        }
        Ok(ColourSetRanker {
            counts: counts.to_vec(),
            n,
            levels,
            size,
            bmi2: has_bmi2(),
        })
    }

    /// Number of arrangements.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Cells per arrangement, n.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when arrangements have no cells.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Number of colours, c.
    pub fn colours(&self) -> usize {
        self.counts.len()
    }

    /// Cells of each colour.
    pub fn counts(&self) -> &[u8] {
        &self.counts
    }

    /// The levels, the first the most significant digit of a rank.
    pub fn levels(&self) -> &[ColourLevel] {
        &self.levels
    }

    /// The radix of level j, C(cells of colour >= j, cells of colour > j):
    /// the ranks one level's set takes.
    pub fn level_size(&self, level: usize) -> u64 {
        self.levels[level].size
    }

    /// The rank of the arrangement whose level sets are `above`:
    /// `above[j]` holds the cells of colour above j (so each is a subset
    /// of the one before), one entry per level (c − 1).
    ///
    /// # Panics
    ///
    /// Unchecked, for the hot paths: debug builds panic on sets that are
    /// not nested as described, release builds return a meaningless rank.
    /// [`try_rank_sets`](Self::try_rank_sets) checks.
    #[inline]
    pub fn rank_sets(&self, above: &[u64]) -> u64 {
        debug_assert_eq!(above.len(), self.levels.len());
        let mut among = low_bits(self.n);
        let mut rank = 0u64;
        for (level, &chosen) in self.levels.iter().zip(above) {
            debug_assert_eq!(chosen & !among, 0);
            debug_assert_eq!(chosen.count_ones() as usize, level.among.ones());
            rank = rank * level.size
                + BinomialRanker::rank_of_bits(level.among.len(), compress(chosen, among));
            among = chosen;
        }
        rank
    }

    /// The level sets of the arrangement of rank `rank < size`, written
    /// into `above` (one entry per level).
    ///
    /// # Panics
    ///
    /// Unchecked: `rank` must be below [`size`](Self::size). Beyond it the
    /// call panics (a level's digit past its binomial) or writes
    /// meaningless sets; it never loops.
    /// [`try_unrank_sets`](Self::try_unrank_sets) checks.
    #[inline]
    pub fn unrank_sets(&self, rank: u64, above: &mut [u64]) {
        debug_assert_eq!(above.len(), self.levels.len());
        self.each_level_set(rank, |j, set| above[j] = set);
    }

    /// Calls `visit(j, set)` with level j's set of the arrangement of
    /// rank `rank`, level by level.
    #[inline(always)]
    fn each_level_set(&self, rank: u64, mut visit: impl FnMut(usize, u64)) {
        debug_assert!(rank < self.size);
        let mut among = low_bits(self.n);
        let mut rest = rank;
        let last = self.levels.len() - 1;
        for (j, level) in self.levels.iter().enumerate() {
            // The last level's weight is 1: no division for it (three
            // colours divide once, as a quotient and remainder).
            let digit = if j == last { rest } else { rest / level.weight };
            rest -= digit * level.weight;
            among = expand(level.among.unrank(digit), among);
            visit(j, among);
        }
    }

    /// The rank of the arrangement `cells` (length n, the counts given to
    /// the constructor), cell i of colour `cells[i]`.
    ///
    /// Eight cells at a time: each level's set is read off the cells'
    /// bytes by one subtraction and one multiplication per eight. Setting
    /// a bit per cell in a mask per colour chained every cell through a
    /// store (see docs/performance-log.md, 2026-11-29).
    ///
    /// # Panics
    ///
    /// Unchecked, for the hot paths: `cells` must hold the constructor's
    /// count of each colour. Debug builds panic on another length; other
    /// cells give a meaningless rank. [`try_rank`](Self::try_rank) checks.
    #[inline]
    pub fn rank(&self, cells: &[u8]) -> u64 {
        debug_assert_eq!(cells.len(), self.n);
        let mut words = [0u64; MAX_COLOUR_CELLS / 8];
        let count = cell_words(cells, &mut words);
        self.rank_words(&words[..count])
    }

    /// [`rank`](Self::rank) of the cells given as little-endian words of
    /// eight (cell i in byte i % 8 of word i / 8, zero past the n-th), for
    /// a caller that builds them in registers: bytes written one by one
    /// and read back as a word wait for every store.
    ///
    /// # Panics
    ///
    /// As [`rank`](Self::rank): the words must hold an arrangement of
    /// this ranker's.
    #[inline]
    pub fn rank_words(&self, words: &[u64]) -> u64 {
        debug_assert_eq!(words.len(), self.n.div_ceil(8));
        #[cfg(target_arch = "x86_64")]
        if self.bmi2 {
            // SAFETY: the CPU has BMI2 (checked when the ranker was made).
            return unsafe { self.rank_words_bmi2(words) };
        }
        self.rank_words_with(words, compress)
    }

    /// [`rank_words`](Self::rank_words) with `pext` inlined: one feature
    /// check a rank, not one a level, and no call per level (16 cells in
    /// 4 colours, rank only: see docs/performance-log.md).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn rank_words_bmi2(&self, words: &[u64]) -> u64 {
        self.rank_words_with(words, |value, mask| {
            // Safe to call within a function compiled for BMI2.
            std::arch::x86_64::_pext_u64(value, mask)
        })
    }

    /// Dispatches on the count of words so that each level's loop over
    /// them is unrolled (a loop of unknown length was vectorised for four
    /// words and more, and ran its scalar tail for the usual one or two).
    #[inline(always)]
    fn rank_words_with(&self, words: &[u64], compress: impl Fn(u64, u64) -> u64) -> u64 {
        match words.len() {
            1 => self.rank_fixed_words::<1>(words, compress),
            2 => self.rank_fixed_words::<2>(words, compress),
            3 => self.rank_fixed_words::<3>(words, compress),
            4 => self.rank_fixed_words::<4>(words, compress),
            5..=8 => self.rank_fixed_words::<8>(words, compress),
            _ => 0,
        }
    }

    #[inline(always)]
    fn rank_fixed_words<const W: usize>(
        &self,
        words: &[u64],
        compress: impl Fn(u64, u64) -> u64,
    ) -> u64 {
        let mut fixed = [0u64; W];
        fixed[..words.len()].copy_from_slice(words);
        let mut among = low_bits(self.n);
        let mut rank = 0u64;
        for (colour, level) in self.levels.iter().enumerate() {
            let mut chosen = 0u64;
            for (i, &word) in fixed.iter().enumerate() {
                chosen |= bytes_above(word, colour as u8) << (8 * i);
            }
            // The first level's cells are all n: nothing to pack.
            let packed = if colour == 0 {
                chosen
            } else {
                compress(chosen, among)
            };
            rank = rank * level.size + BinomialRanker::rank_of_bits(level.among.len(), packed);
            among = chosen;
        }
        rank
    }

    /// The arrangement of rank `rank < size`, written into `cells`
    /// (length n): a cell's colour is the number of level sets holding
    /// it, summed eight cells at a time.
    ///
    /// # Panics
    ///
    /// Unchecked: `rank` must be below [`size`](Self::size) and `cells` n
    /// long; otherwise as [`unrank_sets`](Self::unrank_sets).
    /// [`try_unrank`](Self::try_unrank) checks.
    #[inline]
    pub fn unrank(&self, rank: u64, cells: &mut [u8]) {
        debug_assert_eq!(cells.len(), self.n);
        let mut words = [0u64; MAX_COLOUR_CELLS / 8];
        let count = self.n.div_ceil(8);
        self.each_level_set(rank, |_, set| {
            for (i, word) in words[..count].iter_mut().enumerate() {
                *word += spread_bits(set >> (8 * i) & 0xff);
            }
        });
        for (chunk, word) in cells.chunks_mut(8).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes()[..chunk.len()]);
        }
    }

    /// Rank of an arrangement given by a user: checks length, colours and
    /// counts.
    pub fn try_rank(&self, cells: &[u8]) -> Result<u64> {
        check_arrangement(cells, &self.counts)?;
        Ok(self.rank(cells))
    }

    /// The arrangement of a rank given by a user, written into `cells`:
    /// checks the rank against the size and the length of `cells`.
    pub fn try_unrank(&self, rank: u64, cells: &mut [u8]) -> Result<()> {
        check_rank(rank, self.size)?;
        check_len("the arrangement", cells.len(), self.n)?;
        self.unrank(rank, cells);
        Ok(())
    }

    /// [`rank_sets`](Self::rank_sets) of sets given by a user: one per
    /// level, each inside the one before (the first inside the n cells)
    /// with the level's count of cells.
    pub fn try_rank_sets(&self, above: &[u64]) -> Result<u64> {
        if above.len() != self.levels.len() {
            return Err(Error::InvalidParameter(format!(
                "{} level sets given, expected {}",
                above.len(),
                self.levels.len()
            )));
        }
        let mut among = low_bits(self.n);
        for (j, (level, &chosen)) in self.levels.iter().zip(above).enumerate() {
            if chosen & !among != 0 || chosen.count_ones() as usize != level.chosen {
                return Err(Error::InvalidParameter(format!(
                    "level set {j} ({chosen:#x}) is not {} cells of {among:#x}",
                    level.chosen
                )));
            }
            among = chosen;
        }
        Ok(self.rank_sets(above))
    }

    /// [`unrank_sets`](Self::unrank_sets) of a rank given by a user:
    /// checks the rank and the length of `above`.
    pub fn try_unrank_sets(&self, rank: u64, above: &mut [u64]) -> Result<()> {
        check_rank(rank, self.size)?;
        if above.len() != self.levels.len() {
            return Err(Error::InvalidParameter(format!(
                "room for {} level sets, expected {}",
                above.len(),
                self.levels.len()
            )));
        }
        self.unrank_sets(rank, above);
        Ok(())
    }
}

fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("bmi2");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// One byte set in each byte of a word.
const LOW_BYTES: u64 = 0x0101_0101_0101_0101;
/// The top bit of each byte.
const HIGH_BYTES: u64 = 0x8080_8080_8080_8080;

/// The cells as little-endian words of eight (zero past the end); the
/// count of words.
#[inline(always)]
fn cell_words(cells: &[u8], words: &mut [u64; MAX_COLOUR_CELLS / 8]) -> usize {
    let mut count = 0;
    for (word, chunk) in words.iter_mut().zip(cells.chunks(8)) {
        *word = match <[u8; 8]>::try_from(chunk) {
            Ok(bytes) => u64::from_le_bytes(bytes),
            Err(_) => chunk.iter().rev().fold(0, |w, &b| w << 8 | b as u64),
        };
        count += 1;
    }
    count
}

/// Bit i set where byte i of `word` exceeds `colour` (bytes below 128).
/// `byte | 0x80` never borrows when `colour + 1` is taken from it, and
/// keeps its top bit exactly when the byte exceeds `colour`; the eight top
/// bits are then gathered by one multiplication.
#[inline(always)]
fn bytes_above(word: u64, colour: u8) -> u64 {
    let high = ((word | HIGH_BYTES) - LOW_BYTES * (colour as u64 + 1)) & HIGH_BYTES;
    (high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The inverse gather: bit i of `byte` (below 256) to byte i, as 0 or 1.
#[inline(always)]
fn spread_bits(byte: u64) -> u64 {
    // Byte i of the product keeps bit i of `byte`; adding 0x7f to each
    // byte (none exceeds 0x80, so none carries) moves it to the top bit.
    ((byte.wrapping_mul(LOW_BYTES) & 0x8040_2010_0804_0201) + 0x7f7f_7f7f_7f7f_7f7f) >> 7
        & LOW_BYTES
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::MultinomialRanker;

    /// Every arrangement of small multisets: rank is onto 0..size, unrank
    /// inverts it, and the level sets agree with the cells.
    #[test]
    fn whole_small_spaces_round_trip() {
        for counts in [
            vec![4u8, 4, 1],
            vec![2, 3],
            vec![0, 3, 2],
            vec![3, 0, 0, 2],
            vec![1, 1, 1, 1, 1, 1],
            vec![2, 2, 2, 1],
            vec![5, 0],
            vec![0, 0],
        ] {
            let ranker = ColourSetRanker::new(&counts).unwrap();
            // The same space as Algorithm 10's, walked in its order.
            let reference = MultinomialRanker::new(&counts).unwrap();
            assert_eq!(ranker.size(), reference.size(), "{counts:?}");
            let mut seen = vec![false; ranker.size() as usize];
            let mut cells = vec![0u8; ranker.len()];
            let mut again = vec![0u8; ranker.len()];
            let mut above = vec![0u64; counts.len() - 1];
            for r in 0..reference.size() {
                reference.unrank(r, &mut cells);
                let rank = ranker.rank(&cells);
                assert!(!std::mem::replace(&mut seen[rank as usize], true));
                ranker.unrank(rank, &mut again);
                assert_eq!(again, cells, "{counts:?} rank {rank}");
                ranker.unrank_sets(rank, &mut above);
                for (j, &set) in above.iter().enumerate() {
                    let expected = cells
                        .iter()
                        .enumerate()
                        .filter(|&(_, &c)| c as usize > j)
                        .fold(0u64, |m, (i, _)| m | 1 << i);
                    assert_eq!(set, expected);
                }
                assert_eq!(ranker.rank_sets(&above), rank);
            }
        }
    }

    /// Two colours: the binomial rank of the second colour's cells.
    #[test]
    fn two_colours_are_the_binomial_hash() {
        for n in 1..=12u8 {
            for ones in 0..=n {
                let ranker = ColourSetRanker::new(&[n - ones, ones]).unwrap();
                let binomial = BinomialRanker::new(n as usize, ones as usize).unwrap();
                for r in 0..binomial.size() {
                    let mut above = [0u64];
                    ranker.unrank_sets(r, &mut above);
                    assert_eq!(above[0], binomial.unrank(r));
                }
            }
        }
    }

    #[test]
    fn sixty_four_cells_round_trip_on_samples() {
        let ranker = ColourSetRanker::new(&[50, 8, 4, 2]).unwrap();
        let mut cells = vec![0u8; 64];
        let mut state = 7u64;
        for _ in 0..2000 {
            state = crate::hash::splitmix64(state);
            let r = state % ranker.size();
            ranker.unrank(r, &mut cells);
            assert_eq!(ranker.try_rank(&cells).unwrap(), r);
        }
    }

    /// The byte tricks against plain loops, on every byte.
    #[test]
    fn bytes_are_gathered_and_spread_exactly() {
        for byte in 0..256u64 {
            let spread = spread_bits(byte);
            for i in 0..8 {
                assert_eq!(spread >> (8 * i) & 0xff, byte >> i & 1);
            }
        }
        let mut state = 11u64;
        for _ in 0..5000 {
            state = crate::hash::splitmix64(state);
            let word = state & 0x7f7f_7f7f_7f7f_7f7f;
            let colour = (state >> 58) as u8;
            let expected = (0..8).fold(0u64, |set, i| {
                set | (((word >> (8 * i) & 0xff) > colour as u64) as u64) << i
            });
            assert_eq!(bytes_above(word, colour), expected);
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(ColourSetRanker::new(&[5]).is_err());
        assert!(ColourSetRanker::new(&[40, 40]).is_err());
        assert!(matches!(
            ColourSetRanker::new(&[16, 16, 16, 16]),
            Err(Error::SpaceTooLarge(_))
        ));
        let ranker = ColourSetRanker::new(&[2, 1]).unwrap();
        assert!(ranker.try_rank(&[0, 0]).is_err());
        assert!(ranker.try_rank(&[0, 1, 1]).is_err());
        assert!(ranker.try_rank(&[0, 2, 0]).is_err());
        assert_eq!(ranker.try_rank(&[0, 1, 0]).unwrap(), 1);
        let mut cells = [0u8; 3];
        assert_eq!(
            ranker.try_unrank(3, &mut cells).unwrap_err().to_string(),
            "invalid parameter: rank 3 is outside the space of 3 elements (ranks 0..3)"
        );
        assert!(ranker.try_unrank(0, &mut [0u8; 4]).is_err());
        ranker.try_unrank(1, &mut cells).unwrap();
        assert_eq!(cells, [0, 1, 0]);
        let nested = ColourSetRanker::new(&[1, 1, 2]).unwrap();
        assert!(
            nested.try_rank_sets(&[0b10110, 0b10100]).is_err(),
            "outside the cells"
        );
        assert!(
            nested.try_rank_sets(&[0b0111, 0b1100]).is_err(),
            "not nested"
        );
        assert!(nested.try_rank_sets(&[0b0111]).is_err(), "too few levels");
        let mut above = [0u64; 2];
        assert!(nested.try_unrank_sets(nested.size(), &mut above).is_err());
        nested.try_unrank_sets(5, &mut above).unwrap();
        assert_eq!(nested.try_rank_sets(&above).unwrap(), 5);
    }
}
