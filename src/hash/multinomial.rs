//! Ranking of vectors over c colours with fixed colour counts onto
//! `0..n!/(c_0! c_1! ... c_{c-1}!)`: Algorithms 10 and 11 of
//! Edelkamp et al., *Solving Games in Parallel with Linear-Time Perfect Hash
//! Functions* (TZI report 52, Bremen, 2009), generalised from three colours to
//! any c >= 2.
//!
//! Walking the cells from the top, a cell of colour v adds, for every colour
//! u < v, the number of ways to complete the lower cells had the cell held u
//! instead: the multinomial of the remaining counts with c_u decreased by one.
//! With two colours this is exactly the binomial rank of Algorithm 8.
//!
//! Those multinomials are looked up in a table indexed by the remaining counts
//! in mixed radix. Each digit is the count plus one, so a count of -1 lands on
//! a zero entry and no loop needs a test for exhausted colours. A second table
//! holds, per count vector, the running sums over colours, so ranking adds one
//! entry per cell and unranking picks a cell's colour by comparisons without
//! branches. Spaces whose table would exceed [`MAX_TABLE_ENTRIES`] compute the
//! multinomials on the fly instead (slower, same ranks).

use crate::error::{Error, Result};
use crate::hash::binomial::BINOMIALS;
use crate::hash::{check_len, check_rank};

/// The most cells a vector may have.
pub const MAX_MULTINOMIAL_LEN: usize = 64;
/// Largest lookup table (8 MiB); beyond it multinomials are computed per use.
pub const MAX_TABLE_ENTRIES: usize = 1 << 20;

/// Rank/unrank of the vectors over c colours with a fixed count of cells of
/// each colour.
#[derive(Clone, Debug)]
pub struct MultinomialRanker {
    counts: Vec<u8>,
    n: usize,
    size: u64,
    /// `table[index]` = multinomial of the counts encoded by `index`; empty
    /// when the ranker computes multinomials on the fly.
    table: Vec<u64>,
    /// `prefix[index * colours + v]` = sum over colours u < v of
    /// `table[index - strides[u]]`: what a cell of colour v adds to the rank.
    prefix: Vec<u64>,
    /// Mixed-radix stride of each colour's digit.
    strides: Vec<usize>,
    /// Index of the full count vector.
    full_index: usize,
}

/// The mixed-radix stride of each colour's digit (the count plus two
/// values, -1 to the count) and the entries of the whole index space, or
/// `None` when they do not fit a usize.
fn table_layout(counts: &[u8]) -> Option<(Vec<usize>, usize)> {
    let mut strides = Vec::with_capacity(counts.len());
    let mut entries = 1usize;
    for &count in counts {
        strides.push(entries);
        entries = entries.checked_mul(count as usize + 2)?;
    }
    Some((strides, entries))
}

/// The multinomial n!/(c_0!...c_{k}!) as a product of binomials
/// C(c_0+...+c_u, c_u), or `None` on u64 overflow. Negative counts give 0.
fn multinomial_of(counts: impl Iterator<Item = i64>) -> Option<u64> {
    let mut total = 0i64;
    let mut product = 1u64;
    for count in counts {
        if count < 0 {
            return Some(0);
        }
        total += count;
        product = product.checked_mul(BINOMIALS[total as usize][count as usize])?;
    }
    Some(product)
}

impl MultinomialRanker {
    /// A ranker for vectors with `counts[u]` cells of colour u.
    pub fn new(counts: &[u8]) -> Result<Self> {
        Self::build(counts, MAX_TABLE_ENTRIES)
    }

    /// As [`new`](Self::new), but without a lookup table (for tests of the
    /// on-the-fly path).
    pub fn without_table(counts: &[u8]) -> Result<Self> {
        Self::build(counts, 0)
    }

