//! What `retro`, `query` and `play` need of a two-player game beyond the
//! solver's [`LayeredGame`]: positions as people write and see them, their
//! moves by name, and where each position lies in the layered tables. A game
//! that implements both runs through every two-player command; the command
//! line holds no game's rules.

use crate::error::Result;
use crate::space::{LayeredGame, Player};

/// A two-player game as the two-player commands run it: a [`LayeredGame`] with positions
/// people can read, write and locate in its tables.
pub trait TwoPlayerGame: LayeredGame {
    /// A position as the commands handle it (the solver's
    /// [`LayeredGame::State`] may carry caches besides).
    type Position: Clone;

    /// The name of each side ("fox" for the first player of Fox-and-Geese),
    /// as `--side` takes it and the commands print it.
    fn side_name(&self, player: Player) -> &'static str;

    /// The side in a sentence: "the fox", "blue".
    fn side_label(&self, player: Player) -> String {
        self.side_name(player).to_string()
    }

    /// The highest layer: positions with the most pieces.
    fn max_layer(&self) -> usize;

    /// What layer `layer` holds, for people: "5 geese", "3 cars".
    fn layer_name(&self, layer: usize) -> String;

    /// The layers `retro` solves when no range is given, or `None` when a
    /// range must be given (the whole game is a long run).
    fn default_layers(&self) -> Option<std::ops::RangeInclusive<usize>>;

    /// The flags that select this variant on the command line after the
    /// game's name (" --capture-wins --symmetry"), each with a leading
    /// space: they name the table files it solves.
    fn variant_flags(&self) -> String;

    /// The game's other variants, whose tables a store may hold instead
    /// (for a message that says so).
    fn other_variants(&self) -> Vec<Self>
    where
        Self: Sized,
    {
        Vec::new()
    }

    /// `position`'s layer and its rank there.
    fn locate(&self, position: &Self::Position) -> (usize, u64);

    /// The position an unranked solver state stands for: with
    /// [`LayeredGame::unrank`], the way from a (layer, rank) back to a
    /// position (the Python binding's `unrank` and `position_text`).
    fn position(&self, state: &Self::State) -> Self::Position;

    /// The side to move in `position`.
    fn side_to_move(&self, position: &Self::Position) -> Player;

    /// Every position one move away.
    fn moves(&self, position: &Self::Position) -> Vec<Self::Position>;

    /// "d4-d5", "c2-off": the move from `from` to `to`, one of its moves.
    fn move_name(&self, from: &Self::Position, to: &Self::Position) -> String;

    /// A position from its text form (errors say the format): what a game
    /// implements, and [`parse_position`](Self::parse_position) calls.
    fn read_position(&self, text: &str) -> Result<Self::Position>;

    /// The position the text `text` names; text that names none is an
    /// [`Error::BadPosition`](crate::Error::BadPosition) saying why.
    fn parse_position(&self, text: &str) -> Result<Self::Position> {
        self.read_position(text)
            .map_err(|error| error.in_position(text))
    }

    /// The one-line text form [`parse_position`](Self::parse_position) reads.
    fn position_text(&self, position: &Self::Position) -> String;

    /// The position drawn for a terminal, the side to move included.
    fn draw(&self, position: &Self::Position) -> String;

    /// The position as data for drawing programs (the explorer's boards).
    fn diagram(&self, position: &Self::Position) -> crate::diagram::Diagram;

    /// Where `play` starts without `--position`; `size` is `play`'s
    /// `--geese`/`--pieces` count where the game has such starts.
    fn start_position(&self, size: Option<usize>) -> Result<Self::Position>;

    /// `position` with `side` to move (a start where the other side moves
    /// first: `query --start G --to-move fox`).
    fn with_side_to_move(&self, position: &Self::Position, side: Player) -> Self::Position;

    /// `start` with its lone piece, the first side's, on each point it
    /// could start on instead (Fox-and-Geese: the fox on every free
    /// point), each with the name of that point; games without a lone
    /// piece refuse.
    fn placements(&self, start: &Self::Position) -> Result<Vec<(String, Self::Position)>> {
        let _ = start;
        Err(crate::error::Error::InvalidParameter(
            "--placements moves a lone piece to every free point (Fox-and-Geese's fox); this game has none".into(),
        ))
    }
}

/// Code that runs on any two-player game: the command line opens the game
/// its arguments describe and hands it over.
pub trait TwoPlayerVisitor {
    /// What [`visit`](TwoPlayerVisitor::visit) returns.
    type Output;
    /// Runs on the opened game.
    fn visit<G: TwoPlayerGame>(self, game: &G) -> Result<Self::Output>;
}
