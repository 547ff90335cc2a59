//! Reading a puzzle definition in the ksolve text format as twsearch
//! reads it: `Name`, `Set NAME PIECES ORIENTATIONS`, one `Solved` block,
//! `Move NAME` blocks and `Scramble NAME` blocks, each closed by `End`,
//! with twsearch's additions: `StartState`, `MoveTransformation` and
//! `ScrambleState` (the same blocks in twsearch's own numbering, below),
//! `MoveSequence NAME M1 M2 ...` (a move made of others, searched like a
//! listed one), `MoveAlias NAME M` (a second name, usable in sequences but
//! not a move of the search) and `ScrambleAlg NAME` (a scramble given as
//! lines of moves up to `End`). `#` starts a comment.
//!
//! Inside a block each set is given at most once, as its name, a
//! permutation line and an optional orientation line (all zeros when left
//! out). A set a block leaves out reads as twsearch and ksolve read it: a
//! move leaves it alone, a scramble has it solved, and the Solved block
//! has piece i in slot i. Permutations are *passive*: after a move whose
//! permutation is `p`, slot `i` holds the piece that was in slot `p[i]`.
//! In ksolve's numbering (`Solved`, `Move`, `Scramble`) pieces count from
//! 1 and the orientation line of a move gives, for each slot, the twist
//! its piece gains when the move carries it away; in twsearch's
//! (`StartState`, `MoveTransformation`, `ScrambleState`) pieces count from
//! 0 and a move's twist belongs to the slot the piece arrives in. The
//! orientation line of a state gives each slot's orientation. A state's
//! permutation line may repeat a number: those pieces look the same.
//!
//! What twsearch reads but bitsolve cannot honour is refused by name with
//! the line: `Illegal` (twsearch's pruned placements), `?` (an unknown
//! piece or orientation) and rotations (moves named `x`, `y`, `z` or
//! ending in `v`, which twsearch keeps apart from the moves); so are
//! ksolve's `ForbiddenPairs`, `ForbiddenGroups`, `Ignore` and `Block`.
//! Everything else is refused with the file, the line and what is wrong.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use crate::error::{Error, Result, quoted};

/// Most pieces a set may have (ranks keep a slot's piece in a byte, and
/// the multinomial hash takes at most 64 cells).
pub const MAX_PIECES: usize = 64;
/// Most orientations a piece may have.
pub const MAX_ORIENTATIONS: usize = 255;

/// One kind of piece: `Set NAME PIECES ORIENTATIONS`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSet {
    /// The set's name.
    pub name: String,
    /// The number of pieces, and of slots, in the set.
    pub pieces: usize,
    /// The number of orientations each piece has (1: none to tell apart).
    pub orientations: u8,
}

/// One set's part of a position: the piece (0-based label) in each slot
/// and each slot's orientation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SetState {
    /// The piece in each slot, as a 0-based label (alike pieces share one).
    pub labels: Vec<u8>,
    /// Each slot's orientation.
    pub orientations: Vec<u8>,
}

/// One set's part of a move, in the form states compose with: slot `i`
/// receives the piece from slot `from[i]`, whose orientation grows by
/// `twist[i]` (modulo the set's orientations).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SetMove {
    /// Slot `i` receives the piece from slot `from[i]` (0-based).
    pub from: Vec<u8>,
    /// The orientation the piece arriving in slot `i` gains.
    pub twist: Vec<u8>,
}

/// A move of the whole puzzle, one [`SetMove`] per set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// One part per set, in the definition's set order.
    pub sets: Vec<SetMove>,
}

/// A move with its name: a `Move` block, or a power of one (`M2`, `M'`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedMove {
    /// The move's name.
    pub name: String,
    /// What the move does.
    pub transform: Transform,
}

/// A `Scramble` block: a named position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scramble {
    /// The scramble's name.
    pub name: String,
    /// The position, one part per set (sets the block leaves out are solved).
    pub state: Vec<SetState>,
}

/// A definition as read: what the file says, checked, with moves in the
/// form states compose with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The `Name` line's name (`unnamed` without one).
    pub name: String,
    /// The sets, in the order declared.
    pub sets: Vec<PieceSet>,
    /// The solved position, one part per set.
    pub solved: Vec<SetState>,
    /// The moves of the `Move` blocks as listed, without powers (see [`expand_moves`]).
    pub moves: Vec<NamedMove>,
    /// The `Scramble` blocks, in file order.
    pub scrambles: Vec<Scramble>,
    /// The `MoveAlias` lines: names a sequence may use that are not moves
    /// of the search.
    pub aliases: Vec<NamedMove>,
}

