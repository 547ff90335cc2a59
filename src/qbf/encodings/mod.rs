//! Every encoding of a bounded positional-game question into QBF, one
//! module each, behind one enum that knows where each applies. Sources: the
//! COR+ encoding of Mayer-Eichberger and Saffidine, *Positional Games and QBF:
//! A Polished Encoding* (arXiv:2005.05098, 2021); the explicit-board, lifted
//! and stateless encodings of Shaik, Mayer-Eichberger, van de Pol and
//! Saffidine, *Implicit State and Goals in QBF Encodings for Positional Games*
//! (arXiv:2301.07345, 2023), whose sections the variants cite; the pairing
//! encoding of Boucher and Villemaire, *Quantified Boolean Solving for
//! Achievement Games* (KI 2021, LNAI 12873).

pub(crate) mod cor_plus;
pub(crate) mod explicit_board;
pub(crate) mod pairing;
pub(crate) mod symbolic;

use super::formula::{Cnf, Formula, Quantifier};
use super::prepare::Prepared;
use crate::error::{Error, Result, quoted};

/// An encoding of a bounded positional game as a QBF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Corrective+ (Mayer-Eichberger and Saffidine 2021): any game, any turn
    /// order, maker-maker too.
    CorPlus,
    /// Explicit board, explicit sets (Shaik et al. 2023, section 3.1).
    Ea,
    /// Explicit board, neighbour-based path goal (section 4.2).
    En,
    /// Explicit board, transversal goal (section 4.5; Hex).
    Et,
    /// Lifted board, explicit sets (section 3.2), QCIR.
    La,
    /// Lifted board, neighbour-based goal (section 4.3), QCIR.
    Ln,
    /// Stateless, explicit sets (section 3.3), QCIR.
    Sa,
    /// Stateless, neighbour-based goal (section 4.4), QCIR.
    Sn,
    /// Pair paving of a blocking strategy (Boucher and Villemaire 2021): true
    /// when Black cannot win.
    Pairing,
}

/// Every encoding, in the order of the variants of [`Encoding`].
pub const ALL: [Encoding; 9] = [
    Encoding::CorPlus,
    Encoding::Ea,
    Encoding::En,
    Encoding::Et,
    Encoding::La,
    Encoding::Ln,
    Encoding::Sa,
    Encoding::Sn,
    Encoding::Pairing,
];

impl Encoding {
    /// The encoding named `name` (its [`name`](Encoding::name)).
    pub fn named(name: &str) -> Option<Encoding> {
        ALL.into_iter().find(|e| e.name() == name)
    }

    /// The encodings a list names, as `--encodings` takes it: "all", or
    /// names separated by commas; an unknown name is refused with the
    /// names there are.
    pub fn parse_list(list: &str) -> Result<Vec<Encoding>> {
        if list == "all" {
            return Ok(ALL.to_vec());
        }
        list.split(',')
            .map(|name| {
                Encoding::named(name.trim()).ok_or_else(|| {
                    let names: Vec<&str> = ALL.iter().map(|e| e.name()).collect();
                    Error::InvalidParameter(format!(
                        "unknown encoding {}: choose from {}",
                        quoted(name),
                        names.join(", ")
                    ))
                })
            })
            .collect()
    }

