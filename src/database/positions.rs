//! Two-player stores as a database: the value and the distance of any
//! position, read from the layer files `retro --store` wrote (whole, or in
//! the per-process shares of an MPI job), and every move with what it
//! leads to. `query`, `play` and the explorer (`serve`) all read through
//! it; the explorer keeps one [`TableCache`] for its whole run, so a layer
//! is read and checked once and every later answer is a lookup (after a
//! look at the layer's file: see [`TableCache`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::TableCache;
use super::held::Held;
use super::layer_tables::{LayerDistances, LayerTable, StoredDistances};
use super::paged::{Cells, PagedWords};
use super::reading::{Watched, finished, read_words};
use crate::backend::partition::Partition;
use crate::error::{Error, Result};
use crate::games::TwoPlayerGame;
use crate::search::Checkpoint;
use crate::search::identity::{layer_descriptor, layer_identity};
use crate::search::retro2::distances::{NO_DISTANCE, StoredFormat};
use crate::search::{Progress, Silent};
use crate::space::{Player, Value};
use crate::table::header::{Header, TableIdentity};
use crate::table::shares::job_size_in_store;
use crate::table::storage::file_name_for;
use crate::table::store_file::table_exists;

/// The solved layers of a store, read on demand for their values. A layer
/// is read into memory (a query never writes a store, may read one on
/// read-only media, and is never killed by a file cut short under it) and
/// checked against its checksums in full when first read; a layer too
/// large for the cache's limit is paged, each chunk checked as it is read. Each question
/// (`value`, `distance`, `moves`, `best_moves`) first makes sure that the
/// files of the layers it reads are as they were read (see
/// [`TableCache`]), so a database kept for a long time answers from
/// changed files never.
pub struct Database<'a, G: TwoPlayerGame> {
    game: &'a G,
    name: &'a str,
    dir: &'a Path,
    cache: &'a TableCache,
    /// The cache's tables this question has looked at, by layer: looked
    /// up (and their files looked at) once per question.
    layers: Vec<Option<Arc<Held<LayerTable>>>>,
    distances: Vec<Option<Arc<Held<LayerDistances>>>>,
    /// Shows the check of a large layer file as it is opened.
    progress: &'a dyn Progress,
}

impl<'a, G: TwoPlayerGame> Database<'a, G> {
    /// The database of `game` in store `dir`, its tables opened through
    /// `cache`. `name` is the game's registry name, for the `retro`
    /// command an error suggests when the store lacks a layer.
    pub fn new(game: &'a G, name: &'a str, dir: &'a Path, cache: &'a TableCache) -> Self {
        Database {
            game,
            name,
            dir,
            cache,
            layers: (0..=game.max_layer()).map(|_| None).collect(),
            distances: (0..=game.max_layer()).map(|_| None).collect(),
            progress: &Silent,
        }
    }

    /// The same database, showing on `progress` the check of each layer
    /// file it opens.
    pub fn showing(self, progress: &'a dyn Progress) -> Self {
        Database { progress, ..self }
    }

    /// The file of `game`'s layer `layer` in the store.
    fn layer_file(&self, game: &G, layer: usize) -> PathBuf {
        self.dir
            .join(file_name_for(&values_descriptor(game, layer)))
    }

    /// The size of the MPI job whose shares of `game`'s layer `layer` the
    /// store holds, if it holds them instead of one file.
    fn job_size(&self, game: &G, layer: usize) -> Option<usize> {
        job_size_in_store(self.dir, &values_descriptor(game, layer))
    }

    /// Whether the store holds `game`'s layer `layer`, whole or in shares.
    /// A path that cannot be followed (a symbolic-link loop) counts as
    /// held: reading it says what is wrong, where "not in the store" would
    /// send its reader to solve the layer again.
    fn holds(&self, game: &G, layer: usize) -> bool {
        table_exists(&self.layer_file(game, layer)).unwrap_or(true)
            || self.job_size(game, layer).is_some()
    }

    /// The layers of this game (this variant) the store holds, whole or
    /// in shares, lowest first.
    pub fn held_layers(&self) -> Vec<usize> {
        (0..=self.game.max_layer())
            .filter(|&layer| self.holds(self.game, layer))
            .collect()
    }

