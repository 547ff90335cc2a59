//! `bitsolve.game(...)` for a two-player game: one layer of its solver's
//! tables (Fox-and-Geese's positions with G geese, Dodgem's with N cars)
//! as a space of ranks, and its positions in the text form `query` and
//! `play` read. Each call opens the game through the registry, as the
//! one-player calls do; bulk calls do their whole array in that one visit.

use bitsolve::error::Error;
use bitsolve::games::registry::{self, GameOptions};
use bitsolve::games::{TwoPlayerGame, TwoPlayerVisitor};
use bitsolve::space::Player;
use numpy::{PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::memory::{NoRoom, room_for, with_room};
use crate::{check_ranks, check_threads, game_options, to_python};

/// One call; [`Visit::visit`] opens the game and does it.
enum Op<'a> {
    Info(Option<usize>),
    Unrank(usize, &'a [u64]),
    Rank(usize, &'a [String]),
    Locate(&'a str),
    Moves(usize, u64),
    Draw(usize, u64),
}

enum Out {
    Info {
        layer: usize,
        max_layer: usize,
        descriptor: String,
        size: u64,
        sides: [String; 2],
        start: Option<(usize, u64)>,
    },
    Texts(Vec<String>),
    Ranks(Vec<u64>),
    Located(usize, u64),
    /// (move name, layer, rank) of each move.
    Moves(Vec<(String, usize, u64)>),
}

struct Visit<'a>(Op<'a>);

/// Python's bytes for a str of `len` ASCII characters beyond them (its
/// object header), and for its place in a list.
const PY_STR_OVERHEAD: u128 = 49 + 8;

/// The layer's size, after checking `layer` is one.
fn checked_layer<G: TwoPlayerGame>(game: &G, layer: usize) -> bitsolve::Result<u64> {
    if layer > game.max_layer() {
        return Err(Error::InvalidParameter(format!(
            "layers run from 0 to {}, got {layer}",
            game.max_layer()
        )));
    }
    Ok(game.layer_size(layer))
}

/// The position text of rank `rank` of `layer`.
fn text_of<G: TwoPlayerGame>(game: &G, layer: usize, rank: u64, state: &mut G::State) -> String {
    game.unrank(layer, rank, state);
    game.position_text(&game.position(state))
}

impl TwoPlayerVisitor for Visit<'_> {
    /// A call's answer, or why it has no room for it.
    type Output = Result<Out, NoRoom>;

    fn visit<G: TwoPlayerGame>(self, game: &G) -> bitsolve::Result<Self::Output> {
        if let Op::Unrank(layer, ranks) = self.0 {
            return unrank(game, layer, ranks);
        }
        self.answer(game).map(Ok)
    }
}

/// The position texts of `ranks` of `layer`, sized first: each is held
/// twice at the end, as a Rust string and as the Python str made of it.
fn unrank<G: TwoPlayerGame>(
    game: &G,
    layer: usize,
    ranks: &[u64],
) -> bitsolve::Result<Result<Out, NoRoom>> {
    let size = checked_layer(game, layer)?;
    // A layer's positions are written alike (the board, then the side to
    // move), so rank 0's text stands for every length; it is counted
    // three times: the Rust string, the Python str, the allocators'
    // rounding.
    let len = if size == 0 || ranks.is_empty() {
        0
    } else {
        text_of(game, layer, 0, &mut game.new_state()).len() as u128
    };
    let what = || {
        format!(
            "unrank's result ({} position texts of {len} characters)",
            ranks.len()
        )
    };
    let room = room_for(
        ranks.len() as u128 * (size_of::<String>() as u128 + 3 * len + PY_STR_OVERHEAD),
        &what,
    )
    .and_then(|()| with_room::<String>(ranks.len(), 0, &what));
    let mut texts = match room {
        Ok(texts) => texts,
        Err(no_room) => return Ok(Err(no_room)),
    };
    check_ranks(ranks, size)?;
    ranks
        .par_iter()
        .with_min_len(4096)
        .map_init(
            || game.new_state(),
            |state, &rank| text_of(game, layer, rank, state),
        )
        .collect_into_vec(&mut texts);
    Ok(Ok(Out::Texts(texts)))
}

impl Visit<'_> {
    fn answer<G: TwoPlayerGame>(self, game: &G) -> bitsolve::Result<Out> {
        match self.0 {
            Op::Info(layer) => {
                // A game whose tables do not hold its start (Lasker Morris,
                // whose opening is not solved) opens on its top layer.
                let start = game.start_position(None).ok().map(|p| game.locate(&p));
                let layer = layer.unwrap_or(start.map_or(game.max_layer(), |s| s.0));
                Ok(Out::Info {
                    size: checked_layer(game, layer)?,
                    layer,
                    max_layer: game.max_layer(),
                    descriptor: game.layer_descriptor(layer),
                    sides: [Player::First, Player::Second].map(|p| game.side_name(p).to_string()),
                    start,
                })
            }
            Op::Unrank(..) => unreachable!("unrank is answered by unrank()"),
            Op::Rank(layer, texts) => {
                checked_layer(game, layer)?;
                let ranks: bitsolve::Result<Vec<u64>> = texts
                    .par_iter()
                    .enumerate()
                    .map(|(i, text)| {
                        let position = game.parse_position(text)?;
                        match game.locate(&position) {
                            (found, rank) if found == layer => Ok(rank),
                            (found, _) => Err(Error::InvalidParameter(format!(
                                "position {i} ({text}) lies in layer {found} ({}), not in layer {layer}",
                                game.layer_name(found)
                            ))),
                        }
                    })
                    .collect();
                Ok(Out::Ranks(ranks?))
            }
            Op::Locate(text) => {
                let (layer, rank) = game.locate(&game.parse_position(text)?);
                Ok(Out::Located(layer, rank))
            }
            Op::Moves(layer, rank) => {
                check_ranks(&[rank], checked_layer(game, layer)?)?;
                let mut state = game.new_state();
                game.unrank(layer, rank, &mut state);
                let from = game.position(&state);
                let moves = game
                    .moves(&from)
                    .iter()
                    .map(|to| {
                        let (layer, rank) = game.locate(to);
                        (game.move_name(&from, to), layer, rank)
                    })
                    .collect();
                Ok(Out::Moves(moves))
            }
            Op::Draw(layer, rank) => {
                check_ranks(&[rank], checked_layer(game, layer)?)?;
                let mut state = game.new_state();
                game.unrank(layer, rank, &mut state);
                Ok(Out::Texts(vec![
                    game.position_text(&game.position(&state)),
                    game.draw(&game.position(&state)),
                ]))
            }
        }
    }
}

