//! How a position is judged and how a decided position reaches its
//! predecessors: the per-position work of every pass, shared by the
//! backends that run passes on the host (the CPU and the processes of an
//! MPI job). A backend hands over where each position's cell lives
//! ([`Placement`]); what it holds is read and written at once, and what
//! another process holds comes back as questions and pushes for the
//! backend to send ([`Remote`]).
//!
//! The parts, each a file:
//!
//! - `placement`: where cells are held, and the units of a pass's work;
//! - `marks`: the cells a pass marks, counted and listed while few;
//! - `remote`: questions and pushes for cells held elsewhere, and what a
//!   decided position brings a predecessor;
//! - `scratch`: a worker's buffers, and its batches of cells;
//! - `tables`: the bit tables of a layer's passes;
//! - `lower`: the solved layers below, as the judge reads them;
//! - `layer`: the judge of one layer and the lookups its passes share;
//! - `initial`: pass 0;
//! - `propagate` and `check`: the two halves of a later pass;
//! - `twins`: values passed to colour twins and to symmetric images.

mod check;
mod initial;
mod layer;
mod lower;
mod marks;
mod placement;
mod propagate;
mod remote;
mod scratch;
mod tables;
mod twins;

pub use crate::space::tally::{Tally, Verdict};
pub use layer::{LayerJudge, recorded_value};
pub use lower::{LowerLayers, NextLayer, SeveralLayers};
pub use marks::{Marks, list_limit};
pub use placement::{CellRange, Place, Placement, Unit, WholeLayer, units};
pub use remote::{Decision, Push, Remote};
pub use scratch::Scratch;
pub use tables::PassTables;
