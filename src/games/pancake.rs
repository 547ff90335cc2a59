//! The n-Pancake problem and its burned variant (section 4.4 of
//! Edelkamp et al., *Solving Games in Parallel with Linear-Time Perfect Hash
//! Functions* (TZI report 52, Bremen, 2009)).
//!
//! A state is a stack, position 0 on top; a move flips the top k pancakes.
//! The plain problem has the n! stacks ranked by the prefix Lehmer code
//! (`crate::hash::prefix_lehmer`), the burned one adds a bit per position
//! (burned side up) and ranks as `sides * n! + stack rank`, one block per
//! side pattern. The paper ranks stacks by Myrvold–Ruskey; in the prefix
//! Lehmer code a flip of the top k changes only the rank below k!, so a
//! successor's rank comes from its parent's in O(k) and most flips land
//! close to their parent in the table (issue 11: with the rest of that
//! work, Pancake-11 on one thread went from 21.2 s to 4.3 s; see the
//! performance log in docs/). The search starts at
//! the sorted stack (burned sides down), and since every flip undoes itself
//! the layers are the distances to sorted: the deepest layer is the pancake
//! number.

use super::permutation_state::{PermutationBuffer, check_permutation, parse_numbers};
use super::registration::{GameOptions, OptionSpec, Registered};
use crate::diagram::{Diagram, Style};
use crate::error::{Error, Result};
use crate::hash::permutation::factorial;
use crate::hash::prefix_lehmer::{self, PrefixWalk, UnrankCache};
use crate::kernel::Program;
use crate::space::{Block, MoveFilter, Picture, Space};

/// The GPU expansion of this game (see [`crate::kernel`]).
const PANCAKE_KERNEL: &str = include_str!("pancake.wgsl");

/// The largest n the tool accepts: n! (times 2^n when burned) must fit a u64.
pub const MAX_PANCAKES: usize = 20;
/// The largest n of the burned variant: n! * 2^n must fit a u64.
pub const MAX_BURNED_PANCAKES: usize = 16;

/// The n-Pancake problem, plain or burned.
#[derive(Clone, Debug)]
pub struct Pancake {
    n: usize,
    burned: bool,
    stacks: u64,
}

/// A stack: the pancakes from the top down, and which show their burned side up.
#[derive(Clone, Debug)]
pub struct PancakeState {
    stack: PermutationBuffer,
    /// Bit i set: the pancake at position i shows its burned side up.
    burned_up: u32,
    /// The stack's rank, which successor ranks start from.
    stack_rank: u64,
    /// What the last unrank into this state decoded. Only `unrank` changes
    /// a state's stack after it is made (`parse_position` builds a new one),
    /// which keeps the stack, its rank and the cache consistent.
    cache: UnrankCache,
}

impl Pancake {
    /// The problem with `n` pancakes; the burned variant with `burned`.
    pub fn new(n: usize, burned: bool) -> Result<Self> {
        let limit = if burned {
            MAX_BURNED_PANCAKES
        } else {
            MAX_PANCAKES
        };
        if n == 0 {
            return Err(Error::InvalidParameter(
                "the pancake stack needs at least 1 pancake".into(),
            ));
        }
        if n > limit {
            let what = if burned { "n! * 2^n" } else { "n!" };
            return Err(Error::SpaceTooLarge(format!(
                "{} pancakes: {what} states do not fit a 64-bit rank (at most n = {limit})",
                n
            )));
        }
        Ok(Pancake {
            n,
            burned,
            stacks: factorial(n)?,
        })
    }

    /// The number of pancakes.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Whether the pancakes have a burned side (the burned variant).
    pub fn burned(&self) -> bool {
        self.burned
    }

    /// The moves: how many pancakes a flip turns over. Flipping one plain
    /// pancake changes nothing; a burned one turns over. The CPU expansion
    /// and the GPU kernel both read this list.
    pub fn flip_lengths(&self) -> std::ops::RangeInclusive<usize> {
        let smallest = if self.burned { 1 } else { 2 };
        smallest..=self.n
    }

    fn side_patterns(&self) -> u64 {
        if self.burned { 1u64 << self.n } else { 1 }
    }

    /// The stack after flipping the top `k` pancakes of `state`, ranked;
    /// `walk` has read the stack for smaller flips (or not at all).
    #[inline(always)]
    fn flipped_rank(&self, state: &PancakeState, walk: &mut PrefixWalk, k: usize) -> u64 {
        let stack = state.stack.as_slice();
        let stack_rank = prefix_lehmer::rank_with_prefix_reversed(state.stack_rank, stack, k, walk);
        if !self.burned {
            return stack_rank;
        }
        // The top k side bits reverse their order and all turn over.
        let top = (1u32 << k) - 1;
        let reversed = (state.burned_up & top).reverse_bits() >> (32 - k);
        let sides = (state.burned_up & !top) | (reversed ^ top);
        sides as u64 * self.stacks + stack_rank
    }
}

