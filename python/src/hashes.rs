//! The library's perfect hashes over numpy arrays, straight from
//! `bitsolve::hash` into the output array (no position text in between):
//! permutations (prefix Lehmer, the order Pancake ranks its stacks in;
//! Myrvold-Ruskey; lexicographic), k-subsets of n cells as bit masks
//! (binomial), and cell vectors with given colour counts (multinomial).
//! Each call runs on `threads` cores (all when `None`; the Python wrappers
//! ask for one by default, so that a caller's own parallelism is not
//! doubled), in blocks of rows that each thread writes in place.

use bitsolve::error::Error;
use bitsolve::hash::permutation::{
    MAX_PERMUTATION_LEN, factorial, is_permutation, rank_lex, rank_mr, unrank_lex, unrank_mr,
};
use bitsolve::hash::{BinomialRanker, ColourSetRanker, MultinomialRanker, prefix_lehmer};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::memory::{Failure, NoRoom, filled};
use crate::{check_ranks, invalid, pool, to_python};

/// Rows per unit of parallel work.
const BLOCK: usize = 1 << 14;

#[derive(Clone, Copy)]
enum Order {
    PrefixLehmer,
    MyrvoldRuskey,
    Lexicographic,
}

fn order(text: &str) -> PyResult<Order> {
    match text {
        "prefix-lehmer" | "prefix_lehmer" => Ok(Order::PrefixLehmer),
        "myrvold-ruskey" | "myrvold_ruskey" => Ok(Order::MyrvoldRuskey),
        "lex" | "lexicographic" => Ok(Order::Lexicographic),
        _ => Err(invalid(format!(
            "invalid permutation order '{text}' [possible values: prefix-lehmer, myrvold-ruskey, lex]"
        ))),
    }
}

/// Runs `work` on a pool of `threads` (all cores when `None`, at most
/// [`crate::MAX_THREADS`]) without the GIL.
fn run<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    work: impl FnOnce() -> Result<T, Failure> + Send,
) -> PyResult<T> {
    let pool = pool(threads)?;
    Ok(py.detach(|| pool.install(work))?)
}

/// The zeroed bytes of `count` rows of `width` cells, the result of an
/// unrank: refused with `MemoryError` (before any rank is read) where the
/// machine has not the memory for them.
fn result_rows(count: usize, width: usize) -> Result<Vec<u8>, NoRoom> {
    let what = || format!("the result ({count} rows of {width} uint8 cells)");
    let cells = count
        .checked_mul(width)
        .ok_or_else(|| NoRoom::new(format!("{} has more cells than an array may", what())))?;
    filled(cells, 0u8, &what)
}

/// The zeroed uint64 result of `count` ranks or masks (see [`result_rows`]).
fn result_words(count: usize, what: &str) -> Result<Vec<u64>, NoRoom> {
    filled(count, 0u64, &|| {
        format!("the result ({count} uint64 {what})")
    })
}

/// Fills `rows` (`width` cells each, zeroed, one row per rank) from
/// `ranks` with `unrank`, a block of rows per task.
fn unrank_rows(
    mut rows: Vec<u8>,
    ranks: &[u64],
    width: usize,
    unrank: impl Fn(u64, &mut [u8]) + Sync,
) -> Vec<u8> {
    if width > 0 {
        rows.par_chunks_mut(BLOCK * width)
            .zip(ranks.par_chunks(BLOCK))
            .for_each(|(rows, ranks)| {
                for (row, &rank) in rows.chunks_exact_mut(width).zip(ranks) {
                    unrank(rank, row);
                }
            });
    }
    rows
}

/// The ranks of `rows` (`width` cells each) by `rank`, which refuses a row
/// that is no vector of the space (naming it by index).
fn rank_rows(
    rows: &[u8],
    width: usize,
    rank: impl Fn(usize, &[u8]) -> bitsolve::Result<u64> + Sync,
) -> Result<Vec<u64>, Failure> {
    let count = rows.len().checked_div(width).unwrap_or(0);
    let mut ranks = result_words(count, "ranks")?;
    ranks
        .par_chunks_mut(BLOCK)
        .enumerate()
        .try_for_each(|(block, ranks)| {
            for (i, out) in ranks.iter_mut().enumerate() {
                let index = block * BLOCK + i;
                *out = rank(index, &rows[index * width..(index + 1) * width])?;
            }
            Ok::<(), Error>(())
        })?;
    Ok(ranks)
}