/// The pieces (1-based) of `slots` of a set's part of a position and,
/// when its pieces have orientations, a '/' and theirs: `2 1` or
/// `3 1 2 / 0 2 1`, as positions are written.
pub fn part_text(set: &PieceSet, part: &SetState, slots: &[usize]) -> String {
    let pieces: Vec<String> = slots
        .iter()
        .map(|&s| (part.labels[s] as u32 + 1).to_string())
        .collect();
    if set.orientations == 1 {
        return pieces.join(" ");
    }
    let twists: Vec<String> = slots
        .iter()
        .map(|&s| part.orientations[s].to_string())
        .collect();
    format!("{} / {}", pieces.join(" "), twists.join(" "))
}

impl Transform {
    /// The move that changes nothing, over `sets`.
    pub fn identity(sets: &[PieceSet]) -> Self {
        Transform {
            sets: sets
                .iter()
                .map(|set| SetMove {
                    from: (0..set.pieces as u8).collect(),
                    twist: vec![0; set.pieces],
                })
                .collect(),
        }
    }

    /// This move followed by `next`.
    pub fn then(&self, next: &Transform, sets: &[PieceSet]) -> Transform {
        let parts = self
            .sets
            .iter()
            .zip(&next.sets)
            .zip(sets)
            .map(|((first, second), set)| SetMove {
                from: second
                    .from
                    .iter()
                    .map(|&via| first.from[via as usize])
                    .collect(),
                twist: second
                    .from
                    .iter()
                    .zip(&second.twist)
                    .map(|(&via, &twist)| {
                        ((first.twist[via as usize] as u16 + twist as u16)
                            % set.orientations as u16) as u8
                    })
                    .collect(),
            })
            .collect();
        Transform { sets: parts }
    }

    /// The state this move leads to from `state`.
    pub fn apply(&self, state: &[SetState], sets: &[PieceSet]) -> Vec<SetState> {
        self.sets
            .iter()
            .zip(state)
            .zip(sets)
            .map(|((part, before), set)| SetState {
                labels: part
                    .from
                    .iter()
                    .map(|&s| before.labels[s as usize])
                    .collect(),
                orientations: part
                    .from
                    .iter()
                    .zip(&part.twist)
                    .map(|(&s, &twist)| {
                        ((before.orientations[s as usize] as u16 + twist as u16)
                            % set.orientations as u16) as u8
                    })
                    .collect(),
            })
            .collect()
    }

    /// This move made `count` times over (by squaring: a power costs a
    /// few products, not `count`).
    pub fn power(&self, mut count: usize, sets: &[PieceSet]) -> Transform {
        let mut result = Transform::identity(sets);
        let mut square = self.clone();
        while count > 0 {
            if count & 1 == 1 {
                result = result.then(&square, sets);
            }
            count >>= 1;
            if count > 0 {
                square = square.then(&square, sets);
            }
        }
        result
    }

    /// Whether the move leaves every piece in its slot with its orientation.
    pub fn is_identity(&self) -> bool {
        self.sets.iter().all(|part| {
            part.twist.iter().all(|&t| t == 0)
                && part.from.iter().enumerate().all(|(i, &s)| s as usize == i)
        })
    }
}

/// The words of one line, with the line's number (1-based) and its text.
struct Line<'a> {
    number: usize,
    words: Vec<&'a str>,
    text: &'a str,
}

/// The definition's lines one at a time, blank and comment-only lines
/// skipped: only the line being read is split into words, so reading
/// costs memory in proportion to one line, not to the file.
struct Reader<'a> {
    file: &'a str,
    source: &'a str,
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    peeked: Option<Line<'a>>,
    /// The number of the last line read or peeked.
    last: usize,
}

impl<'a> Reader<'a> {
    fn new(source: &'a str, file: &'a str) -> Self {
        Reader {
            file,
            source,
            lines: source.lines().enumerate(),
            peeked: None,
            last: 1,
        }
    }

    fn error(&self, line: usize, message: String) -> Error {
        Error::InvalidParameter(format!("{}:{line}: {message}", self.file))
    }

