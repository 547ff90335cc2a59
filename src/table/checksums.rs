//! Per-chunk checksums of a table file's body.
//!
//! The body is cut into chunks of [`CHUNK_WORDS`] words (1 MiB); each has an
//! xxh3 checksum in the trailer after the body, and the header holds the
//! trailer's own hash. A damaged chunk is thereby found and named by its
//! byte and rank range, and a damaged trailer is told apart from a damaged
//! body. xxh3 hashes at several GB/s per core, so checking a table costs a
//! fraction of a pass over it (see docs/reliability.md).

use std::ops::Range;

use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

/// Words per checksum chunk: 1 MiB.
pub const CHUNK_WORDS: u64 = 1 << 17;

/// Chunks covering `words` words.
pub fn chunk_count(words: u64, chunk_words: u64) -> u64 {
    words.div_ceil(chunk_words)
}

/// The word range of chunk `index`.
pub fn chunk_words_range(index: u64, words: u64, chunk_words: u64) -> Range<u64> {
    index * chunk_words..((index + 1) * chunk_words).min(words)
}

/// Checksums of every chunk of `body` (little-endian words), in parallel;
/// `done` is told the bytes hashed as chunks finish.
pub fn chunk_checksums(body: &[u8], chunk_words: u64, done: &(dyn Fn(u64) + Sync)) -> Vec<u64> {
    body.par_chunks(chunk_words as usize * 8)
        .map(|chunk| {
            let hash = xxh3_64(chunk);
            done(chunk.len() as u64);
            hash
        })
        .collect()
}

/// Checksums of a body whose every word is `fill`, without reading one:
/// all whole chunks hash alike.
pub fn uniform_checksums(fill: u64, words: u64, chunk_words: u64) -> Vec<u64> {
    let chunks = chunk_count(words, chunk_words);
    if chunks == 0 {
        return Vec::new();
    }
    let whole = xxh3_64(&fill.to_le_bytes().repeat(chunk_words.min(words) as usize));
    let mut sums = vec![whole; chunks as usize];
    let last = words - (chunks - 1) * chunk_words;
    if last != chunk_words {
        sums[chunks as usize - 1] = xxh3_64(&fill.to_le_bytes().repeat(last as usize));
    }
    sums
}

/// The trailer's bytes: one little-endian u64 per chunk.
pub fn encode_trailer(sums: &[u64]) -> Vec<u8> {
    sums.iter().flat_map(|s| s.to_le_bytes()).collect()
}

/// The checksums a trailer holds: the inverse of [`encode_trailer`].
pub fn decode_trailer(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

/// The hash of a trailer's bytes, as the header holds it.
pub fn trailer_hash(trailer: &[u8]) -> u64 {
    xxh3_64(trailer)
}

/// Indices of the chunks of `body` whose checksum differs from `expected`.
pub fn damaged_chunks(
    body: &[u8],
    expected: &[u64],
    chunk_words: u64,
    done: &(dyn Fn(u64) + Sync),
) -> Vec<u64> {
    let found = chunk_checksums(body, chunk_words, done);
    found
        .iter()
        .zip(expected)
        .enumerate()
        .filter(|(_, (found, expected))| found != expected)
        .map(|(index, _)| index as u64)
        .chain(found.len() as u64..expected.len().max(found.len()) as u64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_checksums_equal_hashing_the_body() {
        for words in [0u64, 1, 5, 8, 13, 16, 17] {
            let fill = 0x5555_5555_5555_5555u64;
            let body: Vec<u8> = fill.to_le_bytes().repeat(words as usize);
            assert_eq!(
                uniform_checksums(fill, words, 4),
                chunk_checksums(&body, 4, &|_| {}),
                "{words} words"
            );
        }
    }

    #[test]
    fn a_flipped_byte_names_its_chunk() {
        let mut body = vec![7u8; 8 * 40];
        let sums = chunk_checksums(&body, 4, &|_| {});
        assert!(damaged_chunks(&body, &sums, 4, &|_| {}).is_empty());
        body[8 * 4 * 3 + 5] ^= 1;
        assert_eq!(damaged_chunks(&body, &sums, 4, &|_| {}), vec![3]);
        assert_eq!(
            decode_trailer(&encode_trailer(&sums)),
            sums,
            "the trailer round-trips"
        );
        assert_eq!(chunk_words_range(9, 38, 4), 36..38);
    }
}
