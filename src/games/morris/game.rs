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

use super::board::{Board, POINTS};
use super::hash::{LayerKind, MixedTarget, MorrisHash};
use super::opening_sweep;
use super::rules::{self, OpeningRule, Stones};
use crate::diagram::{Cell, Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::games::TwoPlayerGame;
use crate::games::registration::{GameOptions, OptionSpec, RegisteredTwoPlayer};
use crate::hash::BinomialRun;
use crate::hash::bits::expand;
use crate::kernel::Program;
use crate::space::{
    AcyclicSweep, Block, LayeredGame, LayersBelow, MoveWindow, Player, Successor, SweepCount,
    Value, WithinLayer,
};

/// Every point, a bit each.
const BOARD: u32 = (1 << POINTS) - 1;

/// The rules of the GPU's retrograde passes (see [`crate::kernel`]).
const RETRO_KERNEL: &str = include_str!("morris.wgsl");

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

/// A position the solver works on, with what its white pattern's
/// symmetries are and the black patterns of the ranks that follow (kept
/// while consecutive ranks share the white pattern).
#[derive(Clone, Copy, Debug)]
pub struct Unranked {
    stones: Stones,
    /// The layer `run` belongs to.
    layer: usize,
    run: BinomialRun,
    /// The white pattern `stabilizer` and `place` belong to.
    pattern: u32,
    /// Its group and index ([`MorrisHash::white_place`]): a successor
    /// that keeps the pattern is ranked without looking it up.
    place: (usize, u64),
    /// The symmetries other than the identity that keep the white
    /// pattern, a bit each.
    stabilizer: u16,
}

impl std::ops::Deref for Unranked {
    type Target = Stones;

    fn deref(&self) -> &Stones {
        &self.stones
    }
}

/// A Morris variant as a two-player game, with its board and hash.
#[derive(Clone, Debug)]
pub struct Morris {
    variant: Variant,
    board: Board,
    hash: MorrisHash,
}

impl Morris {
    /// The variant with its own stones a side; with `symmetry`, white patterns are stored one
    /// per orbit of the board's symmetries.
    pub fn new(variant: Variant, symmetry: bool) -> Result<Self> {
        Morris::with_men(variant, variant.stones(), symmetry)
    }

    /// The rank of `next`, a position one move from `state`: a move that
    /// keeps white's pattern (black's moves and placements, most of the
    /// moves of a layer's sweep) reuses the pattern's place.
    #[inline]
    fn rank_near(&self, state: &Unranked, next: &Stones) -> u64 {
        if next.white == state.pattern {
            self.hash
                .rank_with_stored_white(state.place, state.stabilizer, next)
        } else {
            self.hash.rank(next)
        }
    }

    /// The moves of `state` to the layers below, emitted until `emit`
    /// returns false: whether it also has a move within `layer`, and when
    /// `name_first` asks, the rank of one to name as its open move: the
    /// first after which the opponent cannot close a mill, or the first
    /// when each lets it ([`rules::MillThreats`]).
    #[inline(always)]
    fn look_below<F: FnMut(Successor) -> bool>(
        &self,
        layer: usize,
        state: &Unranked,
        mut emit: F,
        name_first: bool,
    ) -> (bool, Option<u64>) {
        // Placements and captures come first: reaching a quiet move
        // answers the question; only a stop asked by `emit` leaves it open.
        if self.hash.kind(layer) == LayerKind::Placing {
            // Every placement leaves the layer (a stone fewer in hand).
            self.successors(layer, state, emit);
            return (false, None);
        }
        let mut first = None;
        // The first quiet move, named when every quiet move lets the
        // opponent close a mill.
        let mut threatened = None;
        let mut threats = None;
        let rule = self.variant.opening_rule();
        rules::for_each_successor(&self.board, rule, &state.stones, |next| {
            let next_layer = self.hash.layer_of(&next);
            if next_layer == layer {
                if !name_first {
                    first = Some(None);
                    return false;
                }
                let threats = threats
                    .get_or_insert_with(|| rules::MillThreats::new(&self.board, &state.stones));
                // A threat now: only a stone moved onto it can take it
                // away, found without walking the other moves.
                let named = match threats.standing() {
                    rules::Standing::None
                        if threats.after_move(&self.board, &state.stones, &next) =>
                    {
                        None
                    }
                    rules::Standing::None | rules::Standing::Unavoidable => Some(next),
                    rules::Standing::One => {
                        Some(threats.block(&self.board, &state.stones).unwrap_or(next))
                    }
                };
                if let Some(named) = named {
                    first = Some(Some(self.rank_near(state, &named)));
                    return false;
                }
                threatened.get_or_insert(next);
                return true;
            }
            emit(Successor {
                layer: next_layer,
                rank: self.rank_near(state, &next),
            })
        });
        match (first, threatened) {
            (Some(rank), _) => (true, rank),
            (None, Some(next)) => (true, Some(self.rank_near(state, &next))),
            // No quiet move met: it has none, or `emit` stopped at a
            // capture first, which settled its verdict; a look for a
            // quiet move then changed nothing (and cost a few per cent of
            // Morabaraba's first passes).
            (None, None) => (false, None),
        }
    }

    /// The move from `state` to `next` as the solver names it: the layer
    /// and rank of `next`.
    #[inline(always)]
    fn successor(&self, state: &Unranked, next: &Stones) -> Successor {
        Successor {
            layer: self.hash.layer_of(next),
            rank: self.rank_near(state, next),
        }
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
    fn full_name(&self) -> String {
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

    /// The points of `stones`, as names ("a1,d7").
    fn names(stones: u32) -> String {
        let mut names: Vec<String> = (0..POINTS)
            .filter(|&p| stones >> p & 1 == 1)
            .map(Board::name)
            .collect();
        names.sort();
        names.join(",")
    }

    fn symbol(stones: &Stones, point: usize) -> char {
        if stones.white >> point & 1 == 1 {
            'W'
        } else if stones.black >> point & 1 == 1 {
            'B'
        } else {
            '.'
        }
    }

    /// The file (0 = a) and rank (0 = 1) of a point, from its name.
    fn file_rank(point: usize) -> (usize, usize) {
        let name = Board::name(point);
        let bytes = name.as_bytes();
        ((bytes[0] - b'a') as usize, (bytes[1] - b'1') as usize)
    }

    fn parse_points(&self, text: &str, colour: &str) -> Result<u32> {
        let mut stones = 0u32;
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let point = Board::point_named(name).ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "{} is not a point of the Morris board (a1..g7 on the three squares)",
                    quoted(name)
                ))
            })?;
            if stones >> point & 1 == 1 {
                return Err(Error::InvalidParameter(format!(
                    "{name} is listed twice for {colour}"
                )));
            }
            stones |= 1 << point;
        }
        if stones.count_ones() as usize > self.men() {
            return Err(Error::InvalidParameter(format!(
                "{} {colour} stones; each side has {} in {}",
                stones.count_ones(),
                self.men(),
                self.full_name()
            )));
        }
        Ok(stones)
    }

    /// "8,8": the stones in hand, white's and black's.
    fn parse_hand(&self, text: &str) -> Result<[u8; 2]> {
        let most = self.men();
        // An example in this game's own counts (`--men 3`: 'hand=2,2').
        let example = format!("hand={0},{0}", most.saturating_sub(1));
        let count = |part: &str| {
            part.trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n <= most)
                .map(|n| n as u8)
                .ok_or_else(|| {
                    Error::InvalidParameter(format!(
                        "stones in hand are two counts from 0 to {most} ('{example}', white's first), got {}",
                        quoted(text)
                    ))
                })
        };
        let (white, black) = text.split_once(',').ok_or_else(|| {
            Error::InvalidParameter(format!(
                "stones in hand are white's and black's count ('{example}'), got {}",
                quoted(text)
            ))
        })?;
        Ok([count(white)?, count(black)?])
    }

    /// Refuses, with one line, a position the tables do not rank: hands
    /// that do not follow from alternate placements (where a player only
    /// places), more stones than placed, or a side already down to fewer
    /// than two (or both to two).
    fn check_position(&self, stones: &Stones) -> Result<()> {
        let most = self.men();
        let [white, black] = stones.in_hand;
        if stones.placing() && self.variant.opening_rule() == OpeningRule::Placing {
            let (expected, side) = if stones.white_to_move {
                (white, "white")
            } else {
                (white + 1, "black")
            };
            if black != expected {
                return Err(Error::InvalidParameter(format!(
                    "white places first, so with {side} to move black holds {expected} in hand when white holds {white}, got {black}"
                )));
            }
        }
        for (name, board, hand) in [
            ("white", stones.white, white),
            ("black", stones.black, black),
        ] {
            let placed = most - hand as usize;
            let on_board = board.count_ones() as usize;
            if on_board > placed {
                return Err(Error::InvalidParameter(format!(
                    "{name} has {on_board} stones on the board but has placed only {placed}"
                )));
            }
            if on_board + (hand as usize) < super::hash::FEWEST_STORED {
                return Err(Error::InvalidParameter(format!(
                    "{name} has {on_board} stones on the board and {hand} in hand: the game ended when it fell to two"
                )));
            }
        }
        if !self.hash.holds(stones) {
            return Err(Error::InvalidParameter(format!(
                "both sides have two stones left in {}: the game ended before",
                self.position_text(stones)
            )));
        }
        Ok(())
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

impl TwoPlayerGame for Morris {
    type Position = Stones;

    fn side_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "white",
            Player::Second => "black",
        }
    }

    fn max_layer(&self) -> usize {
        self.hash.max_layer()
    }

    fn layer_name(&self, layer: usize) -> String {
        let [white, black] = self.hash.in_hand(layer);
        match self.hash.kind(layer) {
            LayerKind::Moving => {
                if layer == 1 {
                    "1 stone".to_string()
                } else {
                    format!("{layer} stones")
                }
            }
            LayerKind::Placing => format!("opening, {} in hand", white + black),
            LayerKind::PlacingOrMoving => format!(
                "opening, in hand {white},{black}, {} on the board",
                self.hash.on_board(layer).unwrap_or(0)
            ),
        }
    }

    /// The whole game with up to four stones a side (seconds); with more it
    /// is a run of hours, so the range is the user's call.
    fn default_layers(&self) -> Option<std::ops::RangeInclusive<usize>> {
        (self.men() <= 4).then(|| 1..=self.max_layer())
    }

    fn variant_flags(&self) -> String {
        let mut flags = format!(" --variant {}", self.variant.name());
        if self.men() != self.variant.stones() {
            flags.push_str(&format!(" --men {}", self.men()));
        }
        if self.symmetry() {
            flags.push_str(" --symmetry");
        }
        flags
    }

    fn other_variants(&self) -> Vec<Morris> {
        [false, true]
            .into_iter()
            .filter(|&symmetry| symmetry != self.symmetry())
            .filter_map(|symmetry| Morris::with_men(self.variant, self.men(), symmetry).ok())
            .collect()
    }

    fn locate(&self, position: &Stones) -> (usize, u64) {
        (self.hash.layer_of(position), self.hash.rank(position))
    }

    fn position(&self, state: &Unranked) -> Stones {
        state.stones
    }

    fn side_to_move(&self, position: &Stones) -> Player {
        if position.white_to_move {
            Player::First
        } else {
            Player::Second
        }
    }

    fn moves(&self, position: &Stones) -> Vec<Stones> {
        Morris::moves(self, position)
    }

    /// A placement "d2", a move "d2-d3", a flight "a1-g7", and a mill's
    /// capture after an x: "b4-a4xd2", "a4xd2".
    fn move_name(&self, from: &Stones, to: &Stones) -> String {
        let (before, after, theirs_before, theirs_after) = if from.white_to_move {
            (from.white, to.white, from.black, to.black)
        } else {
            (from.black, to.black, from.white, to.white)
        };
        let arrived = Board::name((after & !before).trailing_zeros() as usize);
        let mut name = if after.count_ones() > before.count_ones() {
            arrived
        } else {
            let left = (before & !after).trailing_zeros() as usize;
            format!("{}-{arrived}", Board::name(left))
        };
        let taken = theirs_before & !theirs_after;
        if taken != 0 {
            name.push('x');
            name.push_str(&Board::name(taken.trailing_zeros() as usize));
        }
        name
    }

    /// "a1,a4,a7/d1,d2,d3:white": white's points, black's, the side to
    /// move; in the opening the stones in hand follow, white's and
    /// black's: "d2/a1:white:hand=8,8".
    fn parse_position(&self, text: &str) -> Result<Stones> {
        let format = || {
            Error::InvalidParameter(format!(
                "a Morris position is white's points, '/', black's points (each a comma-separated list such as a1,d2), then ':white' or ':black' for the side to move, and in the opening ':hand=W,B' for the stones in hand; got {}",
                quoted(text)
            ))
        };
        let (text_before_hand, in_hand) = match text.split_once(":hand=") {
            Some((before, hand)) => (before, Some(self.parse_hand(hand)?)),
            None => (text, None),
        };
        let (board, side) = text_before_hand.rsplit_once(':').ok_or_else(format)?;
        let (white, black) = board.split_once('/').ok_or_else(format)?;
        let white_to_move = match side.trim() {
            "white" => true,
            "black" => false,
            other => {
                return Err(Error::InvalidParameter(format!(
                    "the side to move is 'white' or 'black', got {}",
                    quoted(other)
                )));
            }
        };
        let white = self.parse_points(white, "white")?;
        let black = self.parse_points(black, "black")?;
        if white & black != 0 {
            return Err(Error::InvalidParameter(format!(
                "{} holds a white and a black stone",
                Board::name((white & black).trailing_zeros() as usize)
            )));
        }
        let stones = Stones {
            white,
            black,
            white_to_move,
            in_hand: in_hand.unwrap_or([0, 0]),
        };
        self.check_position(&stones)?;
        Ok(stones)
    }

    fn position_text(&self, position: &Stones) -> String {
        let side = if position.white_to_move {
            "white"
        } else {
            "black"
        };
        let mut text = format!(
            "{}/{}:{side}",
            Morris::names(position.white),
            Morris::names(position.black)
        );
        if position.placing() {
            let [white, black] = position.in_hand;
            text.push_str(&format!(":hand={white},{black}"));
        }
        text
    }

    /// The three squares with their lines, rank 7 at the top ('W' white,
    /// 'B' black, '.' empty).
    fn draw(&self, position: &Stones) -> String {
        const ROWS: usize = 13;
        const COLUMNS: usize = 25;
        let mut grid = vec![vec![' '; COLUMNS]; ROWS];
        let at = |point: usize| {
            let (file, rank) = Morris::file_rank(point);
            (2 * (6 - rank), 4 * file)
        };
        for p in 0..POINTS {
            let (row, column) = at(p);
            for q in (p + 1..POINTS).filter(|&q| self.board.neighbours(p) >> q & 1 == 1) {
                let (to_row, to_column) = at(q);
                if row == to_row {
                    grid[row][column.min(to_column) + 1..column.max(to_column)].fill('-');
                } else if column == to_column {
                    for line in grid
                        .iter_mut()
                        .take(row.max(to_row))
                        .skip(row.min(to_row) + 1)
                    {
                        line[column] = '|';
                    }
                } else {
                    // Morabaraba's diagonals join neighbouring squares'
                    // corners: one mark halfway.
                    let falling = (to_row > row) == (to_column > column);
                    grid[(row + to_row) / 2][(column + to_column) / 2] =
                        if falling { '\\' } else { '/' };
                }
            }
        }
        for p in 0..POINTS {
            let (row, column) = at(p);
            grid[row][column] = Morris::symbol(position, p);
        }
        let mut picture = String::new();
        for (index, row) in grid.iter().enumerate() {
            let label = if index % 2 == 0 {
                format!("{} ", 7 - index / 2)
            } else {
                "  ".to_string()
            };
            let line: String = row.iter().collect();
            picture.push_str(&label);
            picture.push_str(line.trim_end());
            picture.push('\n');
        }
        picture.push_str("  a   b   c   d   e   f   g\n");
        picture.push_str(if position.white_to_move {
            "white to move"
        } else {
            "black to move"
        });
        if position.placing() {
            let [white, black] = position.in_hand;
            picture.push_str(&format!(" · in hand: white {white}, black {black}"));
        }
        picture.push('\n');
        picture
    }

    /// The points on a 7 x 7 grid joined by the board's lines.
    fn diagram(&self, position: &Stones) -> Diagram {
        let cells = (0..POINTS)
            .map(|point| {
                let (file, rank) = Morris::file_rank(point);
                Cell {
                    name: Board::name(point),
                    row: 6 - rank,
                    column: file,
                    piece: match Morris::symbol(position, point) {
                        '.' => None,
                        stone => Some(stone.to_string()),
                    },
                }
            })
            .collect();
        let mut diagram = Diagram::new(Style::Points, cells);
        diagram.lines = (0..POINTS)
            .flat_map(|p| {
                (p + 1..POINTS)
                    .filter(move |&q| self.board.neighbours(p) >> q & 1 == 1)
                    .map(move |q| [p, q])
            })
            .collect();
        diagram
    }

    /// The empty board, every stone in hand, white to place; a count of
    /// stones, if given, must be the stones a side (`--men` sets them).
    fn start_position(&self, size: Option<usize>) -> Result<Stones> {
        if let Some(count) = size.filter(|&count| count != self.men()) {
            return Err(Error::InvalidParameter(format!(
                "the start of {} has its {} stones a side in hand, not {count}: give --start alone, or --men {count} for a game of {count} stones a side",
                self.full_name(),
                self.men()
            )));
        }
        let stones = self.men() as u8;
        Ok(Stones {
            white_to_move: true,
            in_hand: [stones, stones],
            ..Stones::default()
        })
    }

    fn with_side_to_move(&self, position: &Stones, side: Player) -> Stones {
        Stones {
            white_to_move: side == Player::First,
            ..*position
        }
    }
}