    /// The deepest start position the store holds the finished layer of:
    /// the start with the most pieces (Fox-and-Geese: geese; the 13-geese
    /// traditional start over a store of layers 1..13) among those whose
    /// layer it holds, else the game's own start (a game without starts
    /// by size, as Dodgem); `None` when it holds none of them.
    pub fn deepest_start(&self) -> Option<G::Position> {
        let held = |position: &G::Position| {
            let layer = self.game.locate(position).0;
            self.holds(self.game, layer) && self.finished_layer(layer) != Some(false)
        };
        (1..=self.game.max_layer())
            .rev()
            .filter_map(|size| self.game.start_position(Some(size)).ok())
            .find(held)
            .or_else(|| self.game.start_position(None).ok().filter(held))
    }

    /// The `retro` command that solves `layer` for this game, with its
    /// variant's flags (a layer solved without them is another table).
    fn solve_command(&self, layer: usize) -> String {
        format!(
            "bitsolve retro {}{} --layers 1..{} --store {}",
            self.name,
            self.game.variant_flags(),
            // Layer 0 is solved by every run; ranges start at 1.
            layer.max(1),
            self.dir.display()
        )
    }

    /// Why the store cannot answer for `layer`: which variants it holds
    /// the layer for instead, if any, and the command that would solve it.
    fn missing_layer(&self, layer: usize) -> String {
        let held: Vec<String> = self
            .game
            .other_variants()
            .iter()
            .filter(|other| self.holds(other, layer))
            .map(|other| match other.variant_flags() {
                flags if flags.is_empty() => "without flags".to_string(),
                flags => format!("with{flags}"),
            })
            .collect();
        let held = if held.is_empty() {
            String::new()
        } else {
            format!(
                " (it holds that layer solved {}, a different table)",
                held.join(" and ")
            )
        };
        format!(
            "the layer of {}{} is not in {}{held}; run: {}",
            self.game.layer_name(layer),
            match self.game.variant_flags() {
                flags if flags.is_empty() => String::new(),
                flags => format!(" solved with{flags}"),
            },
            self.dir.display(),
            self.solve_command(layer)
        )
    }

    /// Why the store cannot answer for `position`: its layer's file is
    /// not there, or its header says the layer is not finished (a run is
    /// solving it, or stopped); the run that would add or finish it. A
    /// file that cannot be read is no reason here: reading it says why.
    pub fn missing(&self, position: &G::Position) -> Option<String> {
        let (layer, _) = self.game.locate(position);
        if !self.holds(self.game, layer) {
            return Some(self.missing_layer(layer));
        }
        (self.finished_layer(layer) == Some(false)).then(|| self.unfinished_layer(layer))
    }

    /// Whether the header of `layer`'s file says the layer is solved and
    /// sealed; `None` where it cannot say (no whole file, or an unreadable
    /// one). The body is checked only when the layer is read.
    fn finished_layer(&self, layer: usize) -> Option<bool> {
        Checkpoint::finished_on_disk(&self.layer_file(self.game, layer))
    }

    /// Why `layer` cannot be answered from while it is not finished.
    fn unfinished_layer(&self, layer: usize) -> String {
        format!(
            "the layer of {} in {} is not completely solved yet; finish it: {}",
            self.game.layer_name(layer),
            self.dir.display(),
            self.solve_command(layer)
        )
    }

    /// Reads the table of `layer`, refusing one that is missing or not
    /// completely solved.
    fn open(&self, layer: usize) -> Result<Held<LayerTable>> {
        let unfinished = || Error::InvalidParameter(self.unfinished_layer(layer));
        let file = self.layer_file(self.game, layer);
        if !table_exists(&file)? {
            let Some(processes) = self.job_size(self.game, layer) else {
                return Err(Error::InvalidParameter(self.missing_layer(layer)));
            };
            return self.open_shares(layer, processes, unfinished);
        }
        let identity = layer_identity(self.game, layer, "retrograde values", 2);
        let (cells, header, watched) = self.read_cells(&file, identity)?;
        if !finished(&header, &watched)? {
            return Err(unfinished());
        }
        Ok(Held {
            table: LayerTable::Whole(Box::new(cells)),
            files: vec![watched],
        })
    }

    /// The two-bit table `identity` at `path`, read whole or paged (see
    /// [`Cells::open`]).
    fn read_cells(&self, path: &Path, identity: TableIdentity) -> Result<(Cells, Header, Watched)> {
        Cells::open(path, identity, self.cache.paged_above(), self.progress)
    }

