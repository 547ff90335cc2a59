//! The inputs of the fuzz tests: valid texts damaged on purpose (bits
//! flipped, cut short, lines repeated, dropped or swapped, awkward tokens
//! written in) and random strings, mostly from the format's own alphabet.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select};

/// Tokens that break parsers: numbers at and past every integer limit,
/// signs, whitespace and line ends, control and right-to-left characters,
/// and the punctuation the formats give meaning to.
const TOKENS: &[&str] = &[
    "",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\u{0}",
    "0",
    "1",
    "-1",
    "+1",
    "-0",
    "007",
    "255",
    "256",
    "2147483648",
    "-2147483648",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999",
    "1e9",
    "0x10",
    "3.5",
    "½",
    "٣",
    "é",
    "ß",
    "💥",
    "\u{202e}",
    "\u{2028}",
    "\u{feff}",
    "\u{7f}",
    "\u{1b}[31m",
    "o",
    ".",
    "_",
    "b",
    "w",
    "#",
    "%",
    "/",
    ",",
    ":",
    ";",
    "..",
    "=",
    "F",
    "g",
    "X",
    "O",
    "a1",
    "z99",
    "#positions",
    "#times",
    "#blackturns",
    "#blackwins",
    "#whitewins",
    "#firstmoves",
];

/// One edit of a text, at positions taken modulo its length.
#[derive(Clone, Debug)]
enum Edit {
    /// One bit of one byte (the text may stop being UTF-8).
    FlipBit(Index, u8),
    Truncate(Index),
    DuplicateLine(Index),
    DeleteLine(Index),
    SwapLines(Index, Index),
    /// A line written out many times over.
    RepeatLine(Index, usize),
    Insert(Index, String),
    Overwrite(Index, String),
}

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => select(TOKENS).prop_map(String::from),
        1 => any::<char>().prop_map(String::from),
        1 => random_text(12),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), 0u8..8).prop_map(|(at, bit)| Edit::FlipBit(at, bit)),
        any::<Index>().prop_map(Edit::Truncate),
        any::<Index>().prop_map(Edit::DuplicateLine),
        any::<Index>().prop_map(Edit::DeleteLine),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        (any::<Index>(), 2usize..300).prop_map(|(at, times)| Edit::RepeatLine(at, times)),
        (any::<Index>(), token()).prop_map(|(at, text)| Edit::Insert(at, text)),
        (any::<Index>(), token()).prop_map(|(at, text)| Edit::Overwrite(at, text)),
    ]
}

fn lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

fn join(lines: Vec<Vec<u8>>) -> Vec<u8> {
    lines.join(&b'\n')
}

fn apply(mut bytes: Vec<u8>, edit: &Edit) -> Vec<u8> {
    // Positions in 0..=len, so an empty text can still grow.
    let at = |index: &Index, len: usize| index.index(len + 1);
    match edit {
        Edit::FlipBit(index, bit) => {
            if !bytes.is_empty() {
                let at = index.index(bytes.len());
                bytes[at] ^= 1 << bit;
            }
        }
        Edit::Truncate(index) => bytes.truncate(at(index, bytes.len())),
        Edit::Insert(index, text) => {
            let at = at(index, bytes.len());
            bytes.splice(at..at, text.bytes());
        }
        Edit::Overwrite(index, text) => {
            let at = at(index, bytes.len());
            let end = (at + text.len()).min(bytes.len());
            bytes.splice(at..end, text.bytes());
        }
        Edit::DuplicateLine(index) => {
            let mut lines = lines(&bytes);
            let line = lines[index.index(lines.len())].clone();
            lines.insert(index.index(lines.len()), line);
            bytes = join(lines);
        }
        Edit::DeleteLine(index) => {
            let mut lines = lines(&bytes);
            lines.remove(index.index(lines.len()));
            bytes = join(lines);
        }
        Edit::SwapLines(a, b) => {
            let mut lines = lines(&bytes);
            let len = lines.len();
            lines.swap(a.index(len), b.index(len));
            bytes = join(lines);
        }
        Edit::RepeatLine(index, times) => {
            let mut lines = lines(&bytes);
            let at = index.index(lines.len());
            let copies = vec![lines[at].clone(); *times];
            lines.splice(at..at, copies);
            bytes = join(lines);
        }
    }
    bytes
}

/// Any characters at all, control characters and all of Unicode included.
pub fn random_text(max_len: usize) -> impl Strategy<Value = String> {
    vec(any::<char>(), 0..max_len).prop_map(|chars| chars.into_iter().collect())
}

/// Characters drawn from `alphabet`: text that looks like the format.
pub fn alphabet_text(alphabet: &'static str, max_len: usize) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    vec(select(chars), 0..max_len).prop_map(|chars| chars.into_iter().collect())
}

/// A seed with one to four edits.
pub fn damaged(seeds: Vec<String>) -> impl Strategy<Value = Vec<u8>> {
    (select(seeds), vec(edit(), 1..5))
        .prop_map(|(seed, edits)| edits.iter().fold(seed.into_bytes(), apply))
}

/// The inputs of one format: mostly damaged seeds, some seeds as they are,
/// text in the format's alphabet and random text.
pub fn inputs(
    seeds: Vec<String>,
    alphabet: &'static str,
    max_len: usize,
) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => damaged(seeds.clone()),
        1 => select(seeds).prop_map(String::into_bytes),
        2 => alphabet_text(alphabet, max_len).prop_map(String::into_bytes),
        1 => random_text(max_len).prop_map(String::into_bytes),
    ]
}

/// The same as text, for parsers that take a `&str`.
pub fn text_inputs(
    seeds: Vec<String>,
    alphabet: &'static str,
    max_len: usize,
) -> impl Strategy<Value = String> {
    inputs(seeds, alphabet, max_len).prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// Values for a numeric option: small and large numbers, numbers past
/// every integer type, signs, and things that are not numbers.
pub fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (0u64..40).prop_map(|n| n.to_string()),
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        2 => token(),
        1 => (0u64..40, token()).prop_map(|(n, t)| format!("{n}{t}")),
    ]
}
