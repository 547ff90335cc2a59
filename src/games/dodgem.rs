//! Dodgem (Colin Vout; Berlekamp, Conway and Guy, *Winning Ways*, chapter
//! 22) on an n x n board, as a [`LayeredGame`] for two-bit retrograde
//! analysis.
//!
//! Blue has n-1 cars on the left edge, red n-1 on the bottom edge (the
//! bottom-left square empty); blue moves first. A blue car moves one square
//! right (forward), up or down; a red car up (forward), left or right; only
//! onto empty squares. A car on the far edge (blue: the right column, red:
//! the top row) may drive forward off the board and is out of the game. The
//! player who has no legal move on their turn (every car gone, or blocked)
//! wins. Play can cycle for ever: such positions are draws. Published
//! values: 3 x 3 is a first-player win (*Winning Ways*, which tabulates
//! every position); 4 x 4 and 5 x 5 are draws with perfect play (David des
//! Jardins, 1996).
//!
//! Layer L holds the positions with L cars on the board (a car that leaves
//! never comes back, so moves stay in a layer or go one lower). A layer is
//! cut into blocks by the number of blue cars b (red: L - b), and a
//! position's rank in its block is `2 * (rank of the blue cars among the n²
//! squares * C(n² - b, r) + rank of the red cars among the other squares) +
//! side` (side 0: blue to move). Squares are numbered row by row from the
//! bottom-left (a1 = 0).

use super::registration::{GameOptions, OptionSpec, RegisteredTwoPlayer};
use super::two_player_game::TwoPlayerGame;
use crate::diagram::{Cell, Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::hash::BinomialRanker;
use crate::hash::bits::{compress, expand};
use crate::kernel::Program;
use crate::space::{Block, LayeredGame, MoveWindow, Player, Successor, Value};

/// A position: blue and red cars as masks of squares, the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DodgemState {
    /// Squares holding a blue car, bit `row * n + column`.
    pub blue: u64,
    /// Squares holding a red car, bit `row * n + column`.
    pub red: u64,
    /// Whether blue moves next.
    pub blue_to_move: bool,
}

/// The rules of the GPU's retrograde passes (see [`crate::kernel`]).
const RETRO_KERNEL: &str = include_str!("dodgem.wgsl");

/// A car's step: (rows, columns); blue's forward is right, red's is up.
const BLUE_STEPS: [(i32, i32); 3] = [(0, 1), (1, 0), (-1, 0)];
const RED_STEPS: [(i32, i32); 3] = [(1, 0), (0, -1), (0, 1)];

/// Dodgem on an n x n board, with the rankers that number its positions.
#[derive(Clone, Debug)]
pub struct Dodgem {
    n: usize,
    /// `blue_rankers[b]`: b blue cars among the n² squares.
    blue_rankers: Vec<BinomialRanker>,
    /// `red_rankers[b][r]`: r red cars among the n² - b squares left.
    red_rankers: Vec<Vec<BinomialRanker>>,
}

impl Dodgem {
    /// Boards from 3 x 3 to 5 x 5 (6 x 6 has layers of 128 G positions).
    pub const SIZES: std::ops::RangeInclusive<usize> = 3..=5;

