//! Reading a definition file keyword by keyword: names, sets, the blocks
//! and sequences in any order, each checked as it is read and charged to
//! the definition's memory budget, then the whole checked at the end.

use std::collections::{HashMap, HashSet};

use super::blocks::{Numbering, parse_count, read_move_block, read_move_lines, read_state_block};
use super::lines::{Reader, Words};
use super::moves::MAX_MOVE_BYTES;
use super::puzzle::{
    Definition, MAX_ORIENTATIONS, MAX_PIECES, NamedMove, PieceSet, Scramble, SetState,
    position_bytes,
};
use super::sequences::{MoveNames, Sequence, resolve_sequences};
use crate::error::{Error, Result, quoted};

const KNOWN: &str = "bitsolve reads Name, Set, Solved/StartState, Move/MoveTransformation, MoveSequence, MoveAlias, Scramble/ScrambleState/ScrambleAlg and End";
/// Whether twsearch takes a move of this name for a rotation of the
/// whole puzzle (`x`, `y`, `z` with an optional `2` or `'`, or capitals
/// and underscores followed by `v`), which it keeps apart from the moves.
fn is_rotation(name: &str) -> bool {
    let bytes = name.as_bytes();
    if matches!(bytes.first(), Some(b'x' | b'y' | b'z'))
        && (bytes.len() == 1 || (bytes.len() == 2 && matches!(bytes[1], b'2' | b'\'')))
    {
        return true;
    }
    let capitals = bytes
        .iter()
        .take_while(|&&b| b == b'_' || b.is_ascii_uppercase())
        .count();
    capitals > 0 && capitals + 1 == bytes.len() && bytes[capitals] == b'v'
}

/// Most bytes the positions of a definition's scrambles may take (each a
/// permutation and orientations of every set): a file of many short
/// scrambles of a puzzle of many sets would otherwise ask for far more
/// than its size.
pub const MAX_SCRAMBLE_BYTES: u64 = 256 << 20;

/// What the moves and scrambles read so far take, charged as each block
/// opens so that a file asking for too much is refused at the line that
/// tips it, before the memory is taken.
struct Budget {
    /// [`position_bytes`] of the sets, fixed once the blocks begin.
    per_position: Option<u64>,
    moves: u64,
    scrambles: u64,
}

impl Budget {
    fn charge(
        &mut self,
        reader: &Reader,
        sets: &[PieceSet],
        number: usize,
        scramble: bool,
    ) -> Result<()> {
        let per_position = *self
            .per_position
            .get_or_insert_with(|| position_bytes(sets));
        let (spent, limit, what, bytes) = if scramble {
            // A scramble's name and bookkeeping beside its position.
            (
                &mut self.scrambles,
                MAX_SCRAMBLE_BYTES,
                "scrambles",
                per_position + 192,
            )
        } else {
            (&mut self.moves, MAX_MOVE_BYTES, "moves", per_position)
        };
        *spent = spent.saturating_add(bytes);
        if *spent > limit {
            return Err(reader.error(
                number,
                format!(
                    "the {what} read so far over {} sets would take more than the {} MiB a definition's {what} may take",
                    sets.len(),
                    limit >> 20
                ),
            ));
        }
        Ok(())
    }
}

