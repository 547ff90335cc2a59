//! The blocks of a definition, each read up to its `End`: a state's or a
//! move's lines per set in either numbering (ksolve's or twsearch's),
//! checked against the sets, and a `ScrambleAlg`'s lines of moves.

use std::collections::HashMap;

use super::lines::{Line, Reader, Words, is_number_line};
use super::puzzle::{PieceSet, SetMove, SetState, Transform};
use crate::error::{Result, quoted};

/// How a block numbers its pieces and where a move's twists belong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Numbering {
    /// ksolve's (`Solved`, `Move`, `Scramble`): pieces from 1, a move's
    /// twist belongs to the slot its piece leaves.
    Ksolve,
    /// twsearch's own (`StartState`, `MoveTransformation`,
    /// `ScrambleState`): pieces from 0, a move's twist belongs to the slot
    /// its piece arrives in.
    Twsearch,
}

impl Numbering {
    /// The number of a set's first piece.
    fn first(self) -> u32 {
        match self {
            Numbering::Ksolve => 1,
            Numbering::Twsearch => 0,
        }
    }

    /// The number of the last of `pieces` pieces.
    fn last(self, pieces: usize) -> u32 {
        pieces as u32 + self.first() - 1
    }

    /// The 0-based slot of the piece numbered `written`, when it is one
    /// of `pieces`.
    fn slot(self, written: u32, pieces: usize) -> Option<u8> {
        written
            .checked_sub(self.first())
            .filter(|&slot| (slot as usize) < pieces)
            .map(|slot| slot as u8)
    }
}

/// The moves of a `ScrambleAlg` block opened by `header`: its text up to
/// its `End`, read as moves once every move is known.
pub(super) fn read_move_lines<'a>(
    reader: &mut Reader<'a>,
    header: &Line<'a>,
    name: &str,
) -> Result<Words<'a>> {
    let start = reader.offset(header.text) + header.text.len();
    loop {
        let Some(line) = reader.next_line() else {
            return Err(reader.error(
                header.number,
                format!("scramble {} has no End", quoted(name)),
            ));
        };
        if line.words[0] == "End" {
            if line.words.len() > 1 {
                return Err(reader.error(line.number, "End takes no arguments".into()));
            }
            let end = reader.offset(line.text);
            return Ok(Words::moves(&reader.source[start..end]));
        }
    }
}

pub(super) fn parse_count(
    word: &str,
    low: usize,
    high: usize,
    what: &str,
) -> std::result::Result<usize, String> {
    match word.parse::<usize>() {
        Ok(value) if (low..=high).contains(&value) => Ok(value),
        _ => Err(format!(
            "{what} must be a whole number from {low} to {high}, got {}",
            quoted(word)
        )),
    }
}

/// One set's lines in a block: the permutation and orientations as
/// written, and the permutation's line number.
struct BlockPart {
    /// The numbers as written, in the block's numbering.
    permutation: Vec<u32>,
    orientations: Vec<u32>,
    line: usize,
}