    /// Dodgem on an `n` x `n` board; `n` must lie in [`Self::SIZES`].
    pub fn new(n: usize) -> Result<Self> {
        if !Self::SIZES.contains(&n) {
            return Err(Error::InvalidParameter(format!(
                "Dodgem is played on boards of {} to {} squares a side, got {n}",
                Self::SIZES.start(),
                Self::SIZES.end()
            )));
        }
        let squares = n * n;
        let cars = n - 1;
        let blue_rankers = (0..=cars)
            .map(|b| BinomialRanker::new(squares, b))
            .collect::<Result<Vec<_>>>()?;
        let red_rankers = (0..=cars)
            .map(|b| {
                (0..=cars)
                    .map(|r| BinomialRanker::new(squares - b, r))
                    .collect::<Result<Vec<_>>>()
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Dodgem {
            n,
            blue_rankers,
            red_rankers,
        })
    }

    /// The number of squares along a side of the board.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Cars each side starts with.
    pub fn cars(&self) -> usize {
        self.n - 1
    }

    fn all_squares(&self) -> u64 {
        (1u64 << (self.n * self.n)) - 1
    }

    /// The start: blue on a2..a(n), red on b1..(n)1, blue to move.
    pub fn start(&self) -> DodgemState {
        let n = self.n;
        DodgemState {
            blue: (1..n).fold(0, |mask, row| mask | 1 << (row * n)),
            red: (1..n).fold(0, |mask, column| mask | 1 << column),
            blue_to_move: true,
        }
    }

    /// The numbers of blue cars layer `layer`'s blocks hold, in block order.
    fn blues_of_layer(&self, layer: usize) -> std::ops::RangeInclusive<usize> {
        layer.saturating_sub(self.cars())..=layer.min(self.cars())
    }

    fn block_len(&self, blue: usize, red: usize) -> u64 {
        2 * self.blue_rankers[blue].size() * self.red_rankers[blue][red].size()
    }

    /// The first rank of the block with `blue` blue cars in `layer`.
    fn block_start(&self, layer: usize, blue: usize) -> u64 {
        (*self.blues_of_layer(layer).start()..blue)
            .map(|b| self.block_len(b, layer - b))
            .sum()
    }

    /// The layer of a position: the number of cars, of both colours, on the board.
    pub fn layer_of(&self, state: &DodgemState) -> usize {
        (state.blue.count_ones() + state.red.count_ones()) as usize
    }

    /// The rank of `state` in its layer.
    pub fn rank_of(&self, state: &DodgemState) -> u64 {
        let blue = state.blue.count_ones() as usize;
        let red = state.red.count_ones() as usize;
        let free = self.all_squares() & !state.blue;
        let blue_rank = self.blue_rankers[blue].rank(state.blue);
        let red_rank = self.red_rankers[blue][red].rank(compress(state.red, free));
        let within = blue_rank * self.red_rankers[blue][red].size() + red_rank;
        self.block_start(blue + red, blue) + 2 * within + u64::from(!state.blue_to_move)
    }

    fn square(&self, row: i32, column: i32) -> Option<usize> {
        let n = self.n as i32;
        ((0..n).contains(&row) && (0..n).contains(&column)).then(|| (row * n + column) as usize)
    }

    fn row_column(&self, square: usize) -> (i32, i32) {
        ((square / self.n) as i32, (square % self.n) as i32)
    }

    /// "a1" is the bottom-left square.
    pub fn square_name(&self, square: usize) -> String {
        let (row, column) = self.row_column(square);
        format!("{}{}", (b'a' + column as u8) as char, row + 1)
    }

    /// A move's destination as the solver names it: its layer and rank.
    #[inline(always)]
    fn successor(&self, next: &DodgemState) -> Successor {
        Successor {
            layer: self.layer_of(next),
            rank: self.rank_of(next),
        }
    }

    /// Every move of the side to move, exits (to the layer below) first,
    /// until `emit` returns false.
    pub fn for_each_move(&self, state: &DodgemState, mut emit: impl FnMut(DodgemState) -> bool) {
        let (mine, steps) = if state.blue_to_move {
            (state.blue, &BLUE_STEPS)
        } else {
            (state.red, &RED_STEPS)
        };
        let occupied = state.blue | state.red;
        let place = |mine_after: u64| {
            if state.blue_to_move {
                DodgemState {
                    blue: mine_after,
                    red: state.red,
                    blue_to_move: false,
                }
            } else {
                DodgemState {
                    blue: state.blue,
                    red: mine_after,
                    blue_to_move: true,
                }
            }
        };
        // Exits: a forward step off the far edge.
        let mut cars = mine;
        while cars != 0 {
            let car = cars.trailing_zeros() as usize;
            cars &= cars - 1;
            let (row, column) = self.row_column(car);
            let (dr, dc) = steps[0];
            if self.square(row + dr, column + dc).is_none() && !emit(place(mine & !(1 << car))) {
                return;
            }
        }
        let mut cars = mine;
        while cars != 0 {
            let car = cars.trailing_zeros() as usize;
            cars &= cars - 1;
            let (row, column) = self.row_column(car);
            for &(dr, dc) in steps {
                if let Some(to) = self.square(row + dr, column + dc)
                    && occupied >> to & 1 == 0
                    && !emit(place(mine & !(1 << car) | 1 << to))
                {
                    return;
                }
            }
        }
    }

    /// The positions of the same layer from which a move leads to `state`:
    /// the other side moved one of its cars there from an empty square.
    pub fn for_each_predecessor(&self, state: &DodgemState, mut emit: impl FnMut(DodgemState)) {
        // The side that moved last is the one not to move now.
        let blue_moved = !state.blue_to_move;
        let (theirs, steps) = if blue_moved {
            (state.blue, &BLUE_STEPS)
        } else {
            (state.red, &RED_STEPS)
        };
        let occupied = state.blue | state.red;
        let mut cars = theirs;
        while cars != 0 {
            let car = cars.trailing_zeros() as usize;
            cars &= cars - 1;
            let (row, column) = self.row_column(car);
            for &(dr, dc) in steps {
                if let Some(from) = self.square(row - dr, column - dc)
                    && occupied >> from & 1 == 0
                {
                    let before = theirs & !(1 << car) | 1 << from;
                    emit(if blue_moved {
                        DodgemState {
                            blue: before,
                            red: state.red,
                            blue_to_move: true,
                        }
                    } else {
                        DodgemState {
                            blue: state.blue,
                            red: before,
                            blue_to_move: false,
                        }
                    });
                }
            }
        }
    }

    fn symbol(&self, state: &DodgemState, square: usize) -> char {
        if state.blue >> square & 1 == 1 {
            'B'
        } else if state.red >> square & 1 == 1 {
            'R'
        } else {
            '.'
        }
    }
}

impl RegisteredTwoPlayer for Dodgem {
    const NAME: &'static str = "dodgem";
    const SUMMARY: &'static str = "Dodgem: n-1 blue and n-1 red cars race across an n x n board (two players, draws by cycles)";
    const OPTIONS: &'static [OptionSpec] = &[OptionSpec::value(
        "n",
        "N",
        "Squares a side of the board (3..=5); each side has n-1 cars",
    )
    .with_default("3")];

    fn from_options(options: &GameOptions) -> Result<Self> {
        Dodgem::new(options.number("n")?.unwrap_or(3))
    }
}