impl LayeredGame for Morris {
    type State = Unranked;

    fn layer_descriptor(&self, layer: usize) -> String {
        let symmetry = if self.symmetry() { " symmetry" } else { "" };
        let name = self.full_name();
        let [white, black] = self.hash.in_hand(layer);
        match self.hash.kind(layer) {
            LayerKind::Moving => format!("morris {name} stones={layer} moving{symmetry}"),
            LayerKind::Placing => {
                format!("morris {name} hand={} opening{symmetry}", white + black)
            }
            LayerKind::PlacingOrMoving => format!(
                "morris {name} hand={white},{black} stones={} opening{symmetry}",
                self.hash.on_board(layer).unwrap_or(0)
            ),
        }
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.hash.layer_size(layer)
    }

    fn layer_blocks(&self, layer: usize) -> Vec<Block> {
        self.hash
            .blocks(layer)
            .iter()
            .map(|b| Block {
                start: b.start,
                len: b.len,
            })
            .collect()
    }

    fn block_weight(&self, layer: usize, block: usize) -> u64 {
        self.hash.blocks(layer)[block].weight
    }

    fn reduced_by_symmetry(&self) -> bool {
        self.symmetry()
    }

    fn block_has_twins(&self, layer: usize, block: usize) -> bool {
        // A block's weight is its white patterns' orbit: a full orbit
        // means no symmetry but the identity keeps the pattern, and a
        // position's only image is itself.
        self.hash
            .maps()
            .is_some_and(|maps| self.hash.blocks(layer)[block].weight < maps.len() as u64)
    }

