//! The (n, k) Top-Spin puzzle (section 4.3 of Edelkamp et al., *Solving Games
//! in Parallel with Linear-Time Perfect Hash Functions* (TZI report 52,
//! Bremen, 2009)).
//!
//! n tokens sit on a ring; a twist at position i reverses the k tokens at
//! positions i..i+k-1 (cyclically), so there are n twists. Rotations of the
//! ring are the same state, so a state is normalised with token 0 first and
//! the other n-1 tokens are ranked: (n-1)! ranks. The paper ranks them by
//! Myrvold–Ruskey; here the prefix Lehmer code (`crate::hash::prefix_lehmer`)
//! does, in which a twist that leaves token 0 in place changes only the k
//! digits of the tokens it reverses, so its rank comes from the parent's in
//! O(k) (issue 11); the twists that move token 0 rotate the whole order and
//! are ranked afresh.
//!
//! On the normalised order each twist acts as one fixed permutation of
//! positions (token 0 sits at position 0 before every twist), so whether it
//! changes parity does not depend on the state. When no twist does, only
//! one parity class is reachable and the space is folded onto (n-1)!/2 ranks
//! (Theorem 7, folding the prefix Lehmer code). Theorem 8 states this for odd n > k+1 and even k; the
//! reversal of k tokens is floor(k/2) transpositions, so in fact it holds for
//! k divisible by 4 (k = 4 is the paper's case), and the constructor checks
//! each twist rather than trusting the condition.

use super::permutation_state::{PermutationBuffer, check_permutation, parse_numbers};
use super::registration::{GameOptions, OptionSpec, Registered};
use crate::diagram::{Diagram, Style};
use crate::error::{Error, Result};
use crate::hash::permutation::{MAX_PERMUTATION_LEN, factorial, is_odd};
use crate::hash::prefix_lehmer::{self, PrefixWalk, UnrankCache};
use crate::kernel::Program;
use crate::space::{MoveFilter, Picture, Space};

/// The GPU expansion of this game (see [`crate::kernel`]).
const TOP_SPIN_KERNEL: &str = include_str!("top_spin.wgsl");

/// The (n, k) Top-Spin puzzle: n tokens on a ring, a turnstile reversing k of them.
#[derive(Clone, Debug)]
pub struct TopSpin {
    n: usize,
    k: usize,
    folded: bool,
    size: u64,
}

/// The ring read from token 0: `ring[0] == 0`.
#[derive(Clone, Debug)]
pub struct TopSpinState {
    ring: PermutationBuffer,
    /// The order's full (unfolded) prefix Lehmer rank.
    order_rank: u64,
    /// The order the last unrank decoded, and what it left for the next
    /// (only `unrank` writes them).
    order: PermutationBuffer,
    cache: UnrankCache,
}

impl TopSpin {
    /// The puzzle with `n` tokens and a turnstile of `k`.
    pub fn new(n: usize, k: usize) -> Result<Self> {
        if n < 3 {
            return Err(Error::InvalidParameter(format!(
                "Top-Spin needs at least 3 tokens, got {n}"
            )));
        }
        if !(2..=n).contains(&k) {
            return Err(Error::InvalidParameter(format!(
                "the turnstile must reverse between 2 and n = {n} tokens, got k = {k}"
            )));
        }
        if n - 1 > MAX_PERMUTATION_LEN {
            return Err(Error::SpaceTooLarge(format!(
                "Top-Spin with {n} tokens: (n-1)! states do not fit a 64-bit rank (at most n = {})",
                MAX_PERMUTATION_LEN + 1
            )));
        }
        let full = factorial(n - 1)?;
        let mut puzzle = TopSpin {
            n,
            k,
            folded: false,
            size: full,
        };
        if puzzle.twists_keep_parity() {
            puzzle.folded = true;
            puzzle.size = full / 2;
        }
        Ok(puzzle)
    }

    /// True when every twist, applied to the solved ring, gives an even
    /// normalised order (and hence keeps the parity of every state).
    fn twists_keep_parity(&self) -> bool {
        let solved = PermutationBuffer::identity(self.n);
        let mut order = [0u8; 32];
        (0..self.n).all(|start| {
            self.twisted_order(solved.as_array(), start, &mut order);
            !is_odd(&order[..self.n - 1])
        })
    }

    /// The number of tokens n on the ring.
    pub fn tokens(&self) -> usize {
        self.n
    }