/// [`unrank_rows`] for permutations of `n` elements, each unranked into a
/// `[u8; N]` first: with the length known at compile time the hash's loops
/// unroll, which made prefix Lehmer's unrank 1.7x faster at n = 12 (33 ns
/// a row with a runtime length, 19 ns as in `cargo bench --bench hashing`).
fn unrank_permutations<U>(rows: Vec<u8>, ranks: &[u64], n: usize, unrank: U) -> Vec<u8>
where
    U: Fn(u64, &mut [u8]) + Sync + Copy,
{
    fn fixed<const N: usize, U>(rows: Vec<u8>, ranks: &[u64], unrank: U) -> Vec<u8>
    where
        U: Fn(u64, &mut [u8]) + Sync + Copy,
    {
        unrank_rows(rows, ranks, N, |rank, row| {
            let mut perm = [0u8; N];
            unrank(rank, &mut perm);
            row.copy_from_slice(&perm);
        })
    }
    macro_rules! by_length {
        ($($n:literal)*) => {
            match n {
                $($n => fixed::<$n, U>(rows, ranks, unrank),)*
                _ => unrank_rows(rows, ranks, n, unrank),
            }
        };
    }
    by_length!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20)
}

fn to_array(py: Python<'_>, rows: Vec<u8>, count: usize, width: usize) -> Bound<'_, PyArray2<u8>> {
    Array2::from_shape_vec((count, width), rows)
        .expect("rows x width")
        .into_pyarray(py)
}

/// The permutations of `0..n` with `ranks`, one row each.
#[pyfunction]
#[pyo3(signature = (n, ranks, order="prefix-lehmer", threads=None))]
pub fn permutation_unrank<'py>(
    py: Python<'py>,
    n: usize,
    ranks: PyReadonlyArray1<'py, u64>,
    order: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let order = self::order(order)?;
    let ranks = ranks.as_slice()?;
    if !(1..=MAX_PERMUTATION_LEN).contains(&n) {
        return Err(invalid(format!(
            "permutations of 1 to {MAX_PERMUTATION_LEN} elements, got n = {n}"
        )));
    }
    let size = factorial(n).map_err(to_python)?;
    let rows = run(py, threads, || {
        let rows = result_rows(ranks.len(), n)?;
        check_ranks(ranks, size)?;
        Ok(match order {
            Order::PrefixLehmer => unrank_permutations(rows, ranks, n, prefix_lehmer::unrank),
            Order::MyrvoldRuskey => unrank_permutations(rows, ranks, n, |r, p: &mut [u8]| {
                unrank_mr(r, p);
            }),
            Order::Lexicographic => unrank_permutations(rows, ranks, n, |r, p: &mut [u8]| {
                unrank_lex(r, p);
            }),
        })
    })?;
    Ok(to_array(py, rows, ranks.len(), n))
}

/// The ranks of permutation rows of `0..n`.
#[pyfunction]
#[pyo3(signature = (perms, order="prefix-lehmer", threads=None))]
pub fn permutation_rank<'py>(
    py: Python<'py>,
    perms: PyReadonlyArray2<'py, u8>,
    order: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let order = self::order(order)?;
    let n = perms.as_array().ncols();
    let rows = perms.as_slice()?;
    if n > MAX_PERMUTATION_LEN {
        return Err(invalid(format!(
            "permutations of 1 to {MAX_PERMUTATION_LEN} elements, got rows of {n}"
        )));
    }
    let rank: fn(&[u8]) -> u64 = match order {
        Order::PrefixLehmer => prefix_lehmer::rank,
        Order::MyrvoldRuskey => rank_mr,
        Order::Lexicographic => rank_lex,
    };
    let ranks = run(py, threads, || {
        rank_rows(rows, n, |i, perm| {
            if is_permutation(perm) {
                Ok(rank(perm))
            } else {
                Err(Error::InvalidParameter(format!(
                    "row {i} ({perm:?}) is not a permutation of 0..{n}"
                )))
            }
        })
    })?;
    Ok(PyArray1::from_vec(py, ranks))
}

fn binomial(n: usize, k: usize) -> PyResult<BinomialRanker> {
    BinomialRanker::new(n, k).map_err(to_python)
}

/// The k-subsets of n cells with `ranks`, as masks (bit i: cell i).
#[pyfunction]
#[pyo3(signature = (n, k, ranks, threads=None))]
pub fn binomial_unrank<'py>(
    py: Python<'py>,
    n: usize,
    k: usize,
    ranks: PyReadonlyArray1<'py, u64>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let ranker = binomial(n, k)?;
    let ranks = ranks.as_slice()?;
    let masks = run(py, threads, || {
        let mut masks = result_words(ranks.len(), "masks")?;
        check_ranks(ranks, ranker.size())?;
        masks
            .par_chunks_mut(BLOCK)
            .zip(ranks.par_chunks(BLOCK))
            .for_each(|(masks, ranks)| {
                for (mask, &rank) in masks.iter_mut().zip(ranks) {
                    *mask = ranker.unrank(rank);
                }
            });
        Ok(masks)
    })?;
    Ok(PyArray1::from_vec(py, masks))
}