    #[inline]
    fn is_representative(&self, _layer: usize, _rank: u64, state: &Unranked) -> bool {
        // The least black mask among the images that keep white's pattern.
        let Some(maps) = self.hash.maps() else {
            return true;
        };
        let mut rest = state.stabilizer;
        while rest != 0 {
            let index = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if maps.apply(index, state.black) < state.black {
                return false;
            }
        }
        true
    }

    fn images<F: FnMut(u64)>(&self, _layer: usize, state: &Unranked, mut emit: F) {
        let Some(maps) = self.hash.maps() else {
            return;
        };
        let (group, pattern) = state.place;
        let mut symmetries = state.stabilizer | 1;
        while symmetries != 0 {
            let index = symmetries.trailing_zeros() as usize;
            symmetries &= symmetries - 1;
            let image = Stones {
                black: maps.apply(index, state.black),
                ..state.stones
            };
            emit(self.hash.stored_rank(group, pattern, &image));
        }
    }

    fn new_state(&self) -> Unranked {
        Unranked {
            stones: Stones {
                white_to_move: true,
                ..Stones::default()
            },
            layer: usize::MAX,
            run: BinomialRun::default(),
            pattern: u32::MAX,
            place: (0, 0),
            stabilizer: 0,
        }
    }

    #[inline]
    fn unrank(&self, layer: usize, rank: u64, state: &mut Unranked) {
        let side_bits = self.hash.side_bits(layer);
        if state.layer == layer
            && let Some(packed) = state.run.get(rank >> side_bits)
        {
            // The same white pattern as the rank before (and in the
            // opening the same side to move and hands).
            state.stones.black = expand(packed, (!state.stones.white & BOARD) as u64) as u32;
            if side_bits == 1 {
                state.stones.white_to_move = rank & 1 == 0;
            }
            return;
        }
        state.layer = layer;
        state.stones = self.hash.unrank_into_run(layer, rank, &mut state.run);
        if state.stones.white != state.pattern {
            state.pattern = state.stones.white;
            state.stabilizer = self.hash.stabilizer(state.pattern);
            state.place = self.hash.white_place(state.pattern);
        }
    }