    fn build(counts: &[u8], max_table_entries: usize) -> Result<Self> {
        let n = check_counts(counts)?;
        let size = multinomial_of(counts.iter().map(|&c| c as i64)).ok_or_else(|| {
            Error::SpaceTooLarge(format!(
                "{n} cells with colour counts {counts:?} do not fit a 64-bit rank"
            ))
        })?;

        // Many colours make the table's index space pass even usize (64
        // colours of 0 and 1 cells: 2^62 · 9 entries); such spaces, like
        // any whose table is too large, rank on the fly.
        let (strides, entries) = table_layout(counts)
            .filter(|&(_, entries)| entries <= max_table_entries)
            .unwrap_or_default();
        let full_index: usize = counts
            .iter()
            .zip(&strides)
            .map(|(&c, &s)| (c as usize + 1) * s)
            .sum();
        let table = if !strides.is_empty() {
            (0..entries)
                .map(|index| {
                    let digits = strides.iter().zip(counts).map(|(&stride, &count)| {
                        ((index / stride) % (count as usize + 2)) as i64 - 1
                    });
                    // Sub-vectors of the full counts never exceed the space size.
                    multinomial_of(digits).expect("sub-multinomial fits when the total does")
                })
                .collect()
        } else {
            Vec::new()
        };
        let colours = counts.len();
        let mut prefix = vec![0u64; table.len() * colours];
        for index in 0..table.len() {
            let mut sum = 0u64;
            for colour in 0..colours {
                prefix[index * colours + colour] = sum;
                // Entries for a count digit of -1 are never read; their sums
                // may be anything, but must not overflow.
                if let Some(below) = index.checked_sub(strides[colour]) {
                    sum = sum.saturating_add(table[below]);
                }
            }
        }
        Ok(MultinomialRanker {
            counts: counts.to_vec(),
            n,
            size,
            table,
            prefix,
            strides,
            full_index,
        })
    }

    /// Cells per vector, n (the sum of the counts).
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when vectors have no cells (n = 0).
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

    /// Number of vectors.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The lookup tables the rank walks (prefix sums per count vector and
    /// colour, the stride of each colour's digit, the full count vector's
    /// index), for kernels that rank the same way; `None` when the ranker
    /// computes multinomials on the fly.
    pub fn lookup_tables(&self) -> Option<(&[u64], &[usize], usize)> {
        (!self.table.is_empty()).then_some((&self.prefix, &self.strides, self.full_index))
    }

    /// Algorithm 10, generalised: the rank of `cells` (length n, colour
    /// counts as given to the constructor).
    ///
    /// # Panics
    ///
    /// Unchecked, for the searches' hot paths: `cells` must hold the
    /// constructor's count of each colour. Otherwise the call may panic (a
    /// colour past the last indexes past the tables) or return a
    /// meaningless rank; [`try_rank`](Self::try_rank) checks.
    #[inline]
    pub fn rank(&self, cells: &[u8]) -> u64 {
        debug_assert_eq!(cells.len(), self.n);
        if self.table.is_empty() {
            return self.rank_on_the_fly(cells);
        }
        let colours = self.counts.len();
        let mut index = self.full_index;
        let mut rank = 0u64;
        for &colour in cells.iter().rev() {
            let colour = colour as usize;
            rank += self.prefix[index * colours + colour];
            index -= self.strides[colour];
        }
        rank
    }

    /// Algorithm 11, generalised: the vector of rank `rank < size`, written
    /// into `cells` (length n).
    ///
    /// # Panics
    ///
    /// Unchecked: `rank` must be below [`size`](Self::size) and `cells`
    /// n long. Otherwise the call may panic or write a meaningless vector;
    /// it never loops. [`try_unrank`](Self::try_unrank) checks.
    #[inline]
    pub fn unrank(&self, rank: u64, cells: &mut [u8]) {
        debug_assert!(rank < self.size);
        debug_assert_eq!(cells.len(), self.n);
        if self.table.is_empty() {
            return self.unrank_on_the_fly(rank, cells);
        }
        let colours = self.counts.len();
        let mut index = self.full_index;
        let mut r = rank;
        for cell in cells.iter_mut().rev() {
            // The running sums rise with the colour; the cell's colour is the
            // last whose sum is <= r (an exhausted colour adds nothing, so
            // the last such colour is never one).
            let sums = &self.prefix[index * colours..(index + 1) * colours];
            let colour = sums[1..]
                .iter()
                .map(|&sum| (sum <= r) as usize)
                .sum::<usize>();
            r -= sums[colour];
            *cell = colour as u8;
            index -= self.strides[colour];
        }
    }

    fn completions_with(&self, remaining: &[i64], colour: usize) -> u64 {
        let decreased = remaining
            .iter()
            .enumerate()
            .map(|(u, &c)| if u == colour { c - 1 } else { c });
        multinomial_of(decreased).expect("sub-multinomial fits when the total does")
    }

    fn rank_on_the_fly(&self, cells: &[u8]) -> u64 {
        let mut remaining: Vec<i64> = self.counts.iter().map(|&c| c as i64).collect();
        let mut rank = 0u64;
        for &colour in cells.iter().rev() {
            for u in 0..colour as usize {
                rank += self.completions_with(&remaining, u);
            }
            remaining[colour as usize] -= 1;
        }
        rank
    }

