//! Built-in positional games: m x n tic-tac-toe with k in a row, Harary's
//! tic-tac-toe for a polyomino (plain or torus boards), and n x n Hex.

use super::{Graph, PositionalGame};
use crate::error::{Error, Result, quoted};

/// Cell names: column letter and row number ("a1" is the top-left cell).
fn grid_names(width: usize, height: usize) -> Vec<String> {
    (0..height)
        .flat_map(|row| {
            (0..width).map(move |column| format!("{}{}", (b'a' + column as u8) as char, row + 1))
        })
        .collect()
}

fn check_grid(width: usize, height: usize) -> Result<()> {
    if width == 0 || height == 0 || width.saturating_mul(height) > 64 || width > 26 {
        return Err(Error::InvalidParameter(format!(
            "a {width} x {height} board is outside 1..=64 cells (at most 26 columns)"
        )));
    }
    Ok(())
}

/// Removes repeated winning sets (sorted, so equal sets compare equal).
fn deduplicate(mut sets: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    for set in &mut sets {
        set.sort_unstable();
    }
    sets.sort();
    sets.dedup();
    sets
}

/// m x n tic-tac-toe: k in a row, column or diagonal. Maker-breaker, or
/// maker-maker (White wins with the same lines) when `maker_maker`.
pub fn tic_tac_toe(
    width: usize,
    height: usize,
    k: usize,
    maker_maker: bool,
) -> Result<PositionalGame> {
    check_grid(width, height)?;
    if k == 0 || k > width.max(height) {
        return Err(Error::InvalidParameter(format!(
            "k = {k} in a row does not fit a {width} x {height} board"
        )));
    }
    let mut lines = Vec::new();
    for row in 0..height as i64 {
        for column in 0..width as i64 {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let cells: Option<Vec<usize>> = (0..k as i64)
                    .map(|i| {
                        let (r, c) = (row + dr * i, column + dc * i);
                        (r >= 0 && c >= 0 && r < height as i64 && c < width as i64)
                            .then(|| (r as usize) * width + c as usize)
                    })
                    .collect();
                lines.extend(cells);
            }
        }
    }
    let lines = deduplicate(lines);
    let variant = if maker_maker {
        "maker-maker"
    } else {
        "maker-breaker"
    };
    Ok(PositionalGame {
        name: format!("tic-tac-toe {width}x{height} k={k} {variant}"),
        cells: grid_names(width, height),
        white_wins: if maker_maker {
            lines.clone()
        } else {
            Vec::new()
        },
        black_wins: lines,
        graph: None,
        black_stones: Vec::new(),
        white_stones: Vec::new(),
        first_moves: None,
    })
}