    fn rank(&self, _layer: usize, state: &Unranked) -> u64 {
        self.hash.rank(&state.stones)
    }

    fn mover(&self, state: &Unranked) -> Player {
        self.side_to_move(&state.stones)
    }

    fn mover_of_rank(&self, layer: usize, rank: u64) -> Option<Player> {
        if self.hash.kind(layer) == LayerKind::Placing {
            let [white, black] = self.hash.in_hand(layer);
            return Some(if white == black {
                Player::First
            } else {
                Player::Second
            });
        }
        // Every block has an even length: the side is the rank's last bit.
        Some(if rank & 1 == 0 {
            Player::First
        } else {
            Player::Second
        })
    }

    #[inline]
    fn successors<F: FnMut(Successor) -> bool>(
        &self,
        _layer: usize,
        state: &Unranked,
        mut emit: F,
    ) {
        rules::for_each_successor(
            &self.board,
            self.variant.opening_rule(),
            &state.stones,
            |next| emit(self.successor(state, &next)),
        );
    }

    /// Moves before the range are generated but not ranked: a pass's
    /// check of a candidate needs its moves only up to the first open one
    /// (about 11 of 29 on average in layer 10), and ranking is most of a
    /// move's cost.
    #[inline]
    fn successors_in<F: FnMut(Successor)>(
        &self,
        _layer: usize,
        state: &Unranked,
        moves: std::ops::Range<usize>,
        mut emit: F,
    ) -> bool {
        let mut window = MoveWindow::new(moves);
        rules::for_each_successor(
            &self.board,
            self.variant.opening_rule(),
            &state.stones,
            |next| window.offer(|| emit(self.successor(state, &next))),
        );
        window.more()
    }

    #[inline]
    fn lower_successors<F: FnMut(Successor) -> bool>(
        &self,
        layer: usize,
        state: &Unranked,
        emit: F,
    ) -> bool {
        self.look_below(layer, state, emit, false).0
    }

