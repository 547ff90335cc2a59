//! The seam between the search drivers and the machines that run them.
//!
//! A driver (two-bit BFS, one-bit BFS, reachability) owns everything that
//! spans passes: the layer loop, the ledger and its checkpoints, the order in
//! which a layer's effects reach the store, the backward switch, goal
//! distances and reports. A backend owns one table and runs one pass over
//! some of its blocks at a time: "expand the frontier cells of these blocks
//! and mark their successors", "check the parents of the unseen cells of
//! these blocks", "close the frontier". The CPU backend
//! ([`crate::backend::cpu`]) runs a pass with rayon over chunks of the host
//! table, the GPU backend ([`crate::backend::gpu`]) as compute kernels over
//! a device table; a new backend implements [`Backend`] and the pass traits
//! below, and every algorithm runs on it.
//!
//! The contract that keeps a stored run resumable: when a pass returns, the
//! store (the table file, for a file-backed run) holds what the pass wrote in
//! its touched blocks; the driver closes a frontier only after that, and
//! writes its checkpoint last.

use super::ledger::LayerCount;
use super::{Progress, Work};
use crate::error::Result;
use crate::space::{MoveFilter, Space};
use crate::table::{Backing, OneBitTable, TableIdentity, WordStorage};

/// What a driver asks of a backend's table.
#[derive(Clone)]
pub struct TableRequest<'r> {
    /// Where the table lives: on the heap or in a store.
    pub backing: &'r Backing,
    /// Names the table (and its file) and says what space it holds
    /// ([`super::identity`]). The same on every backend, so either resumes
    /// the other's file.
    pub identity: TableIdentity,
    /// Shows creating or checking a large table file.
    pub progress: &'r dyn Progress,
    /// Cells in use at once (fewer than the space when the driver discards
    /// finished blocks).
    pub resident_cells: u64,
    /// The last layer the run will complete, when it is capped: a backend
    /// that must plan its memory per layer plans only that far.
    pub max_depth: Option<usize>,
}

/// One pass: the blocks whose cells it visits, and every block it may write
/// (the visited ones and those their moves lead into), in ascending order.
pub struct Pass<'p> {
    /// What the pass is called in progress and reports ("layer 7", "scan 2").
    pub label: String,
    /// Blocks whose cells the pass visits.
    pub scanned: Vec<usize>,
    /// Blocks the pass may write.
    pub touched: Vec<usize>,
    /// Shows the pass's progress and says when to stop.
    pub progress: &'p dyn Progress,
}

/// A table opened by a backend, and the progress record an earlier run left
/// in its store (for a resumed run; see [`super::Checkpoint`]).
pub struct Opened<T> {
    /// The table, with the passes the backend runs over it.
    pub passes: T,
    /// The progress record an earlier run left in the store; `None` for a new
    /// table.
    pub progress: Option<Vec<u8>>,
}

impl<T> Opened<T> {
    /// `passes` over a table whose store held `progress`.
    pub fn new(passes: T, progress: Option<Vec<u8>>) -> Self {
        Opened { passes, progress }
    }
}

/// Where the passes of a search run.
pub trait Backend: Sync {
    /// `cpu`, `gpu`: the name in reports and JSON.
    fn name(&self) -> &'static str;

    /// The machine, for reports ("2 threads", "GPU NVIDIA H100 ...").
    fn describe(&self) -> String;

    /// A two-bit table over `space`, every cell at [`super::two_bit_bfs::UNSEEN`]
    /// unless an earlier run's store is reopened.
    fn two_bit<'a, S: Space>(
        &'a self,
        space: &'a S,
        request: &TableRequest,
    ) -> Result<Opened<Box<dyn TwoBitPasses + 'a>>>;

    /// A one-bit table over `space`, every bit clear unless an earlier run's
    /// store is reopened.
    fn one_bit<'a, S: Space>(
        &'a self,
        space: &'a S,
        request: &TableRequest,
    ) -> Result<Opened<Box<dyn OneBitPasses + 'a>>>;
}

/// The passes of the two-bit BFS (Algorithm 1 of Edelkamp et al., *Solving
/// Games in Parallel with Linear-Time Perfect Hash Functions* (TZI report 52,
/// Bremen, 2009)) over a table of 2-bit cells.
pub trait TwoBitPasses {
    /// The store the driver's checkpoints go to.
    fn storage(&self) -> &WordStorage;

    /// Sets the cells of `ranks` to `value` in a fresh table.
    fn set_cells(&mut self, ranks: &[u64], value: u8) -> Result<()>;

    /// Expands every `frontier` cell of the scanned blocks; unseen successors
    /// become `next`. Frontier cells stay as they are (see [`close`](Self::close)).
    fn expand(&mut self, pass: &Pass, frontier: u8, next: u8) -> Result<Work>;

    /// In a reversible space: every unseen cell of the scanned blocks with a
    /// neighbour holding `frontier` becomes `next`.
    fn check_parents(&mut self, pass: &Pass, frontier: u8, next: u8) -> Result<Work>;

    /// Cells of `blocks` holding `frontier` become closed (0), here and in
    /// the store.
    fn close(&mut self, blocks: &[usize], frontier: u8) -> Result<()>;

    /// The cells of `blocks` holding `value`, counted for the full space
    /// (a symmetry-reduced space counts each stored state for its orbit).
    fn count(&mut self, blocks: &[usize], value: u8) -> Result<LayerCount>;

    /// The values of the cells of `ranks`.
    fn cells(&mut self, ranks: &[u64]) -> Result<Vec<u8>>;

    /// The first `limit` ranks of `blocks`, in rank order, whose cells hold `value`.
    fn first_ranks(&mut self, blocks: &[usize], value: u8, limit: usize) -> Result<Vec<u64>>;
}

/// The passes of one-bit BFS (Algorithms 3 and 7) and one-bit reachability
/// (Algorithm 2) over a table of single bits.
pub trait OneBitPasses {
    /// The store the driver's checkpoints go to.
    fn storage(&self) -> &WordStorage;

    /// Sets the bits of `ranks`.
    fn set_bits(&mut self, ranks: &[u64]) -> Result<()>;

    /// `target[i] |= source[i]` over two blocks (numbers in the space's
    /// layout) of equal length: the whole-block step of Algorithm 7, line
    /// 12, for rank-preserving moves.
    fn or_block(&mut self, source: usize, target: usize) -> Result<()>;

    /// Expands every set bit of the scanned blocks and sets their
    /// successors' bits; `Work::marked` counts the bits this pass set.
    fn expand(&mut self, pass: &Pass, moves: MoveFilter) -> Result<Work>;

    /// In a reversible space: every clear bit of the scanned blocks with a
    /// set neighbour (under `moves`) is set.
    fn fill(&mut self, pass: &Pass, moves: MoveFilter) -> Result<Work>;

    /// The set bits of `blocks`, counted for the full space.
    fn count(&mut self, blocks: &[usize]) -> Result<LayerCount>;

    /// The bits of `ranks`.
    fn bits(&mut self, ranks: &[u64]) -> Result<Vec<bool>>;

    /// The first `limit` ranks of `blocks`, in rank order, whose bits are set.
    fn first_set(&mut self, blocks: &[usize], limit: usize) -> Result<Vec<u64>>;

    /// The bits of `blocks` will not be read again: their memory may go.
    fn discard(&mut self, blocks: &[usize]) -> Result<()>;

    /// A host table whose `blocks` hold the current bits, for work the
    /// driver does on the host (joining the halves of a meet in the middle).
    fn host_view(&mut self, blocks: &[usize]) -> Result<&OneBitTable>;
}
