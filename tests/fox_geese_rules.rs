//! Fox-and-Geese's rule variants against a solver written from the rules
//! alone: its own board (the 33-point cross on a 7x7 grid, diagonals
//! through the points whose row + column is even), its own moves from
//! coordinates, its own indexing, and Algorithm 4's plain repeated scans.
//! Every position of the small layers must get the same value from the
//! library's retrograde analysis (with and without `--symmetry`), which
//! reads positions only through their documented text.

use bitsolve::backend::CpuBackend;
use bitsolve::games::FoxGeese;
use bitsolve::games::fox_geese::{FoxGeeseState, Rules};
use bitsolve::search::retro2::{LayerReport, RetroOptions, solve_layers};
use bitsolve::space::Value;

const SIDE: i32 = 7;

/// The cross: the middle three rows and the middle three columns.
fn on_board(row: i32, column: i32) -> bool {
    (0..SIDE).contains(&row)
        && (0..SIDE).contains(&column)
        && ((2..5).contains(&row) || (2..5).contains(&column))
}

/// The board's points in reading order (rows from the top, the fox's side).
fn points() -> Vec<(i32, i32)> {
    (0..SIDE)
        .flat_map(|r| (0..SIDE).map(move |c| (r, c)))
        .filter(|&(r, c)| on_board(r, c))
        .collect()
}

/// A position: the fox's point, the geese's points as a bit set over the
/// reading order, the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Position {
    fox: usize,
    geese: u64,
    fox_to_move: bool,
}

/// A line from a point: its direction, the next point, the one beyond.
type Line = ((i32, i32), Option<usize>, Option<usize>);

struct Reference {
    points: Vec<(i32, i32)>,
    /// `lines[point]`: per direction, the next point and the one beyond.
    lines: Vec<Vec<Line>>,
    rules: Rules,
    /// `choose[n][k]`.
    choose: Vec<Vec<u64>>,
}

impl Reference {
    fn new(rules: Rules) -> Self {
        let choose = (0..=33u64)
            .map(|n| {
                (0..=33u64)
                    .map(|k| {
                        if k > n {
                            0
                        } else {
                            (0..k).fold(1u64, |c, i| c * (n - i) / (i + 1))
                        }
                    })
                    .collect()
            })
            .collect();
        let points = points();
        let point_at = |r: i32, c: i32| points.iter().position(|&p| p == (r, c));
        let lines = points
            .iter()
            .map(|&(r, c)| {
                let mut directions = vec![(-1, 0), (1, 0), (0, -1), (0, 1)];
                if (r + c) % 2 == 0 {
                    directions.extend([(-1, -1), (-1, 1), (1, -1), (1, 1)]);
                }
                directions
                    .into_iter()
                    .map(|(dr, dc)| {
                        let next = point_at(r + dr, c + dc);
                        let beyond = point_at(r + 2 * dr, c + 2 * dc);
                        ((dr, dc), next, beyond)
                    })
                    .filter(|&(_, next, _)| next.is_some())
                    .collect()
            })
            .collect();
        Reference {
            points,
            lines,
            rules,
            choose,
        }
    }

    /// The positions the side to move can move to, into `moves`.
    fn moves(&self, p: &Position, moves: &mut Vec<Position>) {
        let free = |point: usize| point != p.fox && p.geese >> point & 1 == 0;
        moves.clear();
        if p.fox_to_move {
            for &(_, next, beyond) in &self.lines[p.fox] {
                let next = next.unwrap();
                if free(next) {
                    moves.push(Position {
                        fox: next,
                        fox_to_move: false,
                        ..*p
                    });
                } else if let Some(beyond) = beyond.filter(|&b| free(b)) {
                    moves.push(Position {
                        fox: beyond,
                        geese: p.geese & !(1 << next),
                        fox_to_move: false,
                    });
                }
            }
        } else {
            for goose in (0..self.points.len()).filter(|&g| p.geese >> g & 1 == 1) {
                for &((dr, _), next, _) in &self.lines[goose] {
                    // A forward goose never steps down (away from the top).
                    if self.rules.geese_forward && dr > 0 {
                        continue;
                    }
                    if let Some(next) = next.filter(|&n| free(n)) {
                        moves.push(Position {
                            geese: p.geese & !(1 << goose) | 1 << next,
                            fox_to_move: true,
                            ..*p
                        });
                    }
                }
            }
        }
    }

    /// Index in its layer: fox, then the geese's combinatorial (colex)
    /// number over the 33 points, then the side.
    fn index(&self, p: &Position) -> usize {
        let g = p.geese.count_ones() as usize;
        let mut colex = 0;
        let mut rest = p.geese;
        for i in 0..g {
            let point = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            colex += self.choose[point][i + 1];
        }
        ((p.fox as u64 * self.choose[33][g] + colex) * 2 + (!p.fox_to_move) as u64) as usize
    }

    /// Every position with `g` geese.
    fn positions(&self, g: usize) -> Vec<Position> {
        let mut all = Vec::new();
        let n = self.points.len();
        for fox in 0..n {
            let mut sets = vec![0u64];
            for point in (0..n).filter(|&q| q != fox) {
                let mut more = Vec::new();
                for &set in &sets {
                    if (set.count_ones() as usize) < g {
                        more.push(set | 1 << point);
                    }
                }
                sets.extend(more);
            }
            for geese in sets.into_iter().filter(|s| s.count_ones() as usize == g) {
                for fox_to_move in [true, false] {
                    all.push(Position {
                        fox,
                        geese,
                        fox_to_move,
                    });
                }
            }
        }
        all
    }

