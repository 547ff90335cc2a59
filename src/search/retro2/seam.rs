//! The seam between the one driver of two-bit retrograde analysis
//! (`super::driver`) and the machines that run its passes, as
//! `crate::search::backend` is for breadth-first search.
//!
//! The driver owns everything that spans passes: the layer loop, reading
//! the solved layer below a range, resuming from a store's record, the pass
//! loop until nothing changes, the order of the undecided fill and the
//! symmetric copy, the records and the reports. A backend owns where a
//! layer's values live and runs one pass over them: the CPU
//! (`crate::backend::cpu`) with rayon over chunks of the host table, an
//! MPI job (`crate::backend::mpi`) over each process's share of every
//! block, the GPU ([`crate::backend::gpu`]) as compute kernels over a device
//! copy. A new backend implements [`RetroBackend`] and [`RetroPasses`].
//!
//! The contract that keeps a stored run resumable: the driver records a
//! layer's progress only from [`RetroBackend::host_table`] after
//! [`RetroPasses::sync`], and every value a backend holds is a value of the
//! fixpoint (values only go from unknown to decided), so a record taken
//! after any pass resumes to the same layer.

use std::path::Path;

use crate::error::Result;
use crate::search::Progress;
use crate::search::backend::Backend;
use crate::search::checkpoint::Checkpoint;
use crate::space::{LayeredGame, Value};
use crate::table::{Backing, TwoBitTable};

/// What one pass did, over the whole layer (all processes of a job).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassCount {
    /// Positions examined: every unknown position in pass 0, the
    /// predecessors and candidates looked at in a later pass.
    pub examined: u64,
    /// Of those, the positions judged from their moves: every one of pass
    /// 0, a later pass's candidates; the rest were reached as the
    /// predecessors of what the pass before decided.
    pub judged: u64,
    /// Positions decided in this pass that the next pass must propagate
    /// (the next frontier); the driver stops when a pass marks none.
    pub marked: u64,
}

/// The solved layers a layer's moves leave to, as a backend holds them.
pub enum Below<'a, L> {
    /// The layer just below (none for layer 0 and for layers solved alone).
    Next(Option<&'a L>),
    /// Several, indexed by layer: those
    /// [`LayerLinks::several_layers_below`](crate::space::LayerLinks::several_layers_below) names.
    Several(&'a [Option<L>]),
}

impl<L> Clone for Below<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L> Copy for Below<'_, L> {}

impl<'a, L> Below<'a, L> {
    /// The layer just below, or a refusal naming the layer when its moves
    /// leave to several (what a backend that holds one lower layer says).
    pub fn only_next<G: LayeredGame>(
        self,
        game: &G,
        layer: usize,
        backend: &str,
    ) -> Result<Option<&'a L>> {
        match self {
            Below::Next(lower) => Ok(lower),
            Below::Several(_) => Err(crate::error::Error::Unsupported(format!(
                "layer {layer} ({}) has moves leaving to several layers below, which the {backend} backend does not read: solve it on the CPU",
                game.layer_descriptor(layer)
            ))),
        }
    }
}

/// An acyclic layer's sweep as the driver hands it to a backend
/// ([`RetroBackend::sweep_acyclic`]).
pub struct LayerSweep<'a, L> {
    /// The layer swept.
    pub layer: usize,
    /// Its values, opened writable and staged.
    pub values: &'a L,
    /// The solved layers below, indexed by layer, holding those the game
    /// names.
    pub lower: &'a [Option<&'a L>],
    /// The sweep as a pass: its label and progress.
    pub pass: &'a RetroPass<'a>,
}

/// One pass as the driver names it.
pub struct RetroPass<'p> {
    /// "layer 7 pass 3": for progress and per-pass reports (MPI traffic).
    pub label: String,
    /// Shows the pass's progress and says when to stop.
    pub progress: &'p dyn Progress,
}