impl TwoPlayerGame for Dodgem {
    type Position = DodgemState;

    /// The most cars on the board: the start's layer.
    fn max_layer(&self) -> usize {
        2 * self.cars()
    }

    /// The board, top row first ('B' blue, 'R' red, '.' empty), with
    /// coordinates and the side to move.
    fn draw(&self, state: &DodgemState) -> String {
        let n = self.n;
        let mut picture = String::new();
        for row in (0..n).rev() {
            picture.push_str(&format!("{:>3} ", row + 1));
            for column in 0..n {
                let square = row * n + column;
                picture.push(' ');
                picture.push(self.symbol(state, square));
            }
            picture.push('\n');
        }
        picture.push_str("    ");
        for column in 0..n {
            picture.push(' ');
            picture.push((b'a' + column as u8) as char);
        }
        picture.push('\n');
        picture.push_str(if state.blue_to_move {
            "blue to move\n"
        } else {
            "red to move\n"
        });
        picture
    }

    /// The squares top row first, named as moves name them ("a1" is the
    /// bottom left), with `B` and `R` cars.
    fn diagram(&self, state: &DodgemState) -> Diagram {
        let n = self.n;
        let cells = (0..n * n)
            .map(|square| {
                let (row, column) = (square / n, square % n);
                Cell {
                    name: format!("{}{}", (b'a' + column as u8) as char, row + 1),
                    row: n - 1 - row,
                    column,
                    piece: match self.symbol(state, square) {
                        '.' => None,
                        car => Some(car.to_string()),
                    },
                }
            })
            .collect();
        Diagram::new(Style::Squares, cells)
    }

