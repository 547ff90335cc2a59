//! The games the library knows, by name: a name plus options opens a game,
//! the same way for the command line, the explorer and library users. A
//! new one- or two-player game is its file (rules, and what it gives the
//! registry: [`Registered`], from `super::registration`) and one line in
//! the `registry!` list at the bottom; a new positional game is
//! its builder in [`super::positional::builtins`] and one entry in
//! `POSITIONAL`.

use serde::{Serialize, Serializer};

use super::kit::Kit;
use super::morris::Morris;
use super::positional::PositionalGame;
use super::positional::builtins::{harary, hex, tic_tac_toe};
pub use super::registration::{
    GameOptions, OptionSpec, Registered, RegisteredTwoPlayer, flag_value,
};
use super::two_player_game::TwoPlayerVisitor;
use super::{
    AllQueensChess, Dodgem, DodgemKit, FoxGeese, FrogsToads, Kaooa, Ksolve, MuTorere, Pancake,
    PegSolitaire, PocketCube, Quixo, SlidingTile, Teeko, TopSpin,
};
use crate::error::{Error, Result, quoted};
use crate::space::{Picture, Space};

/// Code that runs on any one-player game: [`visit`] opens the game a name
/// and options describe and hands it over.
pub trait SpaceVisitor {
    /// What [`visit`](SpaceVisitor::visit) returns.
    type Output;
    /// Runs on the opened game.
    fn visit<S: Space + Picture>(self, space: &S) -> Result<Self::Output>;
}

/// What kind of search a game is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// A state space searched by `bfs` (one player, or a puzzle).
    OnePlayer,
    /// A two-player game solved by retrograde analysis (`retro`).
    TwoPlayer,
    /// A positional game (cells claimed in turn), asked as a QBF (`qbf`)
    /// and solved exhaustively; opened by [`open_positional`].
    Positional,
}

impl GameKind {
    /// The kind's word in listings and JSON (`bitsolve games`, the
    /// explorer's `/api/games`, whose page reads it): one vocabulary for
    /// every shell.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::OnePlayer => "one-player",
            GameKind::TwoPlayer => "two-player",
            GameKind::Positional => "positional",
        }
    }
}

/// A kind is written as its [`name`](GameKind::name).
impl Serialize for GameKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// A registered game, for listings and help. In JSON ([`catalog`]):
/// `{"name", "summary", "kind", "options"}`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Entry {
    /// The name on the command line.
    pub name: &'static str,
    /// One line for `--help` and `bitsolve games`.
    pub summary: &'static str,
    /// What kind of search the game is for.
    pub kind: GameKind,
    /// The options the game takes.
    pub options: &'static [OptionSpec],
}

impl Entry {
    const fn of<G: Registered>() -> Entry {
        Entry {
            name: G::NAME,
            summary: G::SUMMARY,
            options: G::OPTIONS,
            kind: GameKind::OnePlayer,
        }
    }
}

/// What a game instance can do, decided without running anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// The game and its parameters ([`Space::descriptor`]).
    pub descriptor: String,
    /// The number of ranks ([`Space::size`]).
    pub states: u64,
    /// The number of blocks.
    pub blocks: usize,
    /// A move-alternation property on blocks (one-bit BFS runs).
    pub layering: bool,
    /// Every block holds exactly one BFS layer.
    pub exact_layers: bool,
    /// Every move can be undone (parent checking runs).
    pub reversible: bool,
    /// One position stored per symmetry class.
    pub symmetry_reduced: bool,
    /// `None` when the GPU backend can run it, else why not.
    pub gpu_unavailable: Option<String>,
    /// Whether the game is a two-player one (false from [`capabilities`]).
    pub two_player: bool,
}

/// The capabilities of a one-player game value. Whether the GPU backend
/// can run it is the backend's to say (`backend::gpu::gpu_program`), and
/// rules know no backend: the caller asks it and passes its reason here.
pub fn capabilities<S: Space>(space: &S, gpu_unavailable: Option<String>) -> Capabilities {
    let layering = space.layering();
    Capabilities {
        descriptor: space.descriptor(),
        states: space.size(),
        blocks: space.blocks().len(),
        layering: layering.is_some(),
        exact_layers: layering.is_some_and(|l| l.exact),
        reversible: space.reversible(),
        symmetry_reduced: space.symmetry_reduced(),
        gpu_unavailable,
        two_player: false,
    }
}

