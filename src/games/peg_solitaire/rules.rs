//! The jumps of Peg Solitaire, found a class of alike jumps at a time,
//! and the space as the searches walk it ([`Space`]): blocks by peg count,
//! layers, expansion, orbits and the inverse of a position.

use super::{MAX_SYMMETRIES, PegSolitaire, Pegs};
use crate::error::Result;
use crate::kernel::Program;
use crate::space::{Block, BlockLayering, MoveFilter, Space};

/// `mask` moved so that bit `i` holds what bit `i + step` held.
#[inline(always)]
fn bits_from(mask: u64, step: i32) -> u64 {
    if step >= 0 {
        mask >> step
    } else {
        mask << -step
    }
}

fn low_mask(cells: usize) -> u64 {
    if cells >= 64 {
        u64::MAX
    } else {
        (1u64 << cells) - 1
    }
}

impl Space for PegSolitaire {
    fn gpu_program(&self) -> Result<Program> {
        self.kernel_program()
    }

    type State = Pegs;

    fn definition(&self) -> String {
        self.board.definition()
    }

    fn descriptor(&self) -> String {
        let holes: Vec<String> = (0..self.cells())
            .filter(|&cell| self.start >> cell & 1 == 0)
            .map(|cell| self.board.cell_name(cell))
            .collect();
        let symmetry = if self.symmetries.len() > 1 {
            " symmetry"
        } else {
            ""
        };
        format!(
            "peg-solitaire {} start-hole={}{symmetry}",
            self.board.name(),
            holes.join(",")
        )
    }

    fn size(&self) -> u64 {
        *self.offsets.last().unwrap()
    }

    fn blocks(&self) -> Vec<Block> {
        self.offsets
            .windows(2)
            .map(|w| Block {
                start: w[0],
                len: w[1] - w[0],
            })
            .collect()
    }

    fn start_ranks(&self) -> Vec<u64> {
        vec![self.rank_mask(self.canonical(self.start))]
    }

    fn goal_ranks(&self) -> Vec<u64> {
        self.goal
            .map(|goal| self.rank_mask(self.canonical(goal)))
            .into_iter()
            .collect()
    }

    fn new_state(&self) -> Pegs {
        Pegs::new(0)
    }

    #[inline]
    fn unrank(&self, rank: u64, state: &mut Pegs) {
        self.unrank_into(rank, state);
    }

    fn rank(&self, state: &Pegs) -> u64 {
        self.rank_mask(state.mask)
    }

    #[inline]
    fn expand<F: FnMut(u64)>(&self, state: &Pegs, _moves: MoveFilter, mut emit: F) {
        let pegs = state.mask;
        let count = pegs.count_ones() as usize;
        if count == 0 {
            return;
        }
        let (offset, ranker) = (self.offsets[count - 1], &self.rankers[count - 1]);
        // The parent's images; lanes past the symmetries in use hold the
        // largest mask, which no minimum picks.
        let mut images = [u64::MAX; MAX_SYMMETRIES];
        for (image, map) in images.iter_mut().zip(&self.symmetries) {
            *image = map.apply(pegs);
        }
        let holes = !pegs & low_mask(self.cells());
        for class in &self.classes {
            let mut movers = class.froms
                & pegs
                & bits_from(pegs, class.over_step)
                & bits_from(holes, class.to_step);
            while movers != 0 {
                let from = movers.trailing_zeros();
                movers &= movers - 1;
                let next = if self.symmetries.is_empty() {
                    pegs ^ class.toggled(from)
                } else {
                    // The least image: `canonical` of the successor.
                    let toggled = &class.images[from as usize];
                    (0..MAX_SYMMETRIES)
                        .map(|g| images[g] ^ toggled[g])
                        .fold(u64::MAX, u64::min)
                };
                emit(offset + ranker.rank(next));
            }
        }
    }

    fn layering(&self) -> Option<BlockLayering> {
        // The layer of a position with p pegs is start_pegs - p (at most n);
        // blocks with more pegs than the start are never reached and get
        // residues n + 1 + p that no layer has. (With modulus n + 1 they
        // would wrap onto layers past the last, pairing the 0-peg block
        // with the (start + 1)-peg one: a streamed GPU run then had to hold
        // the whole table between them.)
        let n = self.cells() as u64;
        let start = self.start_pegs() as u64;
        Some(BlockLayering {
            modulus: 2 * (n + 1),
            residues: (0..=n)
                .map(|p| if p <= start { start - p } else { n + 1 + p })
                .collect(),
            rank_preserving: vec![Vec::new(); self.cells() + 1],
            exact: true,
        })
    }

