//! The pocket cube against a cube built from geometry alone: stickers are
//! points of 3-D space and a face turn rotates them, so neither the move
//! table of `src/games/pocket_cube.rs` nor its hash is used. A plain BFS
//! over those sticker arrays must give the library's two-bit BFS layers and
//! the published distance tables, and the library's drawn net must follow
//! the geometric cube along a walk of turns. Last, the GPU kernel must give
//! the CPU's layers (skipped without a GPU unless CI is set).

use std::collections::HashSet;

use crate::common::gpu::{self, device};
use crate::common::{self, bitsolve, bitsolve_json};

use bitsolve::backend::gpu::GpuOptions;
use bitsolve::backend::{CpuBackend, GpuBackend};
use bitsolve::games::{CubeMetric, PocketCube};
use bitsolve::search::{Algorithm, SearchOptions};
use bitsolve::space::{MoveFilter, Picture, Space};

/// Distance distributions of the 2x2x2 cube (one corner fixed), e.g. from
/// the Wikipedia "Pocket Cube" article.
const HTM_LAYERS: [u64; 12] = [
    1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
];
const QTM_LAYERS: [u64; 15] = [
    1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276,
];

type Vector = [i32; 3];

fn cross(a: Vector, b: Vector) -> Vector {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: Vector, b: Vector) -> i32 {
    a.iter().zip(&b).map(|(x, y)| x * y).sum()
}

/// A quarter turn of `v` about `axis`, clockwise seen from the tip of the
/// axis: the parallel part stays, the perpendicular part becomes v x axis.
fn rotate(v: Vector, axis: Vector) -> Vector {
    let along = dot(v, axis);
    let turned = cross(v, axis);
    std::array::from_fn(|i| along * axis[i] + turned[i])
}

fn scale(v: Vector, by: i32) -> Vector {
    v.map(|x| x * by)
}

fn add(a: Vector, b: Vector) -> Vector {
    std::array::from_fn(|i| a[i] + b[i])
}

/// The six faces as drawn in the library's net: letter, outward normal, and
/// the directions right and down as the face is seen (x right, y up, z
/// front; U seen from above with B at the top, D from below with F at the
/// top, the side faces upright).
const FACES: [(char, Vector, Vector, Vector); 6] = [
    ('U', [0, 1, 0], [1, 0, 0], [0, 0, 1]),
    ('R', [1, 0, 0], [0, 0, -1], [0, -1, 0]),
    ('F', [0, 0, 1], [1, 0, 0], [0, -1, 0]),
    ('D', [0, -1, 0], [1, 0, 0], [0, 0, -1]),
    ('L', [-1, 0, 0], [0, 0, 1], [0, -1, 0]),
    ('B', [0, 0, -1], [-1, 0, 0], [0, -1, 0]),
];

/// A sticker: the centre of its cubie (coordinates +-1) and its normal.
type Sticker = (Vector, Vector);

/// The 24 stickers, face by face, row by row as the net shows them.
fn stickers() -> Vec<Sticker> {
    let mut all = Vec::new();
    for &(_, normal, right, down) in &FACES {
        for row in 0..2 {
            for column in 0..2 {
                let cubie = add(
                    normal,
                    add(scale(right, 2 * column - 1), scale(down, 2 * row - 1)),
                );
                all.push((cubie, normal));
            }
        }
    }
    all
}

/// The U, R and F quarter turns (the faces away from the DBL corner, which
/// they leave in place) as sticker permutations: sticker s moves to
/// `turn[s]`.
fn quarter_turns() -> Vec<(char, Vec<usize>)> {
    let all = stickers();
    ['U', 'R', 'F']
        .iter()
        .map(|&letter| {
            let axis = FACES.iter().find(|f| f.0 == letter).unwrap().1;
            let turn = all
                .iter()
                .enumerate()
                .map(|(s, &(cubie, normal))| {
                    if dot(cubie, axis) <= 0 {
                        return s;
                    }
                    let moved = (rotate(cubie, axis), rotate(normal, axis));
                    all.iter().position(|&t| t == moved).unwrap()
                })
                .collect();
            (letter, turn)
        })
        .collect()
}

/// Sticker colours (face indices) in sticker order.
type Cube = [u8; 24];

fn solved() -> Cube {
    std::array::from_fn(|s| (s / 4) as u8)
}

fn turn(cube: &Cube, permutation: &[usize], times: usize) -> Cube {
    let mut turned = *cube;
    for _ in 0..times {
        let before = turned;
        for (s, &to) in permutation.iter().enumerate() {
            turned[to] = before[s];
        }
    }
    turned
}

fn key(cube: &Cube) -> u128 {
    cube.iter()
        .fold(0u128, |packed, &colour| packed << 3 | colour as u128)
}

/// Each metric's moves as (quarter turn, times): a half turn is two quarter
/// turns, a counter-clockwise one three.
fn geometric_moves(metric: CubeMetric) -> Vec<(Vec<usize>, usize)> {
    let powers: &[usize] = match metric {
        CubeMetric::Htm => &[1, 2, 3],
        CubeMetric::Qtm => &[1, 3],
    };
    quarter_turns()
        .into_iter()
        .flat_map(|(_, permutation)| powers.iter().map(move |&p| (permutation.clone(), p)))
        .collect()
}