/// The lines of one block up to its `End`: each set's name, its
/// permutation and its optional orientation line, each set at most once.
/// Returns the sets' parts in the definition's order (`None` for a set the
/// block leaves out), numbers as written (not yet checked against the
/// set's kind).
fn read_block(
    reader: &mut Reader,
    sets: &[PieceSet],
    set_index: &HashMap<String, usize>,
    what: &str,
    opened: usize,
) -> Result<Vec<Option<BlockPart>>> {
    let mut parts: Vec<Option<BlockPart>> = (0..sets.len()).map(|_| None).collect();
    loop {
        let Some(line) = reader.next_line() else {
            return Err(reader.error(opened, format!("{what} has no End")));
        };
        let (number, words) = (line.number, line.words);
        if words[0] == "End" {
            if words.len() > 1 {
                return Err(reader.error(number, "End takes no arguments".into()));
            }
            break;
        }
        if words.len() != 1 {
            return Err(reader.error(
                number,
                format!(
                    "{what}: expected a set name on its own line, got {}",
                    quoted(&words.join(" "))
                ),
            ));
        }
        let Some(&index) = set_index.get(words[0]) else {
            return Err(reader.error(
                number,
                format!(
                    "{what}: {} is not a set of this definition",
                    quoted(words[0])
                ),
            ));
        };
        if parts[index].is_some() {
            return Err(reader.error(
                number,
                format!("{what} gives set {} twice", quoted(words[0])),
            ));
        }
        let set = &sets[index];
        let numbers = |reader: &Reader,
                       line: Option<&Line>,
                       kind: &str|
         -> Result<(Vec<u32>, usize)> {
            let Some(line) = line.filter(|line| is_number_line(line)) else {
                return Err(reader.error(
                    line.map_or(number, |l| l.number),
                    format!(
                        "{what}: set {} needs a {kind} line of {} numbers",
                        quoted(&set.name),
                        set.pieces
                    ),
                ));
            };
            if line.words.contains(&"?") {
                return Err(reader.error(
                        line.number,
                        format!(
                            "{what}: '?' (twsearch's unknown piece or orientation) is not read by bitsolve: give set {} in full",
                            quoted(&set.name)
                        ),
                    ));
            }
            let values = line
                .words
                .iter()
                .map(|word| {
                    word.parse::<u32>().map_err(|_| {
                        reader.error(
                            line.number,
                            format!("{what}: {} is not a number", quoted(word)),
                        )
                    })
                })
                .collect::<Result<Vec<u32>>>()?;
            if values.len() != set.pieces {
                return Err(reader.error(
                    line.number,
                    format!(
                        "{what}: set {} has {} pieces, but its {kind} line has {} numbers",
                        quoted(&set.name),
                        set.pieces,
                        values.len()
                    ),
                ));
            }
            Ok((values, line.number))
        };
        let permutation_line = reader.next_line();
        let (permutation, at) = numbers(reader, permutation_line.as_ref(), "permutation")?;
        let orientations = if reader.peek().is_some_and(is_number_line) {
            let line = reader.next_line();
            let (values, line_number) = numbers(reader, line.as_ref(), "orientation")?;
            if let Some(bad) = values.iter().find(|&&v| v >= set.orientations as u32) {
                return Err(reader.error(
                    line_number,
                    format!(
                        "{what}: orientation {bad} of set {} is out of range (its pieces have {} orientation(s): 0..{})",
                        quoted(&set.name),
                        set.orientations,
                        set.orientations - 1
                    ),
                ));
            }
            values
        } else {
            vec![0; set.pieces]
        };
        parts[index] = Some(BlockPart {
            permutation,
            orientations,
            line: at,
        });
    }
    Ok(parts)
}

pub(super) fn read_state_block(
    reader: &mut Reader,
    sets: &[PieceSet],
    set_index: &HashMap<String, usize>,
    what: &str,
    opened: usize,
    numbering: Numbering,
) -> Result<Vec<Option<SetState>>> {
    let parts = read_block(reader, sets, set_index, what, opened)?;
    parts
        .into_iter()
        .zip(sets)
        .map(|(part, set)| {
            let Some(BlockPart {
                permutation,
                orientations,
                line: at,
            }) = part
            else {
                return Ok(None);
            };
            let labels = permutation
                .iter()
                .map(|&written| {
                    numbering.slot(written, set.pieces).ok_or_else(|| {
                        reader.error(
                            at,
                            format!(
                                "{what}: piece {written} of set {} is not one of {}..{}",
                                quoted(&set.name),
                                numbering.first(),
                                numbering.last(set.pieces)
                            ),
                        )
                    })
                })
                .collect::<Result<Vec<u8>>>()?;
            Ok(Some(SetState {
                labels,
                orientations: orientations.iter().map(|&v| v as u8).collect(),
            }))
        })
        .collect()
}