    /// "B../B../.RR:blue": rows from the top, then the side to move.
    fn position_text(&self, state: &DodgemState) -> String {
        let n = self.n;
        let rows: Vec<String> = (0..n)
            .rev()
            .map(|row| {
                (0..n)
                    .map(|column| self.symbol(state, row * n + column))
                    .collect()
            })
            .collect();
        let side = if state.blue_to_move { "blue" } else { "red" };
        format!("{}:{side}", rows.join("/"))
    }

    /// A position from [`position_text`](Self::position_text)'s form;
    /// spaces are ignored.
    fn parse_position(&self, text: &str) -> Result<DodgemState> {
        let n = self.n;
        let invalid = |why: String| Error::InvalidParameter(why);
        let Some((board, side)) = text.rsplit_once(':') else {
            return Err(invalid(format!(
                "a Dodgem position is {n} rows from the top ('B' blue, 'R' red, either case, '.' empty) separated by '/', then ':blue' or ':red' for the side to move, got {}",
                quoted(text)
            )));
        };
        let blue_to_move = match side.trim() {
            "blue" => true,
            "red" => false,
            other => {
                return Err(invalid(format!(
                    "the side to move is 'blue' or 'red', got {}",
                    quoted(other)
                )));
            }
        };
        let rows: Vec<String> = board
            .split('/')
            .map(|row| row.chars().filter(|c| !c.is_whitespace()).collect())
            .collect();
        if rows.len() != n || rows.iter().any(|row| row.chars().count() != n) {
            return Err(invalid(format!(
                "a Dodgem position on {n} x {n} needs {n} rows of {n} squares, got {}",
                quoted(board)
            )));
        }
        let mut state = DodgemState {
            blue: 0,
            red: 0,
            blue_to_move,
        };
        for (from_top, row) in rows.iter().enumerate() {
            for (column, symbol) in row.chars().enumerate() {
                let square = (n - 1 - from_top) * n + column;
                match symbol {
                    'B' | 'b' => state.blue |= 1 << square,
                    'R' | 'r' => state.red |= 1 << square,
                    '.' | '_' => {}
                    other => {
                        return Err(invalid(format!(
                            "{} at {} is not 'B', 'R' or '.'",
                            quoted(&other.to_string()),
                            self.square_name(square)
                        )));
                    }
                }
            }
        }
        for (count, colour) in [(state.blue, "blue"), (state.red, "red")] {
            if count.count_ones() as usize > self.cars() {
                return Err(invalid(format!(
                    "{} {colour} cars on the board; each side has {}",
                    count.count_ones(),
                    self.cars()
                )));
            }
        }
        Ok(state)
    }

    /// "b1-b2" for a step, "c2-off" for a car that leaves the board.
    fn move_name(&self, from: &DodgemState, to: &DodgemState) -> String {
        let (before, after) = if from.blue_to_move {
            (from.blue, to.blue)
        } else {
            (from.red, to.red)
        };
        let left = (before & !after).trailing_zeros() as usize;
        let arrived = after & !before;
        if arrived == 0 {
            format!("{}-off", self.square_name(left))
        } else {
            format!(
                "{}-{}",
                self.square_name(left),
                self.square_name(arrived.trailing_zeros() as usize)
            )
        }
    }