    fn unrank_on_the_fly(&self, rank: u64, cells: &mut [u8]) {
        let mut remaining: Vec<i64> = self.counts.iter().map(|&c| c as i64).collect();
        let mut r = rank;
        let last = self.counts.len() - 1;
        for cell in cells.iter_mut().rev() {
            // The last colour is what is left: no test for it, so a rank
            // past the size ends the walk instead of trying colours forever.
            let mut colour = 0usize;
            while colour < last {
                let completions = self.completions_with(&remaining, colour);
                if r < completions {
                    break;
                }
                r -= completions;
                colour += 1;
            }
            *cell = colour as u8;
            remaining[colour] -= 1;
        }
    }

    /// Rank of a vector given by a user: checks length, colours and counts.
    pub fn try_rank(&self, cells: &[u8]) -> Result<u64> {
        check_arrangement(cells, &self.counts)?;
        Ok(self.rank(cells))
    }

    /// The vector of a rank given by a user, written into `cells`: checks
    /// the rank against the size and the length of `cells`.
    pub fn try_unrank(&self, rank: u64, cells: &mut [u8]) -> Result<()> {
        check_rank(rank, self.size)?;
        check_len("the vector", cells.len(), self.n)?;
        self.unrank(rank, cells);
        Ok(())
    }
}

/// The cells of an arrangement with `counts[u]` cells of colour u, or why
/// no multinomial hash takes those counts (fewer than two colours, more
/// than 64 cells or colours).
pub(crate) fn check_counts(counts: &[u8]) -> Result<usize> {
    if counts.len() < 2 {
        return Err(Error::InvalidParameter(format!(
            "a multinomial hash needs at least 2 colours, got {}",
            counts.len()
        )));
    }
    let n: usize = counts.iter().map(|&c| c as usize).sum();
    if n > MAX_MULTINOMIAL_LEN || counts.len() > MAX_MULTINOMIAL_LEN {
        return Err(Error::InvalidParameter(format!(
            "the multinomial hash supports at most {MAX_MULTINOMIAL_LEN} cells and colours, got {n} cells in {} colours",
            counts.len()
        )));
    }
    Ok(n)
}