    /// Opens the shares of `layer` written by a job of `processes`, every
    /// one checked and completely solved.
    fn open_shares(
        &self,
        layer: usize,
        processes: usize,
        unfinished: impl Fn() -> Error,
    ) -> Result<Held<LayerTable>> {
        let partition = Partition::new(&self.game.layer_blocks(layer), processes);
        let whole = layer_identity(self.game, layer, "retrograde values", 2);
        let (mut shares, mut files) = (Vec::with_capacity(processes), Vec::new());
        for part in 0..processes {
            let identity = partition.share_identity(&whole, part);
            let path = self.dir.join(file_name_for(&identity.descriptor));
            let (cells, header, watched) = self.read_cells(&path, identity)?;
            if !finished(&header, &watched)? {
                return Err(unfinished());
            }
            shares.push(cells);
            files.push(watched);
        }
        Ok(Held {
            table: LayerTable::Shares { partition, shares },
            files,
        })
    }

    /// Reads the distances of `layer`, if the store keeps them complete (at
    /// one byte a position, or two: see [`StoredFormat`]); paged when the
    /// table is larger than the cache lets one table be.
    fn read_distances(&self, layer: usize) -> Result<Held<LayerDistances>> {
        let size = self.game.layer_size(layer);
        let mut files = Vec::new();
        for format in StoredFormat::ALL {
            let identity = format.identity(self.game, layer);
            let path = self.dir.join(file_name_for(&identity.descriptor));
            if !table_exists(&path)? {
                // Watched while absent: a run that writes it later is seen.
                files.push(Watched::now(path));
                continue;
            }
            let words = format.words(size);
            let (table, header, watched) = if words.saturating_mul(8) > self.cache.paged_above() {
                let (paged, header) =
                    PagedWords::open(&path, &identity, words, self.cache.paged_above())?;
                let watched = paged.watched().clone();
                let table = StoredDistances::Paged {
                    words: Box::new(paged),
                    format,
                    len: size,
                };
                (table, header, watched)
            } else {
                let (body, header, watched) = read_words(&path, &identity, words, self.progress)?;
                let table = StoredDistances::Read(format.decode(body, size));
                (table, header, watched)
            };
            let complete = finished(&header, &watched)?;
            files.push(watched);
            if complete {
                return Ok(Held {
                    table: Some(table),
                    files,
                });
            }
        }
        Ok(Held { table: None, files })
    }

    /// Starts a question: the layers it reads are looked up in the cache
    /// afresh, which looks at their files.
    fn begin_question(&mut self) {
        self.layers.iter_mut().for_each(|layer| *layer = None);
        self.distances.iter_mut().for_each(|layer| *layer = None);
    }

    /// The position's value under perfect play: won for one side, or
    /// drawn. Opens (and checks) its layer on first use; an error names
    /// the `retro` run that would add a layer the store lacks.
    pub fn value(&mut self, position: &G::Position) -> Result<Value> {
        self.begin_question();
        self.look_up_value(position)
    }

    fn look_up_value(&mut self, position: &G::Position) -> Result<Value> {
        let (layer, rank) = self.game.locate(position);
        if self.layers[layer].is_none() {
            let file = self.layer_file(self.game, layer);
            let table = self.cache.values.get(&file, || self.open(layer))?;
            self.layers[layer] = Some(table);
        }
        let table = self.layers[layer].as_ref().expect("opened above");
        Ok(Value::from_bits(table.table.get(rank)?))
    }

    /// The stored two-bit values ([`Value::from_bits`] reads them) of
    /// `layer`'s positions at `ranks`, read in parallel (in rank order from
    /// a paged table, one chunk after another, each read once): bulk
    /// analysis without a position per rank. The layer opens as for
    /// [`value`](Self::value), from one table file or from the shares an
    /// MPI job wrote.
    pub fn values(&mut self, layer: usize, ranks: &[u64]) -> Result<Vec<u8>> {
        use rayon::prelude::*;
        if layer > self.game.max_layer() {
            return Err(Error::InvalidParameter(format!(
                "layers run from 0 to {}, got {layer}",
                self.game.max_layer()
            )));
        }
        let size = self.game.layer_size(layer);
        if let Some(i) = ranks.iter().position(|&r| r >= size) {
            return Err(Error::InvalidParameter(format!(
                "rank {} (at index {i}) is not below the layer's size {size}",
                ranks[i]
            )));
        }
        self.begin_question();
        let file = self.layer_file(self.game, layer);
        let table = self.cache.values.get(&file, || self.open(layer))?;
        if table.table.is_paged() {
            // One chunk read at a time (threads reading different chunks
            // would push one another's out of a small budget), in rank
            // order: each chunk is then read once, however the ranks come.
            if ranks.is_sorted() {
                return ranks.iter().map(|&rank| table.table.get(rank)).collect();
            }
            let mut order: Vec<usize> = (0..ranks.len()).collect();
            order.sort_unstable_by_key(|&index| ranks[index]);
            let mut values = vec![0; ranks.len()];
            for index in order {
                values[index] = table.table.get(ranks[index])?;
            }
            return Ok(values);
        }
        ranks
            .par_iter()
            .map(|&rank| table.table.get(rank))
            .collect()
    }