/// How a layer's values are opened ([`HeldLayer::open`]).
#[derive(Clone, Copy, Debug)]
pub enum Opening<'a> {
    /// To be solved, in this backing (every cell unknown in a fresh table).
    ToSolve(&'a Backing),
    /// Solved, as the layer below a range: from this store, read only and
    /// in memory (it is read at random). Refused with one line when the
    /// backend cannot read it there (see
    /// [`super::driver::lower_layer_needed`]); the driver checks that the
    /// record says complete.
    Solved(&'a Path),
}

/// A layer's values as backend `B` holds them: how they are opened, and
/// the host table the store records. A backend names its kind of layer
/// ([`RetroBackend::Layer`]) and the opening comes with it, so the backends
/// that hold a layer alike (the whole layer in one [`TwoBitTable`]: the
/// CPU and the GPU, see `super::whole_layer`) write it once; an MPI job's
/// share of a layer is another.
pub trait HeldLayer<B: ?Sized>: Send + Sync + Sized {
    /// Opens `layer`'s values as `opening` says, with the record an earlier
    /// run left there.
    fn open<G: LayeredGame>(
        backend: &B,
        game: &G,
        layer: usize,
        opening: Opening<'_>,
        progress: &dyn Progress,
    ) -> Result<(Self, Option<Checkpoint>)>;

    /// The table the store records: the whole layer, or this process's
    /// share. Current after [`RetroPasses::sync`].
    fn host_table(&self) -> &TwoBitTable;

    /// The same, to make it writable and stage it in memory before a layer
    /// is solved.
    fn host_table_mut(&mut self) -> &mut TwoBitTable;
}

/// Where the layers of a retrograde analysis are held and solved: a
/// [`Backend`] of the searches (its name and description) that also runs
/// retrograde passes.
pub trait RetroBackend: Backend {
    /// A layer's values as this backend holds them: the host table of the
    /// whole layer, or one process's share of it. How they are opened and
    /// recorded comes with the type ([`HeldLayer`]).
    type Layer: HeldLayer<Self>;

    /// Opens `layer`'s values ([`HeldLayer::open`]).
    fn open_layer<G: LayeredGame>(
        &self,
        game: &G,
        layer: usize,
        opening: Opening<'_>,
        progress: &dyn Progress,
    ) -> Result<(Self::Layer, Option<Checkpoint>)> {
        Self::Layer::open(self, game, layer, opening, progress)
    }

    /// The table the store records ([`HeldLayer::host_table`]).
    fn host_table<'l>(&self, layer: &'l Self::Layer) -> &'l TwoBitTable {
        layer.host_table()
    }

    /// The same, writable ([`HeldLayer::host_table_mut`]).
    fn host_table_mut<'l>(&self, layer: &'l mut Self::Layer) -> &'l mut TwoBitTable {
        layer.host_table_mut()
    }

    /// Whether the backend solves a layer whose game gives no
    /// predecessors ([`LayeredGame::has_predecessors`]) by value
    /// iteration; the others refuse such a layer. False by default.
    fn iterates_values(&self) -> bool {
        false
    }

    /// Whether `flag` holds on any process of the job (collective).
    fn any(&self, flag: bool) -> bool {
        flag
    }

    /// The passes every process resumes a layer with, from the record each
    /// holds (collective): processes that record on their own clocks agree
    /// on the shortest.
    fn agree_on_passes(&self, checkpoint: Option<Checkpoint>) -> Vec<u64> {
        checkpoint.map(|c| c.counts).unwrap_or_default()
    }

    /// The passes of `layer` over `values` (opened by
    /// [`open_layer`](Self::open_layer), writable and staged), reading the
    /// solved layers below from `lower`.
    fn layer_passes<'a, G: LayeredGame>(
        &'a self,
        game: &'a G,
        layer: usize,
        values: &'a Self::Layer,
        lower: Below<'a, Self::Layer>,
    ) -> Result<Box<dyn RetroPasses + 'a>>;

    /// Solves an [acyclic](crate::space::LayerLinks::acyclic_layer) layer in one sweep
    /// over its values (opened by [`open_layer`](Self::open_layer), writable
    /// and staged): every position not decided yet gets its rules' value or
    /// the verdict of its moves, read from the layers below (holding those
    /// the game names), and with symmetry reduction its twins get the
    /// same. `between_parts` is called now and then while it runs (the
    /// driver records the table there when a record is due: every value
    /// written is final, so any moment's table resumes). Returns the
    /// positions examined; stops early, leaving what it decided, when a
    /// stop is requested. Refused with one line by a backend that does not
    /// run it.
    fn sweep_acyclic<G: LayeredGame>(
        &self,
        game: &G,
        sweep: &LayerSweep<'_, Self::Layer>,
        _between_parts: &mut dyn FnMut() -> Result<()>,
    ) -> Result<u64> {
        Err(crate::error::Error::InvalidParameter(format!(
            "layer {} ({}) is solved in one sweep over the solved layers below it, which the {} backend does not run: solve it, and the layers it reads, in one process",
            sweep.layer,
            game.layer_descriptor(sweep.layer),
            self.name()
        )))
    }

    /// The positions of the whole layer won for the first player, for the
    /// second, and drawn, each stored cell counted for the positions it
    /// stands for
    /// ([`SymmetryHooks::block_weight`](crate::space::SymmetryHooks::block_weight));
    /// collective.
    fn count<G: LayeredGame>(&self, game: &G, layer: usize, values: &Self::Layer) -> [u64; 3];
}

/// The passes of one layer (see the module documentation of
/// [`super`] for what each decides).
pub trait RetroPasses {
    /// Units of progress each pass advances through
    /// ([`Progress::begin_pass`]).
    fn units(&self) -> u64;

    /// Pass 0 over every position: rules, positions without moves, and
    /// what the solved layer below decides; every position already decided
    /// (a resumed layer) joins the frontier.
    fn initial(&mut self, pass: &RetroPass) -> Result<PassCount>;

    /// A later pass: the frontier's values reach their predecessors, which
    /// are won at once or become candidates; candidates whose moves are
    /// now all known are decided. The decided positions are the next
    /// frontier.
    fn later(&mut self, pass: &RetroPass) -> Result<PassCount>;

    /// At the fixpoint: every position still unknown gets `value`.
    fn fill_undecided(&mut self, value: Value) -> Result<()>;

    /// With symmetry reduction
    /// ([`SymmetryHooks::reduced_by_symmetry`](crate::space::SymmetryHooks::reduced_by_symmetry)),
    /// every stored position that is not solved itself gets its solved
    /// twin's value; nothing otherwise. Every process has finished when
    /// it returns.
    fn fill_from_twins(&mut self, pass: &RetroPass) -> Result<()>;

    /// Brings the host table ([`RetroBackend::host_table`]) up to date
    /// with the values the passes hold (a device copy), before a record.
    fn sync(&mut self) -> Result<()> {
        Ok(())
    }

    /// The part of the set-up that opened these passes spent on a
    /// device: (seconds uploading its tables, seconds compiling its
    /// kernels). None on the host.
    fn device_setup(&self) -> (f64, f64) {
        (0.0, 0.0)
    }
}