    /// The position pairs the twist at `start` swaps, in order: the rule
    /// itself, read by the CPU expansion and uploaded for the GPU kernel.
    #[inline(always)]
    pub fn twist_swaps(&self, start: usize) -> impl Iterator<Item = (usize, usize)> + use<> {
        let (n, k) = (self.n, self.k);
        (0..k / 2).map(move |offset| ((start + offset) % n, (start + k - 1 - offset) % n))
    }

    /// Whether only one parity class is reachable, so the space is folded onto (n-1)!/2 ranks.
    pub fn is_folded(&self) -> bool {
        self.folded
    }

    /// Writes into `order` the n-1 tokens (numbered from 0) that follow token
    /// 0 on `ring`, starting just after position `zero_at`.
    #[inline(always)]
    fn read_order(&self, ring: &[u8], zero_at: usize, order: &mut [u8; 32]) {
        let n = self.n;
        for (j, slot) in order.iter_mut().enumerate().take(n - 1) {
            let position = zero_at + 1 + j;
            let position = if position >= n {
                position - n
            } else {
                position
            };
            *slot = ring[position] - 1;
        }
    }

    /// The normalised order after the twist at `start` of a normalised `ring`.
    #[inline(always)]
    fn twisted_order(&self, ring: &[u8; 32], start: usize, order: &mut [u8; 32]) {
        let (n, k) = (self.n, self.k);
        let mut twisted = *ring;
        for (a, b) in self.twist_swaps(start) {
            twisted.swap(a, b);
        }
        // Token 0 stays at position 0 unless this twist covers position 0.
        let zero_at = if start == 0 || start + k > n {
            twisted[..n].iter().position(|&t| t == 0).unwrap()
        } else {
            0
        };
        self.read_order(&twisted[..n], zero_at, order);
    }

    #[inline(always)]
    fn rank_order(&self, order: &[u8]) -> u64 {
        self.fold(prefix_lehmer::rank(order))
    }

    /// The space's rank of an order's full prefix Lehmer rank.
    #[inline(always)]
    fn fold(&self, rank: u64) -> u64 {
        if self.folded { rank >> 1 } else { rank }
    }
}

impl Registered for TopSpin {
    const NAME: &'static str = "top-spin";
    const SUMMARY: &'static str = "(n, k) Top-Spin: reverse k consecutive tokens of a ring of n";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::value("n", "N", "Number of tokens on the ring (3..=21)"),
        OptionSpec::value("k", "K", "Tokens reversed by one twist").with_default("4"),
    ];

    fn from_options(options: &GameOptions) -> Result<Self> {
        let k = options.number("k")?.unwrap_or(4);
        TopSpin::new(options.required_number("n")?, k)
    }
}

impl Space for TopSpin {
    fn gpu_program(&self) -> Result<Program> {
        let n = self.tokens();
        let mut swaps = Vec::new();
        for start in 0..n {
            for (a, b) in self.twist_swaps(start) {
                swaps.extend([a as u32, b as u32]);
            }
        }
        let mut program = Program::default();
        program
            .constant("TOKENS", n as u32)
            .constant("FOLDED", self.is_folded() as u32)
            .constant("TWIST_SWAPS", (swaps.len() / (2 * n)) as u32)
            .table("TWISTS_AT", &swaps)
            .prefix_lehmer_hash(n)
            .source(TOP_SPIN_KERNEL);
        Ok(program)
    }

    type State = TopSpinState;

    fn descriptor(&self) -> String {
        format!("top-spin n={} k={}", self.n, self.k)
    }

    fn size(&self) -> u64 {
        self.size
    }

    fn start_ranks(&self) -> Vec<u64> {
        // Tokens in order: the identity, rank 0 folded or not.
        vec![0]
    }

    fn new_state(&self) -> TopSpinState {
        TopSpinState {
            ring: PermutationBuffer::identity(self.n),
            order_rank: 0,
            order: PermutationBuffer::identity(self.n - 1),
            cache: UnrankCache::default(),
        }
    }

    #[inline]
    fn unrank(&self, rank: u64, state: &mut TopSpinState) {
        let n = self.n;
        let order = state.order.as_mut_slice();
        if self.folded {
            // The reachable class is that of the start, the identity (even).
            prefix_lehmer::unrank_folded_cached(rank, false, order, &mut state.cache);
        } else {
            prefix_lehmer::unrank_cached(rank, order, &mut state.cache);
        }
        state.order_rank = if self.folded {
            prefix_lehmer::unfold(rank, order)
        } else {
            rank
        };
        let ring = state.ring.as_mut_slice();
        ring[0] = 0;
        for j in 0..n - 1 {
            ring[j + 1] = order[j] + 1;
        }
    }

