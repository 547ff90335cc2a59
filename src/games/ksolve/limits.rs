//! How large a definition's tables may grow: the budgets its coordinates'
//! move tables, their merged groups and a split permutation's tables are
//! held to.

/// A coordinate with at most this many values times moves gets a table of
/// its values after each move (4 bytes an entry).
pub const MAX_TABLE_ENTRIES: u64 = 1 << 26;
/// Most bytes the move tables of one definition take together (real
/// puzzles' take a few MiB: the pocket cube's 3 MiB).
pub const MAX_TABLES_BYTES: u64 = 512 << 20;
/// Most bytes the tables of merged groups take together; past it the
/// expansion reads each coordinate's own table.
pub const MAX_GROUP_TABLES_BYTES: u64 = 256 << 20;

/// Most values a merged group of coordinates takes (its table has this
/// many rows of one digit per move).
pub const MAX_GROUP_VALUES: u64 = 1 << 16;
