//! Random instances for the cross-check at scale (`qbf suite`): a game, a
//! position reached by random legal play from its start, and a small
//! depth. A few dozen hand-picked formulas say little about an encoding;
//! a thousand positions, each solved exhaustively in well under a second,
//! exercise stones on the board, both turn orders and both answers.
//!
//! Three families: the positions of Hein's Hex puzzles (`.pg` files), Harary's
//! animals on 4×4 and 5×5 (the built-in games), and tic-tac-toe (the GTTT
//! `.pg` files and the built-in game). The same seed gives the same
//! instances.

use std::path::{Path, PathBuf};

use super::exhaustive::{Outcome, solve};
use crate::error::{Error, Result};
use crate::games::positional::builtins::{POLYOMINOES, harary, tic_tac_toe};
use crate::games::positional::{PositionalGame, Query, Side, mask_of, pg};

/// Where an instance comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Hein's Hex puzzles (`hex-hein/*.pg`).
    Hex,
    /// Harary's animals on 4×4 and 5×5 (built in).
    Harary,
    /// Tic-tac-toe: the GTTT `.pg` files and the built-in game.
    TicTacToe,
}

impl Family {
    /// The family's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Family::Hex => "hex",
            Family::Harary => "harary",
            Family::TicTacToe => "tic-tac-toe",
        }
    }
}

/// A game's start, from which instances are played: its stones, its turn
/// order, and the deepest question asked of it.
#[derive(Clone, Debug)]
pub struct Base {
    /// The family the game belongs to.
    pub family: Family,
    /// The game at its start; a `.pg` game without its Hex graph, which
    /// holds only for the file's own position and depth (see [`Base::file`]).
    pub game: PositionalGame,
    /// Who moves at each time point from the start: a file's `#times`, then
    /// on alternating.
    pub turns: Vec<Side>,
    /// The `.pg` file the game comes from, if any: an instance is written
    /// and read back through the format, so that the Hex graph is
    /// recognised anew for the instance's own stones and depth.
    pub file: Option<PathBuf>,
    /// Most moves played at random before the question.
    pub most_placed: usize,
    /// Deepest question (keeps each exhaustive solve and formula small).
    pub most_depth: usize,
}

/// One question of the suite: does Black win `query` from `game`'s stones?
#[derive(Clone, Debug)]
pub struct Instance {
    /// The family of the game.
    pub family: Family,
    /// What the game is: a file's name or the built-in game's.
    pub source: String,
    /// The game with the position's stones.
    pub game: PositionalGame,
    /// The turn order of the question, from the position.
    pub query: Query,
    /// Moves played at random from the game's start.
    pub placed: usize,
}

impl Instance {
    /// The position as a picture: one character per cell in cell order (`X`
    /// black, `O` white, `.` empty), as `--position` reads it.
    pub fn picture(&self) -> String {
        let (black, white) = (
            mask_of(&self.game.black_stones),
            mask_of(&self.game.white_stones),
        );
        (0..self.game.cells.len())
            .map(|cell| match (black >> cell & 1, white >> cell & 1) {
                (1, _) => 'X',
                (_, 1) => 'O',
                _ => '.',
            })
            .collect()
    }

    /// The turn order as letters (`B`, `W`), one per time point.
    pub fn turns(&self) -> String {
        self.query
            .turns
            .iter()
            .map(|side| match side {
                Side::Black => 'B',
                Side::White => 'W',
            })
            .collect()
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny generator whose stream
/// depends on the seed alone, so a suite is reproduced by its seed on any
/// machine and version of the dependencies.
#[derive(Clone, Debug)]
pub struct Random(u64);

impl Random {
    /// The generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Random(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0); the bias of the modulo is below 2^-50
    /// for the small n used here.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Games drawn alike, and how often the group is drawn against the
/// family's other groups.
#[derive(Clone, Debug)]
pub struct Group {
    /// Relative weight of the group within its family.
    pub weight: usize,
    /// The games, each drawn alike.
    pub games: Vec<Base>,
}

/// The games instances are drawn from, by family.
#[derive(Clone, Debug)]
pub struct Bases {
    /// Each family and its groups of games; every family has a game.
    pub families: Vec<(Family, Vec<Group>)>,
}

impl Bases {
    /// Every game of every family.
    pub fn games(&self) -> impl Iterator<Item = &Base> {
        self.families
            .iter()
            .flat_map(|(_, groups)| groups.iter().flat_map(|g| &g.games))
    }
}

/// A game of `groups`, drawn by the groups' weights (an empty group
/// weighs nothing); at least one group must have games and weight.
fn draw<'a>(groups: &'a [Group], random: &mut Random) -> &'a Base {
    let weight = |g: &Group| if g.games.is_empty() { 0 } else { g.weight };
    let total: usize = groups.iter().map(weight).sum();
    let mut at = random.below(total);
    for group in groups {
        if at < weight(group) {
            return &group.games[random.below(group.games.len())];
        }
        at -= weight(group);
    }
    unreachable!("the weights add up to the total")
}

/// The `.pg` files of `directory`, sorted (a fixed order keeps a seed's
/// instances the same).
fn pg_files(directory: &Path) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(directory).map_err(|e| {
        Error::io_at(
            format!(
                "cannot read {} (the .pg files of the suite; give --data DIR)",
                directory.display()
            ),
            directory,
            e,
        )
    })?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| Error::on_file("read", directory, e))?
            .path();
        if path.extension().is_some_and(|e| e == "pg") {
            files.push(path);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(Error::InvalidParameter(format!(
            "{} holds no .pg files",
            directory.display()
        )));
    }
    Ok(files)
}

