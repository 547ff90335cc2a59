//! A puzzle's positions as players see them: read as text, a scramble or
//! moves from solved, written and drawn set by set, moves named
//! ([`Picture`]).

use super::definition::{self, SetState};
use super::{Ksolve, KsolveState, SCRATCH};
use crate::diagram::{Cell, Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::space::{Picture, Space};

impl Ksolve {
    /// The text of a position given per set (reachable or not): each
    /// set's name, its pieces (1-based) and, when it has orientations, a
    /// '/' and theirs.
    pub fn text_of(&self, sets: &[SetState]) -> String {
        let parts: Vec<String> = self
            .definition
            .sets
            .iter()
            .zip(sets)
            .map(|(set, part)| {
                let slots: Vec<usize> = (0..set.pieces).collect();
                format!("{} {}", set.name, definition::part_text(set, part, &slots))
            })
            .collect();
        parts.join("; ")
    }

    fn parse_sets(&self, text: &str) -> Result<Vec<SetState>> {
        let usage = || {
            format!(
                "a {} position is each set's name, its pieces and, for pieces with orientations, '/' and their orientations, sets separated by ';' (e.g. {}), 'scramble NAME' or 'moves M1 M2 ...'",
                self.definition.name,
                quoted(&self.text_of(&self.definition.solved))
            )
        };
        let mut sets: Vec<Option<SetState>> = vec![None; self.definition.sets.len()];
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let (head, orientations) = match part.split_once('/') {
                Some((head, tail)) => (head, Some(tail)),
                None => (part, None),
            };
            let mut words = head.split_whitespace();
            let name = words.next().unwrap_or_default();
            let Some(index) = self.definition.sets.iter().position(|s| s.name == name) else {
                return Err(Error::InvalidParameter(format!(
                    "{} is not a set of {}: {}",
                    quoted(name),
                    self.definition.name,
                    usage()
                )));
            };
            let set = &self.definition.sets[index];
            let numbers = |words: &mut dyn Iterator<Item = &str>,
                           what: &str,
                           low: u32,
                           high: u32|
             -> Result<Vec<u8>> {
                let values = words
                    .map(|w| match w.parse::<u32>() {
                        Ok(v) if (low..=high).contains(&v) => Ok(v as u8),
                        _ => Err(Error::InvalidParameter(format!(
                            "set {}: {what} {} is not one of {low}..{high}",
                            quoted(&set.name),
                            quoted(w)
                        ))),
                    })
                    .collect::<Result<Vec<u8>>>()?;
                if values.len() != set.pieces {
                    return Err(Error::InvalidParameter(format!(
                        "set {} has {} pieces, the position gives {} {what}s",
                        quoted(&set.name),
                        set.pieces,
                        values.len()
                    )));
                }
                Ok(values)
            };
            let labels: Vec<u8> = numbers(&mut words, "piece", 1, set.pieces as u32)?
                .iter()
                .map(|l| l - 1)
                .collect();
            let orientations = match orientations {
                Some(tail) => numbers(
                    &mut tail.split_whitespace(),
                    "orientation",
                    0,
                    set.orientations as u32 - 1,
                )?,
                None => vec![0; set.pieces],
            };
            if sets[index]
                .replace(SetState {
                    labels,
                    orientations,
                })
                .is_some()
            {
                return Err(Error::InvalidParameter(format!(
                    "the position gives set {} twice",
                    quoted(&set.name)
                )));
            }
        }
        sets.into_iter()
            .zip(&self.definition.sets)
            .map(|(part, set)| {
                part.ok_or_else(|| {
                    Error::InvalidParameter(format!(
                        "the position does not give set {}: {}",
                        quoted(&set.name),
                        usage()
                    ))
                })
            })
            .collect()
    }
}

impl Picture for Ksolve {
    fn position_text(&self, state: &KsolveState) -> String {
        self.text_of(&self.sets_of(state))
    }

    /// A position as `SET p p p / o o o; SET ...`, `scramble NAME` (a
    /// Scramble block of the definition) or `moves M1 M2 ...` (moves from
    /// the solved state).
    fn read_position(&self, text: &str) -> Result<KsolveState> {
        let trimmed = text.trim();
        if let Some(name) = trimmed.strip_prefix("scramble ") {
            let name = name.trim();
            let Some(scramble) = self.definition.scrambles.iter().find(|s| s.name == name) else {
                let names: Vec<&str> = self
                    .definition
                    .scrambles
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect();
                return Err(Error::InvalidParameter(format!(
                    "{} has no scramble {} ({})",
                    self.file,
                    quoted(name),
                    if names.is_empty() {
                        "it defines none".to_string()
                    } else {
                        format!("it defines {}", names.join(", "))
                    }
                )));
            };
            return self.state_of(&scramble.state);
        }
        if let Some(sequence) = trimmed.strip_prefix("moves") {
            let mut sets = self.definition.solved.clone();
            for word in sequence.split_whitespace() {
                // A move of the search, or a name a MoveAlias line gives.
                let Some(named) = self
                    .moves
                    .iter()
                    .chain(&self.definition.aliases)
                    .find(|m| m.name == word)
                else {
                    let names: Vec<&str> = self.moves.iter().map(|m| m.name.as_str()).collect();
                    return Err(Error::InvalidParameter(format!(
                        "{} is not a move of {} in the {} metric (its moves: {})",
                        quoted(word),
                        self.definition.name,
                        self.metric.name(),
                        names.join(" ")
                    )));
                };
                sets = named.transform.apply(&sets, &self.definition.sets);
            }
            return self.state_of(&sets);
        }
        let sets = self.parse_sets(trimmed)?;
        self.state_of(&sets)
    }