    /// Values of layers 0..=top by repeated full scans; positions never
    /// decided are the fox's.
    fn solve(&self, top: usize) -> Vec<(Vec<Position>, Vec<Value>)> {
        let mut layers: Vec<(Vec<Position>, Vec<Value>)> = Vec::new();
        for g in 0..=top {
            let positions = self.positions(g);
            let size = 33 * self.choose[33][g] as usize * 2;
            let mut values = vec![Value::Unknown; size];
            let value_of =
                |values: &[Value], layers: &[(Vec<Position>, Vec<Value>)], q: &Position| {
                    let layer = q.geese.count_ones() as usize;
                    if layer == g {
                        values[self.index(q)]
                    } else {
                        layers[layer].1[self.index(q)]
                    }
                };
            let mut moves = Vec::new();
            loop {
                let mut changed = false;
                for p in &positions {
                    let at = self.index(p);
                    if values[at] != Value::Unknown {
                        continue;
                    }
                    let (mine, theirs) = if p.fox_to_move {
                        (Value::FirstWins, Value::SecondWins)
                    } else {
                        (Value::SecondWins, Value::FirstWins)
                    };
                    self.moves(p, &mut moves);
                    let (mut wins, mut all_lose) = (false, true);
                    for q in &moves {
                        let v = value_of(&values, &layers, q);
                        wins |= v == mine;
                        all_lose &= v == theirs;
                    }
                    let value = if wins {
                        mine
                    } else if all_lose {
                        // Also a side without a move: it loses.
                        theirs
                    } else {
                        continue;
                    };
                    values[at] = value;
                    changed = true;
                }
                if !changed {
                    break;
                }
            }
            for value in values.iter_mut().filter(|v| **v == Value::Unknown) {
                *value = Value::FirstWins;
            }
            layers.push((positions, values));
        }
        layers
    }

    /// The documented text of a position: a character per point in
    /// reading order, then the side to move.
    fn text(&self, p: &Position) -> String {
        let mut text = String::new();
        for (point, &(row, _)) in self.points.iter().enumerate() {
            if point > 0 && self.points[point - 1].0 != row {
                text.push('/');
            }
            text.push(if point == p.fox {
                'F'
            } else if p.geese >> point & 1 == 1 {
                'g'
            } else {
                '.'
            });
        }
        text.push_str(if p.fox_to_move { ":fox" } else { ":geese" });
        text
    }
}

fn library_values(game: &FoxGeese, top: usize) -> (Vec<LayerReport>, Vec<Vec<u8>>) {
    let options = RetroOptions::default();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let dir = std::env::temp_dir().join(format!(
        "bitsolve-fg-rules-{}-{}-{}",
        game.rules().geese_forward,
        game.symmetry(),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let options = RetroOptions {
        backing: bitsolve::table::Backing::Directory(dir.clone()),
        ..options
    };
    let reports = pool
        .install(|| solve_layers(&CpuBackend, game, top, &options))
        .unwrap();
    let values = (0..=top)
        .map(|layer| {
            let (table, _) = bitsolve::search::retro2::open_layer(
                game,
                layer,
                &bitsolve::table::Backing::ReadOnly(dir.clone()),
                &bitsolve::search::Silent,
            )
            .unwrap();
            (0..table.len()).map(|rank| table.get(rank)).collect()
        })
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    (reports, values)
}

/// Solves layers 0..=top both ways and compares every position.
fn assert_rules_agree(rules: Rules, top: usize) -> Vec<u64> {
    let reference = Reference::new(rules).solve(top);
    let mut won_for_geese = Vec::new();
    for symmetry in [false, true] {
        let game = FoxGeese::with_rules(rules, symmetry).unwrap();
        let (reports, values) = library_values(&game, top);
        let model = Reference::new(rules);
        // The library's cell for each point, read off its text (a position
        // with only the fox there), and one position in full to check the map.
        let cell_of: Vec<usize> = (0..model.points.len())
            .map(|fox| {
                let alone = Position {
                    fox,
                    geese: 0,
                    fox_to_move: true,
                };
                game.parse(&model.text(&alone)).unwrap().fox
            })
            .collect();
        let as_library = |p: &Position| FoxGeeseState {
            fox: cell_of[p.fox],
            geese: (0..model.points.len())
                .filter(|&q| p.geese >> q & 1 == 1)
                .fold(0, |mask, q| mask | 1 << cell_of[q]),
            fox_to_move: p.fox_to_move,
        };
        for (g, (positions, expected)) in reference.iter().enumerate() {
            let mut geese_wins = 0;
            if let Some(p) = positions.last() {
                assert_eq!(game.parse(&model.text(p)).unwrap(), as_library(p));
            }
            for p in positions {
                let want = expected[model.index(p)];
                let rank = game.rank_of(&as_library(p));
                let got = Value::from_bits(values[g][rank as usize]);
                assert_eq!(
                    got,
                    want,
                    "{rules:?} symmetry {symmetry}: {}",
                    model.text(p)
                );
                geese_wins += (want == Value::SecondWins) as u64;
            }
            assert_eq!(reports[g].second_wins, geese_wins, "layer {g}");
            assert_eq!(reports[g].states, positions.len() as u64, "layer {g}");
            if symmetry {
                won_for_geese.push(geese_wins);
            }
        }
    }
    won_for_geese
}

#[test]
fn geese_forward_matches_a_solver_written_from_the_rules() {
    let rules = Rules {
        capture_wins: false,
        geese_forward: true,
    };
    let won = assert_rules_agree(rules, 5);
    assert_eq!(won, vec![0, 0, 0, 0, 29, 966]);
}

#[test]
fn the_default_rule_matches_the_same_solver() {
    // The same reference with geese that step any way: Table 7's counts.
    let won = assert_rules_agree(Rules::default(), 4);
    assert_eq!(won, vec![0, 0, 0, 0, 40]);
}