/// A `.pg` file's game and turn order, without the Hex graph.
fn read_pg(path: &Path) -> Result<(PositionalGame, Query)> {
    let (mut game, query) = pg::read(path)?;
    game.graph = None;
    Ok((game, query))
}

impl Bases {
    /// The suite's games: the `.pg` files of `data`'s `hex-hein` and
    /// `gttt-3x3` directories and the built-in games.
    pub fn load(data: &Path) -> Result<Bases> {
        let mut hex = Vec::new();
        for path in pg_files(&data.join("hex-hein"))? {
            let (game, query) = read_pg(&path)?;
            let free = game.free_cells().len();
            // Depth 5 at most but on 3x3: at 7 the lifted encodings (LA,
            // LN) run past 10 s with DepQBF on 4x4 boards.
            let most_depth = if free <= 8 { 7 } else { 5 };
            hex.push(Base {
                family: Family::Hex,
                game,
                turns: query.turns,
                file: Some(path),
                most_placed: 4,
                most_depth,
            });
        }
        // Harary's games: maker-breaker mostly, where every explicit-set
        // encoding applies (maker-maker leaves only COR+).
        let mut harary_games = [Vec::new(), Vec::new()];
        for size in [4, 5] {
            for (shape, _) in POLYOMINOES {
                for maker_breaker in [true, false] {
                    // A shape longer than the board has no placement.
                    let Ok(game) = harary(size, shape, false, maker_breaker) else {
                        continue;
                    };
                    harary_games[usize::from(!maker_breaker)].push(Base {
                        family: Family::Harary,
                        turns: Query::alternating(game.cells.len()).turns,
                        game,
                        file: None,
                        most_placed: if size == 4 { 6 } else { 8 },
                        // LA runs past 10 s at depth 7 on 4x4 (el, elly).
                        most_depth: 5,
                    });
                }
            }
        }
        let [harary_breaker, harary_maker] = harary_games;
        // The GTTT files (maker-maker, Black or White first) and the
        // built-in tic-tac-toe boards.
        let mut gttt = Vec::new();
        for path in pg_files(&data.join("gttt-3x3"))? {
            let (game, query) = read_pg(&path)?;
            gttt.push(Base {
                family: Family::TicTacToe,
                game,
                turns: query.turns,
                file: Some(path),
                most_placed: 4,
                most_depth: 7,
            });
        }
        let mut tic = [Vec::new(), Vec::new()];
        for (width, height, k) in [(3, 3, 3), (4, 3, 3), (4, 4, 3), (4, 4, 4)] {
            for maker_maker in [false, true] {
                let game = tic_tac_toe(width, height, k, maker_maker)?;
                tic[usize::from(maker_maker)].push(Base {
                    family: Family::TicTacToe,
                    turns: Query::alternating(game.cells.len()).turns,
                    game,
                    file: None,
                    most_placed: 6,
                    most_depth: if width * height <= 9 { 7 } else { 5 },
                });
            }
        }
        let [tic_breaker, tic_maker] = tic;
        let group = |weight, games| Group { weight, games };
        Ok(Bases {
            families: vec![
                (Family::Hex, vec![group(1, hex)]),
                (
                    Family::Harary,
                    vec![group(3, harary_breaker), group(1, harary_maker)],
                ),
                (
                    Family::TicTacToe,
                    vec![group(2, tic_breaker), group(1, tic_maker), group(2, gttt)],
                ),
            ],
        })
    }
}

/// The side that moves at time point `t` of `turns`, alternating on past
/// its end.
fn side_at(turns: &[Side], t: usize) -> Side {
    match turns.get(t) {
        Some(&side) => side,
        None => {
            let last = *turns.last().unwrap_or(&Side::White);
            let beyond = t + 1 - turns.len();
            if (beyond % 2 == 1) == (last == Side::Black) {
                Side::White
            } else {
                Side::Black
            }
        }
    }
}

/// Whether `side` has claimed one of its winning sets (the listed sets:
/// the game's definition, graph or not).
fn has_won(game: &PositionalGame, side: Side) -> bool {
    let (stones, sets) = match side {
        Side::Black => (&game.black_stones, &game.black_wins),
        Side::White => (&game.white_stones, &game.white_wins),
    };
    let owned = mask_of(stones);
    sets.iter().any(|set| mask_of(set) & !owned == 0)
}

