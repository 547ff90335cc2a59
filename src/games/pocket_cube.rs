//! The 2x2x2 Rubik's cube, the "pocket cube".
//!
//! A pocket cube is eight corner cubies. Turning the whole cube changes
//! nothing, so one corner, DBL, is held fixed and only the three faces that
//! do not touch it turn: U, R and F. The other seven corners are numbered by
//! their home positions
//!
//! ```text
//! 0 URF   1 UFL   2 ULB   3 UBR   4 DFR   5 DLF   6 DRB   (DBL fixed)
//! ```
//!
//! and a state says which corner sits at each position and its twist: 0 when
//! the corner's U/D sticker lies on the position's U/D face, 1 or 2 when it
//! lies one or two facets clockwise from there. Turns keep the twists' sum a
//! multiple of 3 (a single corner cannot be twisted, section 8.4.1 of
//! Edelkamp et al., *Solving Games in Parallel with Linear-Time Perfect Hash
//! Functions* (TZI report 52, Bremen, 2009)), and every permutation with every
//! such twist pattern is reachable: 7! x 3^6 = 3,674,160 states.
//!
//! The rank is `rank_mr(corners) * 729 + twists of positions 0..6 in base 3`
//! (position 0's digit the most significant); position 6's twist follows
//! from the others.
//!
//! The rules are data: [`QUARTER_TURNS`] gives each face's clockwise quarter
//! turn as a 4-cycle of positions with the twist each moving corner gains;
//! the metric's moves ([`PocketCube::moves`]) are powers of those, and the
//! CPU expansion and the GPU kernel (`src/games/pocket_cube.wgsl`) both apply
//! that one table.

use super::permutation_state::parse_numbers;
use super::registration::{GameOptions, OptionSpec, Registered};
use crate::diagram::{Cell, Diagram, Style};
use crate::error::{Error, Result, quoted};
use crate::hash::permutation::{rank_mr, unrank_mr};
use crate::kernel::Program;
use crate::space::{MoveFilter, Picture, Space};

/// The GPU expansion of this game (see [`crate::kernel`]).
const POCKET_CUBE_KERNEL: &str = include_str!("pocket_cube.wgsl");

/// The corners that move: all but DBL.
pub const FREE_CORNERS: usize = 7;

/// Twist patterns the rank stores: 3^6 (the seventh twist is implied).
const TWIST_NUMBERS: u64 = 729;

/// The free corners' names, in position order.
pub const CORNER_NAMES: [&str; FREE_CORNERS] = ["URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DRB"];

/// Which turns count as one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeMetric {
    /// Half-turn metric: quarter turns both ways and half turns (9 moves).
    Htm,
    /// Quarter-turn metric: quarter turns both ways (6 moves).
    Qtm,
}

impl CubeMetric {
    /// The metric's name as options give it.
    pub fn name(self) -> &'static str {
        match self {
            CubeMetric::Htm => "htm",
            CubeMetric::Qtm => "qtm",
        }
    }

    /// How many clockwise quarter turns make each move of a face.
    fn powers(self) -> &'static [usize] {
        match self {
            CubeMetric::Htm => &[1, 2, 3],
            CubeMetric::Qtm => &[1, 3],
        }
    }
}

impl std::str::FromStr for CubeMetric {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        match text {
            "htm" => Ok(CubeMetric::Htm),
            "qtm" => Ok(CubeMetric::Qtm),
            other => Err(Error::InvalidParameter(format!(
                "the pocket-cube metric is htm or qtm, got {}",
                quoted(other)
            ))),
        }
    }
}

/// A face's clockwise quarter turn (seen from outside that face): the
/// corner at `cycle[k]` moves to `cycle[k + 1]` (cyclically) and its twist
/// grows by `twists[k]`.
#[derive(Clone, Copy, Debug)]
pub struct QuarterTurn {
    /// The turning face: `U`, `R` or `F`.
    pub face: char,
    /// The positions the turn carries a corner around, in order.
    pub cycle: [usize; 4],
    /// The twist gained by the corner leaving `cycle[k]`.
    pub twists: [u8; 4],
}