/// One layer of a two-player game's tables: its positions ranked
/// `0..size` as the solver ranks them (with `symmetry`, every rank is a
/// position, only representatives hold values).
#[pyclass(frozen, module = "bitsolve._bitsolve")]
pub struct TwoPlayer {
    name: String,
    options: GameOptions,
    #[pyo3(get)]
    layer: usize,
    #[pyo3(get)]
    max_layer: usize,
    #[pyo3(get)]
    descriptor: String,
    #[pyo3(get)]
    size: u64,
    #[pyo3(get)]
    sides: (String, String),
    /// The start position's (layer, rank), where the tables hold it.
    #[pyo3(get)]
    start: Option<(usize, u64)>,
}

impl TwoPlayer {
    fn run(&self, op: Op<'_>) -> PyResult<Out> {
        Ok(
            registry::visit_two_player(&self.name, &self.options, Visit(op))
                .map_err(to_python)??,
        )
    }
}

#[pymethods]
impl TwoPlayer {
    #[new]
    #[pyo3(signature = (name, options, layer=None))]
    fn new(
        name: &str,
        options: Vec<(String, Option<String>)>,
        layer: Option<usize>,
    ) -> PyResult<Self> {
        let options = game_options(name, options)?;
        match registry::visit_two_player(name, &options, Visit(Op::Info(layer)))
            .map_err(to_python)??
        {
            Out::Info {
                layer,
                max_layer,
                descriptor,
                size,
                sides: [first, second],
                start,
            } => Ok(TwoPlayer {
                name: name.to_string(),
                options,
                layer,
                max_layer,
                descriptor,
                size,
                sides: (first, second),
                start,
            }),
            _ => unreachable!("Info answers with info"),
        }
    }

    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The position texts of `ranks` of this layer.
    fn unrank(&self, py: Python<'_>, ranks: PyReadonlyArray1<'_, u64>) -> PyResult<Vec<String>> {
        // On rayon's global pool, which RAYON_NUM_THREADS sizes.
        check_threads(None)?;
        let ranks = ranks.as_slice()?;
        match py.detach(|| self.run(Op::Unrank(self.layer, ranks)))? {
            Out::Texts(texts) => Ok(texts),
            _ => unreachable!("Unrank answers with texts"),
        }
    }

    /// The ranks in this layer of positions `texts`.
    fn rank<'py>(
        &self,
        py: Python<'py>,
        texts: Vec<String>,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        check_threads(None)?;
        match py.detach(|| self.run(Op::Rank(self.layer, &texts)))? {
            Out::Ranks(ranks) => Ok(PyArray1::from_vec(py, ranks)),
            _ => unreachable!("Rank answers with ranks"),
        }
    }

    /// The (layer, rank) of the position written `text`.
    fn locate(&self, text: &str) -> PyResult<(usize, u64)> {
        match self.run(Op::Locate(text))? {
            Out::Located(layer, rank) => Ok((layer, rank)),
            _ => unreachable!("Locate answers with a place"),
        }
    }

    /// Each move from rank `rank` of `layer`: (name, layer, rank).
    fn moves(&self, layer: usize, rank: u64) -> PyResult<Vec<(String, usize, u64)>> {
        match self.run(Op::Moves(layer, rank))? {
            Out::Moves(moves) => Ok(moves),
            _ => unreachable!("Moves answers with moves"),
        }
    }

    /// (position text, picture) of rank `rank` of `layer`.
    fn show(&self, layer: usize, rank: u64) -> PyResult<(String, String)> {
        match self.run(Op::Draw(layer, rank))? {
            Out::Texts(mut texts) => {
                let picture = texts.pop().expect("two texts");
                Ok((texts.pop().expect("two texts"), picture))
            }
            _ => unreachable!("Draw answers with texts"),
        }
    }

    /// The successors of `rank` of this layer as rows (layer, rank),
    /// sorted, each once: a capture leads to the layer below.
    fn successors<'py>(&self, py: Python<'py>, rank: u64) -> PyResult<Bound<'py, PyArray2<u64>>> {
        let mut places: Vec<(usize, u64)> = self
            .moves(self.layer, rank)?
            .into_iter()
            .map(|(_, layer, rank)| (layer, rank))
            .collect();
        places.sort_unstable();
        places.dedup();
        let rows: Vec<Vec<u64>> = places
            .into_iter()
            .map(|(layer, rank)| vec![layer as u64, rank])
            .collect();
        if rows.is_empty() {
            return Ok(PyArray2::zeros(py, [0, 2], false));
        }
        PyArray2::from_vec2(py, &rows)
            .map_err(|e| to_python(Error::InvalidParameter(e.to_string())))
    }
}