    fn next_line(&mut self) -> Option<Line<'a>> {
        if let Some(line) = self.peeked.take() {
            return Some(line);
        }
        for (index, text) in self.lines.by_ref() {
            let words: Vec<&'a str> = Words::new(text).collect_line();
            if !words.is_empty() {
                self.last = index + 1;
                return Some(Line {
                    number: index + 1,
                    words,
                    text,
                });
            }
        }
        None
    }

    fn peek(&mut self) -> Option<&Line<'a>> {
        if self.peeked.is_none() {
            self.peeked = self.next_line();
        }
        self.peeked.as_ref()
    }

    /// The number of the last line with words (1 for a file without).
    fn last_number(&self) -> usize {
        self.last
    }

    /// Where `part` (a slice of the source) begins in the source.
    fn offset(&self, part: &str) -> usize {
        part.as_ptr() as usize - self.source.as_ptr() as usize
    }
}

/// The words of a stretch of a definition: whitespace apart, a `#` ending
/// its line's words. With `commas`, commas part words too (move lists).
#[derive(Clone)]
struct Words<'a> {
    rest: &'a str,
    commas: bool,
}

impl<'a> Words<'a> {
    /// The words of one line (commas kept inside words).
    fn new(text: &'a str) -> Self {
        Words {
            rest: text,
            commas: false,
        }
    }

    /// The moves of a move list: words apart by whitespace or commas.
    fn moves(text: &'a str) -> Self {
        Words {
            rest: text,
            commas: true,
        }
    }

    fn collect_line(self) -> Vec<&'a str> {
        self.collect()
    }

    fn is_break(&self, c: char) -> bool {
        c.is_whitespace() || (self.commas && c == ',')
    }
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        loop {
            let trimmed = self.rest.trim_start_matches(|c| self.is_break(c));
            if let Some(comment) = trimmed.strip_prefix('#') {
                // The comment runs to the end of its line.
                self.rest = comment.find('\n').map_or("", |at| &comment[at..]);
                continue;
            }
            let end = trimmed
                .find(|c| self.is_break(c) || c == '#')
                .unwrap_or(trimmed.len());
            let (word, rest) = trimmed.split_at(end);
            self.rest = rest;
            return (!word.is_empty()).then_some(word);
        }
    }
}

fn is_number_line(line: &Line) -> bool {
    line.words
        .first()
        .is_some_and(|word| *word == "?" || word.bytes().all(|b| b.is_ascii_digit()))
}

const KNOWN: &str = "bitsolve reads Name, Set, Solved/StartState, Move/MoveTransformation, MoveSequence, MoveAlias, Scramble/ScrambleState/ScrambleAlg and End";

/// How a block numbers its pieces and where a move's twists belong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Numbering {
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

/// A move named by a sequence of others (`MoveSequence`, `MoveAlias`) or
/// a scramble given by moves (`ScrambleAlg`), resolved once every move
/// is read. Its moves stay in the file's text until then.
struct Sequence<'a> {
    name: String,
    moves: Words<'a>,
    line: usize,
    /// A `MoveAlias`: a name sequences may use, not a move of the search.
    alias: bool,
}

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

/// The bytes one move or one position takes: two byte vectors per set,
/// with their bookkeeping.
fn position_bytes(sets: &[PieceSet]) -> u64 {
    sets.iter().map(|set| 2 * set.pieces as u64 + 64).sum()
}

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
        // A new move's name: not a rotation, not given before.
        let mut new_move_name = |reader: &Reader, name: &'a str| -> Result<String> {
            if is_rotation(name) {
                return Err(reader.error(
                    number,
                    format!(
                        "move {} is a rotation of the whole puzzle as twsearch reads its name (x, y, z, or capitals ending in v), which bitsolve does not search: leave it out or rename it",
                        quoted(name)
                    ),
                ));
            }
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
    // and each other: each is resolved once what it names is.
    let (sequenced, aliases) = resolve_sequences(&reader, &sets, &listed, &sequences)?;
    listed.extend(sequenced);
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
    let names = MoveNames::new(&sets, &listed, &aliases);
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
    })
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
/// `None` when its order exceeds [`MAX_ORDER`].
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
struct MoveNames<'a> {
    sets: &'a [PieceSet],
    by_name: HashMap<&'a str, &'a Transform>,
}

impl<'a> MoveNames<'a> {
    fn new(sets: &'a [PieceSet], listed: &'a [NamedMove], aliases: &'a [NamedMove]) -> Self {
        let by_name = listed
            .iter()
            .chain(aliases)
            .map(|named| (named.name.as_str(), &named.transform))
            .collect();
        MoveNames { sets, by_name }
    }