    /// The position's distance to the end in plies, where the store keeps
    /// distances (`retro --distances`) and the position has a finite one.
    pub fn distance(&mut self, position: &G::Position) -> Result<Option<u16>> {
        self.begin_question();
        self.look_up_distance(position)
    }

    fn look_up_distance(&mut self, position: &G::Position) -> Result<Option<u16>> {
        let (layer, rank) = self.game.locate(position);
        if self.distances[layer].is_none() {
            let file = self.distances_file(layer);
            let found = self
                .cache
                .distances
                .get(&file, || self.read_distances(layer))?;
            self.distances[layer] = Some(found);
        }
        let found = self.distances[layer].as_ref().expect("read above");
        let Some(table) = &found.table else {
            return Ok(None);
        };
        Ok(Some(table.get(rank)?).filter(|&d| d != NO_DISTANCE))
    }

    /// The file that names `layer`'s distances in the cache (the byte
    /// format's, whichever format the store holds).
    fn distances_file(&self, layer: usize) -> PathBuf {
        let descriptor = StoredFormat::Bytes.descriptor(self.game, layer);
        self.dir.join(file_name_for(&descriptor))
    }

    /// Every move from `position`, in the game's order, with the value and
    /// distance of the position it leads to.
    pub fn moves(&mut self, position: &G::Position) -> Result<Vec<MoveValue<G::Position>>> {
        self.begin_question();
        let mut listed = Vec::new();
        for next in self.game.moves(position) {
            listed.push(MoveValue {
                name: self.game.move_name(position, &next),
                value: self.look_up_value(&next)?,
                distance: self.look_up_distance(&next)?,
                position: next,
            });
        }
        Ok(listed)
    }

    /// The moves a perfect player of the side to move chooses among: those
    /// that keep the best value for it and, where the store keeps
    /// distances, win fastest or lose slowest (so a won game ends within
    /// its distance). Empty when the position has no move.
    pub fn best_moves(&mut self, position: &G::Position) -> Result<Vec<MoveValue<G::Position>>> {
        let mine = Value::win_for(self.game.side_to_move(position));
        let score = |answer: &MoveValue<G::Position>| {
            let distance = answer.distance;
            if answer.value == mine {
                (2, u16::MAX - distance.unwrap_or(u16::MAX))
            } else if answer.value == Value::Draw {
                (1, 0)
            } else {
                (0, distance.unwrap_or(u16::MAX))
            }
        };
        let moves = self.moves(position)?;
        let Some(best) = moves.iter().map(score).max() else {
            return Ok(moves);
        };
        Ok(moves.into_iter().filter(|m| score(m) == best).collect())
    }
}

/// A move and what the store says of the position it leads to.
#[derive(Clone, Debug)]
pub struct MoveValue<P> {
    /// The move's name ("d4-d5", "c2-off").
    pub name: String,
    /// The position after the move.
    pub position: P,
    /// That position's value.
    pub value: Value,
    /// That position's distance to the end in plies, where the store keeps
    /// distances and it has a finite one.
    pub distance: Option<u16>,
}

/// The descriptor of a layer's values table (which names its file).
fn values_descriptor<G: TwoPlayerGame>(game: &G, layer: usize) -> String {
    layer_descriptor(game, layer, "retrograde values")
}

/// "won for the fox in 12 plies".
pub fn describe_with<G: TwoPlayerGame>(game: &G, value: Value, distance: Option<u16>) -> String {
    match distance {
        Some(plies) if matches!(value, Value::FirstWins | Value::SecondWins) => {
            format!("{} in {plies} plies", describe(game, value))
        }
        _ => describe(game, value),
    }
}

/// "won for the fox", "drawn".
pub fn describe<G: TwoPlayerGame>(game: &G, value: Value) -> String {
    match value {
        Value::FirstWins => format!("won for {}", game.side_label(Player::First)),
        Value::SecondWins => format!("won for {}", game.side_label(Player::Second)),
        Value::Draw => "drawn".to_string(),
        Value::Unknown => "not solved".to_string(),
    }
}