    /// Ranks only the quiet move it names: the first that leaves the
    /// opponent no mill to close, where there is one. A move the opponent
    /// answers with a capture is often decided in the same pass, and every
    /// position that named it is then checked again (Nine Men's Morris's
    /// layer 10: the second pass reached 54 M predecessors instead of 182
    /// M).
    #[inline]
    fn lower_successors_naming<F: FnMut(Successor) -> bool>(
        &self,
        layer: usize,
        state: &Unranked,
        emit: F,
    ) -> WithinLayer {
        match self.look_below(layer, state, emit, true).1 {
            Some(first) => WithinLayer::First(first),
            None => WithinLayer::None,
        }
    }

    #[inline]
    fn predecessors<F: FnMut(u64)>(&self, layer: usize, state: &Unranked, mut emit: F) {
        if self.hash.kind(layer) == LayerKind::Placing {
            // No move stays in an opening layer.
            return;
        }
        rules::for_each_quiet_predecessor(&self.board, &state.stones, |before| {
            emit(self.rank_near(state, &before))
        });
    }

    /// The moving phase: its rules treat both colours alike. Black's
    /// positions are the ones judged, so that the predecessors generated
    /// are those of white-to-move twins: the stones black moved back,
    /// white's pattern kept, which `rank_near` ranks
    /// without looking the pattern up.
    fn colour_twins(&self, layer: usize) -> Option<Player> {
        (self.hash.kind(layer) == LayerKind::Moving).then_some(Player::Second)
    }

    fn colour_twin_rank(&self, _layer: usize, state: &Unranked) -> u64 {
        self.hash.rank(&Stones {
            white: state.black,
            black: state.white,
            white_to_move: !state.white_to_move,
            ..state.stones
        })
    }

    /// The moving phase and Lasker Morris's opening (a placement leaves
    /// the layer, a move taking no stone stays).
    fn counts_moves_within(&self, layer: usize) -> bool {
        self.hash.kind(layer) != LayerKind::Placing
    }

    /// The quiet moves; under symmetry each weighed by the symmetries that
    /// keep the position it reaches, over those that keep this one. Both
    /// keep the stones of the side not moving, so where no symmetry but
    /// the identity keeps those (most positions) every weight is 1.
    #[inline]
    fn moves_within_count(&self, _layer: usize, state: &Unranked) -> u32 {
        let count = || rules::quiet_move_count(&self.board, &state.stones);
        let Some(maps) = self.hash.maps() else {
            return count();
        };
        let (mine, theirs) = state.stones.sides();
        let keeping_theirs = maps.stabilizer_of(theirs);
        if keeping_theirs == 1 {
            return count();
        }
        let kept_by = |mine: u32| (keeping_theirs & maps.stabilizer_of(mine)).count_ones();
        let weights: u32 = rules::quiet_moves(&self.board, &state.stones)
            .map(kept_by)
            .sum();
        let own = kept_by(mine);
        debug_assert_eq!(weights % own, 0, "{:?}", state.stones);
        weights / own
    }

    /// A side without a move has lost.
    fn no_move_value(&self, state: &Unranked) -> Value {
        Value::win_for(self.mover(state).opponent())
    }

    /// A side with two stones (on the board and in hand) has lost.
    fn rule_value(&self, _layer: usize, state: &Unranked) -> Option<Value> {
        let left = |board: u32, hand: u8| board.count_ones() + u32::from(hand);
        if left(state.white, state.in_hand[0]) < rules::FEWEST {
            Some(Value::SecondWins)
        } else if left(state.black, state.in_hand[1]) < rules::FEWEST {
            Some(Value::FirstWins)
        } else {
            None
        }
    }

    /// A placing-only opening: a placement leads to one stone fewer in
    /// hand, the last one into the moving phase.
    fn acyclic_layer(&self, layer: usize) -> Option<Vec<usize>> {
        let top = self.hash.moving_top();
        match layer {
            _ if self.hash.kind(layer) != LayerKind::Placing => None,
            _ if layer == top + 1 => {
                Some((0..=top).filter(|&l| self.hash.layer_size(l) > 0).collect())
            }
            _ => Some(vec![layer - 1]),
        }
    }

    /// Lasker Morris's opening: a capture leads to one stone fewer on the
    /// board, a placement to one fewer in hand and one more on the board
    /// (or as many, when it takes one); the last placement into the
    /// moving phase.
    fn several_layers_below(&self, layer: usize) -> Option<Vec<usize>> {
        if self.hash.kind(layer) != LayerKind::PlacingOrMoving {
            return None;
        }
        let mut reached: Vec<usize> = MixedTarget::ALL
            .into_iter()
            .filter_map(|target| self.hash.mixed_target(layer, target))
            .collect();
        reached.sort_unstable();
        reached.dedup();
        Some(reached)
    }

    /// A placing-only opening's layer is swept a white pattern at a
    /// time (`opening_sweep`); Lasker Morris's opening has passes.
    fn sweep_acyclic_ranks(
        &self,
        layer: usize,
        ranks: std::ops::Range<u64>,
        sweep: &AcyclicSweep<'_>,
        generic: &mut dyn FnMut(std::ops::Range<u64>) -> SweepCount,
    ) -> Option<SweepCount> {
        if self.variant.opening_rule() != OpeningRule::Placing {
            return None;
        }
        opening_sweep::sweep_placing_ranks(&self.hash, &self.board, layer, ranks, sweep, generic)
    }

    fn undecided_value(&self) -> Value {
        Value::Draw
    }

