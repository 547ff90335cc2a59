//! The 24-point Morris board: three concentric squares whose side
//! midpoints are joined, with Morabaraba's diagonals as an option.
//!
//! A point is a square `s` (0 outer, 1 middle, 2 inner) and a place `p`
//! around it (0..8, clockwise from the top-left corner: even places are
//! corners, odd ones midpoints); its index is `8 * s + p`. Names are the
//! usual algebraic ones (files a..g from the left, ranks 1..7 from the
//! bottom): the outer square is a7 d7 g7 g4 g1 d1 a1 a4.
//!
//! The board's 16 symmetries (Gasser; Edelkamp, Sulewski and Yücel) are
//! the 8 of the square (a quarter turn moves every place by 2, a mirror
//! reverses the places) times the exchange of the inner and outer squares;
//! Morabaraba's diagonals, which run through the three squares' corners,
//! are kept by all 16.

/// Points on the board.
pub const POINTS: usize = 24;

/// Places around one square.
const PLACES: usize = 8;

/// One of the board's lines of three points: a side of a square, a line
/// across the squares through midpoints, or (Morabaraba) a diagonal
/// through corners. Every mill is a line.
pub type Line = [u8; 3];

/// The point of square `square` at place `place`.
pub const fn point(square: usize, place: usize) -> u8 {
    (PLACES * square + place % PLACES) as u8
}

/// The midpoints of the three squares (odd places), a bit each.
const MIDPOINTS: u32 = 0xAA_AAAA;

/// The corners of the three squares (even places), a bit each.
const CORNERS: u32 = 0x55_5555;

/// What `x` (a bit per point) holds `k` places on around the same square,
/// at each place (k = 1, 2 clockwise; 7, 6 the other way).
const fn around(x: u32, k: u32) -> u32 {
    let low = (0xFFu32 >> k) * 0x01_0101;
    (x >> k) & low | (x << (8 - k)) & !low & 0xFF_FFFF
}

/// A Morris board: the points' neighbours and the mills through each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    diagonals: bool,
    /// `neighbours[i]`: a bit per point next to point `i`.
    neighbours: [u32; POINTS],
    mills: Vec<Line>,
    /// `mills_through[i]`: the masks of the mills through point `i`,
    /// padded with [`NO_MILL`]. Masks rather than lists of points: every
    /// move the solver generates asks whether it closes a mill (a fifth
    /// of the judging of a moving layer went to walking the lists).
    mills_through: [[u32; MOST_MILLS_THROUGH]; POINTS],
}

/// Mills through one point at most: two sides of a square and, on
/// Morabaraba's board, a diagonal.
const MOST_MILLS_THROUGH: usize = 3;

/// A mask no set of stones fills (the points are bits 0..24).
const NO_MILL: u32 = 1 << 31;

impl Board {
    /// The board of Nine Men's Morris and Lasker Morris (`diagonals`
    /// false) or of Morabaraba (true).
    pub fn new(diagonals: bool) -> Self {
        let mut mills: Vec<Line> = Vec::new();
        for square in 0..3 {
            for corner in (0..PLACES).step_by(2) {
                mills.push([
                    point(square, corner),
                    point(square, corner + 1),
                    point(square, corner + 2),
                ]);
            }
        }
        let across = |place: usize| [point(0, place), point(1, place), point(2, place)];
        mills.extend((1..PLACES).step_by(2).map(across));
        if diagonals {
            mills.extend((0..PLACES).step_by(2).map(across));
        }
        let mut neighbours = [0u32; POINTS];
        for line in &mills {
            for pair in line.windows(2) {
                let (a, b) = (pair[0] as usize, pair[1] as usize);
                neighbours[a] |= 1 << b;
                neighbours[b] |= 1 << a;
            }
        }
        let mill_masks: Vec<u32> = mills
            .iter()
            .map(|line| line.iter().fold(0, |mask, &at| mask | 1 << at))
            .collect();
        let mut mills_through = [[NO_MILL; MOST_MILLS_THROUGH]; POINTS];
        for (line, &mask) in mills.iter().zip(&mill_masks) {
            for &at in line {
                let free = mills_through[at as usize]
                    .iter_mut()
                    .find(|slot| **slot == NO_MILL)
                    .expect("at most three mills run through a point");
                *free = mask;
            }
        }
        Board {
            diagonals,
            neighbours,
            mills,
            mills_through,
        }
    }

