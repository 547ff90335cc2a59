//! Moves named by others: `MoveSequence`, `MoveAlias` and `ScrambleAlg`
//! lines resolved once every move is read, and the powers a word names
//! (`M2`, `M'`, `M2'`).

use std::borrow::Cow;
use std::collections::HashMap;

use super::lines::{Reader, Words};
use super::moves::order_of;
use super::puzzle::{NamedMove, PieceSet, Transform};
use crate::error::{Error, Result, quoted};

/// A move named by a sequence of others (`MoveSequence`, `MoveAlias`) or
/// a scramble given by moves (`ScrambleAlg`), resolved once every move
/// is read. Its moves stay in the file's text until then.
pub(super) struct Sequence<'a> {
    pub(super) name: String,
    pub(super) moves: Words<'a>,
    pub(super) line: usize,
    /// A `MoveAlias`: a name sequences may use, not a move of the search.
    pub(super) alias: bool,
}

/// A word naming a power of a move as twsearch writes it: `M2` (the
/// square), `M'` (the inverse), `M2'` (the inverse's square). Returns the
/// move's name, the count and whether it is of the inverse.
fn split_power(word: &str) -> Option<(&str, usize, bool)> {
    let (stem, inverse) = match word.strip_suffix('\'') {
        Some(stem) => (stem, true),
        None => (word, false),
    };
    let digits = stem.len() - stem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return Some((stem, 1, inverse));
    }
    let (base, count) = stem.split_at(stem.len() - digits);
    Some((base, count.parse::<usize>().ok()?, inverse))
}

/// Power `count` of `transform` (of its inverse with `inverse`), or
/// `None` when its order exceeds [`MAX_ORDER`](super::MAX_ORDER).
fn power_of(
    transform: &Transform,
    count: usize,
    inverse: bool,
    sets: &[PieceSet],
) -> Option<Transform> {
    let order = order_of(transform, sets)?;
    let power = if inverse {
        order - count % order
    } else {
        count
    } % order;
    Some(transform.power(power, sets))
}

/// Moves by name for sequences: the listed moves, the aliases, and the
/// powers of either written as twsearch names them (`M2`, `M'`, `M2'`).
pub(super) struct MoveNames<'a> {
    sets: &'a [PieceSet],
    by_name: HashMap<&'a str, &'a Transform>,
}

impl<'a> MoveNames<'a> {
    pub(super) fn new(
        sets: &'a [PieceSet],
        listed: &'a [NamedMove],
        aliases: &'a [NamedMove],
    ) -> Self {
        let by_name = listed
            .iter()
            .chain(aliases)
            .map(|named| (named.name.as_str(), &named.transform))
            .collect();
        MoveNames { sets, by_name }
    }

    /// The move `word` names, or `None` when it names none.
    pub(super) fn find(&self, word: &str) -> Option<Cow<'a, Transform>> {
        if let Some(transform) = self.by_name.get(word) {
            return Some(Cow::Borrowed(*transform));
        }
        let (base, count, inverse) = split_power(word)?;
        let transform = self.by_name.get(base)?;
        power_of(transform, count, inverse, self.sets).map(Cow::Owned)
    }
}

/// What a name stands for while sequences are resolved.
#[derive(Clone, Copy)]
enum Named {
    /// A listed move (index among them).
    Listed(usize),
    /// A sequence (index among them).
    Sequence(usize),
}

/// A sequence being resolved: the product of its moves so far, and the
/// word it waits on while the sequence that word names is resolved.
struct Frame<'a> {
    sequence: usize,
    words: Words<'a>,
    waiting: Option<&'a str>,
    product: Transform,
}