    /// `morris.wgsl` over the board's tables and the hash's: a moving
    /// layer's passes, the one sweep of an opening layer whose placements
    /// all lead one layer down, or the passes of a layer of Lasker
    /// Morris's opening over the layers its moves leave to.
    fn retro_gpu_program(&self, layer: usize) -> Result<Program> {
        // The layers the moves rank into, as the backend joins them (the
        // last placement's: every moving layer).
        let below: Vec<usize> = LayersBelow::of(self, layer).layers().collect();
        let tables = self.hash.gpu_layer_tables(layer, &below);
        let game_tables = self.hash.gpu_game_tables();
        let neighbours: Vec<u32> = (0..POINTS).map(|p| self.board.neighbours(p)).collect();
        let mills: Vec<u32> = self
            .board
            .mills()
            .iter()
            .map(|line| line.iter().fold(0, |m, &p| m | 1 << p))
            .collect();
        // Four mills at most pass through a point (three on Morabaraba's
        // corners); the padding is a mask no 24 stones fill.
        let mut point_mills = vec![u32::MAX; 4 * POINTS];
        for point in 0..POINTS {
            let through = mills.iter().filter(|&&mill| mill >> point & 1 == 1);
            for (slot, &mill) in through.enumerate() {
                assert!(slot < 4, "more than four mills through a point");
                point_mills[4 * point + slot] = mill;
            }
        }
        let in_hand = self.hash.in_hand(layer).map(u32::from);
        let below_side_bits = below.first().map_or(0, |&l| self.hash.side_bits(l));
        // What differs between layers of one kind is in tables of the
        // same length in every layer: the text, and so the compiled
        // kernels, are shared (compiling took 0.2 s a layer on lavapipe,
        // about half of a three-stone Lasker Morris's time there).
        let mut program = Program::default();
        program
            .constant("MORRIS_SYMMETRY", self.symmetry() as u32)
            .constant("MORRIS_MILLS", mills.len() as u32)
            .constant(
                "MORRIS_PLACING",
                u32::from(self.hash.kind(layer) == LayerKind::Placing),
            )
            .constant(
                "MORRIS_MIXED",
                u32::from(self.hash.kind(layer) == LayerKind::PlacingOrMoving),
            )
            .constant("MORRIS_SIDE_BITS", self.hash.side_bits(layer))
            .constant("MORRIS_BELOW_SIDE_BITS", below_side_bits)
            .table("MORRIS_IN_HAND_AT", &in_hand)
            .table("MORRIS_NEIGHBOURS_AT", &neighbours)
            .table("MORRIS_MILLS_AT", &mills)
            .table("MORRIS_POINT_MILLS_AT", &point_mills)
            .table("MORRIS_BLOCKS_AT", &tables.blocks)
            .table("MORRIS_BLOCK_OF_AT", &tables.block_of)
            .table("MORRIS_BELOW_BLOCK_OF_AT", &tables.below_block_of)
            .table("MORRIS_SYMMETRIES_AT", &game_tables.symmetries)
            .table("MORRIS_PLACEMENT_STARTS_AT", &game_tables.placement_starts)
            .table("MORRIS_PLACEMENTS_AT", &game_tables.placements)
            .table("MORRIS_PATTERN_STARTS_AT", &game_tables.pattern_starts)
            .table("MORRIS_PATTERNS_AT", &game_tables.patterns)
            .binomial_hash()
            .source(RETRO_KERNEL);
        Ok(program)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::splitmix64;

    /// A position's count of moves within its layer is the number of
    /// times the predecessors of the layer's solved positions name it
    /// (what the passes count down): every variant with four stones a
    /// side, with and without symmetry, every layer that stays within
    /// itself, whole.
    #[test]
    fn moves_within_count_as_often_as_predecessors_name_the_position() {
        let mut counted = 0u64;
        let mut weighed = 0u64;
        for variant in Variant::ALL {
            for symmetry in [false, true] {
                let game = Morris::with_men(variant, 4, symmetry).unwrap();
                let mut state = game.new_state();
                for layer in 0..=game.hash().max_layer() {
                    let size = game.layer_size(layer);
                    if size == 0 || !game.counts_moves_within(layer) || size > 3_000_000 {
                        continue;
                    }
                    let representative = |rank: u64, state: &mut Unranked| {
                        game.unrank(layer, rank, state);
                        !symmetry || game.is_representative(layer, rank, state)
                    };
                    let mut named = vec![0u32; size as usize];
                    for rank in 0..size {
                        if representative(rank, &mut state) {
                            game.predecessors(layer, &state, |before| named[before as usize] += 1);
                        }
                    }
                    for rank in 0..size {
                        if !representative(rank, &mut state) {
                            assert_eq!(named[rank as usize], 0, "{variant:?} {layer} {rank}");
                            continue;
                        }
                        let count = game.moves_within_count(layer, &state);
                        assert_eq!(
                            count, named[rank as usize],
                            "{variant:?} symmetry {symmetry} layer {layer} rank {rank}: {:?}",
                            state.stones
                        );
                        counted += 1;
                        weighed += u64::from(
                            symmetry
                                && count != rules::quiet_moves(&game.board, &state).count() as u32,
                        );
                    }
                }
            }
        }
        // Whole layers of every variant, and positions whose moves count
        // for more or less than one under symmetry among them.
        assert!(
            counted > 1_000_000 && weighed > 1_000,
            "{counted} {weighed}"
        );
    }

    /// The passes judge black's positions of a moving layer and reach
    /// white's through their colour twins: each twin is a stored position
    /// (a representative) where white moves, an image of the position
    /// with the stones exchanged under one of the board's symmetries, and
    /// every such position is the twin of exactly one of black's. Every
    /// variant with four stones a side, with and without symmetry, every
    /// moving layer of up to 3 M positions, whole.
    #[test]
    fn colour_twins_pair_the_stored_positions_of_the_two_sides() {
        let mut paired = 0u64;
        for variant in Variant::ALL {
            for symmetry in [false, true] {
                let game = Morris::with_men(variant, 4, symmetry).unwrap();
                let (mut state, mut twin) = (game.new_state(), game.new_state());
                for layer in 0..=game.hash().max_layer() {
                    let size = game.layer_size(layer);
                    if game.colour_twins(layer).is_none() {
                        assert_ne!(game.hash().kind(layer), LayerKind::Moving);
                        continue;
                    }
                    assert_eq!(game.colour_twins(layer), Some(Player::Second));
                    if size > 3_000_000 {
                        continue;
                    }
                    let stored = |rank: u64, state: &mut Unranked| {
                        game.unrank(layer, rank, state);
                        game.is_representative(layer, rank, state)
                    };
                    let mut twin_of = vec![None; size as usize];
                    for rank in 0..size {
                        if !stored(rank, &mut state) || game.mover(&state) != Player::Second {
                            continue;
                        }
                        let twin_rank = game.colour_twin_rank(layer, &state);
                        game.unrank(layer, twin_rank, &mut twin);
                        assert_eq!(game.mover(&twin), Player::First);
                        assert!(stored(twin_rank, &mut twin), "{:?}", state.stones);
                        let exchanged = |index: usize| match game.hash().maps() {
                            Some(maps) => (
                                maps.apply(index, state.black),
                                maps.apply(index, state.white),
                            ),
                            None => (state.black, state.white),
                        };
                        let images = game.hash().maps().map_or(1, |maps| maps.len());
                        assert!(
                            (0..images).any(|index| exchanged(index) == (twin.white, twin.black)),
                            "{variant:?} layer {layer}: {:?} -> {:?}",
                            state.stones,
                            twin.stones
                        );
                        let slot = &mut twin_of[twin_rank as usize];
                        assert_eq!(*slot, None, "two positions share the twin {twin_rank}");
                        *slot = Some(rank);
                        paired += 1;
                    }
                    for rank in 0..size {
                        if stored(rank, &mut state) && game.mover(&state) == Player::First {
                            assert!(
                                twin_of[rank as usize].is_some(),
                                "{variant:?} {layer} {rank}"
                            );
                        }
                    }
                }
            }
        }
        assert!(paired > 1_000_000, "{paired}");
    }

    /// The solver's moves, ranked from what their position keeps (the
    /// place of white's pattern, reused when a move keeps it), rank as
    /// the positions they lead to: every variant, with and without
    /// symmetry, runs of consecutive ranks in every layer (so that the
    /// positions come through the unranking's runs, as a sweep's do).
    #[test]
    fn moves_ranked_from_their_position_rank_as_the_positions_they_reach() {
        for variant in Variant::ALL {
            for symmetry in [false, true] {
                let game = Morris::with_men(variant, 5, symmetry).unwrap();
                let hash = game.hash();
                let rule = variant.opening_rule();
                let mut state = game.new_state();
                for layer in 0..=hash.max_layer() {
                    let size = hash.layer_size(layer);
                    if size == 0 {
                        continue;
                    }
                    for run in 0..4u64 {
                        let start = splitmix64(layer as u64 * 8 + run) % size;
                        for rank in start..(start + 48).min(size) {
                            game.unrank(layer, rank, &mut state);
                            let mut expected = Vec::new();
                            rules::for_each_successor(&game.board, rule, &state, |next| {
                                expected.push((hash.layer_of(&next), hash.rank(&next)));
                                true
                            });
                            let mut got = Vec::new();
                            game.successors(layer, &state, |next| {
                                got.push((next.layer, next.rank));
                                true
                            });
                            assert_eq!(
                                got, expected,
                                "{variant:?} {symmetry} layer {layer} rank {rank}"
                            );
                            // The look below: every move leaving the layer
                            // (they come first), whether one stays, and
                            // the first that does, named.
                            let below: Vec<_> =
                                got.iter().copied().filter(|&(at, _)| at != layer).collect();
                            let first = got.iter().find(|&&(at, _)| at == layer).map(|m| m.1);
                            // Named: the first move within the layer after
                            // which the opponent can take no stone, or the
                            // first when each lets it take one.
                            let mut quiet = Vec::new();
                            rules::for_each_successor(&game.board, rule, &state, |next| {
                                if hash.layer_of(&next) == layer {
                                    quiet.push(next);
                                }
                                true
                            });
                            let takes = |next: &Stones| {
                                let (_, theirs) = next.sides();
                                let mut takes = false;
                                rules::for_each_successor(&game.board, rule, next, |after| {
                                    takes |= after.sides().0.count_ones() < theirs.count_ones();
                                    !takes
                                });
                                takes
                            };
                            let safe = quiet.iter().find(|next| !takes(next)).or(quiet.first());
                            let named_first = safe.map(|next| hash.rank(next));
                            let (mut seen, mut named) = (Vec::new(), Vec::new());
                            let stays = game.lower_successors(layer, &state, |s| {
                                seen.push((s.layer, s.rank));
                                true
                            });
                            let within = game.lower_successors_naming(layer, &state, |s| {
                                named.push((s.layer, s.rank));
                                true
                            });
                            let context =
                                format!("{variant:?} {symmetry} layer {layer} rank {rank}");
                            assert_eq!((&seen, stays), (&below, first.is_some()), "{context}");
                            assert_eq!(named, below, "{context}");
                            let expected_within =
                                named_first.map_or(WithinLayer::None, WithinLayer::First);
                            assert_eq!(within, expected_within, "{context}");
                            if hash.kind(layer) == LayerKind::Placing {
                                continue;
                            }
                            let mut expected = Vec::new();
                            rules::for_each_quiet_predecessor(&game.board, &state, |before| {
                                expected.push(hash.rank(&before));
                            });
                            let mut got = Vec::new();
                            game.predecessors(layer, &state, |before| got.push(before));
                            assert_eq!(
                                got, expected,
                                "{variant:?} {symmetry} layer {layer} rank {rank}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn positions_read_back_from_their_text_and_errors_are_one_line() {
        let game = Morris::new(Variant::NineMensMorris, false).unwrap();
        let text = "a1,a4,a7,d2/d6,g1,g4,g7:black";
        let stones = game.parse_position(text).unwrap();
        assert_eq!(stones.white.count_ones(), 4);
        assert!(!stones.white_to_move);
        assert_eq!(game.position_text(&stones), text);
        for (bad, expected) in [
            ("a1,a4/d1", "':white' or ':black'"),
            ("a1,a4/d1:green", "'green'"),
            ("a1,z9/d1:white", "'z9'"),
            ("a1,a1/d1:white", "a1 is listed twice"),
            ("a1/a1:white", "a1 holds a white and a black"),
            (
                "a1,a4,a7,b2,b4,b6,c3,c4,c5,d1/d2:white",
                "10 white stones; each side has 9",
            ),
        ] {
            let message = game.parse_position(bad).unwrap_err().to_string();
            assert!(message.contains(expected), "{bad}: {message}");
            assert!(!message.contains('\n'));
        }
        // The opening: stones in hand after the side to move.
        let start = game.start_position(None).unwrap();
        assert_eq!(game.position_text(&start), "/:white:hand=9,9");
        assert_eq!(game.parse_position("/:white:hand=9,9").unwrap(), start);
        let text = "a1,d2/g7:black:hand=7,8";
        let stones = game.parse_position(text).unwrap();
        assert_eq!(stones.in_hand, [7, 8]);
        assert_eq!(game.position_text(&stones), text);
        for (bad, expected) in [
            (
                "/:white:hand=9,8",
                "black holds 9 in hand when white holds 9",
            ),
            (
                "a1,a4/:black:hand=8,9",
                "white has 2 stones on the board but has placed only 1",
            ),
            ("/:white:hand=10,10", "two counts from 0 to 9"),
            ("/:white:hand=9", "white's and black's count"),
            (
                "a1/d1,d2,d3:white",
                "white has 1 stones on the board and 0 in hand",
            ),
        ] {
            let message = game.parse_position(bad).unwrap_err().to_string();
            assert!(message.contains(expected), "{bad}: {message}");
            assert!(!message.contains('\n'));
        }
        assert_eq!(game.start_position(Some(9)).unwrap(), start);
        let message = game.start_position(Some(5)).unwrap_err().to_string();
        assert!(message.contains("--men 5"), "{message}");
        // Lasker Morris: any hands, either side to move (a player may
        // move instead of placing).
        let lasker = Morris::new(Variant::Lasker, false).unwrap();
        let start = lasker.start_position(None).unwrap();
        assert_eq!(lasker.position_text(&start), "/:white:hand=10,10");
        for text in ["a1,d2/g7:black:hand=3,5", "a1,d2,d3/g4,g7:white:hand=0,4"] {
            let stones = lasker.parse_position(text).unwrap();
            assert_eq!(lasker.position_text(&stones), text);
        }
        for (bad, expected) in [
            (
                "a1,a4/d1:white:hand=9,3",
                "white has 2 stones on the board but has placed only 1",
            ),
            (
                "a1/d1,d2,d3:white:hand=0,1",
                "white has 1 stones on the board and 0 in hand",
            ),
            ("a1,a4/d1:white:hand=0,1", "both sides have two stones left"),
        ] {
            let message = lasker.parse_position(bad).unwrap_err().to_string();
            assert!(message.contains(expected), "{bad}: {message}");
        }
    }

    #[test]
    fn placements_are_named_by_their_point_and_capture() {
        let game = Morris::new(Variant::NineMensMorris, false).unwrap();
        let from = game.parse_position("a1,a4/d1,g1:white:hand=7,7").unwrap();
        let moves = game.moves(&from);
        let names: Vec<String> = moves.iter().map(|to| game.move_name(&from, to)).collect();
        // a7 closes the mill a1-a4-a7 and takes either black stone.
        assert!(names.contains(&"a7xd1".to_string()), "{names:?}");
        assert!(names.contains(&"a7xg1".to_string()), "{names:?}");
        assert!(names.contains(&"d2".to_string()), "{names:?}");
        // 20 empty points, one of them closing with two stones to take.
        assert_eq!(moves.len(), 21);
        assert!(
            moves
                .iter()
                .all(|to| to.in_hand == [6, 7] && !to.white_to_move)
        );
    }

    #[test]
    fn moves_are_named_with_their_captures() {
        let game = Morris::new(Variant::NineMensMorris, false).unwrap();
        let from = game
            .parse_position("a1,a7,b4,d6/g1,g4,g7,d2:white")
            .unwrap();
        let names: Vec<String> = game
            .moves(&from)
            .iter()
            .map(|to| game.move_name(&from, to))
            .collect();
        assert!(names.contains(&"b4-a4xd2".to_string()), "{names:?}");
        assert!(names.contains(&"d6-d7".to_string()), "{names:?}");
    }

    #[test]
    fn a_bad_hand_is_explained_in_the_games_own_counts() {
        let small = Morris::with_men(Variant::NineMensMorris, 3, false).unwrap();
        for bad in ["a7/g1:white:hand=4,4", "a7/g1:white:hand=2"] {
            let message = small.parse_position(bad).unwrap_err().to_string();
            assert!(message.contains("'hand=2,2'"), "{message}");
            assert!(!message.contains("8,8"), "{message}");
        }
        let nine = Morris::new(Variant::NineMensMorris, false).unwrap();
        let message = nine.parse_position("a7/g1:white:hand=10,1").unwrap_err();
        assert!(message.to_string().contains("'hand=8,8'"), "{message}");
    }

    #[test]
    fn the_board_is_drawn_with_its_lines() {
        let game = Morris::new(Variant::NineMensMorris, false).unwrap();
        let stones = game.parse_position("a7,d2/g1:white:hand=7,7").unwrap();
        let picture = game.draw(&stones);
        let lines: Vec<&str> = picture.lines().collect();
        assert_eq!(lines[0], "7 W-----------.-----------.");
        assert_eq!(lines[12], "1 .-----------.-----------B");
        assert_eq!(lines[6], "4 .---.---.       .---.---.");
        assert_eq!(lines[13], "  a   b   c   d   e   f   g");
        assert_eq!(lines[14], "white to move · in hand: white 7, black 7");
        let morabaraba = Morris::new(Variant::Morabaraba, false).unwrap();
        let picture = morabaraba.draw(&stones);
        assert!(picture.lines().nth(1).unwrap().contains('\\'), "{picture}");
        assert_eq!(game.diagram(&stones).lines.len(), 32);
        assert_eq!(morabaraba.diagram(&stones).lines.len(), 40);
    }
}