    /// The move `word` names, or `None` when it names none.
    fn find(&self, word: &str) -> Option<Cow<'a, Transform>> {
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
fn resolve_sequences(
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

/// The moves of a `ScrambleAlg` block opened by `header`: its text up to
/// its `End`, read as moves once every move is known.
fn read_move_lines<'a>(
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

fn parse_count(
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

fn read_state_block(
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

fn read_move_block(
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

/// Which moves a search makes of the listed ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Every power of each listed move short of the identity (twsearch's
    /// default: an order-4 move gives M, M2 and M').
    Powers,
    /// Each listed move and its inverse only.
    Quarter,
}

impl Metric {
    /// The metric's name as options give it.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Powers => "powers",
            Metric::Quarter => "quarter",
        }
    }

    /// The metric in words, for help text.
    pub fn describe(self) -> &'static str {
        match self {
            Metric::Powers => "every power of each listed move counts one move",
            Metric::Quarter => "each listed move and its inverse count one move",
        }
    }
}

impl std::str::FromStr for Metric {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        match text {
            "powers" => Ok(Metric::Powers),
            "quarter" => Ok(Metric::Quarter),
            other => Err(Error::InvalidParameter(format!(
                "the ksolve metric is powers (every power of a move, twsearch's default) or quarter (a move and its inverse), got {}",
                quoted(other)
            ))),
        }
    }
}

/// The name of power `k` of move `name` whose order is `order`: `M`,
/// `M2`, ..., and for powers past half the order the inverse's, `M'`,
/// `M2'`.
fn power_name(name: &str, k: usize, order: usize) -> String {
    let (count, prime) = if 2 * k > order {
        (order - k, "'")
    } else {
        (k, "")
    };
    if count == 1 {
        format!("{name}{prime}")
    } else {
        format!("{name}{count}{prime}")
    }
}

/// Most powers a move may have before the identity: a listed move of a
/// larger order is refused (each power is a move of the search; a
/// megaminx face has order 5).
pub const MAX_ORDER: usize = 1 << 12;

/// Most bytes the moves of a search may take, each power a permutation
/// and twists of every set (with two vectors' bookkeeping per set): far
/// above any real puzzle's, and it keeps a small file (one move of order
/// 4,096 beside thousands of sets) from asking for gigabytes.
pub const MAX_MOVE_BYTES: u64 = 64 << 20;

/// The order of `transform`, computed from its cycles (a cycle of length
/// `l` whose twists add to `t` modulo `o` comes back after `l * o /
/// gcd(t, o)` steps; the move after the least common multiple of its
/// cycles'), or `None` when it exceeds [`MAX_ORDER`].
pub fn order_of(transform: &Transform, sets: &[PieceSet]) -> Option<usize> {
    let mut order = 1usize;
    for (part, set) in transform.sets.iter().zip(sets) {
        let mut seen = vec![false; part.from.len()];
        for start in 0..part.from.len() {
            if seen[start] {
                continue;
            }
            let (mut length, mut twist, mut slot) = (0usize, 0usize, start);
            while !seen[slot] {
                seen[slot] = true;
                twist += part.twist[slot] as usize;
                length += 1;
                slot = part.from[slot] as usize;
            }
            let o = set.orientations as usize;
            let cycle = length * (o / num_integer::gcd(twist % o, o));
            order = num_integer::lcm(order, cycle);
            if order > MAX_ORDER {
                return None;
            }
        }
    }
    Some(order)
}