    /// Whether the board has Morabaraba's diagonals.
    pub fn diagonals(&self) -> bool {
        self.diagonals
    }

    /// The points next to `point`, a bit each.
    pub fn neighbours(&self, point: usize) -> u32 {
        self.neighbours[point]
    }

    /// Every mill (line of three points).
    pub fn mills(&self) -> &[Line] {
        &self.mills
    }

    /// Whether the stones `stones` (a bit per point) fill a mill through
    /// `point` (itself among them).
    #[inline]
    pub fn in_mill(&self, stones: u32, point: usize) -> bool {
        self.mills_through[point]
            .iter()
            .any(|&mask| mask & !stones == 0)
    }

    /// The points of `empty` where a stone of the side with `stones`
    /// closes a mill: the third point of a mill whose other two it holds.
    ///
    /// All points at once, a byte a square: the sides of the squares by
    /// rotating each byte, the lines across by moving whole bytes. A walk
    /// over the 16 or 20 mills cost Morris's first passes a tenth of their
    /// time once they asked it of every position.
    #[inline]
    pub fn closing_points(&self, stones: u32, empty: u32) -> u32 {
        let x = stones & 0xFF_FFFF;
        let (after, before) = (around(x, 1), around(x, 7));
        let sides =
            after & before & MIDPOINTS | (after & around(x, 2) | before & around(x, 6)) & CORNERS;
        let [outer, middle, inner, _] = x.to_le_bytes().map(u32::from);
        let lines = middle & inner | (outer & inner) << 8 | (outer & middle) << 16;
        let across = if self.diagonals {
            lines
        } else {
            lines & MIDPOINTS
        };
        (sides | across) & empty
    }

    /// How many pairs of neighbouring points have one in `from` and the
    /// other in `to`: the moves of stones at `from` to points of `to`.
    /// All points at once, as [`closing_points`](Self::closing_points)
    /// finds them: around each square by rotating its byte, across the
    /// squares by moving whole bytes (midpoints, and on Morabaraba's board
    /// corners too). A walk over the stones' neighbours cost Morris's
    /// first passes a tenth of their time.
    #[inline]
    pub fn neighbour_pairs(&self, from: u32, to: u32) -> u32 {
        let (x, to) = (from & 0xFF_FFFF, to & 0xFF_FFFF);
        let crossing = if self.diagonals { 0xFF_FFFF } else { MIDPOINTS };
        (around(x, 1) & to).count_ones()
            + (around(x, 7) & to).count_ones()
            + ((x << 8) & crossing & to).count_ones()
            + ((x >> 8) & crossing & to).count_ones()
    }

    /// The points of `stones` that stand in a mill of theirs.
    ///
    /// All points at once, as [`closing_points`](Self::closing_points):
    /// a side's mill is full where its midpoint and both neighbours around
    /// the square are held, a line across where a place is held on all
    /// three squares. (A walk over the mills was a twentieth of Morris's
    /// first passes, through every capture's removable stones.)
    #[inline]
    pub fn in_mills(&self, stones: u32) -> u32 {
        let x = stones & 0xFF_FFFF;
        let centres = x & around(x, 1) & around(x, 7) & MIDPOINTS;
        let sides = centres | around(centres, 1) | around(centres, 7);
        let [outer, middle, inner, _] = x.to_le_bytes().map(u32::from);
        let crossing = if self.diagonals {
            0xFF
        } else {
            MIDPOINTS & 0xFF
        };
        let across = (outer & middle & inner & crossing) * 0x01_0101;
        sides | across
    }

    /// The algebraic name of `point` ("a7", "d2").
    pub fn name(point: usize) -> String {
        let (file, rank) = coordinates(point);
        format!("{}{}", (b'a' + file) as char, rank + 1)
    }

    /// The point named `name`, if it is one.
    pub fn point_named(name: &str) -> Option<usize> {
        (0..POINTS).find(|&p| Self::name(p) == name.trim().to_ascii_lowercase())
    }
}