pub(super) fn read_move_block(
    reader: &mut Reader,
    sets: &[PieceSet],
    set_index: &HashMap<String, usize>,
    what: &str,
    opened: usize,
    numbering: Numbering,
) -> Result<Transform> {
    let parts = read_block(reader, sets, set_index, what, opened)?;
    let moves = parts
        .into_iter()
        .zip(sets)
        .map(|(part, set)| {
            // A set the block leaves out is one the move leaves alone (as
            // twsearch and ksolve read it).
            let Some(BlockPart { permutation, orientations, line: at }) = part else {
                return Ok(SetMove {
                    from: (0..set.pieces as u8).collect(),
                    twist: vec![0; set.pieces],
                });
            };
            let mut seen = vec![false; set.pieces];
            let mut from: Vec<u8> = Vec::with_capacity(set.pieces);
            for &written in &permutation {
                let slot = numbering.slot(written, set.pieces);
                let fault = match slot {
                    None => "is out of range",
                    Some(slot) if std::mem::replace(&mut seen[slot as usize], true) => "appears twice",
                    Some(slot) => {
                        from.push(slot);
                        continue;
                    }
                };
                return Err(reader.error(
                    at,
                    format!(
                        "{what}: the permutation of set {} is not a permutation of {}..{} ({written} {fault})",
                        quoted(&set.name),
                        numbering.first(),
                        numbering.last(set.pieces)
                    ),
                ));
            }
            // A state composes with the twist of the slot a piece arrives
            // in; ksolve's numbering gives that of the slot it leaves.
            let twist = match numbering {
                Numbering::Ksolve => from.iter().map(|&s| orientations[s as usize] as u8).collect(),
                Numbering::Twsearch => orientations.iter().map(|&t| t as u8).collect(),
            };
            Ok(SetMove { from, twist })
        })
        .collect::<Result<Vec<SetMove>>>()?;
    Ok(Transform { sets: moves })
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::super::tests::SQUARE;

    #[test]
    fn a_set_left_out_of_a_block_reads_as_twsearch_reads_it() {
        // Q left out of the Solved block (piece i in slot i), of move T
        // (left alone) and of the scramble (solved), against the same
        // definition written out in full.
        let short = format!(
            "{}Move U\nQ\n2 1\nEnd\n",
            SQUARE.replace("Set P 4 2", "Set P 4 2\nSet Q 2 1")
        );
        let full = format!(
            "{}Move U\nP\n1 2 3 4\nQ\n2 1\nEnd\n",
            SQUARE
                .replace("Set P 4 2", "Set P 4 2\nSet Q 2 1")
                .replace("1 2 3 4\nEnd", "1 2 3 4\nQ\n1 2\nEnd")
                .replace("1 0 0 1\nEnd", "1 0 0 1\nQ\n1 2\n0 0\nEnd")
                .replace("0 0 1 1\nEnd", "0 0 1 1\nQ\n1 2\nEnd")
        );
        let (short, full) = (
            parse(&short, "short.tws").unwrap(),
            parse(&full, "full.tws").unwrap(),
        );
        assert_eq!(short, full);
        assert_eq!(short.solved[1].labels, vec![0, 1]);
        assert!(short.moves[0].transform.sets[1] == full.moves[0].transform.sets[1]);
        assert_eq!(short.scrambles[0].state[1], short.solved[1]);
    }

    #[test]
    fn twsearchs_numbering_reads_as_ksolves() {
        // The ring in twsearch's numbering: pieces from 0, the move's
        // twists given for the slot a piece arrives in (slot i takes the
        // piece of slot p[i], so the twist 1 0 0 1 of slots 1 and 4 left
        // is gained in slots 4 and 3).
        let twsearch = SQUARE
            .replace("Solved\nP\n1 2 3 4", "StartState\nP\n0 1 2 3")
            .replace(
                "Move T\nP\n2 3 4 1\n1 0 0 1",
                "MoveTransformation T\nP\n1 2 3 0\n0 0 1 1",
            )
            .replace("Scramble one\nP\n2 3 4 1", "ScrambleState one\nP\n1 2 3 0");
        assert_eq!(
            parse(&twsearch, "ring.tws").unwrap(),
            parse(SQUARE, "ring.tws").unwrap()
        );
        let message = parse(
            &twsearch.replace("1 2 3 0\n0 0 1 1", "1 2 3 4\n0 0 1 1"),
            "ring.tws",
        )
        .unwrap_err()
        .to_string();
        assert!(
            message.contains("not a permutation of 0..3 (4 is out of range)"),
            "{message}"
        );
        // Numbers are echoed as written, the largest too, in either numbering.
        for (text, expected) in [
            (
                twsearch.replace("1 2 3 0\n0 0 1 1", "1 2 3 4294967295\n0 0 1 1"),
                "ring.tws:10: move 'T': the permutation of set 'P' is not a permutation of 0..3 (4294967295 is out of range)",
            ),
            (
                SQUARE.replace("2 3 4 1\n1 0 0 1", "2 3 4 4294967295\n1 0 0 1"),
                "ring.tws:10: move 'T': the permutation of set 'P' is not a permutation of 1..4 (4294967295 is out of range)",
            ),
            (
                SQUARE.replace("Solved\nP\n1 2 3 4", "Solved\nP\n1 2 3 4294967295"),
                "ring.tws:6: the Solved block: piece 4294967295 of set 'P' is not one of 1..4",
            ),
        ] {
            let message = parse(&text, "ring.tws").unwrap_err().to_string();
            assert!(
                message.contains(expected),
                "{message}\nexpected: {expected}"
            );
        }
    }
}