/// How a connection game (Hex) gives Black's goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectionGoal {
    /// Every minimal path between Black's borders listed as a winning
    /// set, as the explicit QBF encodings read them (their number grows
    /// fast with the board).
    Paths,
    /// The neighbour graph and its borders alone, which is all the
    /// exhaustive solver needs.
    Graph,
}

/// A registered positional game: its entry, and how its options make it.
struct PositionalEntry {
    entry: Entry,
    open: fn(&GameOptions, ConnectionGoal) -> Result<PositionalGame>,
}

/// The positional games: tic-tac-toe, Harary's tic-tac-toe and Hex.
/// Their options have defaults, so that a board is open at once (the
/// explorer offers them as the form's first values).
const POSITIONAL: [PositionalEntry; 3] = [
    PositionalEntry {
        entry: Entry {
            name: "tic-tac-toe",
            summary: "m x n tic-tac-toe, k in a row (maker-maker unless maker-breaker)",
            options: &[
                OptionSpec::value("width", "W", "Columns").with_default("3"),
                OptionSpec::value("height", "H", "Rows").with_default("3"),
                OptionSpec::value("k", "K", "Stones in a row that win").with_default("3"),
                OptionSpec::flag("maker-breaker", "Only Black can win; White only blocks"),
            ],
            kind: GameKind::Positional,
        },
        open: |options, _| {
            tic_tac_toe(
                options.required_number("width")?,
                options.required_number("height")?,
                options.required_number("k")?,
                !options.flag("maker-breaker"),
            )
        },
    },
    PositionalEntry {
        entry: Entry {
            name: "harary",
            summary: "Harary's tic-tac-toe: make the shape (any rotation or reflection)",
            options: &[
                OptionSpec::value("size", "N", "Board side").with_default("4"),
                OptionSpec::value(
                    "shape",
                    "SHAPE",
                    "domino, tic, el, elly, tippy, skinny, knobby, fatty, l, z, snaky, or cells as x,y;x,y;...",
                )
                .with_default("tic"),
                OptionSpec::flag("torus", "The board wraps around"),
                OptionSpec::flag("maker-breaker", "Only Black can win; White only blocks"),
            ],
            kind: GameKind::Positional,
        },
        open: |options, _| {
            harary(
                options.required_number("size")?,
                options.get("shape").unwrap_or_default(),
                options.flag("torus"),
                options.flag("maker-breaker"),
            )
        },
    },
    PositionalEntry {
        entry: Entry {
            name: "hex",
            summary: "Hex on an n x n board (Black joins rows 1 and n)",
            options: &[OptionSpec::value("size", "N", "Board side").with_default("3")],
            kind: GameKind::Positional,
        },
        open: |options, goal| {
            hex(
                options.required_number("size")?,
                goal == ConnectionGoal::Paths,
            )
        },
    },
];

/// Opens positional game `name` with `options` (an option not given takes
/// its default); `goal` says how Hex lists its winning paths.
pub fn open_positional(
    name: &str,
    options: &GameOptions,
    goal: ConnectionGoal,
) -> Result<PositionalGame> {
    let Some(found) = POSITIONAL.iter().find(|p| p.entry.name == name) else {
        let kind = entry(name)?.kind;
        return Err(Error::Unsupported(format!(
            "{name} is a {} game, not a positional one",
            kind.name()
        )));
    };
    options.check(name, found.entry.options)?;
    let mut filled = options.clone();
    for spec in found.entry.options {
        if let (Some(default), None) = (spec.default, options.get(spec.name)) {
            filled = filled.with(spec.name, default);
        }
    }
    (found.open)(&filled, goal)
}

/// Every registered game as JSON, as `bitsolve games --json` and the
/// explorer's `/api/games` list them: an array of `{"name", "summary",
/// "kind", "options": [{"name", "value", "default", "help"}]}`, `kind`
/// one of `one-player`, `two-player` or `positional` ([`GameKind::name`]).
pub fn catalog() -> serde_json::Value {
    serde_json::to_value(entries()).expect("entries are plain strings and lists")
}