    /// What the encoding is, in a line (a command's help lists them).
    pub fn summary(self) -> &'static str {
        match self {
            Encoding::CorPlus => {
                "Corrective+ (Mayer-Eichberger and Saffidine 2021): any game, any turn order, maker-maker too"
            }
            Encoding::Ea => "Explicit board, explicit sets (Shaik et al. 2023, section 3.1)",
            Encoding::En => "Explicit board, neighbour-based path goal (section 4.2)",
            Encoding::Et => "Explicit board, transversal goal (section 4.5; Hex)",
            Encoding::La => "Lifted board, explicit sets (section 3.2), QCIR",
            Encoding::Ln => "Lifted board, neighbour-based goal (section 4.3), QCIR",
            Encoding::Sa => "Stateless, explicit sets (section 3.3), QCIR",
            Encoding::Sn => "Stateless, neighbour-based goal (section 4.4), QCIR",
            Encoding::Pairing => {
                "Pair paving of a blocking strategy (Boucher and Villemaire 2021): true when Black cannot win"
            }
        }
    }

    /// The encoding's name on the command line and in reports ("cor+", "ea", …).
    pub fn name(self) -> &'static str {
        match self {
            Encoding::CorPlus => "cor+",
            Encoding::Ea => "ea",
            Encoding::En => "en",
            Encoding::Et => "et",
            Encoding::La => "la",
            Encoding::Ln => "ln",
            Encoding::Sa => "sa",
            Encoding::Sn => "sn",
            Encoding::Pairing => "pairing",
        }
    }

    /// True when the formula answers the opposite question (Black cannot win).
    pub fn is_complement(self) -> bool {
        self == Encoding::Pairing
    }

    /// Whether the formula is made of Black's winning sets listed one by
    /// one (for Hex, its minimal paths: millions on an 8x8 board), rather
    /// than of the board's graph or White's sets.
    pub fn reads_sets(self) -> bool {
        matches!(
            self,
            Encoding::CorPlus | Encoding::Ea | Encoding::La | Encoding::Sa | Encoding::Pairing
        )
    }

    /// Why the encoding does not fit the game, if it does not.
    pub fn unfit(self, game: &Prepared) -> Option<String> {
        let implicit = matches!(self, Encoding::En | Encoding::Ln | Encoding::Sn);
        let explicit = self.reads_sets();
        if self != Encoding::CorPlus && game.is_maker_maker() {
            return Some("a maker-breaker encoding, and the game is maker-maker".into());
        }
        if self != Encoding::CorPlus && self != Encoding::Pairing && !game.standard_turns() {
            return Some("needs Black first, alternating, and an odd depth".into());
        }
        if self == Encoding::Pairing && !Query::standard_start(&game.turns) {
            return Some("needs Black first and alternating turns".into());
        }
        if implicit && game.black_connection.is_none() {
            return Some("needs a neighbour graph (Hex)".into());
        }
        if self == Encoding::Et && game.white_connection.is_none() {
            return Some("needs Hex's transversal graph".into());
        }
        if explicit && game.black_sets.is_empty() && game.black_connection.is_some() {
            return Some("needs explicit winning sets".into());
        }
        None
    }

    /// The formula for `game` (already prepared).
    pub fn encode(self, game: &Prepared) -> Result<Formula> {
        if let Some(why) = self.unfit(game) {
            return Err(Error::Unsupported(format!("{}: {why}", self.name())));
        }
        if let Some(black_wins) = game.decided {
            // Settled before any move: a constant formula.
            return Ok(Formula::Cnf(constant(black_wins != self.is_complement())));
        }
        use explicit_board::Goal as Board;
        use symbolic::{Board::*, Goal};
        Ok(match self {
            Encoding::CorPlus => Formula::Cnf(cor_plus::encode(game)),
            Encoding::Ea => Formula::Cnf(explicit_board::encode(game, Board::Sets)),
            Encoding::En => Formula::Cnf(explicit_board::encode(
                game,
                Board::Path(game.black_connection.as_ref().unwrap()),
            )),
            Encoding::Et => Formula::Cnf(explicit_board::encode(
                game,
                Board::Transversal(game.white_connection.as_ref().unwrap()),
            )),
            Encoding::La => Formula::Circuit(symbolic::encode(game, Lifted, Goal::Sets)),
            Encoding::Ln => Formula::Circuit(symbolic::encode(
                game,
                Lifted,
                Goal::Path(game.black_connection.as_ref().unwrap()),
            )),
            Encoding::Sa => Formula::Circuit(symbolic::encode(game, Stateless, Goal::Sets)),
            Encoding::Sn => Formula::Circuit(symbolic::encode(
                game,
                Stateless,
                Goal::Path(game.black_connection.as_ref().unwrap()),
            )),
            Encoding::Pairing => Formula::Cnf(pairing::encode(game)),
        })
    }
}

use crate::games::positional::Query;

impl Query {
    /// Black first and alternating (any length).
    pub fn standard_start(turns: &[crate::games::positional::Side]) -> bool {
        Query {
            turns: turns.to_vec(),
        } == Query::alternating(turns.len())
    }
}

/// A formula that is simply true or false: exists x. x (and not x).
fn constant(value: bool) -> Cnf {
    let clauses = if value {
        vec![vec![1]]
    } else {
        vec![vec![1], vec![-1]]
    };
    Cnf {
        variables: 1,
        prefix: vec![(Quantifier::Exists, vec![1])],
        clauses,
    }
}