impl Registered for Pancake {
    const NAME: &'static str = "pancake";
    const SUMMARY: &'static str = "n-Pancake: flip the top k of n pancakes until sorted";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::value("n", "N", "Number of pancakes (1..=20, burned 1..=16)"),
        OptionSpec::flag("burned", "Pancakes burned on one side, which must end down"),
    ];

    fn from_options(options: &GameOptions) -> Result<Self> {
        Pancake::new(options.required_number("n")?, options.flag("burned"))
    }
}

impl Pancake {
    /// The stack whose sizes from the top are `numbers` (negative: burned
    /// side up), checked: n sizes, a permutation of 1..n, signs only when
    /// burned.
    fn stack_of_numbers(&self, numbers: &[i64]) -> Result<PancakeState> {
        if numbers.len() != self.n {
            return Err(Error::InvalidParameter(format!(
                "a stack of {} pancakes needs {} sizes, got {}",
                self.n,
                self.n,
                numbers.len()
            )));
        }
        if !self.burned && numbers.iter().any(|&x| x < 0) {
            return Err(Error::InvalidParameter(
                "only burned pancakes have sides (--burned)".into(),
            ));
        }
        // Saturating: -9223372036854775808 has no i64 absolute value. On
        // the stack, not in a Vec: bindings read millions of rows.
        let mut sizes = [0i64; MAX_PANCAKES];
        let sizes = &mut sizes[..numbers.len()];
        for (size, x) in sizes.iter_mut().zip(numbers) {
            *size = x.saturating_abs();
        }
        check_permutation(sizes, 1, "the stack")?;
        let mut state = self.new_state();
        for (position, &size) in sizes.iter().enumerate() {
            state.stack.as_mut_slice()[position] = (size - 1) as u8;
        }
        state.burned_up = numbers
            .iter()
            .enumerate()
            .filter(|&(_, &x)| x < 0)
            .fold(0, |acc, (position, _)| acc | 1 << position);
        state.stack_rank = prefix_lehmer::rank(state.stack.as_slice());
        Ok(state)
    }
}

impl Space for Pancake {
    fn gpu_program(&self) -> Result<Program> {
        let flips: Vec<u32> = self.flip_lengths().map(|k| k as u32).collect();
        let mut program = Program::default();
        program
            .constant("PANCAKES", self.n() as u32)
            .constant("BURNED", self.burned() as u32)
            .constant("FLIP_COUNT", flips.len() as u32)
            .table("FLIPS_AT", &flips)
            .prefix_lehmer_hash(self.n())
            .source(PANCAKE_KERNEL);
        Ok(program)
    }

    type State = PancakeState;

    fn descriptor(&self) -> String {
        if self.burned {
            format!("burned pancake n={}", self.n)
        } else {
            format!("pancake n={}", self.n)
        }
    }

    fn size(&self) -> u64 {
        self.stacks * self.side_patterns()
    }

    fn blocks(&self) -> Vec<Block> {
        (0..self.side_patterns())
            .map(|sides| Block {
                start: sides * self.stacks,
                len: self.stacks,
            })
            .collect()
    }

    fn start_ranks(&self) -> Vec<u64> {
        // The sorted stack has rank 0, and all burned sides are down.
        vec![0]
    }

    fn new_state(&self) -> PancakeState {
        PancakeState {
            stack: PermutationBuffer::identity(self.n),
            burned_up: 0,
            stack_rank: 0,
            cache: UnrankCache::default(),
        }
    }

    #[inline]
    fn unrank(&self, rank: u64, state: &mut PancakeState) {
        // A u64 division costs more than the rest of a plain stack's unrank.
        let (sides, stack_rank) = if self.burned {
            (rank / self.stacks, rank % self.stacks)
        } else {
            (0, rank)
        };
        prefix_lehmer::unrank_cached(stack_rank, state.stack.as_mut_slice(), &mut state.cache);
        state.stack_rank = stack_rank;
        state.burned_up = sides as u32;
    }

    fn rank(&self, state: &PancakeState) -> u64 {
        state.burned_up as u64 * self.stacks + prefix_lehmer::rank(state.stack.as_slice())
    }

    #[inline]
    fn expand<F: FnMut(u64)>(&self, state: &PancakeState, _moves: MoveFilter, mut emit: F) {
        let mut walk = PrefixWalk::default();
        for k in self.flip_lengths() {
            emit(self.flipped_rank(state, &mut walk, k));
        }
    }

    fn reversible(&self) -> bool {
        true
    }
}

impl Picture for Pancake {
    /// The stack from the top, one pancake a line, as wide as it is large;
    /// a burned side up shows as `#`.
    fn draw(&self, state: &PancakeState) -> String {
        let mut picture = String::new();
        for (position, &size) in state.stack.as_slice().iter().enumerate() {
            let width = size as usize + 1;
            let burned_up = state.burned_up >> position & 1 == 1;
            let fill = if burned_up { "#" } else { "=" };
            let pad = " ".repeat(self.n - width + 1);
            picture.push_str(&format!(
                "{pad}{}  {}{}\n",
                fill.repeat(2 * width - 1),
                size + 1,
                if burned_up { " (burned side up)" } else { "" }
            ));
        }
        picture
    }