/// The three turning faces. A U turn keeps U/D stickers on U, so it twists
/// nothing; an R or F turn carries two corners up and two down, each
/// turned a third one way or the other.
pub const QUARTER_TURNS: [QuarterTurn; 3] = [
    QuarterTurn {
        face: 'U',
        cycle: [0, 1, 2, 3],
        twists: [0, 0, 0, 0],
    },
    QuarterTurn {
        face: 'R',
        cycle: [0, 3, 6, 4],
        twists: [1, 2, 1, 2],
    },
    QuarterTurn {
        face: 'F',
        cycle: [0, 4, 5, 1],
        twists: [2, 1, 2, 1],
    },
];

/// One move as it acts on the seven positions: position `p` receives the
/// corner that sat at `from[p]`, whose twist grows by `twist[p]` (mod 3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CornerMove {
    /// "U", "U2", "U'", ...
    pub name: String,
    /// Position `p` receives the corner from position `from[p]`.
    pub from: [u8; FREE_CORNERS],
    /// The twist gained by the corner arriving at position `p`.
    pub twist: [u8; FREE_CORNERS],
}

impl CornerMove {
    fn identity() -> Self {
        CornerMove {
            name: String::new(),
            from: std::array::from_fn(|p| p as u8),
            twist: [0; FREE_CORNERS],
        }
    }

    fn quarter_turn(turn: &QuarterTurn) -> Self {
        let mut result = CornerMove::identity();
        for k in 0..4 {
            let (leaving, arriving) = (turn.cycle[k], turn.cycle[(k + 1) % 4]);
            result.from[arriving] = leaving as u8;
            result.twist[arriving] = turn.twists[k];
        }
        result
    }

    /// This move followed by `next`.
    fn then(&self, next: &CornerMove) -> CornerMove {
        let mut result = CornerMove::identity();
        for p in 0..FREE_CORNERS {
            let via = next.from[p] as usize;
            result.from[p] = self.from[via];
            result.twist[p] = (self.twist[via] + next.twist[p]) % 3;
        }
        result
    }

    /// The state this move leads to from `state`.
    #[inline(always)]
    pub fn apply(&self, state: &CubeState) -> CubeState {
        let mut moved = CubeState::solved();
        for p in 0..FREE_CORNERS {
            let from = self.from[p] as usize;
            moved.corners[p] = state.corners[from];
            moved.twists[p] = (state.twists[from] + self.twist[p]) % 3;
        }
        moved
    }
}

/// The 2x2x2 cube with its DBL corner fixed, under one metric.
#[derive(Clone, Debug)]
pub struct PocketCube {
    metric: CubeMetric,
    moves: Vec<CornerMove>,
}

/// `corners[p]`: the corner (numbered by its home position) at position
/// `p`; `twists[p]`: its twist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CubeState {
    corners: [u8; FREE_CORNERS],
    twists: [u8; FREE_CORNERS],
}

impl CubeState {
    fn solved() -> Self {
        CubeState {
            corners: std::array::from_fn(|p| p as u8),
            twists: [0; FREE_CORNERS],
        }
    }
}

impl PocketCube {
    /// Every metric is valid today; the `Result` matches the other games'
    /// constructors.
    pub fn new(metric: CubeMetric) -> Result<Self> {
        let mut moves = Vec::new();
        for turn in &QUARTER_TURNS {
            let quarter = CornerMove::quarter_turn(turn);
            for &power in metric.powers() {
                let mut turned = CornerMove::identity();
                for _ in 0..power {
                    turned = turned.then(&quarter);
                }
                let suffix = ["", "", "2", "'"][power];
                turned.name = format!("{}{suffix}", turn.face);
                moves.push(turned);
            }
        }
        Ok(PocketCube { metric, moves })
    }

    /// Which turns count as one move.
    pub fn metric(&self) -> CubeMetric {
        self.metric
    }

    /// The metric's moves: the table the CPU expansion applies and the GPU
    /// kernel is given.
    pub fn moves(&self) -> &[CornerMove] {
        &self.moves
    }