/// Plays up to `moves` random legal moves of `base` from its start: each
/// by the side whose turn it is, never one that wins (a won game has no
/// further moves, and a decided position asks nothing). Stops early when
/// every free cell would win. Returns the game and the moves played.
fn play(base: &Base, moves: usize, random: &mut Random) -> (PositionalGame, usize) {
    let mut game = base.game.clone();
    let mut played = 0;
    while played < moves {
        let side = side_at(&base.turns, played);
        let free = game.free_cells();
        // From a random free cell on, the first whose claim does not win.
        let start = random.below(free.len().max(1));
        let chosen = (0..free.len())
            .map(|i| free[(start + i) % free.len()])
            .find(|&cell| {
                let mut after = game.clone();
                match side {
                    Side::Black => after.black_stones.push(cell),
                    Side::White => after.white_stones.push(cell),
                }
                !has_won(&after, side)
            });
        let Some(cell) = chosen else { break };
        match side {
            Side::Black => game.black_stones.push(cell),
            Side::White => game.white_stones.push(cell),
        }
        played += 1;
    }
    if played > 0 {
        // Symmetry breaking belongs to the empty board.
        game.first_moves = None;
    }
    game.black_stones.sort_unstable();
    game.white_stones.sort_unstable();
    (game, played)
}

/// One instance from `base`: random moves, then a random depth (odd when
/// Black is to move, so that the encodings for Black first and last
/// apply).
fn instance(base: &Base, random: &mut Random) -> Result<Instance> {
    let free = base.game.free_cells().len();
    // Leave at least one free cell.
    let most_placed = base.most_placed.min(free.saturating_sub(1));
    let mut moves = random.below(most_placed + 1);
    // Black to move three times in four: the encodings other than COR+
    // need Black first.
    if random.below(4) != 0 && side_at(&base.turns, moves) == Side::White {
        moves = if moves < most_placed {
            moves + 1
        } else {
            moves.saturating_sub(1)
        };
    }
    let (game, placed) = play(base, moves, random);
    let free = game.free_cells().len();
    let most_depth = base.most_depth.min(free).max(1);
    let black_first = side_at(&base.turns, placed) == Side::Black;
    let depth = if black_first {
        // The odd depths 1, 3, .. up to most_depth.
        1 + 2 * random.below(most_depth.div_ceil(2))
    } else {
        1 + random.below(most_depth)
    };
    let query = Query {
        turns: (placed..placed + depth)
            .map(|t| side_at(&base.turns, t))
            .collect(),
    };
    let source = match &base.file {
        Some(path) => path
            .file_name()
            .map(|name| name.to_string_lossy().to_string())
            .unwrap_or_default(),
        None => base.game.name.clone(),
    };
    let game = match &base.file {
        // Written and read back: the Hex graph is recognised (or not) for
        // this position and depth, as `qbf check pg` would.
        Some(_) => pg::parse(&pg::write(&game, &query), &source)?.0,
        None => game,
    };
    Ok(Instance {
        family: base.family,
        source,
        game,
        query,
        placed,
    })
}

/// Candidates drawn for an instance until one has the wanted answer.
const TRIES: usize = 16;

/// `count` instances from `bases`, the families in turn, deterministic in
/// `seed`. Each instance is given a wanted answer (Black wins or not, at
/// random) and drawn again, up to 16 times, until exhaustive search gives
/// that answer: random positions at small depths are mostly no win for
/// Black, and a suite of one answer would not catch an encoding that
/// always says no.
pub fn generate(bases: &Bases, count: usize, seed: u64) -> Result<Vec<Instance>> {
    if count == 0 {
        return Err(Error::InvalidParameter(
            "a suite needs at least one instance (--count 1 or more)".into(),
        ));
    }
    if let Some((family, _)) = bases
        .families
        .iter()
        .find(|(_, groups)| groups.iter().all(|g| g.games.is_empty() || g.weight == 0))
    {
        return Err(Error::InvalidParameter(format!(
            "the suite has no {} games",
            family.name()
        )));
    }
    let mut random = Random::new(seed);
    let mut instances = Vec::with_capacity(count);
    for i in 0..count {
        let (_, groups) = &bases.families[i % bases.families.len()];
        let wanted = random.below(2) == 1;
        let mut chosen = None;
        for _ in 0..TRIES {
            let candidate = instance(draw(groups, &mut random), &mut random)?;
            let wins = solve(&candidate.game, &candidate.query)?.outcome == Outcome::BlackWins;
            let done = wins == wanted;
            chosen = Some(candidate);
            if done {
                break;
            }
        }
        instances.push(chosen.expect("at least one try"));
    }
    Ok(instances)
}