/// The registered game called `name`.
pub fn entry(name: &str) -> Result<Entry> {
    entries()
        .into_iter()
        .find(|e| e.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = entries().iter().map(|e| e.name).collect();
            Error::InvalidParameter(format!(
                "unknown game {} (known: {})",
                quoted(name),
                names.join(", ")
            ))
        })
}

/// Why positional game `name` does not open as a one- or two-player game.
fn positional_elsewhere(name: &str) -> Error {
    Error::Unsupported(format!(
        "{name} is a positional game: ask about it with 'bitsolve qbf check {name}'"
    ))
}

macro_rules! registry {
    (one_player: [$($game:ty),* $(,)?], two_player: [$($two:ty),* $(,)?] $(,)?) => {
        /// Every registered game: one-player games, then two-player
        /// games, then positional ones.
        pub fn entries() -> Vec<Entry> {
            let mut entries = vec![
                $(Entry::of::<$game>(),)*
                $(Entry { name: <$two>::NAME, summary: <$two>::SUMMARY, options: <$two>::OPTIONS, kind: GameKind::TwoPlayer },)*
            ];
            entries.extend(POSITIONAL.iter().map(|p| p.entry));
            entries
        }

        /// The two-player game whose tables' descriptors begin with `word`
        /// ([`RegisteredTwoPlayer::DESCRIPTOR_WORD`]).
        pub fn two_player_described_as(word: &str) -> Option<&'static str> {
            $(
                if <$two>::DESCRIPTOR_WORD == word {
                    return Some(<$two>::NAME);
                }
            )*
            None
        }

        /// Opens two-player game `name` with `options` and runs `visitor` on it.
        pub fn visit_two_player<V: TwoPlayerVisitor>(name: &str, options: &GameOptions, visitor: V) -> Result<V::Output> {
            $(
                if name == <$two>::NAME {
                    options.check(name, <$two>::OPTIONS)?;
                    return visitor.visit(&<$two>::from_options(options)?);
                }
            )*
            match entry(name)?.kind {
                GameKind::OnePlayer => Err(Error::Unsupported(format!(
                    "{name} is a one-player game: search it with 'bitsolve bfs {name}'"
                ))),
                GameKind::Positional => Err(positional_elsewhere(name)),
                GameKind::TwoPlayer => unreachable!("every two-player entry is visited above"),
            }
        }

        /// Opens one-player game `name` with `options` and runs `visitor` on it.
        pub fn visit<V: SpaceVisitor>(name: &str, options: &GameOptions, visitor: V) -> Result<V::Output> {
            $(
                if name == <$game>::NAME {
                    options.check(name, <$game>::OPTIONS)?;
                    return visitor.visit(&<$game>::from_options(options)?);
                }
            )*
            match entry(name)?.kind {
                GameKind::TwoPlayer => Err(Error::Unsupported(format!(
                    "{name} is a two-player game: solve it with 'bitsolve retro {name}'"
                ))),
                GameKind::Positional => Err(positional_elsewhere(name)),
                GameKind::OnePlayer => unreachable!("every one-player entry is visited above"),
            }
        }
    };
}