/// Reads a definition; `file` names it in errors. The file is read line
/// by line and refused at its first bad line.
pub fn parse<'a>(text: &'a str, file: &'a str) -> Result<Definition> {
    let mut reader = Reader::new(text, file);
    let mut name = None;
    let mut sets: Vec<PieceSet> = Vec::new();
    let mut solved: Option<Vec<SetState>> = None;
    let mut listed: Vec<NamedMove> = Vec::new();
    let mut partial_scrambles: Vec<(String, Vec<Option<SetState>>)> = Vec::new();
    let mut sequences: Vec<Sequence> = Vec::new();
    let mut scramble_sequences: Vec<Sequence> = Vec::new();
    let mut budget = Budget {
        per_position: None,
        moves: 0,
        scrambles: 0,
    };
    let mut blocks_begun = false;
    // Names looked up by hash, not by a walk over those read so far: a
    // file of many sets or moves reads in time linear in its length.
    let mut set_index: HashMap<String, usize> = HashMap::new();
    let mut move_names: HashSet<&str> = HashSet::new();
    let mut scramble_names: HashSet<&str> = HashSet::new();
    while let Some(line) = reader.next_line() {
        let number = line.number;
        let words = &line.words;
        let keyword = words[0];
        let arguments = &words[1..];
        let expect_arguments = |count: usize, usage: &str| -> Result<()> {
            if arguments.len() == count {
                Ok(())
            } else {
                Err(reader.error(
                    number,
                    format!("{keyword} takes {count} argument(s): '{usage}'"),
                ))
            }
        };
        // A new move's name: not given before. A rotation's name (twsearch's
        // reading) is a move too until the end, where it is set apart.
        let mut new_move_name = |reader: &Reader, name: &'a str| -> Result<String> {
            if !move_names.insert(name) {
                return Err(reader.error(number, format!("move {} is defined twice", quoted(name))));
            }
            Ok(name.to_string())
        };
        match keyword {
            "Name" => {
                if arguments.is_empty() {
                    return Err(reader.error(number, "Name needs a name".into()));
                }
                name = Some(arguments.join(" "));
            }
            "Set" => {
                expect_arguments(3, "Set NAME PIECES ORIENTATIONS")?;
                if blocks_begun {
                    return Err(reader.error(
                        number,
                        "every Set comes before the Solved, Move and Scramble blocks".into(),
                    ));
                }
                let set_name = arguments[0].to_string();
                if set_index.contains_key(&set_name) {
                    return Err(reader.error(
                        number,
                        format!("set {} is defined twice", quoted(&set_name)),
                    ));
                }
                let pieces = parse_count(arguments[1], 1, MAX_PIECES, "pieces")
                    .map_err(|message| reader.error(number, message))?;
                let orientations = parse_count(arguments[2], 1, MAX_ORIENTATIONS, "orientations")
                    .map_err(|message| reader.error(number, message))?;
                set_index.insert(set_name.clone(), sets.len());
                sets.push(PieceSet {
                    name: set_name,
                    pieces,
                    orientations: orientations as u8,
                });
            }
            "Solved" | "StartState" => {
                expect_arguments(0, keyword)?;
                blocks_begun = true;
                if solved.is_some() {
                    return Err(reader.error(number, "a second Solved block".into()));
                }
                let numbering = if keyword == "Solved" {
                    Numbering::Ksolve
                } else {
                    Numbering::Twsearch
                };
                let what = format!("the {keyword} block");
                let given =
                    read_state_block(&mut reader, &sets, &set_index, &what, number, numbering)?;
                // A set left out is solved as numbered: piece i in slot i.
                solved = Some(
                    given
                        .into_iter()
                        .zip(&sets)
                        .map(|(part, set)| {
                            part.unwrap_or_else(|| SetState {
                                labels: (0..set.pieces as u8).collect(),
                                orientations: vec![0; set.pieces],
                            })
                        })
                        .collect(),
                );
            }
            "Scramble" | "ScrambleState" | "ScrambleAlg" => {
                expect_arguments(1, &format!("{keyword} NAME"))?;
                blocks_begun = true;
                let scramble_name = arguments[0].to_string();
                if !scramble_names.insert(arguments[0]) {
                    return Err(reader.error(
                        number,
                        format!("scramble {} is defined twice", quoted(&scramble_name)),
                    ));
                }
                budget.charge(&reader, &sets, number, true)?;
                if keyword == "ScrambleAlg" {
                    let moves = read_move_lines(&mut reader, &line, &scramble_name)?;
                    scramble_sequences.push(Sequence {
                        name: scramble_name,
                        moves,
                        line: number,
                        alias: false,
                    });
                    continue;
                }
                let numbering = if keyword == "Scramble" {
                    Numbering::Ksolve
                } else {
                    Numbering::Twsearch
                };
                let what = format!("scramble {}", quoted(&scramble_name));
                let state =
                    read_state_block(&mut reader, &sets, &set_index, &what, number, numbering)?;
                // Sets left out are filled from the Solved block at the end
                // (it may come later in the file).
                partial_scrambles.push((scramble_name, state));
            }
            "Move" | "MoveTransformation" => {
                expect_arguments(1, &format!("{keyword} NAME"))?;
                blocks_begun = true;
                let move_name = new_move_name(&reader, arguments[0])?;
                budget.charge(&reader, &sets, number, false)?;
                let numbering = if keyword == "Move" {
                    Numbering::Ksolve
                } else {
                    Numbering::Twsearch
                };
                let what = format!("move {}", quoted(&move_name));
                let transform =
                    read_move_block(&mut reader, &sets, &set_index, &what, number, numbering)?;
                listed.push(NamedMove {
                    name: move_name,
                    transform,
                });
            }
            "MoveSequence" | "MoveAlias" => {
                let alias = keyword == "MoveAlias";
                if alias {
                    expect_arguments(2, "MoveAlias NAME MOVE")?;
                } else if arguments.len() < 2 {
                    return Err(reader.error(
                        number,
                        "MoveSequence takes a name and at least one move: 'MoveSequence NAME M1 M2 ...'"
                            .into(),
                    ));
                }
                blocks_begun = true;
                let name = new_move_name(&reader, arguments[0])?;
                budget.charge(&reader, &sets, number, false)?;
                // The moves named: the line's text from the second argument on.
                let from = arguments[1].as_ptr() as usize - line.text.as_ptr() as usize;
                sequences.push(Sequence {
                    name,
                    moves: Words::moves(&line.text[from..]),
                    line: number,
                    alias,
                });
            }
            "End" => return Err(reader.error(number, "End outside a block".into())),
            "Illegal" => {
                return Err(reader.error(
                    number,
                    "Illegal (piece placements twsearch's solver prunes) is not read by bitsolve, whose searches visit every position".into(),
                ));
            }
            "ForbiddenPairs" | "ForbiddenGroups" | "Ignore" | "Block" => {
                return Err(reader.error(
                    number,
                    format!("{keyword} is a ksolve keyword bitsolve does not read ({KNOWN})"),
                ));
            }
            other => {
                return Err(reader.error(
                    number,
                    format!("unsupported keyword {} ({KNOWN})", quoted(other)),
                ));
            }
        }
    }
    let end = reader.last_number();
    if sets.is_empty() {
        return Err(reader.error(end, "the definition has no Set".into()));
    }
    let Some(solved) = solved else {
        return Err(reader.error(end, "the definition has no Solved block".into()));
    };
    // Sequences name moves (and their powers) listed anywhere in the file,
    // rotations among them, and each other: each is resolved once what it
    // names is.
    let (sequenced, aliases) = resolve_sequences(&reader, &sets, &listed, &sequences)?;
    listed.extend(sequenced);
    // As twsearch reads a file: a move named as a rotation of the whole
    // puzzle (a block or a sequence) is no move of the search; sequences
    // and scrambles may name it.
    let (rotations, listed): (Vec<NamedMove>, Vec<NamedMove>) = listed
        .into_iter()
        .partition(|named| is_rotation(&named.name));
    if listed.is_empty() {
        return Err(reader.error(end, "the definition has no Move".into()));
    }
    // A set a scramble leaves out is as solved (twsearch's reading).
    let mut scrambles: Vec<Scramble> = partial_scrambles
        .into_iter()
        .map(|(name, parts)| Scramble {
            name,
            state: parts
                .into_iter()
                .zip(&solved)
                .map(|(part, home)| part.unwrap_or_else(|| home.clone()))
                .collect(),
        })
        .collect();
    let named = [&aliases[..], &rotations[..]].concat();
    let names = MoveNames::new(&sets, &listed, &named);
    for sequence in scramble_sequences {
        let mut state = solved.clone();
        for word in sequence.moves {
            let Some(transform) = names.find(word) else {
                return Err(reader.error(
                    sequence.line,
                    format!(
                        "scramble {}: {} is not a move of this definition",
                        quoted(&sequence.name),
                        quoted(word)
                    ),
                ));
            };
            state = transform.apply(&state, &sets);
        }
        scrambles.push(Scramble {
            name: sequence.name,
            state,
        });
    }
    for scramble in &scrambles {
        for ((state, home), set) in scramble.state.iter().zip(&solved).zip(&sets) {
            let mut have = state.labels.clone();
            let mut want = home.labels.clone();
            have.sort_unstable();
            want.sort_unstable();
            if have != want {
                return Err(Error::InvalidParameter(format!(
                    "{file}: scramble {} holds other pieces of set {} than the Solved block does",
                    quoted(&scramble.name),
                    quoted(&set.name)
                )));
            }
        }
    }
    Ok(Definition {
        name: name.unwrap_or_else(|| "unnamed".to_string()),
        sets,
        solved,
        moves: listed,
        scrambles,
        aliases,
        rotations,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::SQUARE;
    use super::super::{Metric, PieceSet, expand_moves};
    use super::*;

    #[test]
    fn a_definition_reads_with_its_moves_in_state_form() {
        let definition = parse(SQUARE, "ring.tws").unwrap();
        assert_eq!(definition.name, "Ring");
        assert_eq!(
            definition.sets,
            vec![PieceSet {
                name: "P".into(),
                pieces: 4,
                orientations: 2
            }]
        );
        assert_eq!(definition.solved[0].labels, vec![0, 1, 2, 3]);
        assert_eq!(definition.solved[0].orientations, vec![0; 4]);
        // Slot i takes the piece of slot p[i]; the twist is the one of the
        // slot the piece leaves.
        let turn = &definition.moves[0].transform.sets[0];
        assert_eq!(turn.from, vec![1, 2, 3, 0]);
        assert_eq!(turn.twist, vec![0, 0, 1, 1]);
        let moved = definition.moves[0]
            .transform
            .apply(&definition.solved, &definition.sets);
        assert_eq!(moved, definition.scrambles[0].state);
    }

    /// A rotation of the whole puzzle (by twsearch's names) is set apart
    /// from the moves, and sequences and scrambles may name it: `R`, the
    /// turn seen from the other side, is the rotation, the turn and the
    /// rotation back.
    #[test]
    fn rotations_are_set_apart_and_sequences_may_name_them() {
        let rotation = "Move UFRv\nP\n3 4 1 2\n0 0 0 0\nEnd\n";
        let text = SQUARE.replace("Scramble one", &format!("{rotation}MoveSequence R UFRv T UFRv2\nScrambleAlg turned\nUFRv T\nEnd\nScramble one"));
        let definition = parse(&text, "ring.tws").unwrap();
        let names: Vec<&str> = definition.moves.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["T", "R"]);
        assert_eq!(definition.rotations.len(), 1);
        assert_eq!(definition.rotations[0].name, "UFRv");
        let half = &definition.rotations[0].transform;
        let turn = &definition.moves[0].transform;
        // The rotation is a half turn: its square (UFRv2) is the identity.
        let expected = half.then(turn, &definition.sets);
        assert_eq!(definition.moves[1].transform, expected);
        let turned = definition
            .scrambles
            .iter()
            .find(|s| s.name == "turned")
            .unwrap();
        let rotated = half.apply(&definition.solved, &definition.sets);
        assert_eq!(turned.state, turn.apply(&rotated, &definition.sets));
    }

    #[test]
    fn what_twsearch_reads_but_bitsolve_cannot_honour_is_refused_by_name() {
        for (text, expected) in [
            (
                SQUARE.replace("Move T", "Move x"),
                "ring.tws:17: the definition has no Move",
            ),
            (
                format!("{SQUARE}Illegal P 1 2\n"),
                "ring.tws:18: Illegal (piece placements twsearch's solver prunes)",
            ),
            (
                SQUARE.replace("1 2 3 4\nEnd", "1 2 3 4\n0 ? 0 0\nEnd"),
                "ring.tws:7: the Solved block: '?' (twsearch's unknown piece or orientation)",
            ),
            (
                format!("{SQUARE}ForbiddenPairs\n"),
                "ring.tws:18: ForbiddenPairs is a ksolve keyword bitsolve does not read",
            ),
        ] {
            let message = parse(&text, "ring.tws").unwrap_err().to_string();
            assert!(
                message.contains(expected),
                "{message}\nexpected: {expected}"
            );
            assert_eq!(message.lines().count(), 1, "{message}");
        }
        assert!(!is_rotation("U") && !is_rotation("xy") && !is_rotation("Uvv"));
        assert!(is_rotation("y'") && is_rotation("z2") && is_rotation("F_Rv"));
    }

    #[test]
    fn every_kind_of_bad_definition_is_one_line_naming_file_and_line() {
        let good = SQUARE;
        for (text, expected) in [
            (
                good.replace("Name Ring", "Illegal"),
                "ring.tws:2: Illegal (piece placements twsearch's solver prunes)",
            ),
            (
                good.replace("Name Ring", "Forbidden"),
                "ring.tws:2: unsupported keyword 'Forbidden'",
            ),
            (
                good.replace("2 3 4 1\n1 0 0 1", "2 3 4 4\n1 0 0 1"),
                "ring.tws:10: move 'T': the permutation of set 'P' is not a permutation of 1..4 (4 appears twice)",
            ),
            (
                good.replace("2 3 4 1\n1 0 0 1", "2 3 4 5\n1 0 0 1"),
                "is out of range",
            ),
            (
                good.replace("1 0 0 1", "1 0 0 2"),
                "ring.tws:11: move 'T': orientation 2 of set 'P' is out of range",
            ),
            // A move that leaves out every set leaves everything alone.
            (
                good.replace("Move T\nP\n2 3 4 1\n1 0 0 1\n", "Move T\n"),
                "ring.tws: move 'T' moves nothing",
            ),
            (
                good.replace("1 2 3 4", "1 2 3"),
                "ring.tws:6: the Solved block: set 'P' has 4 pieces, but its permutation line has 3 numbers",
            ),
            (
                good.replace("Set P 4 2", "Set P 4"),
                "ring.tws:3: Set takes 3 argument(s)",
            ),
            (
                good.replace("Set P 4 2", "Set P 0 2"),
                "pieces must be a whole number from 1 to 64",
            ),
            (
                good.replace("Set P 4 2", "Set P 4 x"),
                "orientations must be a whole number",
            ),
            (
                good.replace("Solved\nP\n", "Solved\nQ\n"),
                "ring.tws:5: the Solved block: 'Q' is not a set",
            ),
            (
                good.replace("1 2 3 4\nEnd", "1 2 3 4"),
                "expected a set name on its own line, got 'Move T'",
            ),
            (
                good.trim_end().trim_end_matches("End").to_string(),
                "scramble 'one' has no End",
            ),
            (
                good.replace("Scramble one\nP\n2 3 4 1", "Scramble one\nP\n2 3 4 4"),
                "holds other pieces of set 'P'",
            ),
            (
                good.replace("Move T\nP\n2 3 4 1\n1 0 0 1", "Move T\nP\n1 2 3 4"),
                "move 'T' moves nothing",
            ),
            (format!("{good}Set Q 2 1\n"), "every Set comes before"),
            (format!("{good}End\n"), "End outside a block"),
            (
                good.replace("1 2 3 4", "1 2 x 4"),
                "ring.tws:6: the Solved block: 'x' is not a number",
            ),
            (
                good.replace("Solved\nP\n1 2 3 4\nEnd\n", ""),
                "no Solved block",
            ),
        ] {
            let message = match parse(&text, "ring.tws")
                .and_then(|d| expand_moves(&d, Metric::Powers, "ring.tws"))
            {
                Ok(_) => panic!("accepted: {text}"),
                Err(error) => error.to_string(),
            };
            assert!(
                message.contains(expected),
                "{message}\nexpected: {expected}"
            );
            assert_eq!(message.lines().count(), 1, "{message}");
        }
    }
}
