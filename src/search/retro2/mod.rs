//! Two-bit retrograde analysis for two-player zero-sum games in layers
//! (Algorithm 4 and Theorem 4 of Edelkamp et al., *Solving Games in Parallel
//! with Linear-Time Perfect Hash Functions* (TZI report 52, Bremen, 2009),
//! extended with draws and a game-specific value for positions never decided).
//!
//! A game's positions fall into layers (Fox-and-Geese: the number of geese;
//! tic-tac-toe: stones on the board) such that every move stays in its
//! layer or goes to a lower one. Layers are solved in increasing order;
//! while layer p is solved, layer p-1 is only read, for the moves that
//! leave layer p.
//!
//! Each position holds two bits: [`Value::Unknown`](crate::space::Value::Unknown), a win for the
//! [`Player::First`](crate::space::Player::First) or
//! [`Player::Second`](crate::space::Player::Second) player, or
//! [`Value::Draw`](crate::space::Value::Draw). The game is a
//! [`LayeredGame`](crate::space::LayeredGame) (`crate::space`, beside the
//! one-player `Space`).
//! Algorithm 4 re-scans the whole layer until nothing changes; here a pass
//! only looks at the predecessors of the positions decided in the pass
//! before (a work queue kept as bit tables):
//!
//! 1. Initial pass over every position: a mover without moves gets the
//!    game's no-move value; a move to a lower-layer position won for the
//!    mover wins; a position whose moves all leave the layer and all lose is
//!    lost. Decided positions go into the frontier F.
//! 2. Each later pass, for every position s in F and every same-layer
//!    predecessor p still unknown: if s is won for p's mover, p is won
//!    (decided at once, into the next frontier); otherwise p becomes a
//!    candidate C, and then every candidate whose moves are now all lost is
//!    lost (into the next frontier).
//! 3. At the fixpoint, positions still unknown get the game's rule (a draw
//!    by default; Fox-and-Geese counts them as won for the fox).
//!
//! When that rule makes undecided positions wins for one player X, only the
//! other player's wins are recorded along the way: a win for Y needs a move
//! into Y's wins (Y to move) or all moves into them (X to move), never a
//! known win for X, and every position not won for Y ends as X's. Fox-and-
//! Geese thus decides the geese's few wins and leaves the fox's many to
//! the fill, which cut layer 7 from 45 s to about 2 s.
//!
//! Where every position has a colour twin with the mirrored value (the
//! stones of the two sides exchanged, the other side to move: Morris's
//! moving phase; [`ColourTwinHooks::colour_twins`](crate::space::ColourTwinHooks::colour_twins)),
//! the CPU passes judge only one player's positions. A later pass first
//! writes each newly decided position's mirrored value at its twin and
//! puts the twin into the frontier, then propagates from the twins in
//! the order of their ranks: every position is judged and reached through
//! its predecessors once, not once for each colour (Nine Men's Morris's
//! layer 11: 0.60× the time).
//!
//! Bits per position while a layer is solved: 2 (values) + 1 (F) + 1 (next
//! F) + 1 (C) = 5. A position is decided exactly when one of its successors
//! is (a win for its mover) or when its last non-losing successor is lost,
//! so looking at predecessors of newly decided positions misses nothing
//! (the argument of Theorem 4, pass by pass).

pub mod distances;
mod driver;
pub mod judge;
pub(crate) mod move_counts;
pub(crate) mod open_moves;
pub(crate) mod phases;
pub mod seam;
mod whole_layer;

pub(crate) use driver::layers_read;
pub use driver::{
    BITS_PER_POSITION, LayerReport, PassLog, RECORD_EVERY, RetroOptions, lower_layer_needed,
    open_layer, solve_layer_range, solve_layers, solve_layers_keeping_top, values_identity,
};
pub use phases::Phases;