/// Whether `cells` holds `counts[u]` cells of each colour u (and so their
/// sum in all): what a user's vector must pass before either multinomial
/// hash ranks it.
pub(crate) fn check_arrangement(cells: &[u8], counts: &[u8]) -> Result<()> {
    let n: usize = counts.iter().map(|&c| c as usize).sum();
    if cells.len() != n {
        return Err(Error::InvalidParameter(format!(
            "vector has {} cells, expected {n}",
            cells.len()
        )));
    }
    let mut seen = vec![0usize; counts.len()];
    for &colour in cells {
        match seen.get_mut(colour as usize) {
            Some(count) => *count += 1,
            None => {
                return Err(Error::InvalidParameter(format!(
                    "colour {colour} is not below {}",
                    counts.len()
                )));
            }
        }
    }
    if seen.iter().zip(counts).any(|(&s, &c)| s != c as usize) {
        return Err(Error::InvalidParameter(format!(
            "colour counts {seen:?} differ from {counts:?}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::binomial::BinomialRanker;

    /// Every arrangement of the multiset, in no particular order.
    fn arrangements(counts: &[u8]) -> Vec<Vec<u8>> {
        fn extend(counts: &mut [u8], prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            if counts.iter().all(|&c| c == 0) {
                out.push(prefix.clone());
                return;
            }
            for colour in 0..counts.len() {
                if counts[colour] > 0 {
                    counts[colour] -= 1;
                    prefix.push(colour as u8);
                    extend(counts, prefix, out);
                    prefix.pop();
                    counts[colour] += 1;
                }
            }
        }
        let mut out = Vec::new();
        extend(&mut counts.to_vec(), &mut Vec::new(), &mut out);
        out
    }

    fn check_whole_space(ranker: &MultinomialRanker) {
        let all = arrangements(ranker.counts());
        assert_eq!(all.len() as u64, ranker.size());
        let mut seen = vec![false; all.len()];
        let mut cells = vec![0u8; ranker.len()];
        for arrangement in &all {
            let r = ranker.rank(arrangement);
            assert!(r < ranker.size());
            assert!(!seen[r as usize]);
            seen[r as usize] = true;
            ranker.unrank(r, &mut cells);
            assert_eq!(&cells, arrangement);
        }
    }

    #[test]
    fn whole_small_spaces_round_trip_with_and_without_table() {
        for counts in [
            vec![4u8, 4, 1],
            vec![2, 3],
            vec![0, 3, 2],
            vec![3, 0, 0, 2],
            vec![1, 1, 1, 1, 1, 1],
            vec![2, 2, 2, 1],
            vec![5, 0],
        ] {
            check_whole_space(&MultinomialRanker::new(&counts).unwrap());
            check_whole_space(&MultinomialRanker::without_table(&counts).unwrap());
        }
    }

    #[test]
    fn two_colours_agree_with_the_binomial_hash() {
        for n in 1..=12u8 {
            for ones in 0..=n {
                let multinomial = MultinomialRanker::new(&[n - ones, ones]).unwrap();
                let binomial = BinomialRanker::new(n as usize, ones as usize).unwrap();
                let mut cells = vec![0u8; n as usize];
                for r in 0..binomial.size() {
                    multinomial.unrank(r, &mut cells);
                    let bits = cells
                        .iter()
                        .enumerate()
                        .fold(0u64, |acc, (i, &c)| acc | (c as u64) << i);
                    assert_eq!(binomial.rank(bits), r);
                }
            }
        }
    }

    #[test]
    fn thirty_one_cells_15_15_1_round_trip_on_samples() {
        let table = MultinomialRanker::new(&[1, 15, 15]).unwrap();
        let fly = MultinomialRanker::without_table(&[1, 15, 15]).unwrap();
        assert_eq!(table.size(), 4_808_643_120);
        let mut cells = vec![0u8; 31];
        let mut state = 3u64;
        for _ in 0..3000 {
            state = crate::hash::splitmix64(state);
            let r = state % table.size();
            table.unrank(r, &mut cells);
            assert_eq!(table.rank(&cells), r);
            assert_eq!(fly.rank(&cells), r);
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(MultinomialRanker::new(&[5]).is_err());
        assert!(MultinomialRanker::new(&[40, 40]).is_err());
        // 64 cells over 4 colours of 16 is about 1.8e36 arrangements.
        assert!(matches!(
            MultinomialRanker::new(&[16, 16, 16, 16]),
            Err(Error::SpaceTooLarge(_))
        ));
        let ranker = MultinomialRanker::new(&[2, 1]).unwrap();
        assert!(ranker.try_rank(&[0, 0]).is_err());
        assert!(ranker.try_rank(&[0, 1, 1]).is_err());
        assert!(ranker.try_rank(&[0, 2, 0]).is_err());
        assert!(ranker.try_rank(&[0, 1, 0]).is_ok());
        let mut cells = [0u8; 3];
        assert_eq!(
            ranker.try_unrank(3, &mut cells).unwrap_err().to_string(),
            "invalid parameter: rank 3 is outside the space of 3 elements (ranks 0..3)"
        );
        assert!(ranker.try_unrank(0, &mut [0u8; 2]).is_err());
        ranker.try_unrank(2, &mut cells).unwrap();
        assert_eq!(cells, [0, 0, 1]);
    }

    /// A rank past the size ends on the fly as with the table: the last
    /// colour is never tried, so no walk over ever more colours.
    #[test]
    fn ranks_past_the_size_end() {
        let fly = MultinomialRanker::without_table(&[2, 1]).unwrap();
        let mut cells = [0u8; 3];
        fly.unrank_on_the_fly(u64::MAX, &mut cells);
        assert!(cells.iter().all(|&colour| colour < 2));
        assert!(fly.try_unrank(u64::MAX, &mut cells).is_err());
    }

    /// Sixty-four colours: the table's index space passes usize, and the
    /// ranker ranks on the fly, as the colour-set hash accepts them.
    #[test]
    fn sixty_four_colours_rank_on_the_fly() {
        let mut ends = vec![0u8; 64];
        ends[0] = 1;
        ends[63] = 1;
        let mut last_two = vec![0u8; 64];
        last_two[62] = 2;
        last_two[63] = 2;
        for (counts, size) in [(ends, 2), (last_two, 6)] {
            let ranker = MultinomialRanker::new(&counts).unwrap();
            assert_eq!(ranker.size(), size);
            assert_eq!(ranker.lookup_tables(), None);
            check_whole_space(&ranker);
            assert_eq!(
                crate::hash::ColourSetRanker::new(&counts).unwrap().size(),
                size
            );
        }
        // Every cell its own colour: 64! does not fit, refused in one line.
        assert_eq!(
            MultinomialRanker::new(&[1; 64]).unwrap_err().to_string(),
            format!(
                "space too large: 64 cells with colour counts {:?} do not fit a 64-bit rank",
                [1u8; 64]
            )
        );
    }
}