/// The moves of `MoveSequence` lines (moves of the search) and of
/// `MoveAlias` lines (names only), each the product of the moves it
/// names, in file order. A depth-first walk from each sequence resolves
/// what it names first, once (a sequence may name one given later), in
/// time linear in the file; a sequence naming nothing known, or itself
/// through others, is an error.
pub(super) fn resolve_sequences(
    reader: &Reader,
    sets: &[PieceSet],
    listed: &[NamedMove],
    sequences: &[Sequence],
) -> Result<(Vec<NamedMove>, Vec<NamedMove>)> {
    if sequences.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let mut by_name: HashMap<&str, Named> = listed
        .iter()
        .enumerate()
        .map(|(i, named)| (named.name.as_str(), Named::Listed(i)))
        .collect();
    for (j, sequence) in sequences.iter().enumerate() {
        by_name.insert(sequence.name.as_str(), Named::Sequence(j));
    }
    let mut resolved: Vec<Option<Transform>> = vec![None; sequences.len()];
    let mut open = vec![false; sequences.len()];
    let frame = |j: usize| Frame {
        sequence: j,
        words: sequences[j].moves.clone(),
        waiting: None,
        product: Transform::identity(sets),
    };
    for root in 0..sequences.len() {
        if resolved[root].is_some() {
            continue;
        }
        let mut stack = vec![frame(root)];
        open[root] = true;
        while let Some(top) = stack.last_mut() {
            let Some(word) = top.waiting.take().or_else(|| top.words.next()) else {
                let done = stack.pop().expect("a frame");
                open[done.sequence] = false;
                resolved[done.sequence] = Some(done.product);
                continue;
            };
            let current = &sequences[top.sequence];
            let unknown = || {
                reader.error(
                    current.line,
                    format!(
                        "move sequence {} names {}, which is not a move of this definition (nor one a sequence makes)",
                        quoted(&current.name),
                        quoted(word)
                    ),
                )
            };
            // The name itself, else a power of one.
            let (named, count, inverse) = match by_name.get(word) {
                Some(&named) => (named, 1, false),
                None => {
                    let (base, count, inverse) = split_power(word).ok_or_else(unknown)?;
                    (*by_name.get(base).ok_or_else(unknown)?, count, inverse)
                }
            };
            let base = match named {
                Named::Listed(i) => &listed[i].transform,
                Named::Sequence(k) => match &resolved[k] {
                    Some(transform) => transform,
                    None if open[k] => return Err(cycle_error(reader, sequences, &stack, k)),
                    None => {
                        top.waiting = Some(word);
                        stack.push(frame(k));
                        open[k] = true;
                        continue;
                    }
                },
            };
            let step = if count == 1 && !inverse {
                Cow::Borrowed(base)
            } else {
                Cow::Owned(power_of(base, count, inverse, sets).ok_or_else(unknown)?)
            };
            top.product = top.product.then(&step, sets);
        }
    }
    let mut moves = Vec::new();
    let mut aliases = Vec::new();
    for (sequence, transform) in sequences.iter().zip(resolved) {
        let named = NamedMove {
            name: sequence.name.clone(),
            transform: transform.expect("every sequence is resolved"),
        };
        if sequence.alias {
            aliases.push(named);
        } else {
            moves.push(named);
        }
    }
    Ok((moves, aliases))
}

/// The error for sequence `k`, open on `stack`, named again: the cycle
/// from it to the sequence that names it.
fn cycle_error(reader: &Reader, sequences: &[Sequence], stack: &[Frame], k: usize) -> Error {
    let from = stack
        .iter()
        .position(|frame| frame.sequence == k)
        .expect("an open sequence is on the stack");
    let names: Vec<&str> = stack[from..]
        .iter()
        .map(|frame| sequences[frame.sequence].name.as_str())
        .chain(std::iter::once(sequences[k].name.as_str()))
        .collect();
    reader.error(
        sequences[k].line,
        format!(
            "move sequence {} names itself: {}",
            quoted(&sequences[k].name),
            names.join(" -> ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::super::tests::SQUARE;

    #[test]
    fn sequences_aliases_and_scrambles_by_moves_are_the_moves_they_name() {
        let text = format!(
            "{SQUARE}MoveSequence T3 T2, T\nMoveAlias Turn T\nMoveSequence Back Turn' Turn'\nScrambleAlg two\nTurn\nT\nEnd\n"
        );
        let definition = parse(&text, "ring.tws").unwrap();
        let sets = &definition.sets;
        let turn = &definition.moves[0].transform;
        let twice = turn.then(turn, sets);
        let thrice = twice.then(turn, sets);
        // Sequences are moves of the search, in file order; the alias is not.
        let names: Vec<&str> = definition.moves.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["T", "T3", "Back"]);
        assert_eq!(definition.moves[1].transform, thrice);
        // T has order 4 (four steps bring each piece home with a twist of
        // 1 + 1): its inverse is its cube, and twice that is its square.
        assert_eq!(definition.moves[2].transform, twice);
        assert_ne!(thrice, twice);
        assert_eq!(definition.aliases.len(), 1);
        assert_eq!(definition.aliases[0].transform, *turn);
        let two = definition
            .scrambles
            .iter()
            .find(|s| s.name == "two")
            .unwrap();
        assert_eq!(two.state, twice.apply(&definition.solved, sets));
        // Sequences resolve whatever order they are given in; one naming
        // itself through others is refused with the cycle.
        let chained = parse(
            &format!("{SQUARE}MoveSequence C B2\nMoveAlias B A'\nMoveAlias A T\n"),
            "ring.tws",
        )
        .unwrap();
        assert_eq!(chained.moves[1].transform, twice);
        let message = parse(
            &format!("{SQUARE}MoveSequence X T Y\nMoveSequence Y X\n"),
            "ring.tws",
        )
        .unwrap_err()
        .to_string();
        assert!(
            message.contains("ring.tws:18: move sequence 'X' names itself: X -> Y -> X"),
            "{message}"
        );
        // A sequence naming nothing known, or naming itself, is refused.
        for bad in ["MoveSequence X T Q\n", "MoveSequence X X\n"] {
            let message = parse(&format!("{SQUARE}{bad}"), "ring.tws")
                .unwrap_err()
                .to_string();
            assert!(
                message.contains("ring.tws:18: move sequence 'X' names"),
                "{message}"
            );
        }
        let message = parse(&format!("{SQUARE}ScrambleAlg s\nT Q\nEnd\n"), "ring.tws")
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("scramble 's': 'Q' is not a move"),
            "{message}"
        );
    }
}