    /// The letter of each sticker (the face it shows when solved), by face
    /// U, R, F, D, L, B and, within a face, row by row as the net draws it.
    fn stickers(&self, state: &CubeState) -> [[char; 4]; 6] {
        // Where each position's stickers lie, clockwise from its U/D
        // sticker, as (face, index): Kociemba's corner facelets on 2x2 faces.
        const U: usize = 0;
        const R: usize = 1;
        const F: usize = 2;
        const D: usize = 3;
        const L: usize = 4;
        const B: usize = 5;
        const FACES: [char; 6] = ['U', 'R', 'F', 'D', 'L', 'B'];
        const FACETS: [[(usize, usize); 3]; 8] = [
            [(U, 3), (R, 0), (F, 1)],
            [(U, 2), (F, 0), (L, 1)],
            [(U, 0), (L, 0), (B, 1)],
            [(U, 1), (B, 0), (R, 1)],
            [(D, 1), (F, 3), (R, 2)],
            [(D, 0), (L, 3), (F, 2)],
            [(D, 3), (R, 3), (B, 2)],
            [(D, 2), (B, 3), (L, 2)],
        ];
        let mut stickers = [[' '; 4]; 6];
        let fixed = (FREE_CORNERS as u8, 0u8);
        for (position, facets) in FACETS.iter().enumerate() {
            let (corner, twist) = if position < FREE_CORNERS {
                (state.corners[position], state.twists[position])
            } else {
                fixed
            };
            for (n, &(home_face, _)) in FACETS[corner as usize].iter().enumerate() {
                let (face, index) = facets[(n + twist as usize) % 3];
                stickers[face][index] = FACES[home_face];
            }
        }
        stickers
    }
}

impl Registered for PocketCube {
    const NAME: &'static str = "pocket-cube";
    const SUMMARY: &'static str =
        "2x2x2 cube with one corner fixed: 3,674,160 positions, turns of the three free faces";
    const OPTIONS: &'static [OptionSpec] = &[OptionSpec::value(
        "metric",
        "METRIC",
        "htm (quarter and half turns count one move) or qtm (quarter turns only)",
    )
    .with_default("htm")];

    fn from_options(options: &GameOptions) -> Result<Self> {
        PocketCube::new(options.get("metric").unwrap_or("htm").parse()?)
    }
}

impl Space for PocketCube {
    fn gpu_program(&self) -> Result<Program> {
        let table: Vec<u32> = self
            .moves
            .iter()
            .flat_map(|corner_move| corner_move.from.iter().chain(&corner_move.twist))
            .map(|&value| value as u32)
            .collect();
        let mut program = Program::default();
        program
            .constant("FREE_CORNERS", FREE_CORNERS as u32)
            .constant("TWIST_NUMBERS", TWIST_NUMBERS as u32)
            .constant("MOVE_COUNT", self.moves.len() as u32)
            .table("MOVES_AT", &table)
            .permutation_hash(FREE_CORNERS)
            .source(POCKET_CUBE_KERNEL);
        Ok(program)
    }

    type State = CubeState;

    fn descriptor(&self) -> String {
        format!("pocket-cube metric={}", self.metric.name())
    }

    fn size(&self) -> u64 {
        // 7! permutations times the twist patterns.
        5040 * TWIST_NUMBERS
    }

    fn start_ranks(&self) -> Vec<u64> {
        vec![self.rank(&CubeState::solved())]
    }

    fn new_state(&self) -> CubeState {
        CubeState::solved()
    }

    #[inline]
    fn unrank(&self, rank: u64, state: &mut CubeState) {
        unrank_mr(rank / TWIST_NUMBERS, &mut state.corners);
        let mut twist_number = rank % TWIST_NUMBERS;
        let mut sum = 0;
        for twist in state.twists[..FREE_CORNERS - 1].iter_mut().rev() {
            *twist = (twist_number % 3) as u8;
            twist_number /= 3;
            sum += *twist;
        }
        state.twists[FREE_CORNERS - 1] = (3 - sum % 3) % 3;
    }

    #[inline]
    fn rank(&self, state: &CubeState) -> u64 {
        let twist_number = state.twists[..FREE_CORNERS - 1]
            .iter()
            .fold(0u64, |number, &twist| number * 3 + twist as u64);
        rank_mr(&state.corners) * TWIST_NUMBERS + twist_number
    }

    #[inline]
    fn expand<F: FnMut(u64)>(&self, state: &CubeState, _moves: MoveFilter, mut emit: F) {
        for corner_move in &self.moves {
            emit(self.rank(&corner_move.apply(state)));
        }
    }