    fn side_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "blue",
            Player::Second => "red",
        }
    }

    fn layer_name(&self, layer: usize) -> String {
        if layer == 1 {
            "1 car".to_string()
        } else {
            format!("{layer} cars")
        }
    }

    fn default_layers(&self) -> Option<std::ops::RangeInclusive<usize>> {
        Some(0..=self.max_layer())
    }

    fn variant_flags(&self) -> String {
        format!(" --n {}", self.n)
    }

    fn position(&self, state: &DodgemState) -> DodgemState {
        *state
    }

    fn locate(&self, position: &DodgemState) -> (usize, u64) {
        (self.layer_of(position), self.rank_of(position))
    }

    fn side_to_move(&self, position: &DodgemState) -> Player {
        self.mover(position)
    }

    fn moves(&self, position: &DodgemState) -> Vec<DodgemState> {
        let mut moves = Vec::new();
        self.for_each_move(position, |next| {
            moves.push(next);
            true
        });
        moves
    }

    fn start_position(&self, size: Option<usize>) -> Result<DodgemState> {
        match size {
            None => Ok(self.start()),
            Some(_) => Err(Error::InvalidParameter(
                "Dodgem starts with n-1 cars a side: choose the board with --n, or give --position"
                    .into(),
            )),
        }
    }

    fn with_side_to_move(&self, position: &DodgemState, side: Player) -> DodgemState {
        DodgemState {
            blue_to_move: side == Player::First,
            ..*position
        }
    }
}

impl LayeredGame for Dodgem {
    type State = DodgemState;

    fn layer_descriptor(&self, layer: usize) -> String {
        format!("dodgem n={} cars={layer}", self.n)
    }

    fn layer_size(&self, layer: usize) -> u64 {
        self.blues_of_layer(layer)
            .map(|b| self.block_len(b, layer - b))
            .sum()
    }

    fn layer_blocks(&self, layer: usize) -> Vec<Block> {
        let mut start = 0;
        self.blues_of_layer(layer)
            .map(|b| {
                let len = self.block_len(b, layer - b);
                start += len;
                Block {
                    start: start - len,
                    len,
                }
            })
            .collect()
    }

    fn new_state(&self) -> DodgemState {
        self.start()
    }

    fn unrank(&self, layer: usize, rank: u64, state: &mut DodgemState) {
        let mut start = 0;
        for blue in self.blues_of_layer(layer) {
            let red = layer - blue;
            let len = self.block_len(blue, red);
            if rank < start + len {
                let within = rank - start;
                let pattern = within >> 1;
                let reds = self.red_rankers[blue][red].size();
                state.blue = self.blue_rankers[blue].unrank(pattern / reds);
                let free = self.all_squares() & !state.blue;
                state.red = expand(self.red_rankers[blue][red].unrank(pattern % reds), free);
                state.blue_to_move = within & 1 == 0;
                return;
            }
            start += len;
        }
        panic!("rank {rank} is outside layer {layer}");
    }

    fn rank(&self, _layer: usize, state: &DodgemState) -> u64 {
        self.rank_of(state)
    }

    fn mover(&self, state: &DodgemState) -> Player {
        if state.blue_to_move {
            Player::First
        } else {
            Player::Second
        }
    }

    fn mover_of_rank(&self, _layer: usize, rank: u64) -> Option<Player> {
        // Every block has an even length: the side is the rank's last bit.
        Some(if rank & 1 == 0 {
            Player::First
        } else {
            Player::Second
        })
    }

    fn successors<F: FnMut(Successor) -> bool>(
        &self,
        _layer: usize,
        state: &DodgemState,
        mut emit: F,
    ) {
        self.for_each_move(state, |next| emit(self.successor(&next)));
    }

    /// Moves before the range are not ranked (see
    /// [`LayeredGame::successors_in`]).
    fn successors_in<F: FnMut(Successor)>(
        &self,
        _layer: usize,
        state: &DodgemState,
        moves: std::ops::Range<usize>,
        mut emit: F,
    ) -> bool {
        let mut window = MoveWindow::new(moves);
        self.for_each_move(state, |next| window.offer(|| emit(self.successor(&next))));
        window.more()
    }

    fn predecessors<F: FnMut(u64)>(&self, _layer: usize, state: &DodgemState, mut emit: F) {
        self.for_each_predecessor(state, |previous| emit(self.rank_of(&previous)));
    }

    /// The side with no legal move on its turn wins.
    fn no_move_value(&self, state: &DodgemState) -> Value {
        Value::win_for(self.mover(state))
    }