// The registry: one line per game.
registry! {
    one_player: [Pancake, TopSpin, SlidingTile, PegSolitaire, FrogsToads, PocketCube, Ksolve],
    two_player: [
        FoxGeese,
        Dodgem,
        Morris,
        Kit<MuTorere>,
        Kit<DodgemKit>,
        Kit<Teeko>,
        Kit<Quixo>,
        Kit<Kaooa>,
        Kit<AllQueensChess>,
    ],
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Size;
    impl SpaceVisitor for Size {
        type Output = u64;
        fn visit<S: Space + Picture>(self, space: &S) -> Result<u64> {
            Ok(space.size())
        }
    }

    #[test]
    fn games_open_by_name_with_their_options() {
        let options = GameOptions::default().with("n", 8);
        assert_eq!(visit("pancake", &options, Size).unwrap(), 40_320);
        let burned = options.clone().with_flag("burned");
        assert_eq!(visit("pancake", &burned, Size).unwrap(), 40_320 * 256);
        let error = visit("pancake", &GameOptions::default(), Size).unwrap_err();
        assert_eq!(error.to_string(), "invalid parameter: --n is required");
        let error = visit("pancakes", &options, Size).unwrap_err();
        assert!(
            error.to_string().contains("unknown game 'pancakes'"),
            "{error}"
        );
        let error = visit("fox-geese", &options, Size).unwrap_err();
        assert!(error.to_string().contains("bitsolve retro"), "{error}");
        let bad = GameOptions::default().with("n", "eleven");
        let error = visit("pancake", &bad, Size).unwrap_err();
        assert!(
            error.to_string().contains("invalid value 'eleven' for --n"),
            "{error}"
        );
    }

    #[test]
    fn positional_games_open_by_name_with_defaults_for_what_is_not_given() {
        let empty = GameOptions::default();
        let tic = open_positional("tic-tac-toe", &empty, ConnectionGoal::Graph).unwrap();
        assert_eq!(tic.cells.len(), 9);
        assert!(tic.is_maker_maker());
        let wide = GameOptions::default()
            .with("width", 4)
            .with_flag("maker-breaker");
        let wide = open_positional("tic-tac-toe", &wide, ConnectionGoal::Graph).unwrap();
        assert_eq!(wide.cells.len(), 12);
        assert!(!wide.is_maker_maker());
        // Hex lists its minimal paths only when asked to.
        let graph = open_positional("hex", &empty, ConnectionGoal::Graph).unwrap();
        let paths = open_positional("hex", &empty, ConnectionGoal::Paths).unwrap();
        assert!(graph.black_wins.is_empty() && !paths.black_wins.is_empty());
        assert_eq!(graph.cells.len(), 9);
        let harary = GameOptions::default().with("shape", "domino");
        assert!(open_positional("harary", &harary, ConnectionGoal::Graph).is_ok());
        let error = open_positional("pancake", &empty, ConnectionGoal::Graph).unwrap_err();
        assert!(error.to_string().contains("one-player"), "{error}");
        let error = visit("hex", &empty, Size).unwrap_err();
        assert!(error.to_string().contains("bitsolve qbf"), "{error}");
        let kinds: Vec<GameKind> = entries().iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds.iter().filter(|&&k| k == GameKind::Positional).count(),
            3
        );
        // Every option of a positional game has a default, so the explorer
        // can offer a board at once.
        for entry in entries().iter().filter(|e| e.kind == GameKind::Positional) {
            assert!(
                entry
                    .options
                    .iter()
                    .all(|o| o.value.is_none() || o.default.is_some())
            );
        }
    }

    #[test]
    fn names_are_unique_and_options_documented() {
        let entries = entries();
        for (i, entry) in entries.iter().enumerate() {
            assert!(entries[i + 1..].iter().all(|e| e.name != entry.name));
            assert!(!entry.summary.is_empty());
            assert!(entry.options.iter().all(|o| !o.help.is_empty()));
        }
    }

    #[test]
    fn capabilities_say_what_a_game_can_do() {
        struct Caps;
        impl SpaceVisitor for Caps {
            type Output = Capabilities;
            fn visit<S: Space + Picture>(self, space: &S) -> Result<Capabilities> {
                let gpu = crate::backend::gpu::gpu_program(space).err();
                Ok(capabilities(space, gpu.map(|e| e.to_string())))
            }
        }
        let tiles = GameOptions::default().with("width", 3).with("height", 2);
        let caps = visit("sliding-tile", &tiles, Caps).unwrap();
        assert!(caps.layering && caps.reversible && !caps.exact_layers);
        assert!(caps.gpu_unavailable.is_none());
        let symmetric = GameOptions::default().with_flag("symmetry");
        let caps = visit("peg-solitaire", &symmetric, Caps).unwrap();
        assert!(caps.symmetry_reduced && caps.exact_layers);
        assert!(caps.gpu_unavailable.unwrap().contains("symmetry"));
    }
}