    fn rank(&self, state: &TopSpinState) -> u64 {
        let ring = state.ring.as_slice();
        let zero_at = ring
            .iter()
            .position(|&t| t == 0)
            .expect("token 0 is on the ring");
        let mut order = [0u8; 32];
        self.read_order(ring, zero_at, &mut order);
        self.rank_order(&order[..self.n - 1])
    }

    #[inline]
    fn expand<F: FnMut(u64)>(&self, state: &TopSpinState, _moves: MoveFilter, mut emit: F) {
        let (n, k) = (self.n, self.k);
        let ring = state.ring.as_array();
        let mut order = [0u8; 32];
        self.read_order(&ring[..n], 0, &mut order);
        let order = &order[..n - 1];
        // Twists at 1..=n-k leave token 0 in place and reverse order
        // entries start-1 .. start-1+k: only their digits change. Two walks
        // read the parent's digits up to each window's start and end.
        let (mut to_start, mut to_end) = (PrefixWalk::default(), PrefixWalk::default());
        for start in 1..=n - k {
            let first = start - 1;
            let old = to_end.low_digits(order, first + k) - to_start.low_digits(order, first);
            let reversed = (first..first + k).rev().map(|i| order[i]);
            let new = prefix_lehmer::window_digits(to_start.set(), first, reversed);
            emit(self.fold(state.order_rank - old + new));
        }
        let mut twisted = [0u8; 32];
        for start in (n - k + 1..n).chain([0]) {
            self.twisted_order(ring, start, &mut twisted);
            emit(self.rank_order(&twisted[..n - 1]));
        }
    }

    fn reversible(&self) -> bool {
        true
    }
}

impl Picture for TopSpin {
    /// The ring read clockwise from token 0, with the turnstile's k
    /// positions under the first tokens.
    fn draw(&self, state: &TopSpinState) -> String {
        let tokens: Vec<String> = state
            .ring
            .as_slice()
            .iter()
            .map(|t| format!("{t:>2}"))
            .collect();
        let turnstile: Vec<&str> = (0..self.n)
            .map(|i| if i < self.k { "^^" } else { "  " })
            .collect();
        format!(
            "ring  {}  (back to {:>2})\n      {}\n",
            tokens.join(" "),
            0,
            turnstile.join(" ")
        )
    }

    /// The tokens 0..n-1 around the ring, in any rotation, e.g. "0,2,1,3,4,5".
    fn read_position(&self, text: &str) -> Result<TopSpinState> {
        let numbers = parse_numbers(text)?;
        if numbers.len() != self.n {
            return Err(Error::InvalidParameter(format!(
                "a ring of {} tokens needs {} numbers, got {}",
                self.n,
                self.n,
                numbers.len()
            )));
        }
        check_permutation(&numbers, 0, "the ring")?;
        let zero_at = numbers.iter().position(|&t| t == 0).unwrap();
        let mut state = self.new_state();
        for j in 0..self.n {
            state.ring.as_mut_slice()[j] = numbers[(zero_at + j) % self.n] as u8;
        }
        if self.folded {
            let order: Vec<u8> = state.ring.as_slice()[1..].iter().map(|t| t - 1).collect();
            if is_odd(&order) {
                return Err(Error::InvalidParameter(
                    "this ring has the parity no twist can reach from the solved ring".into(),
                ));
            }
        }
        let mut order = [0u8; 32];
        self.read_order(state.ring.as_slice(), 0, &mut order);
        state.order_rank = prefix_lehmer::rank(&order[..self.n - 1]);
        Ok(state)
    }

    /// The ring's tokens clockwise from token 0, the turnstile over the
    /// first k.
    fn diagram(&self, state: &TopSpinState) -> Diagram {
        let tokens = state.ring.as_slice().iter().map(|t| Some(t.to_string()));
        Diagram {
            window: Some(self.k),
            ..Diagram::row(Style::Ring, tokens)
        }
    }

    /// "0,2,1,3,4,5": the ring clockwise from token 0.
    fn position_text(&self, state: &TopSpinState) -> String {
        let tokens: Vec<String> = state.ring.as_slice().iter().map(u8::to_string).collect();
        tokens.join(",")
    }