    /// `dodgem.wgsl` over the Rust step tables.
    fn retro_gpu_program(&self, layer: usize) -> Result<Program> {
        let steps = |steps: &[(i32, i32)]| -> Vec<u32> {
            steps
                .iter()
                .flat_map(|&(row, column)| [row as u32, column as u32])
                .collect()
        };
        let mut program = Program::default();
        program
            .constant("DODGEM_N", self.n as u32)
            .constant("DODGEM_SQUARES", (self.n * self.n) as u32)
            .constant("DODGEM_CARS", self.cars() as u32)
            .constant("DODGEM_ALL_SQUARES", self.all_squares() as u32)
            .table("DODGEM_BLUE_STEPS_AT", &steps(&BLUE_STEPS))
            .table("DODGEM_RED_STEPS_AT", &steps(&RED_STEPS))
            .binomial_hash()
            // The layer in a table, not a constant: every layer's program
            // is then the same text, compiled once a run.
            .table("DODGEM_LAYER_AT", &[layer as u32])
            .source(RETRO_KERNEL);
        Ok(program)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_positions_round_trip_in_every_layer() {
        for n in [3, 4] {
            let game = Dodgem::new(n).unwrap();
            let mut state = game.new_state();
            for layer in 0..=game.max_layer() {
                let blocks = game.layer_blocks(layer);
                assert_eq!(blocks.last().unwrap().end(), game.layer_size(layer));
                for rank in (0..game.layer_size(layer)).step_by(7) {
                    game.unrank(layer, rank, &mut state);
                    assert_eq!(game.layer_of(&state), layer);
                    assert_eq!(game.rank_of(&state), rank);
                    let text = game.position_text(&state);
                    assert_eq!(game.parse_position(&text).unwrap(), state, "{text}");
                }
            }
        }
    }

    #[test]
    fn the_start_and_its_moves() {
        let game = Dodgem::new(3).unwrap();
        let start = game.start();
        assert_eq!(game.position_text(&start), "B../B../.RR:blue");
        let mut names = Vec::new();
        game.for_each_move(&start, |next| {
            names.push(game.move_name(&start, &next));
            true
        });
        assert_eq!(names, ["a2-b2", "a2-a1", "a3-b3"]);
        // A red car on the top row may leave.
        let red = game.parse_position("..R/B../B.R:red").unwrap();
        let mut names = Vec::new();
        game.for_each_move(&red, |next| {
            names.push(game.move_name(&red, &next));
            true
        });
        assert_eq!(names, ["c3-off", "c1-c2", "c1-b1", "c3-b3"]);
    }

    #[test]
    fn predecessors_are_exactly_the_positions_with_a_move_here() {
        let game = Dodgem::new(3).unwrap();
        let mut state = game.new_state();
        let mut previous = game.new_state();
        for layer in 1..=game.max_layer() {
            let mut found = Vec::new();
            for rank in 0..game.layer_size(layer) {
                game.unrank(layer, rank, &mut state);
                game.for_each_move(&state, |next| {
                    if game.layer_of(&next) == layer {
                        found.push((game.rank_of(&next), rank));
                    }
                    true
                });
            }
            let mut listed = Vec::new();
            for rank in 0..game.layer_size(layer) {
                game.unrank(layer, rank, &mut previous);
                game.for_each_predecessor(&previous, |p| listed.push((rank, game.rank_of(&p))));
            }
            found.sort_unstable();
            listed.sort_unstable();
            assert_eq!(found, listed, "layer {layer}");
        }
    }

    #[test]
    fn bad_positions_are_one_line_errors() {
        let game = Dodgem::new(3).unwrap();
        for (text, expected) in [
            ("B../B../.RR", "':blue' or ':red'"),
            ("B../B../.RR:green", "'green'"),
            ("B../B..:blue", "3 rows of 3"),
            ("BB./B../.RR:blue", "3 blue cars"),
            ("B../B.x/.RR:blue", "'x' at c2"),
        ] {
            let message = game.parse_position(text).unwrap_err().to_string();
            assert!(message.contains(expected), "{text}: {message}");
        }
        assert!(Dodgem::new(6).is_err());
    }
}