/// Harary's named polyominoes ("animals") as (x, y) cells.
pub const POLYOMINOES: [(&str, &[(i32, i32)]); 11] = [
    ("domino", &[(0, 0), (1, 0)]),
    ("tic", &[(0, 0), (1, 0), (2, 0)]),
    ("el", &[(0, 0), (1, 0), (1, 1)]),
    ("elly", &[(0, 0), (1, 0), (2, 0), (2, 1)]),
    ("tippy", &[(0, 0), (1, 0), (1, 1), (2, 1)]),
    ("skinny", &[(0, 0), (1, 0), (2, 0), (3, 0)]),
    ("knobby", &[(0, 0), (1, 0), (2, 0), (1, 1)]),
    ("fatty", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
    ("l", &[(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]),
    ("z", &[(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)]),
    ("snaky", &[(0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (4, 1)]),
];

/// A polyomino by name, or as cells "x,y;x,y;..." or as the digit pairs of
/// the GTTT benchmark names ("000111" = (0,0), (0,1), (1,1)).
pub fn polyomino(shape: &str) -> Result<Vec<(i32, i32)>> {
    let lower = shape.to_ascii_lowercase();
    if let Some((_, cells)) = POLYOMINOES.iter().find(|(name, _)| *name == lower) {
        return Ok(cells.to_vec());
    }
    let bad = || {
        let names: Vec<&str> = POLYOMINOES.iter().map(|(name, _)| *name).collect();
        Error::InvalidParameter(format!(
            "unknown shape {}: give one of {} or cells as x,y;x,y;...",
            quoted(shape),
            names.join(", ")
        ))
    };
    let cells: Vec<(i32, i32)> = if shape.contains(',') {
        shape
            .split(';')
            .map(|pair| {
                let (x, y) = pair.split_once(',').ok_or_else(bad)?;
                Ok((
                    x.trim().parse().map_err(|_| bad())?,
                    y.trim().parse().map_err(|_| bad())?,
                ))
            })
            .collect::<Result<_>>()?
    } else if !shape.is_empty()
        && shape.len().is_multiple_of(2)
        && shape.chars().all(|c| c.is_ascii_digit())
    {
        let digits: Vec<i32> = shape.bytes().map(|b| (b - b'0') as i32).collect();
        digits.chunks(2).map(|pair| (pair[0], pair[1])).collect()
    } else {
        return Err(bad());
    };
    if cells.is_empty() {
        return Err(bad());
    }
    // No wider shape fits a board of at most 64 cells, and the bound keeps
    // the rotations and placements clear of i32 overflow.
    if cells
        .iter()
        .any(|&(x, y)| x.unsigned_abs() > 64 || y.unsigned_abs() > 64)
    {
        return Err(Error::InvalidParameter(format!(
            "shape {}: cell coordinates lie in -64..=64",
            quoted(shape)
        )));
    }
    Ok(cells)
}

/// The shape's rotations and reflections, each moved to start at (0, 0).
pub fn orientations(shape: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
    type Symmetry = fn(i32, i32) -> (i32, i32);
    let maps: [Symmetry; 8] = [
        |x, y| (x, y),
        |x, y| (-y, x),
        |x, y| (-x, -y),
        |x, y| (y, -x),
        |x, y| (-x, y),
        |x, y| (y, x),
        |x, y| (x, -y),
        |x, y| (-y, -x),
    ];
    let mut found: Vec<Vec<(i32, i32)>> = Vec::new();
    for map in maps {
        let mut cells: Vec<(i32, i32)> = shape.iter().map(|&(x, y)| map(x, y)).collect();
        let min_x = cells.iter().map(|c| c.0).min().unwrap();
        let min_y = cells.iter().map(|c| c.1).min().unwrap();
        for cell in &mut cells {
            *cell = (cell.0 - min_x, cell.1 - min_y);
        }
        cells.sort_unstable();
        if !found.contains(&cells) {
            found.push(cells);
        }
    }
    found
}

/// Harary's tic-tac-toe on an n x n board (a torus when `torus`): every
/// placement of every orientation of the shape is a winning set, for both
/// players (maker-maker) unless `maker_breaker`.
pub fn harary(
    size: usize,
    shape_name: &str,
    torus: bool,
    maker_breaker: bool,
) -> Result<PositionalGame> {
    check_grid(size, size)?;
    let shape = polyomino(shape_name)?;
    let mut sets = Vec::new();
    for orientation in orientations(&shape) {
        for row in 0..size as i32 {
            for column in 0..size as i32 {
                let cells: Option<Vec<usize>> = orientation
                    .iter()
                    .map(|&(x, y)| {
                        let (c, r) = (column + x, row + y);
                        if torus {
                            Some((r as usize % size) * size + c as usize % size)
                        } else {
                            (r < size as i32 && c < size as i32)
                                .then(|| r as usize * size + c as usize)
                        }
                    })
                    .collect();
                // On a small torus a shape may wrap onto itself: skip those.
                if let Some(cells) = cells.filter(|cells| {
                    let mut unique = cells.clone();
                    unique.sort_unstable();
                    unique.dedup();
                    unique.len() == cells.len()
                }) {
                    sets.push(cells);
                }
            }
        }
    }
    let sets = deduplicate(sets);
    if sets.is_empty() {
        return Err(Error::InvalidParameter(format!(
            "the shape does not fit a {size} x {size} board"
        )));
    }
    // Symmetry breaking as in the benchmarks: the first black move in the
    // upper-left triangle (the board's symmetries map every cell there).
    let half = size.div_ceil(2);
    let first_moves = (0..half)
        .flat_map(|row| (row..half).map(move |column| row * size + column))
        .collect();
    Ok(PositionalGame {
        name: format!(
            "harary {size}x{size}{} shape={} {}",
            if torus { " torus" } else { "" },
            shape_name.to_ascii_lowercase(),
            if maker_breaker {
                "maker-breaker"
            } else {
                "maker-maker"
            }
        ),
        cells: grid_names(size, size),
        white_wins: if maker_breaker {
            Vec::new()
        } else {
            sets.clone()
        },
        black_wins: sets,
        graph: None,
        black_stones: Vec::new(),
        white_stones: Vec::new(),
        first_moves: Some(first_moves),
    })
}

/// Hex on an n x n rhombus: cell (column c, row r) touches (c±1, r),
/// (c, r±1), (c+1, r-1) and (c-1, r+1). Black connects row 1 to row n,
/// White column a to the last column. Black's winning sets are the minimal
/// connecting paths (listed for the explicit encodings; an empty list when
/// `paths` is false, the graph then being the goal).
pub fn hex(size: usize, paths: bool) -> Result<PositionalGame> {
    check_grid(size, size)?;
    let index = |column: i32, row: i32| {
        (column >= 0 && row >= 0 && column < size as i32 && row < size as i32)
            .then(|| row as usize * size + column as usize)
    };
    let neighbours: Vec<Vec<usize>> = (0..size * size)
        .map(|cell| {
            let (column, row) = ((cell % size) as i32, (cell / size) as i32);
            [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
                .iter()
                .filter_map(|&(dc, dr)| index(column + dc, row + dr))
                .collect()
        })
        .collect();
    let graph = Graph {
        start: (0..size).collect(),
        end: (0..size).map(|c| (size - 1) * size + c).collect(),
        white_start: (0..size).map(|r| r * size).collect(),
        white_end: (0..size).map(|r| r * size + size - 1).collect(),
        neighbours,
    };
    let name = format!("hex {size}x{size}");
    let black_wins = if paths {
        minimal_paths_within(&graph, size * size, MAX_PATH_LIST_BYTES).map_err(|listed| {
            Error::SpaceTooLarge(format!(
                "{name} has more than {listed} minimal paths between its borders, more than {} MiB as a list of winning sets; the encodings en, et, ln and sn read the board's graph instead",
                MAX_PATH_LIST_BYTES >> 20
            ))
        })?
    } else {
        Vec::new()
    };
    Ok(PositionalGame {
        name,
        cells: grid_names(size, size),
        black_wins,
        white_wins: Vec::new(),
        graph: Some(graph),
        black_stones: Vec::new(),
        white_stones: Vec::new(),
        first_moves: None,
    })
}

/// The most memory a list of Hex's minimal paths may take (each path a
/// vector of cells: 24 bytes and 8 a cell): 256 MiB holds the 7x7 board's
/// paths many times over, while the 8x8 board's 2,195,830 would take about
/// 1.5 GiB as a list, and more again in the formulas made of them.
pub const MAX_PATH_LIST_BYTES: usize = 256 << 20;

/// What a path of `cells` cells takes in a list of paths.
fn listed_bytes(cells: usize) -> usize {
    std::mem::size_of::<Vec<usize>>() + cells * std::mem::size_of::<usize>()
}

/// The minimal sets of cells connecting the graph's two borders with at
/// most `longest` cells: simple paths that touch each border once and
/// have no chord (so no proper subset connects).
pub fn minimal_paths(graph: &Graph, longest: usize) -> Vec<Vec<usize>> {
    let mut found = Vec::new();
    each_minimal_path(graph, longest, &mut |path| {
        found.push(path.to_vec());
        true
    });
    deduplicate(found)
}

/// [`minimal_paths`] while their list takes at most `max_bytes`; past
/// that, the count listed when the limit was passed (the enumeration
/// stops there, so a board of millions of paths costs no more than the
/// limit).
pub fn minimal_paths_within(
    graph: &Graph,
    longest: usize,
    max_bytes: usize,
) -> std::result::Result<Vec<Vec<usize>>, usize> {
    let mut found = Vec::new();
    let mut bytes = 0usize;
    let complete = each_minimal_path(graph, longest, &mut |path| {
        bytes += listed_bytes(path.len());
        found.push(path.to_vec());
        bytes <= max_bytes
    });
    if !complete {
        return Err(found.len());
    }
    Ok(deduplicate(found))
}

/// Calls `visit` with each minimal connecting path of at most `longest`
/// cells (see [`minimal_paths`]) until it returns false; whether every
/// path was visited.
pub fn each_minimal_path(
    graph: &Graph,
    longest: usize,
    visit: &mut impl FnMut(&[usize]) -> bool,
) -> bool {
    let start = super::mask_of(&graph.start);
    let end = super::mask_of(&graph.end);
    let mut path = Vec::new();
    fn extend(
        graph: &Graph,
        start: u64,
        end: u64,
        longest: usize,
        path: &mut Vec<usize>,
        visit: &mut impl FnMut(&[usize]) -> bool,
    ) -> bool {
        let last = *path.last().unwrap();
        if end >> last & 1 == 1 {
            return visit(path);
        }
        if path.len() == longest {
            return true;
        }
        let on_path = super::mask_of(path);
        for &next in &graph.neighbours[last] {
            if on_path >> next & 1 == 1 || start >> next & 1 == 1 {
                continue;
            }
            // No chord: `next` may touch only the last cell of the path.
            let touching = super::mask_of(&graph.neighbours[next]) & on_path;
            if touching != 1u64 << last {
                continue;
            }
            path.push(next);
            let go_on = extend(graph, start, end, longest, path, visit);
            path.pop();
            if !go_on {
                return false;
            }
        }
        true
    }
    for &first in &graph.start {
        path.push(first);
        let go_on = extend(graph, start, end, longest, &mut path, visit);
        path.pop();
        if !go_on {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tic_tac_toe_has_eight_lines() {
        let game = tic_tac_toe(3, 3, 3, false).unwrap();
        assert_eq!(game.black_wins.len(), 8);
        assert_eq!(tic_tac_toe(4, 4, 3, true).unwrap().black_wins.len(), 24);
        assert!(tic_tac_toe(3, 3, 4, false).is_err());
    }

    #[test]
    fn shapes_have_the_expected_orientations_and_placements() {
        let count = |name: &str| orientations(&polyomino(name).unwrap()).len();
        assert_eq!(
            [count("domino"), count("tic"), count("el"), count("fatty")],
            [2, 2, 4, 1]
        );
        assert_eq!(
            [
                count("elly"),
                count("tippy"),
                count("skinny"),
                count("knobby")
            ],
            [8, 4, 2, 4]
        );
        assert_eq!(count("snaky"), 8);
        assert_eq!(
            harary(3, "domino", false, false).unwrap().black_wins.len(),
            12
        );
        assert_eq!(
            harary(3, "000111", false, false).unwrap().black_wins.len(),
            16
        );
        assert_eq!(
            harary(4, "fatty", true, false).unwrap().black_wins.len(),
            16
        );
        assert!(polyomino("hexagon").is_err());
    }

    #[test]
    fn hex_paths_are_minimal_connections() {
        let game = hex(2, true).unwrap();
        // 2x2: a1-a2, b1-b2, and b1-a2 (the short diagonal).
        assert_eq!(game.black_wins.len(), 3);
        let graph = game.graph.clone().unwrap();
        for path in &hex(3, true).unwrap().black_wins {
            let mask = super::super::mask_of(path);
            assert!(super::super::connects(
                &graph_of(3),
                mask,
                &graph_of(3).start,
                &graph_of(3).end
            ));
            for &cell in path {
                let without = mask & !(1 << cell);
                assert!(!super::super::connects(
                    &graph_of(3),
                    without,
                    &graph_of(3).start,
                    &graph_of(3).end
                ));
            }
        }
        let _ = graph;
    }

    fn graph_of(size: usize) -> Graph {
        hex(size, false).unwrap().graph.unwrap()
    }
}