    /// "twist 3..6": the ring positions (counted from token 0's, as drawn)
    /// whose k tokens the turnstile reverses.
    fn move_name(&self, from: &TopSpinState, to: &TopSpinState) -> String {
        let (n, k) = (self.n, self.k);
        let mut wanted = [0u8; 32];
        self.read_order(to.ring.as_slice(), 0, &mut wanted);
        let mut twisted = [0u8; 32];
        let start = (0..n).find(|&start| {
            self.twisted_order(from.ring.as_array(), start, &mut twisted);
            twisted[..n - 1] == wanted[..n - 1]
        });
        match start {
            Some(start) => format!("twist {start}..{}", (start + k - 1) % n),
            None => "no twist".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;

    #[test]
    fn rank_and_unrank_agree_on_the_whole_space() {
        for (n, k) in [(6, 4), (7, 4), (5, 2)] {
            crate::space::assert_rank_inverts_unrank(&TopSpin::new(n, k).unwrap());
        }
        // Past 6 entries the unrank caches (n = 8 and 9: 7 and 8 entries).
        for (n, k) in [(8, 4), (9, 4), (9, 3)] {
            crate::space::assert_rank_inverts_unrank(&TopSpin::new(n, k).unwrap());
            crate::space::assert_reused_states_expand_like_fresh_ones(&TopSpin::new(n, k).unwrap());
        }
    }

    #[test]
    fn positions_and_twists_are_named() {
        for (n, k) in [(6, 4), (7, 4), (5, 2)] {
            crate::space::assert_positions_and_moves_are_named(&TopSpin::new(n, k).unwrap());
        }
        let space = TopSpin::new(6, 4).unwrap();
        let from = space.parse_position("0,1,2,3,4,5").unwrap();
        let to = space.parse_position("0,4,3,2,1,5").unwrap();
        assert_eq!(space.position_text(&from), "0,1,2,3,4,5");
        assert_eq!(space.move_name(&from, &to), "twist 1..4");
    }

    /// The same puzzle over all (n-1)! orders, for checking the fold.
    fn unfolded(n: usize, k: usize) -> TopSpin {
        TopSpin {
            folded: false,
            size: factorial(n - 1).unwrap(),
            ..TopSpin::new(n, k).unwrap()
        }
    }

    fn order_is_odd(state: &TopSpinState) -> bool {
        let order: Vec<u8> = state.ring.as_slice()[1..].iter().map(|t| t - 1).collect();
        is_odd(&order)
    }

    #[test]
    fn theorem_8_twists_keep_parity_where_the_space_is_folded() {
        for (n, k) in [(7, 4), (9, 4), (9, 8), (6, 4), (7, 2), (9, 6)] {
            // Folded exactly where Theorem 8's case (k = 4) and its k = 0 mod 4
            // generalisation apply.
            assert_eq!(
                TopSpin::new(n, k).unwrap().is_folded(),
                n % 2 == 1 && k % 4 == 0
            );
            let space = unfolded(n, k);
            let mut state = space.new_state();
            let mut successor = space.new_state();
            for rank in (0..space.size()).step_by(13) {
                space.unrank(rank, &mut state);
                let odd = order_is_odd(&state);
                let mut all_keep = true;
                space.expand(&state, MoveFilter::All, |r| {
                    space.unrank(r, &mut successor);
                    all_keep &= order_is_odd(&successor) == odd;
                });
                assert_eq!(
                    all_keep,
                    TopSpin::new(n, k).unwrap().is_folded(),
                    "n={n} k={k}"
                );
            }
        }
    }

    #[test]
    fn folded_and_unfolded_spaces_reach_the_same_number_of_states() {
        for (n, k) in [(7, 4), (9, 4), (7, 2)] {
            let options = crate::search::SearchOptions::default();
            let folded =
                crate::search::two_bit_bfs(&TopSpin::new(n, k).unwrap(), &CpuBackend, &options)
                    .unwrap();
            let full = crate::search::two_bit_bfs(&unfolded(n, k), &CpuBackend, &options).unwrap();
            assert_eq!(folded.layers, full.layers);
        }
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(TopSpin::new(2, 2).is_err());
        assert!(TopSpin::new(8, 9).is_err());
        assert!(TopSpin::new(8, 1).is_err());
        assert!(TopSpin::new(21, 4).is_ok());
        assert!(matches!(TopSpin::new(22, 4), Err(Error::SpaceTooLarge(_))));
    }
}
