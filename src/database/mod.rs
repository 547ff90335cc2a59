//! Reading solved stores: what every shell (`query`, `play`, the explorer
//! `serve`, and a Python binding) asks of the tables a solving run left in
//! a store directory. Nothing here writes a file: tables are read into
//! memory (never mapped, so a file cut short under a reader is an error,
//! not a SIGBUS), each checked against its checksums in full when read —
//! or, when a table is larger than a quarter of the cache's limit, paged:
//! read a chunk at a time, each chunk checked before it is answered from
//! (see [`TableCache::paged_above`]) — and one that is unfinished or
//! damaged is refused with an error that says which run would finish it. A
//! table is answered from only while its file is as it was read: one that
//! changed on disk is read and checked again, or refused with an error that
//! says it changed.
//!
//! Two kinds of store are read:
//!
//! - **Two-player games** (`bitsolve retro GAME --store DIR`): one table of
//!   values per layer (two bits a position), optionally a table of
//!   distances beside it (`--distances`). A layer an MPI job solved is held
//!   as one share per process; [`Database`] reads the shares as one table.
//!   A game reduced by symmetry stores one position per orbit; the game's
//!   `locate` maps any position onto the stored one, so callers never see
//!   the difference.
//! - **One-player games** (`bitsolve solve GAME --store DIR`): a finished
//!   table of depths mod 3 over the whole space, read as [`StoredDepths`]:
//!   an optimal move sequence from any position, and so its distance.
//!
//! A binding's usual path:
//!
//! 1. Open the game by name and options through
//!    [`crate::games::registry`] (`visit_two_player` or `visit`), which
//!    hands a typed game to a visitor.
//! 2. Keep one [`TableCache`] for the life of the process (or of a
//!    server): every table read through it stays in memory (up to its
//!    limit), so only the first question about a layer pays for checking
//!    its file (later ones look at the file's length, inode, times and
//!    header, a few microseconds). The cache is shared safely between
//!    threads.
//! 3. Two-player: make a [`Database`] for the game and the store (cheap;
//!    one per request or per thread), then ask [`Database::value`],
//!    [`Database::distance`], [`Database::moves`] (every move and what it
//!    leads to) or [`Database::best_moves`] (the moves a perfect player
//!    chooses among). [`Database::missing`] says, before any question,
//!    whether the store lacks the position's layer and which `retro` run
//!    would add it. [`describe`] puts a value into words.
//! 4. One-player: [`TableCache::stored_depths`] opens the store's table of
//!    depths for a space (`None` when the store has none), whose
//!    [`StoredDepths::solution_if_reachable`] walks to the target.
//!
//! [`game_of`] says which registered game (and options) a table file
//! solves, from its descriptor; [`Database::deepest_start`] picks a start
//! position the store can answer for.
//!
//! Errors are [`crate::Error`]s with one line for people: a position the
//! store cannot answer is `InvalidParameter` (the caller asked something
//! the store does not hold); a damaged or unreadable file is `BadStore` or
//! `Io`.
//!
//! ```no_run
//! use std::path::Path;
//! use bitsolve::database::{Database, TableCache, describe};
//! use bitsolve::games::registry::{self, GameOptions};
//! use bitsolve::games::{TwoPlayerGame, TwoPlayerVisitor};
//!
//! struct ValueOf<'a> {
//!     position: &'a str,
//!     cache: &'a TableCache,
//! }
//!
//! impl TwoPlayerVisitor for ValueOf<'_> {
//!     type Output = String;
//!     fn visit<G: TwoPlayerGame>(self, game: &G) -> bitsolve::Result<String> {
//!         let position = game.parse_position(self.position)?;
//!         let store = Path::new("dodgem-store");
//!         let mut database = Database::new(game, "dodgem", store, self.cache);
//!         let value = database.value(&position)?;
//!         Ok(describe(game, value))
//!     }
//! }
//!
//! let cache = TableCache::default();
//! let question = ValueOf { position: "B../B../.RR:blue", cache: &cache };
//! let answer = registry::visit_two_player("dodgem", &GameOptions::default(), question)?;
//! println!("{answer}");
//! # Ok::<(), bitsolve::Error>(())
//! ```

mod cache;
mod depths;
mod held;
mod layer_tables;
mod paged;
mod positions;
mod reading;
mod stored_game;
mod summary;

pub use cache::{Examined, TableCache};
pub use depths::StoredDepths;
pub use positions::{Database, MoveValue, describe, describe_with};
pub use stored_game::{StoredGame, game_of};
pub use summary::{TableSummary, table_summary};
