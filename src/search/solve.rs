//! Optimal solutions of one-player games: a shortest move sequence from any
//! position, read off a finished table of depths mod 3
//! ([`two_bit_bfs_keeping_depths`], Algorithm 1 of
//! Edelkamp et al., *Solving Games in Parallel with Linear-Time Perfect Hash
//! Functions* (TZI report 52, Bremen, 2009) as printed).
//!
//! A state at depth d has every neighbour at depth d-1, d or d+1 when each
//! move can be undone; those residues mod 3 differ, so a successor holding
//! (d-1) mod 3 is one step closer and the walk down to the start needs no
//! more than two bits per state. Where the space's inversion maps the start
//! onto the goal (Peg Solitaire, Frogs-and-Toads), a state is d moves from
//! the goal exactly when its inverse is d moves from the start, so the same
//! walk, reading the inverses' cells, leads forward to the goal; that needs
//! either reversible moves or exact layers (every path from a state to the
//! goal equally long), else a successor's residue could hide a longer path.

use std::path::Path;

use super::backend::{Backend, TwoBitPasses};
use super::two_bit_bfs::{UNSEEN, two_bit_bfs_keeping_depths};
use super::{SearchOptions, SearchReport};
use crate::error::{Error, Result};
use crate::space::{MoveFilter, Picture, Space};

/// Where an optimal solution leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The state the search starts from (the solved puzzle).
    Start,
    /// The space's goal position, reached through its inversion.
    Goal,
}

impl Target {
    /// Where `space`'s solutions lead, or why it has none to walk.
    pub fn of<S: Space>(space: &S) -> Result<Target> {
        let exact_layers = space.layering().is_some_and(|l| l.exact);
        let mut start = space.new_state();
        let inverts = match space.start_ranks().first() {
            Some(&rank) if !space.goal_ranks().is_empty() => {
                space.unrank(rank, &mut start);
                space.inverse_rank(&start).is_some()
            }
            _ => false,
        };
        if inverts && (space.reversible() || exact_layers) {
            Ok(Target::Goal)
        } else if space.reversible() {
            Ok(Target::Start)
        } else {
            Err(Error::Unsupported(format!(
                "{}: its moves cannot be undone and it has no goal its inversion reaches, so a table of depths cannot lead a position anywhere",
                space.descriptor()
            )))
        }
    }

    /// What the solution reaches, for people ("the start", the game's goal).
    pub fn label<S: Picture>(self, space: &S) -> String {
        match self {
            Target::Start => "the start position".to_string(),
            Target::Goal => format!("the goal ({})", space.goal_label()),
        }
    }
}

/// A table of depths over a space, ready to answer walks.
pub struct DepthTable<'a, S: Space> {
    space: &'a S,
    cells: Box<dyn TwoBitPasses + 'a>,
    target: Target,
    /// The ranks a solution ends at: the start's or the goal's.
    ends: Vec<u64>,
    /// The BFS that filled (or reopened) the table.
    pub report: SearchReport,
}

impl<'a, S: Space> DepthTable<'a, S> {
    /// Runs (or resumes, or reopens from `options.backing`'s store) the BFS
    /// that keeps depths.
    pub fn build<B: Backend>(
        space: &'a S,
        backend: &'a B,
        options: &SearchOptions,
    ) -> Result<Self> {
        let target = Target::of(space)?;
        if options.max_depth.is_some() {
            return Err(Error::Unsupported(
                "a table of depths for solving must be complete: drop the depth limit".into(),
            ));
        }
        let (report, cells) = two_bit_bfs_keeping_depths(space, backend, options)?;
        Ok(DepthTable {
            space,
            cells,
            target,
            ends: match target {
                Target::Start => space.start_ranks(),
                Target::Goal => space.goal_ranks(),
            },
            report,
        })
    }

    /// Where the table's solutions lead.
    pub fn target(&self) -> Target {
        self.target
    }

    /// A shortest sequence of states from `from` to the target, both ends
    /// included (one state when `from` is there already).
    pub fn solution(&mut self, from: &S::State) -> Result<Vec<S::State>> {
        // Each step lowers the distance by one: the walk ends within the
        // table's depth; the bound only guards against a broken table.
        let bound = self.report.layers.as_ref().map_or(0, Vec::len);
        let cells = &mut self.cells;
        let broken = |what: &str| broken(self.space, self.report.store.as_deref(), what);
        walk(
            self.space,
            self.target,
            &self.ends,
            bound,
            &mut |ranks| cells.cells(ranks),
            &broken,
            from,
        )
    }
}

/// A walk that cannot go on: the stored table (or the game's claim of
/// reversible moves or exact layers) is wrong.
pub(crate) fn broken<S: Space>(space: &S, store: Option<&Path>, what: &str) -> Error {
    let reason = format!("the table of depths for {} {what}", space.descriptor());
    match store {
        Some(path) => Error::BadStore {
            path: path.to_path_buf(),
            reason,
        },
        None => Error::Unsupported(reason),
    }
}

/// The cell that holds `state`'s distance to `target`, mod 3.
pub(crate) fn cell_rank<S: Space>(space: &S, target: Target, state: &S::State) -> u64 {
    match target {
        Target::Start => space.rank(state),
        // `Target::of` checked the space inverts.
        Target::Goal => space.inverse_rank(state).expect("the space inverts"),
    }
}

/// Walks down a table of depths mod 3 from `from` to one of `ends` (ranks
/// of the target), reading cells through `cells`; at most `bound` steps.
pub(crate) fn walk<S: Space>(
    space: &S,
    target: Target,
    ends: &[u64],
    bound: usize,
    cells: &mut dyn FnMut(&[u64]) -> Result<Vec<u8>>,
    broken: &dyn Fn(&str) -> Error,
    from: &S::State,
) -> Result<Vec<S::State>> {
    let mut path = vec![from.clone()];
    let mut residue = cells(&[cell_rank(space, target, from)])?[0];
    if residue == UNSEEN {
        return Err(Error::InvalidParameter(format!(
            "this position cannot reach {}",
            match target {
                Target::Start => "the start (it lies in another part of the space)",
                Target::Goal => "the goal",
            }
        )));
    }
    let mut successors = Vec::new();
    let mut states = Vec::new();
    let mut cell_ranks = Vec::new();
    while !ends.contains(&space.rank(path.last().unwrap())) {
        if path.len() > bound {
            return Err(broken("leads nowhere from this position"));
        }
        successors.clear();
        space.expand(path.last().unwrap(), MoveFilter::All, |rank| {
            successors.push(rank)
        });
        states.clear();
        cell_ranks.clear();
        for &rank in &successors {
            let mut state = space.new_state();
            space.unrank(rank, &mut state);
            cell_ranks.push(cell_rank(space, target, &state));
            states.push(state);
        }
        let closer = (residue + 2) % 3;
        let found = cells(&cell_ranks)?;
        let Some(step) = found.iter().position(|&cell| cell == closer) else {
            return Err(broken(&format!(
                "has no move one step closer from a position at depth {residue} mod 3"
            )));
        };
        path.push(states.swap_remove(step));
        residue = closer;
    }
    Ok(path)
}