/// Breadth-first search over sticker arrays with a hash set.
fn layers_by_stickers(metric: CubeMetric) -> Vec<u64> {
    let moves = geometric_moves(metric);
    let mut seen = HashSet::new();
    seen.insert(key(&solved()));
    let mut frontier = vec![solved()];
    let mut layers = Vec::new();
    while !frontier.is_empty() {
        layers.push(frontier.len() as u64);
        let mut next = Vec::new();
        for cube in &frontier {
            for (permutation, times) in &moves {
                let turned = turn(cube, permutation, *times);
                if seen.insert(key(&turned)) {
                    next.push(turned);
                }
            }
        }
        frontier = next;
    }
    layers
}

fn library_layers(cube: &PocketCube) -> Vec<u64> {
    let report = Algorithm::TwoBitBfs
        .run(cube, &CpuBackend, &SearchOptions::default())
        .unwrap();
    assert_eq!(report.reachable, 3_674_160);
    report.layers.unwrap()
}

#[test]
fn independent_bfs_library_bfs_and_published_layers_agree_in_both_metrics() {
    for (metric, published) in [
        (CubeMetric::Htm, &HTM_LAYERS[..]),
        (CubeMetric::Qtm, &QTM_LAYERS[..]),
    ] {
        let independent = layers_by_stickers(metric);
        assert_eq!(independent, published, "{metric:?}: sticker BFS");
        assert_eq!(independent.iter().sum::<u64>(), 3_674_160);
        let cube = PocketCube::new(metric).unwrap();
        assert_eq!(library_layers(&cube), published, "{metric:?}: two-bit BFS");
    }
}

/// The stickers of the library's drawn net, in sticker order.
fn drawn_stickers(picture: &str) -> String {
    let lines: Vec<Vec<&str>> = picture
        .lines()
        .take(6)
        .map(|line| line.split_whitespace().collect())
        .collect();
    let mut letters = String::new();
    for (face, ..) in FACES {
        for row in 0..2 {
            let (line, first) = match face {
                'U' => (row, 0),
                'D' => (4 + row, 0),
                _ => (2 + row, 2 * "LFRB".find(face).unwrap()),
            };
            letters.push_str(&lines[line][first..first + 2].concat());
        }
    }
    letters
}

fn letters(cube: &Cube) -> String {
    cube.iter().map(|&face| FACES[face as usize].0).collect()
}

#[test]
fn the_drawn_net_follows_the_geometric_cube_through_every_move() {
    let cube = PocketCube::new(CubeMetric::Htm).unwrap();
    let quarter = quarter_turns();
    let mut state = cube.new_state();
    let mut rank = cube.start_ranks()[0];
    let mut geometric = solved();
    let mut random = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..5_000 {
        cube.unrank(rank, &mut state);
        assert_eq!(drawn_stickers(&cube.draw(&state)), letters(&geometric));
        let mut successors = Vec::new();
        cube.expand(&state, MoveFilter::All, |r| successors.push(r));
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        let chosen = (random % successors.len() as u64) as usize;
        let name = &cube.moves()[chosen].name;
        let (face, times) = name.split_at(1);
        let times = match times {
            "" => 1,
            "2" => 2,
            "'" => 3,
            other => panic!("unexpected move suffix {other}"),
        };
        let face = face.chars().next().unwrap();
        let permutation = &quarter.iter().find(|(f, _)| *f == face).unwrap().1;
        geometric = turn(&geometric, permutation, times);
        rank = successors[chosen];
    }
}

#[test]
fn gpu_layers_equal_the_cpu_layers_in_both_metrics() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for metric in [CubeMetric::Htm, CubeMetric::Qtm] {
        let cube = PocketCube::new(metric).unwrap();
        let options = SearchOptions::default();
        let gpu = GpuBackend::new(&device);
        let on_gpu = Algorithm::TwoBitBfs.run(&cube, &gpu, &options).unwrap();
        let on_cpu = Algorithm::TwoBitBfs
            .run(&cube, &CpuBackend, &options)
            .unwrap();
        assert_eq!(on_gpu.layers, on_cpu.layers, "{}", cube.descriptor());
        assert_eq!(on_gpu.reachable, 3_674_160);
        assert_eq!(on_gpu.expanded, on_cpu.expanded, "{}", cube.descriptor());
    }
}

#[test]
fn the_command_line_searches_the_cube_in_both_metrics_on_every_backend() {
    let htm = bitsolve_json(&["bfs", "pocket-cube", "--json"]);
    assert_eq!(htm["game"], "pocket-cube metric=htm");
    assert_eq!(htm["layers"], serde_json::json!(HTM_LAYERS));
    assert_eq!(htm["max_depth"], 11);
    let qtm = bitsolve_json(&["bfs", "pocket-cube", "--metric", "qtm", "--json"]);
    assert_eq!(qtm["layers"], serde_json::json!(QTM_LAYERS));
    assert_eq!(qtm["max_depth"], 14);
    let games = bitsolve_json(&["games", "--json"]);
    let cube = common::game_named(&games, "pocket-cube").expect("the cube is registered");
    assert_eq!(cube["options"][0]["name"], "metric");

    let bad = bitsolve(&["bfs", "pocket-cube", "--metric", "stm"]);
    assert!(!bad.status.success());
    let stderr = String::from_utf8(bad.stderr).unwrap();
    assert!(stderr.contains("htm or qtm, got 'stm'"), "{stderr}");

    if !gpu::available() {
        return;
    }
    let on_gpu = bitsolve_json(&["bfs", "pocket-cube", "--backend", "gpu", "--json"]);
    assert_eq!(on_gpu["backend"], "gpu");
    assert_eq!(on_gpu["layers"], htm["layers"]);
}