    /// Pancake sizes 1..n from the top, e.g. "3,1,2"; with `--burned`, a
    /// minus sign marks a pancake with its burned side up.
    fn read_position(&self, text: &str) -> Result<PancakeState> {
        self.stack_of_numbers(&parse_numbers(text)?)
    }

    fn write_numbers(&self, state: &PancakeState, row: &mut [i64]) -> bool {
        for (position, (value, &size)) in row.iter_mut().zip(state.stack.as_slice()).enumerate() {
            let sign = if state.burned_up >> position & 1 == 1 {
                -1
            } else {
                1
            };
            *value = sign * (size as i64 + 1);
        }
        true
    }

    fn read_numbers(&self, row: &[i64]) -> Option<Result<PancakeState>> {
        Some(self.stack_of_numbers(row))
    }

    /// The stack from the top: each pancake's size, negative when its
    /// burned side is up.
    fn diagram(&self, state: &PancakeState) -> Diagram {
        let sizes = signed_sizes(state).map(|size| Some(size.to_string()));
        Diagram::column(Style::Stack, sizes)
    }

    /// "3,-1,2": sizes from the top, a minus sign for a burned side up.
    fn position_text(&self, state: &PancakeState) -> String {
        let sizes: Vec<String> = signed_sizes(state).map(|size| size.to_string()).collect();
        sizes.join(",")
    }

    /// "flip 4": the spatula goes under the fourth pancake from the top.
    fn move_name(&self, from: &PancakeState, to: &PancakeState) -> String {
        let (above, below) = (from.stack.as_slice(), to.stack.as_slice());
        let flipped = (0..self.n)
            .rev()
            .find(|&p| above[p] != below[p] || (from.burned_up ^ to.burned_up) >> p & 1 == 1)
            .map_or(0, |deepest| deepest + 1);
        format!("flip {flipped}")
    }
}

/// The pancakes' sizes from the top (1 the smallest), negative for a
/// burned side up.
fn signed_sizes(state: &PancakeState) -> impl Iterator<Item = i64> + '_ {
    state
        .stack
        .as_slice()
        .iter()
        .enumerate()
        .map(|(position, &size)| {
            let size = size as i64 + 1;
            if state.burned_up >> position & 1 == 1 {
                -size
            } else {
                size
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_the_texts_numbers_without_the_text() {
        for burned in [false, true] {
            let game = Pancake::new(5, burned).unwrap();
            let mut state = game.new_state();
            let mut row = [0i64; 5];
            for rank in 0..game.size() {
                game.unrank(rank, &mut state);
                assert!(game.write_numbers(&state, &mut row));
                assert_eq!(parse_numbers(&game.position_text(&state)).unwrap(), row);
                let read = game.read_numbers(&row).unwrap().unwrap();
                assert_eq!(game.rank(&read), rank);
            }
            // The same checks as text: a repeated size, a short row.
            assert!(game.read_numbers(&[1, 1, 2, 3, 4]).unwrap().is_err());
            assert!(game.read_numbers(&[1, 2, 3]).unwrap().is_err());
        }
        let plain = Pancake::new(3, false).unwrap();
        assert!(plain.read_numbers(&[-1, 2, 3]).unwrap().is_err());
    }

    #[test]
    fn rank_and_unrank_agree_on_the_whole_space() {
        for burned in [false, true] {
            crate::space::assert_rank_inverts_unrank(&Pancake::new(4, burned).unwrap());
        }
        for (n, burned) in [(8, false), (7, true)] {
            crate::space::assert_reused_states_expand_like_fresh_ones(
                &Pancake::new(n, burned).unwrap(),
            );
        }
    }

    #[test]
    fn positions_and_flips_are_named() {
        for burned in [false, true] {
            crate::space::assert_positions_and_moves_are_named(&Pancake::new(4, burned).unwrap());
        }
        let space = Pancake::new(5, true).unwrap();
        let from = space.parse_position("3,-1,2,5,4").unwrap();
        let to = space.parse_position("1,-3,2,5,4").unwrap();
        assert_eq!(space.position_text(&from), "3,-1,2,5,4");
        assert_eq!(space.move_name(&from, &to), "flip 2");
    }

    #[test]
    fn flips_are_involutions() {
        let space = Pancake::new(5, true).unwrap();
        let mut state = space.new_state();
        let mut back = space.new_state();
        for rank in (0..space.size()).step_by(7) {
            space.unrank(rank, &mut state);
            let mut walk = PrefixWalk::default();
            for k in 1..=5 {
                let successor = space.flipped_rank(&state, &mut walk, k);
                space.unrank(successor, &mut back);
                let mut back_walk = PrefixWalk::default();
                assert_eq!(space.flipped_rank(&back, &mut back_walk, k), rank);
            }
        }
    }

    #[test]
    fn too_many_pancakes_is_an_error() {
        assert!(Pancake::new(20, false).is_ok());
        assert!(matches!(
            Pancake::new(21, false),
            Err(Error::SpaceTooLarge(_))
        ));
        assert!(matches!(
            Pancake::new(17, true),
            Err(Error::SpaceTooLarge(_))
        ));
        assert!(Pancake::new(0, false).is_err());
    }
}