    fn reversible(&self) -> bool {
        // X' undoes X, X2 undoes itself: both metrics hold every inverse.
        true
    }
}

impl Picture for PocketCube {
    /// "0,1,2,3,4,5,6/0,0,0,0,0,0,0": the corners at the seven free
    /// positions, then their twists.
    fn position_text(&self, state: &CubeState) -> String {
        let list = |values: &[u8]| {
            values
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        format!("{}/{}", list(&state.corners), list(&state.twists))
    }

    /// The metric's move that turns `from` into `to`: "U", "R2", "F'".
    fn move_name(&self, from: &CubeState, to: &CubeState) -> String {
        self.moves
            .iter()
            .find(|turn| turn.apply(from) == *to)
            .map_or_else(|| "no turn".to_string(), |turn| turn.name.clone())
    }

    /// The net as `draw` lays it out (U above L F R B, D below), each
    /// sticker named by its face and index and showing its home face.
    fn diagram(&self, state: &CubeState) -> Diagram {
        let [u, r, f, d, l, b] = self.stickers(state);
        // (face, its letter, its 2x2 block's top-left row and column).
        let faces = [
            (u, 'U', 0, 2),
            (l, 'L', 2, 0),
            (f, 'F', 2, 2),
            (r, 'R', 2, 4),
            (b, 'B', 2, 6),
            (d, 'D', 4, 2),
        ];
        let cells = faces
            .iter()
            .flat_map(|&(stickers, letter, top, left)| {
                (0..4).map(move |index| Cell {
                    name: format!("{letter}{index}"),
                    row: top + index / 2,
                    column: left + index % 2,
                    piece: Some(stickers[index].to_string()),
                })
            })
            .collect();
        Diagram::new(Style::Net, cells)
    }

    /// The cube's net (U on top, then L F R B, then D; each sticker shows
    /// the face it belongs to), then the position's text form.
    fn draw(&self, state: &CubeState) -> String {
        let [u, r, f, d, l, b] = self.stickers(state);
        let row = |face: &[char; 4], top: usize| format!("{} {}", face[top], face[top + 1]);
        let mut picture = String::new();
        for top in [0, 2] {
            picture.push_str(&format!("    {}\n", row(&u, top)));
        }
        for top in [0, 2] {
            picture.push_str(&format!(
                "{} {} {} {}\n",
                row(&l, top),
                row(&f, top),
                row(&r, top),
                row(&b, top)
            ));
        }
        for top in [0, 2] {
            picture.push_str(&format!("    {}\n", row(&d, top)));
        }
        picture.push_str(&format!("position {}\n", self.position_text(state)));
        picture
    }

    /// The corner at each position URF, UFL, ULB, UBR, DFR, DLF, DRB (0-6,
    /// numbered by home position), a '/', then their twists (0-2, summing
    /// to a multiple of 3), e.g. solved "0,1,2,3,4,5,6/0,0,0,0,0,0,0".
    fn read_position(&self, text: &str) -> Result<CubeState> {
        let invalid = |message: String| Error::InvalidParameter(message);
        let Some((corners_text, twists_text)) = text.split_once('/') else {
            return Err(invalid(format!(
                "a pocket-cube position is 7 corners, '/', then their 7 twists, e.g. 0,1,2,3,4,5,6/0,0,0,0,0,0,0; got {}",
                quoted(text)
            )));
        };
        let corners = parse_numbers(corners_text)?;
        let twists = parse_numbers(twists_text)?;
        for (what, values) in [("corners", &corners), ("twists", &twists)] {
            if values.len() != FREE_CORNERS {
                return Err(invalid(format!(
                    "a pocket-cube position needs {FREE_CORNERS} {what}, got {}",
                    values.len()
                )));
            }
        }
        let mut state = CubeState::solved();
        let mut seen = [false; FREE_CORNERS];
        for (position, &corner) in corners.iter().enumerate() {
            if !(0..FREE_CORNERS as i64).contains(&corner) {
                return Err(invalid(format!(
                    "corner {corner} at {} is not one of 0..=6 (DBL, corner 7, stays fixed)",
                    CORNER_NAMES[position]
                )));
            }
            if std::mem::replace(&mut seen[corner as usize], true) {
                return Err(invalid(format!(
                    "corner {corner} appears twice (each of 0..=6 must appear once)"
                )));
            }
            state.corners[position] = corner as u8;
        }
        for (position, &twist) in twists.iter().enumerate() {
            if !(0..3).contains(&twist) {
                return Err(invalid(format!(
                    "twist {twist} at {} is not 0, 1 or 2",
                    CORNER_NAMES[position]
                )));
            }
            state.twists[position] = twist as u8;
        }
        let sum: i64 = twists.iter().sum();
        if sum % 3 != 0 {
            return Err(invalid(format!(
                "the twists sum to {sum}, not a multiple of 3: no turns twist a single corner"
            )));
        }
        Ok(state)
    }

    fn goal_label(&self) -> String {
        "solved".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both_metrics() -> [PocketCube; 2] {
        [CubeMetric::Htm, CubeMetric::Qtm].map(|metric| PocketCube::new(metric).unwrap())
    }

    #[test]
    fn rank_and_unrank_agree_on_the_whole_space() {
        let cube = PocketCube::new(CubeMetric::Htm).unwrap();
        assert_eq!(cube.size(), 3_674_160);
        crate::space::assert_rank_inverts_unrank(&cube);
    }

    #[test]
    fn the_solved_cube_is_the_start() {
        let cube = PocketCube::new(CubeMetric::Qtm).unwrap();
        let mut state = cube.new_state();
        cube.unrank(cube.start_ranks()[0], &mut state);
        assert_eq!(state, CubeState::solved());
        assert_eq!(cube.descriptor(), "pocket-cube metric=qtm");
    }

    #[test]
    fn metrics_have_9_and_6_moves_and_every_move_has_an_inverse_move() {
        for (cube, names) in both_metrics()
            .iter()
            .zip(["U U2 U' R R2 R' F F2 F'", "U U' R R' F F'"])
        {
            let listed: Vec<&str> = cube.moves().iter().map(|m| m.name.as_str()).collect();
            assert_eq!(listed.join(" "), names);
            for corner_move in cube.moves() {
                let undone = cube
                    .moves()
                    .iter()
                    .any(|inverse| corner_move.then(inverse) == CornerMove::identity());
                assert!(undone, "{} has no inverse move", corner_move.name);
            }
        }
    }

    #[test]
    fn quarter_turns_have_order_4_and_keep_the_twist_sum() {
        for turn in &QUARTER_TURNS {
            let quarter = CornerMove::quarter_turn(turn);
            let mut power = CornerMove::identity();
            for times in 1..=4 {
                power = power.then(&quarter);
                assert_eq!(power == CornerMove::identity(), times == 4, "{}", turn.face);
            }
            assert_eq!(turn.twists.iter().sum::<u8>() % 3, 0);
        }
    }

    #[test]
    fn successors_rank_back_to_the_state_through_the_inverse_move() {
        let cube = PocketCube::new(CubeMetric::Htm).unwrap();
        let mut state = cube.new_state();
        let mut successor = cube.new_state();
        for rank in (0..cube.size()).step_by(9973) {
            cube.unrank(rank, &mut state);
            let mut successors = Vec::new();
            cube.expand(&state, MoveFilter::All, |r| successors.push(r));
            assert_eq!(successors.len(), 9);
            for &next in &successors {
                assert_ne!(next, rank);
                cube.unrank(next, &mut successor);
                let mut back = false;
                cube.expand(&successor, MoveFilter::All, |r| back |= r == rank);
                assert!(back, "rank {rank} -> {next}");
            }
        }
    }

    /// One face's two rows of a drawn net, by face letter.
    fn net_rows(picture: &str, face: char) -> [String; 2] {
        let lines: Vec<&str> = picture.lines().collect();
        let pick = |line: &str, column: usize| line.split(' ').skip(column).take(2).collect();
        match face {
            'U' => [0, 1].map(|l| lines[l].trim().replace(' ', "")),
            'D' => [4, 5].map(|l| lines[l].trim().replace(' ', "")),
            _ => {
                let column = 2 * "LFRB".find(face).unwrap();
                [2, 3].map(|l| pick(lines[l], column))
            }
        }
    }

    #[test]
    fn drawn_quarter_turns_move_the_stickers_a_real_cube_moves() {
        let cube = PocketCube::new(CubeMetric::Qtm).unwrap();
        let solved = CubeState::solved();
        let picture = cube.draw(&solved);
        for face in "URFDLB".chars() {
            let rows = net_rows(&picture, face);
            assert_eq!(rows, [format!("{face}{face}"), format!("{face}{face}")]);
        }
        let turned = |name: &str| {
            let corner_move = cube.moves().iter().find(|m| m.name == name).unwrap();
            cube.draw(&corner_move.apply(&solved))
        };
        // U clockwise: the front's top row comes from the right.
        assert_eq!(net_rows(&turned("U"), 'F'), ["RR", "FF"]);
        // R clockwise: the front's right column goes up.
        assert_eq!(net_rows(&turned("R"), 'U'), ["UF", "UF"]);
        // F clockwise: the left's right column goes up to U's bottom row.
        assert_eq!(net_rows(&turned("F"), 'U'), ["UU", "LL"]);
        assert_eq!(net_rows(&turned("F'"), 'U'), ["UU", "RR"]);
    }

    #[test]
    fn positions_round_trip_through_text_and_drawing() {
        let cube = PocketCube::new(CubeMetric::Htm).unwrap();
        let mut state = cube.new_state();
        for rank in (0..cube.size()).step_by(7919) {
            cube.unrank(rank, &mut state);
            let text = cube.position_text(&state);
            let parsed = cube.parse_position(&text).unwrap();
            assert_eq!(parsed, state, "{text}");
            let picture = cube.draw(&parsed);
            let last = picture.lines().last().unwrap();
            assert_eq!(
                cube.parse_position(&last["position ".len()..]).unwrap(),
                state
            );
        }
        let spaced = cube
            .parse_position("1 0 2 3 4 5 6 / 1 2 0 0 0 0 0")
            .unwrap();
        assert_eq!(cube.position_text(&spaced), "1,0,2,3,4,5,6/1,2,0,0,0,0,0");
    }

    #[test]
    fn every_turn_is_named_by_what_it_does() {
        for metric in [CubeMetric::Htm, CubeMetric::Qtm] {
            let cube = PocketCube::new(metric).unwrap();
            let mut state = cube.new_state();
            for rank in (0..cube.size()).step_by(104_729) {
                cube.unrank(rank, &mut state);
                for turn in cube.moves() {
                    assert_eq!(cube.move_name(&state, &turn.apply(&state)), turn.name);
                }
            }
        }
    }

    #[test]
    fn bad_positions_are_one_line_errors() {
        let cube = PocketCube::new(CubeMetric::Htm).unwrap();
        for (text, expected) in [
            ("0,1,2,3,4,5,6", "'/'"),
            ("0,1,2,3,4,5/0,0,0,0,0,0,0", "needs 7 corners, got 6"),
            ("0,1,2,3,4,5,6/0,0,0,0,0,0", "needs 7 twists, got 6"),
            ("0,1,2,3,4,5,6,7/0,0,0,0,0,0,0", "got 8"),
            ("0,1,2,3,4,5,5/0,0,0,0,0,0,0", "corner 5 appears twice"),
            ("0,1,2,3,4,5,7/0,0,0,0,0,0,0", "DBL"),
            ("0,1,2,3,4,5,6/0,0,0,0,0,0,1", "sum to 1"),
            ("0,1,2,3,4,5,6/3,0,0,0,0,0,0", "twist 3 at URF"),
            ("0,1,2,3,4,5,x/0,0,0,0,0,0,0", "'x'"),
        ] {
            let message = cube.parse_position(text).unwrap_err().to_string();
            assert!(message.contains(expected), "{text}: {message}");
            assert_eq!(message.lines().count(), 1, "{message}");
        }
    }

    #[test]
    fn metric_names_parse() {
        assert_eq!("htm".parse::<CubeMetric>().unwrap(), CubeMetric::Htm);
        assert_eq!("qtm".parse::<CubeMetric>().unwrap(), CubeMetric::Qtm);
        assert!("stm".parse::<CubeMetric>().is_err());
    }
}