    fn move_name(&self, from: &KsolveState, to: &KsolveState) -> String {
        let target = self.rank(to);
        let mut scratch = [0u8; SCRATCH];
        (0..self.moves.len())
            .find(|&m| self.successor(m, &from.values, &mut scratch) == target)
            .map_or_else(|| "no move".to_string(), |m| self.moves[m].name.clone())
    }

    /// One row per set, one cell per slot: the piece (1-based) and, after
    /// a colon, its orientation when it has one.
    fn diagram(&self, state: &KsolveState) -> Diagram {
        let sets = self.sets_of(state);
        let cells = self
            .definition
            .sets
            .iter()
            .zip(&sets)
            .enumerate()
            .flat_map(|(row, (set, part))| {
                (0..set.pieces).map(move |slot| Cell {
                    name: format!("{}{}", set.name, slot + 1),
                    row,
                    column: slot,
                    piece: Some(if set.orientations > 1 {
                        format!(
                            "{}:{}",
                            part.labels[slot] as u32 + 1,
                            part.orientations[slot]
                        )
                    } else {
                        (part.labels[slot] as u32 + 1).to_string()
                    }),
                })
            })
            .collect();
        Diagram::new(Style::Squares, cells)
    }

    fn draw(&self, state: &KsolveState) -> String {
        let sets = self.sets_of(state);
        let mut picture = String::new();
        for (set, part) in self.definition.sets.iter().zip(&sets) {
            let pieces: Vec<String> = part
                .labels
                .iter()
                .map(|l| format!("{:>3}", *l as u32 + 1))
                .collect();
            picture.push_str(&format!("{:<10}{}\n", set.name, pieces.join("")));
            if set.orientations > 1 {
                let twists: Vec<String> = part
                    .orientations
                    .iter()
                    .map(|o| format!("{o:>3}"))
                    .collect();
                picture.push_str(&format!("{:<10}{}\n", "", twists.join("")));
            }
        }
        picture.push_str(&format!("position {}\n", self.text_of(&sets)));
        picture
    }

    fn goal_label(&self) -> String {
        "solved".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{CUBE, TIED, puzzle};
    use super::*;
    use crate::games::ksolve::definition::Metric;

    #[test]
    fn positions_come_as_text_scrambles_or_move_sequences() {
        let cube = puzzle(CUBE, Metric::Powers);
        let solved = cube.start_ranks()[0];
        let rank_of = |text: &str| cube.rank(&cube.parse_position(text).unwrap());
        assert_eq!(rank_of("C 1 2 3 4 5 6 7 / 0 0 0 0 0 0 0"), solved);
        assert_eq!(rank_of("moves"), solved);
        assert_eq!(rank_of("moves U U'"), solved);
        assert_eq!(rank_of("moves R U R' U'"), rank_of("moves R U R' U'"));
        let turned = cube.parse_position("moves R").unwrap();
        assert_eq!(
            cube.position_text(&turned),
            "C 5 2 3 1 7 6 4 / 2 0 0 1 1 0 2"
        );
        assert_eq!(
            cube.move_name(&cube.parse_position("moves").unwrap(), &turned),
            "R"
        );
        for (text, expected) in [
            (
                "scramble sexy",
                "the orientations of slots 1,2,3,4,5,6,7 of set 'C' sum to 1 mod 3, every move keeps it 0",
            ),
            ("scramble nope", "has no scramble 'nope' (it defines sexy)"),
            (
                "moves U X",
                "'X' is not a move of Cube7 in the powers metric (its moves: U U2 U' R R2 R' F F2 F')",
            ),
            (
                "C 1 2 3 4 5 6 6 / 0 0 0 0 0 0 0",
                "no move sequence reaches this position: slots 1,2,3,4,5,6,7 of set 'C' hold pieces 1,2,3,4,5,6,6",
            ),
            ("C 1 2 3 4 5 6 7 / 1 0 0 0 0 0 0", "sum to 1 mod 3"),
            (
                "C 1 2 3 4 5 6 7 / 3 0 0 0 0 0 0",
                "orientation '3' is not one of 0..2",
            ),
            (
                "C 1 2 3 4 5 6",
                "set 'C' has 7 pieces, the position gives 6 pieces",
            ),
            ("D 1", "'D' is not a set of Cube7"),
            ("", "the position does not give set 'C'"),
            ("C 1 2 3 4 5 6 7; C 1 2 3 4 5 6 7", "gives set 'C' twice"),
        ] {
            let message = cube.parse_position(text).unwrap_err().to_string();
            assert!(message.contains(expected), "{text}: {message}");
            assert_eq!(message.lines().count(), 1);
        }
        // A parity no move makes.
        let tied = puzzle(TIED, Metric::Powers);
        let message = tied
            .parse_position("A 1 2 3 4; B 2 1 3 / 1 1 0; E 1 2 3 4 5; K 1 1 2 2")
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("slots 1,2,3 of set 'B' has the wrong parity for the other sets'"),
            "{message}"
        );
    }
}
