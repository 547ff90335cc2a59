//! The Morris games as two-player games of the registry: Nine Men's Morris
//! (9 stones a side), Lasker Morris (10) and Morabaraba (12, diagonals),
//! their moving phase — every stone on the board, sliding, flying with
//! three — solved by two-bit retrograde analysis layer by layer, a layer
//! being the stones on the board (a mill's capture leads one layer down),
//! and their openings above it: one sweep a count of stones in hand where
//! a player only places, and in Lasker Morris, where a player may place or
//! move, a layer per pair of hands and stones on the board, solved by
//! passes like a moving layer's.
//!
//! White moves first. A side with fewer than three stones, or without a
//! legal move, has lost; positions repeated for ever are draws (the
//! positions the fixpoint leaves undecided).
//!
//! This file holds the family's variants and the game itself, made from
//! the registry's options; its other roles have their own files: the
//! solver's view ([`layered`](super::layered)), positions as people read
//! and write them (`text`), the GPU's program (`gpu`).

use super::board::Board;
use super::hash::MorrisHash;
use super::rules::{self, OpeningRule, Stones};
use crate::error::{Error, Result, quoted};
use crate::games::registration::{GameOptions, OptionSpec, RegisteredTwoPlayer};

/// The members of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Nine Men's Morris: 9 stones a side.
    NineMensMorris,
    /// Lasker Morris: 10 stones a side; in the opening a player may place
    /// or move (the moving phase is Nine Men's Morris's).
    Lasker,
    /// Morabaraba: 12 stones a side, the board with its diagonals.
    Morabaraba,
}

impl Variant {
    /// Every variant, in the order of their stone counts.
    pub const ALL: [Variant; 3] = [
        Variant::NineMensMorris,
        Variant::Lasker,
        Variant::Morabaraba,
    ];

    /// Its word for `--variant`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::NineMensMorris => "nine",
            Variant::Lasker => "lasker",
            Variant::Morabaraba => "morabaraba",
        }
    }

    /// Stones a side.
    pub fn stones(self) -> usize {
        match self {
            Variant::NineMensMorris => 9,
            Variant::Lasker => 10,
            Variant::Morabaraba => 12,
        }
    }

    fn diagonals(self) -> bool {
        self == Variant::Morabaraba
    }

    /// What a player with stones in hand may do.
    pub fn opening_rule(self) -> OpeningRule {
        match self {
            Variant::Lasker => OpeningRule::PlacingOrMoving,
            _ => OpeningRule::Placing,
        }
    }

    fn parse(text: &str) -> Result<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == text.trim())
            .ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "unknown Morris variant {}: expected nine, lasker or morabaraba",
                    quoted(text)
                ))
            })
    }
}

/// A Morris variant as a two-player game, with its board and hash.
#[derive(Clone, Debug)]
pub struct Morris {
    // Read by the files of the game's other roles (text, layered, gpu).
    pub(super) variant: Variant,
    pub(super) board: Board,
    pub(super) hash: MorrisHash,
}

impl Morris {
    /// The variant with its own stones a side; with `symmetry`, white patterns are stored one
    /// per orbit of the board's symmetries.
    pub fn new(variant: Variant, symmetry: bool) -> Result<Self> {
        Morris::with_men(variant, variant.stones(), symmetry)
    }

    /// The variant played with `men` stones a side instead of its own
    /// count (3 up to it): small games with the same rules, whose whole
    /// solution a test or a quick run can check.
    pub fn with_men(variant: Variant, men: usize, symmetry: bool) -> Result<Self> {
        if !(3..=variant.stones()).contains(&men) {
            return Err(Error::InvalidParameter(format!(
                "{} is played with 3 to {} stones a side, got --men {men}",
                variant.name(),
                variant.stones()
            )));
        }
        Ok(Morris {
            variant,
            board: Board::new(variant.diagonals()),
            hash: MorrisHash::new(men, symmetry, variant.opening_rule())?,
        })
    }

    /// Stones a side.
    pub fn men(&self) -> usize {
        self.hash.stones()
    }

    /// The variant's name, with the stones a side when they are not its
    /// own: "nine", "nine men=3".
    pub(super) fn full_name(&self) -> String {
        if self.men() == self.variant.stones() {
            self.variant.name().to_string()
        } else {
            format!("{} men={}", self.variant.name(), self.men())
        }
    }

    /// The variant played.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The board, with its diagonals in Morabaraba.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The perfect hash of the positions, layer by layer.
    pub fn hash(&self) -> &MorrisHash {
        &self.hash
    }

    /// Whether the hash folds out the board's symmetries.
    pub fn symmetry(&self) -> bool {
        self.hash.symmetry()
    }

    /// Every position one move away (duplicates removed).
    pub fn moves(&self, stones: &Stones) -> Vec<Stones> {
        rules::successors(&self.board, self.variant.opening_rule(), stones)
    }
}

impl RegisteredTwoPlayer for Morris {
    const NAME: &'static str = "nine-mens-morris";
    const DESCRIPTOR_WORD: &'static str = "morris";
    const SUMMARY: &'static str = "Nine Men's Morris and its variants Lasker Morris and Morabaraba: the opening's placing and the moving phase, flying with three stones (two players, draws)";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::value(
            "variant",
            "NAME",
            "nine (9 stones a side), lasker (10) or morabaraba (12, the board with diagonals)",
        )
        .with_default("nine"),
        OptionSpec::value(
            "men",
            "N",
            "Stones a side, from 3 up to the variant's own (a smaller game with the same rules)",
        ),
        OptionSpec::flag(
            "symmetry",
            "Store and solve one white pattern of each orbit under the board's 16 symmetries, and fill the others by mapping",
        ),
    ];

    fn from_options(options: &GameOptions) -> Result<Self> {
        let variant = match options.get("variant") {
            Some(text) => Variant::parse(text)?,
            None => Variant::NineMensMorris,
        };
        let men = match options.get("men") {
            Some(text) => text.trim().parse::<usize>().map_err(|_| {
                Error::InvalidParameter(format!(
                    "--men takes a count of stones a side, got {}",
                    quoted(text)
                ))
            })?,
            None => variant.stones(),
        };
        Morris::with_men(variant, men, options.flag("symmetry"))
    }
}