/// The ranks of k-subset masks of n cells.
#[pyfunction]
#[pyo3(signature = (n, k, masks, threads=None))]
pub fn binomial_rank<'py>(
    py: Python<'py>,
    n: usize,
    k: usize,
    masks: PyReadonlyArray1<'py, u64>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let ranker = binomial(n, k)?;
    let masks = masks.as_slice()?;
    let ranks = run(py, threads, || {
        let mut ranks = result_words(masks.len(), "ranks")?;
        ranks
            .par_chunks_mut(BLOCK)
            .zip(masks.par_chunks(BLOCK))
            .enumerate()
            .try_for_each(|(block, (ranks, masks))| {
                for (i, (rank, &mask)) in ranks.iter_mut().zip(masks).enumerate() {
                    *rank = ranker.try_rank(mask).map_err(|_| {
                        Error::InvalidParameter(format!(
                            "mask {} ({mask:#b}) is not a {n}-bit mask with {k} ones",
                            block * BLOCK + i
                        ))
                    })?;
                }
                Ok::<(), Error>(())
            })?;
        Ok(ranks)
    })?;
    Ok(PyArray1::from_vec(py, ranks))
}

/// The two orders of the multinomial hash: the games' nested colour sets
/// and the paper's Algorithm 10.
enum Multiset {
    ColourSets(ColourSetRanker),
    Paper(MultinomialRanker),
}

impl Multiset {
    fn len(&self) -> usize {
        match self {
            Multiset::ColourSets(ranker) => ranker.len(),
            Multiset::Paper(ranker) => ranker.len(),
        }
    }

    fn size(&self) -> u64 {
        match self {
            Multiset::ColourSets(ranker) => ranker.size(),
            Multiset::Paper(ranker) => ranker.size(),
        }
    }

    fn unrank(&self, rank: u64, cells: &mut [u8]) {
        match self {
            Multiset::ColourSets(ranker) => ranker.unrank(rank, cells),
            Multiset::Paper(ranker) => ranker.unrank(rank, cells),
        }
    }

    fn try_rank(&self, cells: &[u8]) -> Result<u64, Error> {
        match self {
            Multiset::ColourSets(ranker) => ranker.try_rank(cells),
            Multiset::Paper(ranker) => ranker.try_rank(cells),
        }
    }
}

fn multinomial(counts: &[u8], order: &str) -> PyResult<Multiset> {
    match order {
        "colour-sets" | "colour_sets" => ColourSetRanker::new(counts).map(Multiset::ColourSets),
        "paper" | "algorithm-10" => MultinomialRanker::new(counts).map(Multiset::Paper),
        _ => {
            return Err(invalid(format!(
                "invalid multinomial order '{order}' [possible values: colour-sets, paper]"
            )));
        }
    }
    .map_err(to_python)
}

/// The cell vectors with `counts[c]` cells of colour c with `ranks`.
#[pyfunction]
#[pyo3(signature = (counts, ranks, order="colour-sets", threads=None))]
pub fn multinomial_unrank<'py>(
    py: Python<'py>,
    counts: Vec<u8>,
    ranks: PyReadonlyArray1<'py, u64>,
    order: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let ranker = multinomial(&counts, order)?;
    let width = ranker.len();
    let ranks = ranks.as_slice()?;
    let rows = run(py, threads, || {
        let rows = result_rows(ranks.len(), width)?;
        check_ranks(ranks, ranker.size())?;
        Ok(unrank_rows(rows, ranks, width, |r, cells| {
            ranker.unrank(r, cells)
        }))
    })?;
    Ok(to_array(py, rows, ranks.len(), width))
}

/// The ranks of cell vectors with `counts[c]` cells of colour c.
#[pyfunction]
#[pyo3(signature = (counts, cells, order="colour-sets", threads=None))]
pub fn multinomial_rank<'py>(
    py: Python<'py>,
    counts: Vec<u8>,
    cells: PyReadonlyArray2<'py, u8>,
    order: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let ranker = multinomial(&counts, order)?;
    let width = cells.as_array().ncols();
    if width != ranker.len() {
        return Err(invalid(format!(
            "vectors of {} cells (the counts' sum), got rows of {width}",
            ranker.len()
        )));
    }
    let rows = cells.as_slice()?;
    let ranks = run(py, threads, || {
        rank_rows(rows, width, |i, row| {
            ranker.try_rank(row).map_err(|e| match e {
                Error::InvalidParameter(why) => Error::InvalidParameter(format!("row {i}: {why}")),
                other => other,
            })
        })
    })?;
    Ok(PyArray1::from_vec(py, ranks))
}