/// The file (0 = a) and rank (0 = 1) of `point`.
fn coordinates(point: usize) -> (u8, u8) {
    let (square, place) = (point / PLACES, point % PLACES);
    let (near, middle, far) = (square as u8, 3u8, 6 - square as u8);
    // Clockwise from the top-left corner: (file, rank).
    let around = [
        (near, far),
        (middle, far),
        (far, far),
        (far, middle),
        (far, near),
        (middle, near),
        (near, near),
        (near, middle),
    ];
    around[place]
}

/// The board's 16 symmetries, each as the image of every point; the
/// identity first.
pub fn symmetries() -> Vec<[u8; POINTS]> {
    let mut all = Vec::with_capacity(16);
    for swap in [false, true] {
        for mirror in [false, true] {
            for turn in 0..4 {
                let mut image = [0u8; POINTS];
                for (from, to) in image.iter_mut().enumerate() {
                    let (square, place) = (from / PLACES, from % PLACES);
                    let place = if mirror {
                        (PLACES - place) % PLACES
                    } else {
                        place
                    };
                    let square = if swap { 2 - square } else { square };
                    *to = point(square, place + 2 * turn);
                }
                all.push(image);
            }
        }
    }
    all
}

/// The image of the stones `stones` (a bit per point) under `symmetry`.
pub fn apply(symmetry: &[u8; POINTS], stones: u32) -> u32 {
    let mut image = 0;
    let mut rest = stones;
    while rest != 0 {
        let at = rest.trailing_zeros() as usize;
        image |= 1 << symmetry[at];
        rest &= rest - 1;
    }
    image
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn degree_counts(board: &Board) -> [usize; 5] {
        let mut counts = [0; 5];
        for p in 0..POINTS {
            counts[board.neighbours(p).count_ones() as usize] += 1;
        }
        counts
    }

    #[test]
    fn nine_mens_morris_has_32_lines_16_mills_two_through_every_point() {
        let board = Board::new(false);
        assert_eq!(board.mills().len(), 16);
        // 12 corners of degree 2, 8 outer and inner midpoints of 3, the
        // middle square's 4 midpoints of 4: 32 lines.
        assert_eq!(degree_counts(&board), [0, 0, 12, 8, 4]);
        let edges: u32 = (0..POINTS).map(|p| board.neighbours(p).count_ones()).sum();
        assert_eq!(edges / 2, 32);
        for p in 0..POINTS {
            let through = board.mills_through[p].iter().filter(|&&m| m != NO_MILL);
            assert_eq!(through.count(), 2, "{}", Board::name(p));
            for q in 0..POINTS {
                assert_eq!(board.neighbours(p) >> q & 1, board.neighbours(q) >> p & 1);
            }
        }
        let names: HashSet<String> = (0..POINTS).map(Board::name).collect();
        assert_eq!(names.len(), POINTS);
        for name in [
            "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3",
        ] {
            assert!(names.contains(name), "{name}");
        }
        let d2 = Board::point_named("d2").unwrap();
        let expected: HashSet<String> = ["d1", "d3", "b2", "f2"].map(String::from).into();
        let found: HashSet<String> = (0..POINTS)
            .filter(|&q| board.neighbours(d2) >> q & 1 == 1)
            .map(Board::name)
            .collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn mill_masks_say_what_the_lines_say() {
        // The masks against the lines' points, on both boards, over
        // pseudo-random sets of stones of every density.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for diagonals in [false, true] {
            let board = Board::new(diagonals);
            let full = |stones: u32, line: &Line| line.iter().all(|&at| stones >> at & 1 == 1);
            for _ in 0..20_000 {
                seed = crate::hash::splitmix64(seed);
                let stones = (seed & (seed >> 24) | seed >> 40) as u32 & ((1 << POINTS) - 1);
                let mut in_mills = 0;
                for point in 0..POINTS {
                    let expected = board
                        .mills()
                        .iter()
                        .any(|line| line.contains(&(point as u8)) && full(stones, line));
                    assert_eq!(
                        board.in_mill(stones, point),
                        expected,
                        "{stones:#x} {point}"
                    );
                    if expected && stones >> point & 1 == 1 {
                        in_mills |= 1 << point;
                    }
                }
                assert_eq!(board.in_mills(stones), in_mills, "{stones:#x}");
            }
        }
    }

    #[test]
    fn neighbour_pairs_count_each_stones_neighbours() {
        let mut seed = 0x6a09_e667_f3bc_c908u64;
        for diagonals in [false, true] {
            let board = Board::new(diagonals);
            for _ in 0..50_000 {
                seed = crate::hash::splitmix64(seed);
                let from = (seed & (seed >> 24) | seed >> 40) as u32 & ((1 << POINTS) - 1);
                let to = !from & (seed >> 13) as u32 & ((1 << POINTS) - 1);
                let expected: u32 = (0..POINTS)
                    .filter(|&p| from >> p & 1 == 1)
                    .map(|p| (board.neighbours(p) & to).count_ones())
                    .sum();
                assert_eq!(
                    board.neighbour_pairs(from, to),
                    expected,
                    "{from:#x} {to:#x} {diagonals}"
                );
            }
        }
    }

    #[test]
    fn closing_points_are_the_third_points_of_lines_held_twice() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for diagonals in [false, true] {
            let board = Board::new(diagonals);
            for _ in 0..50_000 {
                seed = crate::hash::splitmix64(seed);
                let stones = (seed & (seed >> 24) | seed >> 40) as u32 & ((1 << POINTS) - 1);
                let empty = !stones & (seed >> 13) as u32 & ((1 << POINTS) - 1);
                let expected = board.mills().iter().fold(0, |points, line| {
                    let held = line.iter().filter(|&&at| stones >> at & 1 == 1).count();
                    match line.iter().find(|&&at| empty >> at & 1 == 1) {
                        Some(&at) if held == 2 => points | 1 << at,
                        _ => points,
                    }
                });
                assert_eq!(
                    board.closing_points(stones, empty),
                    expected,
                    "{stones:#x} {empty:#x} {diagonals}"
                );
            }
        }
    }

    #[test]
    fn morabaraba_adds_four_diagonals() {
        let board = Board::new(true);
        assert_eq!(board.mills().len(), 20);
        // Outer and inner corners gain one neighbour, the middle square's
        // corners two.
        assert_eq!(degree_counts(&board), [0, 0, 0, 16, 8]);
        let b2 = Board::point_named("b2").unwrap();
        for other in ["a1", "c3", "b4", "d2"] {
            assert_eq!(
                board.neighbours(b2) >> Board::point_named(other).unwrap() & 1,
                1
            );
        }
    }

    #[test]
    fn sixteen_symmetries_form_a_group_and_keep_lines_and_mills() {
        let all = symmetries();
        assert_eq!(all.len(), 16);
        let distinct: HashSet<[u8; POINTS]> = all.iter().copied().collect();
        assert_eq!(distinct.len(), 16);
        assert_eq!(all[0], std::array::from_fn(|p| p as u8));
        for a in &all {
            for b in &all {
                let composed: [u8; POINTS] = std::array::from_fn(|p| b[a[p] as usize]);
                assert!(distinct.contains(&composed));
            }
        }
        for diagonals in [false, true] {
            let board = Board::new(diagonals);
            let mills: HashSet<u32> = board
                .mills()
                .iter()
                .map(|line| line.iter().fold(0, |m, &p| m | 1 << p))
                .collect();
            for symmetry in &all {
                for &mill in &mills {
                    assert!(mills.contains(&apply(symmetry, mill)));
                }
                for p in 0..POINTS {
                    let image = apply(symmetry, board.neighbours(p));
                    assert_eq!(image, board.neighbours(symmetry[p] as usize));
                }
            }
        }
    }

    #[test]
    fn a_mill_is_found_through_each_of_its_points() {
        let board = Board::new(false);
        let named = |names: &[&str]| -> u32 {
            names
                .iter()
                .fold(0, |m, n| m | 1 << Board::point_named(n).unwrap())
        };
        let stones = named(&["a1", "a4", "a7", "d2"]);
        for p in ["a1", "a4", "a7"] {
            assert!(board.in_mill(stones, Board::point_named(p).unwrap()));
        }
        assert!(!board.in_mill(stones, Board::point_named("d2").unwrap()));
        assert!(!board.in_mill(
            named(&["a1", "b2", "c3"]),
            Board::point_named("b2").unwrap()
        ));
        assert!(Board::new(true).in_mill(
            named(&["a1", "b2", "c3"]),
            Board::point_named("b2").unwrap()
        ));
    }
}