    fn orbit_size(&self, state: &Pegs) -> u64 {
        if self.symmetries.len() <= 1 {
            return 1;
        }
        // The symmetries fixing the start are a group, so the orbit has
        // |group| / |stabiliser| positions: no list of images to sort (that
        // list was a fifth of a `--symmetry` search, in layer counting).
        let fixed = self
            .symmetries
            .iter()
            .filter(|map| map.apply(state.mask) == state.mask)
            .count();
        (self.symmetries.len() / fixed) as u64
    }

    fn inverse_rank(&self, state: &Pegs) -> Option<u64> {
        // Only a board full of pegs but one hole has the goal as its inverse.
        self.goal?;
        let complement = !state.mask & low_mask(self.cells());
        Some(self.rank_mask(self.canonical(complement)))
    }

    fn layer_name(&self, layer: usize) -> Option<String> {
        let pegs = self.start_pegs().checked_sub(layer)?;
        Some(format!("{pegs} peg{}", if pegs == 1 { "" } else { "s" }))
    }

    fn symmetry_reduced(&self) -> bool {
        self.symmetries.len() > 1
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::english;
    use super::*;
    use crate::games::Board;
    #[test]
    fn the_centre_start_has_four_jumps() {
        let game = english(false);
        let mut successors = Vec::new();
        game.expand(&Pegs::new(game.start), MoveFilter::All, |r| {
            successors.push(r)
        });
        assert_eq!(successors.len(), 4);
        let mut state = game.new_state();
        for rank in successors {
            game.unrank(rank, &mut state);
            assert_eq!(state.mask.count_ones(), 31);
            assert_eq!(state.mask >> 16 & 1, 1, "a peg lands in the centre");
        }
    }

    #[test]
    fn symmetry_maps_the_four_first_moves_to_one() {
        let game = english(true);
        assert_eq!(game.symmetry_count(), 8);
        let mut successors = Vec::new();
        game.expand(&Pegs::new(game.start), MoveFilter::All, |r| {
            successors.push(r)
        });
        successors.sort();
        successors.dedup();
        assert_eq!(successors.len(), 1);
        let mut state = game.new_state();
        game.unrank(successors[0], &mut state);
        assert_eq!(game.orbit_size(&state), 4);
        assert_eq!(game.orbit_size(&Pegs::new(game.start)), 1);
    }

    #[test]
    fn successor_images_toggled_from_the_parent_are_the_canonical_positions() {
        let (reduced, full) = (english(true), english(false));
        let mut seed = 3u64;
        for _ in 0..3000 {
            seed = crate::hash::splitmix64(seed);
            let pegs = Pegs::new(seed & ((1u64 << 33) - 1));
            let mut expected = Vec::new();
            full.expand(&pegs, MoveFilter::All, |rank| {
                let next = full.mask_of(rank);
                expected.push(reduced.rank_mask(reduced.canonical(next)));
            });
            let mut got = Vec::new();
            reduced.expand(&pegs, MoveFilter::All, |rank| got.push(rank));
            assert_eq!(got, expected, "pegs {:#x}", pegs.mask);
        }
    }

    #[test]
    fn jump_classes_find_exactly_the_jumps_of_the_rule_table() {
        // The classes against the per-hole rule table the GPU kernel uses,
        // on both boards and positions of every density.
        for name in ["english", "french"] {
            let board = Board::load(name).unwrap();
            let centre = board.centre().unwrap();
            let game = PegSolitaire::new(board, &[centre], false).unwrap();
            if name == "english" {
                assert_eq!(game.classes.len(), 12);
            }
            let all = low_mask(game.cells());
            let mut seed = 5u64;
            for round in 0..4000 {
                seed = crate::hash::splitmix64(seed);
                let mut pegs = seed & all;
                for _ in 0..round % 3 {
                    seed = crate::hash::splitmix64(seed);
                    pegs &= seed;
                }
                let mut expected = Vec::new();
                for to in (0..game.cells()).filter(|&to| pegs >> to & 1 == 0) {
                    for emptied in game.jumps_into(to) {
                        if pegs & emptied == emptied {
                            expected.push(game.rank_mask(pegs ^ emptied | 1 << to));
                        }
                    }
                }
                let mut got = Vec::new();
                game.expand(&Pegs::new(pegs), MoveFilter::All, |rank| got.push(rank));
                expected.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, expected, "pegs {pegs:#x}");
            }
        }
    }

    #[test]
    fn reused_positions_expand_like_fresh_ones() {
        // 20 cells: runs with bits above the low 16, every block visited.
        let board = Board::parse("ooooo\nooooo\nooooo\nooooo\n", "4x5").unwrap();
        for symmetry in [false, true] {
            let game = PegSolitaire::new(board.clone(), &[7], symmetry).unwrap();
            crate::space::assert_reused_states_expand_like_fresh_ones(&game);
        }
    }
}