/// The moves a search makes: the listed moves with their powers (or
/// inverses), in the order listed. Orders are computed before any power
/// is, and the moves' memory is bounded ([`MAX_ORDER`],
/// [`MAX_MOVE_BYTES`]) before one is built.
pub fn expand_moves(definition: &Definition, metric: Metric, file: &str) -> Result<Vec<NamedMove>> {
    let sets = &definition.sets;
    let mut orders = Vec::with_capacity(definition.moves.len());
    for listed in &definition.moves {
        let order = order_of(&listed.transform, sets).ok_or_else(|| {
            Error::InvalidParameter(format!(
                "{file}: move {} has an order above {MAX_ORDER}",
                quoted(&listed.name)
            ))
        })?;
        if order == 1 {
            return Err(Error::InvalidParameter(format!(
                "{file}: move {} moves nothing",
                quoted(&listed.name)
            )));
        }
        orders.push(order);
    }
    // Whether power `k` of a move of order `order` is a move of the search.
    let chosen = |k: usize, order: usize| match metric {
        Metric::Powers => true,
        Metric::Quarter => k == 1 || k == order - 1,
    };
    let search_moves: u64 = orders
        .iter()
        .map(|&order| (1..order).filter(|&k| chosen(k, order)).count() as u64)
        .sum();
    let bytes = search_moves.saturating_mul(position_bytes(sets));
    if bytes > MAX_MOVE_BYTES {
        return Err(Error::SpaceTooLarge(format!(
            "{file}: the {search_moves} moves of the search (each listed move with its powers) over {} sets would take {} MiB, more than the {} MiB a definition's moves may take",
            sets.len(),
            bytes >> 20,
            MAX_MOVE_BYTES >> 20
        )));
    }
    let mut moves: Vec<NamedMove> = Vec::new();
    let mut names: HashMap<String, String> = HashMap::new();
    for (listed, &order) in definition.moves.iter().zip(&orders) {
        // One power at a time, kept only where the metric makes it a move.
        let mut power = listed.transform.clone();
        for k in 1..order {
            if k > 1 {
                power = power.then(&listed.transform, sets);
            }
            if !chosen(k, order) {
                continue;
            }
            let name = power_name(&listed.name, k, order);
            if let Some(owner) = names.insert(name.clone(), listed.name.clone()) {
                return Err(Error::InvalidParameter(format!(
                    "{file}: moves {} and {} both give a move named {}",
                    quoted(&owner),
                    quoted(&listed.name),
                    quoted(&name)
                )));
            }
            moves.push(NamedMove {
                name,
                transform: power.clone(),
            });
        }
        debug_assert!(power.then(&listed.transform, sets).is_identity());
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: &str = "# four pieces in a ring, one turn\nName Ring\nSet P 4 2\nSolved\nP\n1 2 3 4\nEnd\nMove T\nP\n2 3 4 1\n1 0 0 1\nEnd\nScramble one\nP\n2 3 4 1\n0 0 1 1\nEnd\n";

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

    #[test]
    fn a_moves_order_from_its_cycles_is_the_count_of_its_powers() {
        let sets = vec![
            PieceSet {
                name: "A".into(),
                pieces: 7,
                orientations: 6,
            },
            PieceSet {
                name: "B".into(),
                pieces: 5,
                orientations: 1,
            },
        ];
        // Seeded moves of every shape: random permutations and twists.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |below: usize| {
            seed = crate::hash::splitmix64(seed);
            (seed % below as u64) as usize
        };
        for _ in 0..200 {
            let parts = sets
                .iter()
                .map(|set| {
                    let mut from: Vec<u8> = (0..set.pieces as u8).collect();
                    for i in (1..from.len()).rev() {
                        from.swap(i, next(i + 1));
                    }
                    let twist = (0..set.pieces)
                        .map(|_| next(set.orientations as usize) as u8)
                        .collect();
                    SetMove { from, twist }
                })
                .collect();
            let transform = Transform { sets: parts };
            let mut power = transform.clone();
            let mut counted = 1;
            while !power.is_identity() {
                power = power.then(&transform, &sets);
                counted += 1;
            }
            assert_eq!(order_of(&transform, &sets), Some(counted));
        }
    }

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

    #[test]
    fn what_twsearch_reads_but_bitsolve_cannot_honour_is_refused_by_name() {
        for (text, expected) in [
            (
                SQUARE.replace("Move T", "Move x"),
                "ring.tws:8: move 'x' is a rotation of the whole puzzle",
            ),
            (
                SQUARE.replace("Move T", "Move UFRv"),
                "ring.tws:8: move 'UFRv' is a rotation",
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
    fn windows_line_ends_tabs_and_comments_read_as_the_plain_file() {
        let plain = parse(SQUARE, "ring.tws").unwrap();
        let windows = SQUARE.replace('\n', "\r\n").replace(' ', "\t");
        assert_eq!(parse(&windows, "ring.tws").unwrap(), plain);
        let commented = SQUARE.replace("\nEnd", "  # the block ends\n\n  End");
        assert_eq!(parse(&commented, "ring.tws").unwrap(), plain);
    }

    #[test]
    fn powers_are_named_as_twsearch_names_them() {
        let definition = parse(SQUARE, "ring.tws").unwrap();
        let names = |metric| {
            expand_moves(&definition, metric, "ring.tws")
                .unwrap()
                .iter()
                .map(|m| m.name.clone())
                .collect::<Vec<_>>()
                .join(" ")
        };
        // Four steps bring each piece home, its twist grown by 1 + 1.
        assert_eq!(names(Metric::Powers), "T T2 T'");
        assert_eq!(names(Metric::Quarter), "T T'");
        assert_eq!(power_name("U", 2, 4), "U2");
        assert_eq!(power_name("U", 3, 4), "U'");
        assert_eq!(power_name("X", 3, 5), "X2'");
        assert_eq!(power_name("X", 4, 8), "X4");
        assert_eq!(power_name("X", 5, 8), "X3'");
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
