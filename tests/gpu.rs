//! The GPU backend against the CPU: the device's rank/unrank functions on
//! whole small spaces and samples of large ones, and two-bit BFS layer
//! counts of every game with a kernel. In CI (software Vulkan, lavapipe) a
//! missing adapter fails these tests; elsewhere they are skipped with the
//! reason printed.

use crate::common::gpu::{self, device, device_in_pieces, device_with_memory};
use crate::common::{self, bitsolve, bitsolve_json, json_of, words};

use bitsolve::backend::gpu::{GpuDevice, GpuOptions, hash_check};
use bitsolve::backend::{CpuBackend, GpuBackend};
use bitsolve::games::{Board, FrogsToads, Pancake, PegSolitaire, SlidingTile, TopSpin};
use bitsolve::hash::permutation::{factorial, is_odd, rank_mr, rank_mr_folded, unrank_mr};
use bitsolve::hash::{BinomialRanker, MultinomialRanker, prefix_lehmer, splitmix64};
use bitsolve::search::{Algorithm, SearchOptions, SearchReport};
use bitsolve::space::Space;
use bitsolve::table::Backing;

fn gpu_bfs<S: Space>(space: &S, device: &GpuDevice, options: &SearchOptions) -> SearchReport {
    Algorithm::TwoBitBfs
        .run(space, &GpuBackend::new(device), options)
        .unwrap()
}

fn gpu_search<S: Space>(
    space: &S,
    device: &GpuDevice,
    options: &SearchOptions,
) -> bitsolve::Result<SearchReport> {
    Algorithm::TwoBitBfs.run(space, &GpuBackend::new(device), options)
}

/// GPU and CPU two-bit BFS agree on every layer (and on the goal distances).
fn assert_backends_agree<S: Space>(space: &S, device: &GpuDevice, max_depth: Option<usize>) {
    let options = SearchOptions {
        max_depth,
        ..SearchOptions::default()
    };
    let on_gpu = gpu_bfs(space, device, &options);
    let on_cpu = Algorithm::TwoBitBfs
        .run(space, &CpuBackend, &options)
        .unwrap();
    assert_eq!(on_gpu.layers, on_cpu.layers, "{}", space.descriptor());
    assert_eq!(on_gpu.goals, on_cpu.goals, "{}", space.descriptor());
    assert_eq!(on_gpu.reachable, on_cpu.reachable);
    if max_depth.is_none() {
        // Both switch to checking parents at the same layer, so they expand
        // the same states; the GPU checks only unseen states of blocks that
        // can hold the layer (the move-alternation layering), so no more.
        assert_eq!(on_gpu.expanded, on_cpu.expanded, "{}", space.descriptor());
        assert!(on_gpu.parent_checks <= on_cpu.parent_checks);
    }
}

#[test]
fn device_permutation_hash_matches_on_all_of_8_factorial_and_samples_of_12() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for n in [2usize, 5, 8] {
        let ranks: Vec<u32> = (0..factorial(n).unwrap() as u32).collect();
        check_permutations(&device, n, &ranks);
    }
    let size = factorial(12).unwrap();
    let mut state = 12;
    let ranks: Vec<u32> = (0..20_000)
        .map(|_| {
            state = splitmix64(state);
            (state % size) as u32
        })
        .chain([0, size as u32 - 1])
        .collect();
    check_permutations(&device, 12, &ranks);
}

fn check_permutations(device: &GpuDevice, n: usize, ranks: &[u32]) {
    let half = factorial(n).unwrap() / 2;
    let checks = hash_check::permutations(device, n, ranks).unwrap();
    let mut expected = vec![0u8; n];
    for (&rank, check) in ranks.iter().zip(&checks) {
        let odd = unrank_mr(rank as u64, &mut expected);
        assert_eq!(check.permutation, expected, "n={n} rank {rank}");
        assert_eq!(check.odd, odd);
        assert_eq!(check.rank, rank_mr(&expected));
        let mut folded = vec![0u8; n];
        bitsolve::hash::permutation::unrank_mr_folded(
            rank as u64 % half,
            rank & 1 == 1,
            &mut folded,
        );
        assert_eq!(check.folded, folded, "folded n={n} rank {rank}");
        assert_eq!(is_odd(&check.folded), rank & 1 == 1);
        assert_eq!(check.folded_rank, rank_mr_folded(&folded));
        assert_eq!(check.folded_rank, rank as u64 % half);
        prefix_lehmer::unrank(rank as u64, &mut expected);
        assert_eq!(
            check.prefix_lehmer, expected,
            "prefix Lehmer n={n} rank {rank}"
        );
        assert_eq!(check.prefix_lehmer_rank, rank as u64);
        prefix_lehmer::unrank_folded(rank as u64 % half, rank & 1 == 1, &mut expected);
        assert_eq!(check.prefix_lehmer_folded, expected, "n={n} rank {rank}");
        assert_eq!(check.prefix_lehmer_folded_rank, rank as u64 % half);
    }
}

#[test]
fn device_binomial_hash_matches_on_all_of_16_choose_8_and_samples_of_33_choose_16() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    let small = BinomialRanker::new(16, 8).unwrap();
    let ranks: Vec<u32> = (0..small.size() as u32).collect();
    for (&rank, &(bits, back)) in ranks
        .iter()
        .zip(&hash_check::binomials(&device, 16, 8, &ranks).unwrap())
    {
        assert_eq!(bits, small.unrank(rank as u64));
        assert_eq!(back, rank as u64);
    }
    for (n, ones) in [(33usize, 16usize), (33, 1), (33, 32), (30, 15), (40, 20)] {
        let ranker = BinomialRanker::new(n, ones).unwrap();
        let mut state = n as u64 * 100 + ones as u64;
        let ranks: Vec<u32> = (0..5_000)
            .map(|_| {
                state = splitmix64(state);
                (state % ranker.size()) as u32
            })
            .chain([0, ranker.size() as u32 - 1])
            .collect();
        let checks = hash_check::binomials(&device, n, ones, &ranks).unwrap();
        for (&rank, &(bits, back)) in ranks.iter().zip(&checks) {
            assert_eq!(
                bits,
                ranker.unrank(rank as u64),
                "C({n},{ones}) rank {rank}"
            );
            assert_eq!(back, rank as u64);
        }
    }
}

#[test]
fn device_multinomial_hash_matches_on_all_of_9_cells_4_4_1_and_samples_of_31_cells() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    let small = MultinomialRanker::new(&[4, 4, 1]).unwrap();
    let ranks: Vec<u64> = (0..small.size()).collect();
    check_multinomials(&device, &small, &ranks);
    let large = MultinomialRanker::new(&[1, 15, 15]).unwrap();
    let mut state = 31;
    let ranks: Vec<u64> = (0..5_000)
        .map(|_| {
            state = splitmix64(state);
            state % large.size()
        })
        .chain([0, large.size() - 1, (1 << 32) - 1, 1 << 32])
        .collect();
    check_multinomials(&device, &large, &ranks);
}

fn check_multinomials(device: &GpuDevice, ranker: &MultinomialRanker, ranks: &[u64]) {
    let checks = hash_check::multinomials(device, ranker, ranks).unwrap();
    let mut expected = vec![0u8; ranker.len()];
    for (&rank, (cells, back)) in ranks.iter().zip(&checks) {
        ranker.unrank(rank, &mut expected);
        assert_eq!(cells, &expected, "{:?} rank {rank}", ranker.counts());
        assert_eq!(*back, rank);
    }
}

#[test]
fn pancake_layers_agree_for_1_to_9_and_burned_1_to_6() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for n in 1..=9 {
        assert_backends_agree(&Pancake::new(n, false).unwrap(), &device, None);
    }
    for n in 1..=6 {
        assert_backends_agree(&Pancake::new(n, true).unwrap(), &device, None);
    }
}

#[test]
fn top_spin_9_4_eight_puzzle_and_fore_and_aft_agree() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    assert_backends_agree(&TopSpin::new(9, 4).unwrap(), &device, None);
    assert_backends_agree(&TopSpin::new(7, 2).unwrap(), &device, None);
    assert_backends_agree(&SlidingTile::new(3, 3).unwrap(), &device, None);
    assert_backends_agree(&SlidingTile::new(4, 2).unwrap(), &device, None);
    let fore_and_aft = FrogsToads::standard(3).unwrap();
    assert_backends_agree(&fore_and_aft, &device, None);
    let report = gpu_bfs(&fore_and_aft, &device, &SearchOptions::default());
    assert_eq!(report.reachable, 218_790);
    assert_eq!(report.goals[0].distance, Some(46));
}

/// English Peg Solitaire, the centre hole empty.
fn english_peg_solitaire(symmetry: bool) -> PegSolitaire {
    let board = Board::load("english").unwrap();
    let centre = board.centre().unwrap();
    PegSolitaire::new(board, &[centre], symmetry).unwrap()
}

#[test]
fn english_peg_solitaire_agrees_down_to_26_pegs() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    let game = english_peg_solitaire(false);
    assert_backends_agree(&game, &device, Some(6));
    let report = gpu_bfs(
        &game,
        &device,
        &SearchOptions {
            max_depth: Some(6),
            ..Default::default()
        },
    );
    assert_eq!(report.layers.unwrap(), [1, 4, 12, 60, 296, 1338, 5648]);
}

#[test]
fn tables_spanning_many_binding_windows_give_the_same_counts() {
    // 16 KiB windows: Pancake 9's 90 KiB table spans six, the 8-puzzle's 45
    // KiB three. Dispatches of 1000 words cut blocks into pieces, and at most
    // 3 workgroups a dimension make their grids 2-D.
    let Some(device) = device_in_pieces(16 << 10, 1000, 3) else {
        return;
    };
    assert_eq!(device.window_bytes(), 16 << 10);
    assert_eq!(device.max_workgroups(), 3);
    assert_backends_agree(&Pancake::new(9, false).unwrap(), &device, None);
    assert_backends_agree(&SlidingTile::new(3, 3).unwrap(), &device, None);
    assert_backends_agree(&FrogsToads::standard(3).unwrap(), &device, None);
}

#[test]
fn a_gpu_run_resumes_a_stored_table_from_either_backend() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    let gpu = GpuBackend::new(&device);
    let space = SlidingTile::new(3, 3).unwrap();
    for algorithm in [Algorithm::TwoBitBfs, Algorithm::OneBitBfs] {
        let whole = common::run(&space, algorithm, 1);
        for cpu_first in [false, true] {
            let dir = common::scratch("gpu-resume", &format!("{}-{cpu_first}", algorithm.name()));
            let stored = |max_depth| SearchOptions {
                backing: Backing::Directory(dir.clone()),
                max_depth,
                ..Default::default()
            };
            let first = if cpu_first {
                algorithm.run(&space, &CpuBackend, &stored(Some(12)))
            } else {
                algorithm.run(&space, &gpu, &stored(Some(12)))
            };
            assert_eq!(first.unwrap().layers.unwrap().len(), 13);
            let resumed = algorithm.run(&space, &gpu, &stored(None)).unwrap();
            assert_eq!(resumed.resumed_from, Some(12));
            assert_eq!(resumed.layers, whole.layers);
            // And the CPU reads the finished GPU table as complete.
            let again = algorithm.run(&space, &CpuBackend, &stored(None)).unwrap();
            assert_eq!(again.layers, whole.layers);
            assert_eq!(again.passes, 0);
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}

#[test]
fn spaces_beyond_the_kernels_are_clear_errors() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    let symmetric = english_peg_solitaire(true);
    let error = gpu_search(&symmetric, &device, &SearchOptions::default()).unwrap_err();
    assert!(error.to_string().contains("symmetry"), "{error}");
    let too_big = Pancake::new(13, false).unwrap();
    let error = gpu_search(&too_big, &device, &SearchOptions::default()).unwrap_err();
    assert!(error.to_string().contains("32-bit"), "{error}");
}

#[test]
fn bfs_with_backend_gpu_prints_the_cpu_layers_in_json() {
    if !gpu::available() {
        return;
    }
    let args = ["bfs", "frogs-toads", "--k", "3", "--json", "--backend"];
    let on_gpu = json_of(&bitsolve(&[&args[..], &["gpu"]].concat()));
    let on_cpu = json_of(&bitsolve(&[&args[..], &["cpu"]].concat()));
    assert_eq!(on_gpu["backend"], "gpu");
    assert!(on_gpu["device"].is_string());
    assert_eq!(on_cpu["backend"], "cpu");
    assert_eq!(on_gpu["layers"], on_cpu["layers"]);
    assert_eq!(on_gpu["goal_distance"], 46);
    assert_eq!(on_gpu["total"], 218_790);
    assert_eq!(on_gpu["deepest"].as_array().unwrap().len(), 2);
}

#[test]
fn bench_runs_every_backend_and_checks_their_layers() {
    if !gpu::available() {
        return;
    }
    let json = bitsolve_json(&words("bench sliding-tile --width 3 --height 3 --json"));
    assert_eq!(json["identical_layers"], true);
    assert_eq!(json["total"], 181_440);
    assert_eq!(json["max_depth"], 31);
    let runs = json["runs"].as_array().unwrap();
    let backends: Vec<(&str, Option<u64>)> = runs
        .iter()
        .map(|run| (run["backend"].as_str().unwrap(), run["threads"].as_u64()))
        .collect();
    assert_eq!(backends[0], ("cpu", Some(1)));
    assert_eq!(backends[2], ("gpu", None));
    assert!((runs[0]["speedup_vs_one_thread"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    assert!(runs[2]["seconds"].as_f64().unwrap() > 0.0);

    let human = bitsolve(&["bench", "pancake", "--n", "7", "--no-single-thread"]);
    assert!(human.status.success());
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(text.contains("layers identical on every run"), "{text}");
    assert!(!text.contains("cpu, 1 thread"), "{text}");
}

/// A table over a tiny device memory: said once as a GPU error, with sizes
/// that differ as they do (it was "GPU: GPU: ... needs 0 MiB, more than
/// the 0 MiB ... allowed").
#[test]
fn a_table_over_the_device_memory_is_told_in_sizes_that_differ() {
    if !gpu::available() {
        return;
    }
    let args = words("bfs pancake --n 8 --backend gpu --device-memory 1K");
    assert_eq!(
        common::one_error_line(&bitsolve(&args)),
        "bitsolve: error: GPU: pancake n=8; two-bit BFS needs 9.85 KiB, more than the 1.00 KiB of device memory allowed; only games whose blocks hold exactly one layer (Peg Solitaire) can stream blocks through a smaller device memory (run it with --backend cpu)"
    );
}

#[test]
fn gpu_requests_it_cannot_serve_get_one_line_and_a_non_zero_exit() {
    if !common::gpu::available() {
        return;
    }
    for (line, expected) in [
        (
            "bfs pancake --n 8 --backend gpu --algo one-bit",
            "move-alternation",
        ),
        ("bfs peg-solitaire --symmetry --backend gpu", "GPU"),
    ] {
        let args = words(line);
        common::assert_one_error_line(&bitsolve(&args), &format!("{args:?}"), expected);
    }
}

#[test]
fn a_gpu_run_killed_mid_search_resumes_to_the_same_table() {
    use std::time::Duration;
    if !gpu::available() {
        return;
    }
    let dir = common::scratch("gpu", "kill");
    let store = dir.to_str().unwrap();
    let args = [
        &words("bfs pancake --n 10 --json --backend gpu --store")[..],
        &[store],
    ]
    .concat();
    // Layers 8-11 hold 86% of the states: kill during them.
    let killed_at = common::kill_after_layer(&args, &dir, 7, Duration::from_secs(300));
    assert!(killed_at < 11, "killed after the search had finished");

    let resumed = json_of(&bitsolve(&args));
    assert_eq!(resumed["resumed_from"].as_u64(), Some(killed_at));
    let uninterrupted = bitsolve_json(&["bfs", "pancake", "--n", "10", "--json"]);
    assert_eq!(resumed["layers"], uninterrupted["layers"]);
    assert_eq!(resumed["total"], 3_628_800);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A 24-hole Peg Solitaire (the English board without its lower arm, the
/// hole at d2): a 4 MiB two-bit table, small enough for any disk, whose
/// largest two peg-count blocks (1.3 MiB) are a third of it.
fn small_peg_solitaire() -> PegSolitaire {
    let board = Board::parse("ooooooo\nooooooo\nooooooo\n..ooo..\n", "24 holes").unwrap();
    let hole = board.parse_cell("d2").unwrap();
    PegSolitaire::new(board, &[hole], false).unwrap()
}

/// Runs `algorithm` on `space` into a store in two steps (to `split`, then
/// on to the end) on `device` and checks the resumed run's layers against
/// `whole`.
fn assert_stored_run_resumes<S: Space>(
    space: &S,
    device: &GpuDevice,
    algorithm: Algorithm,
    split: usize,
    whole: &SearchReport,
    name: &str,
) {
    let dir = common::scratch(name, "store");
    let stored = |max_depth| SearchOptions {
        backing: Backing::Directory(dir.clone()),
        max_depth,
        ..Default::default()
    };
    let gpu = GpuBackend::new(device);
    algorithm.run(space, &gpu, &stored(Some(split))).unwrap();
    let resumed = algorithm.run(space, &gpu, &stored(None)).unwrap();
    assert_eq!(resumed.resumed_from, Some(split as u64));
    assert_eq!(resumed.layers, whole.layers);
    assert_eq!(resumed.reachable, whole.reachable);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn blocks_stream_through_a_device_memory_smaller_than_the_table() {
    // 2 MiB of device memory for a 4 MiB table: each layer's two peg-count
    // blocks are uploaded, expanded and copied back (the table cannot be
    // resident, so agreeing with the CPU means it streamed).
    let Some(device) = device_with_memory(2 << 20, Some(512 << 10)) else {
        return;
    };
    let game = small_peg_solitaire();
    assert_backends_agree(&game, &device, None);
    // A stored, streamed run resumes like any other.
    let whole = gpu_bfs(&game, &device, &SearchOptions::default());
    assert!(whole.layers.as_ref().unwrap().len() > 12);
    assert_stored_run_resumes(
        &game,
        &device,
        Algorithm::TwoBitBfs,
        5,
        &whole,
        "gpu-stream-2",
    );

    // A game without exact layers cannot stream: a clear error.
    let error = gpu_search(
        &Pancake::new(12, false).unwrap(),
        &device,
        &SearchOptions::default(),
    )
    .unwrap_err();
    assert!(error.to_string().contains("stream"), "{error}");
}

/// `algorithm` gives the same answer on the GPU as on the CPU.
fn assert_algorithm_agrees<S: Space>(
    space: &S,
    device: &GpuDevice,
    algorithm: Algorithm,
    max_depth: Option<usize>,
) -> SearchReport {
    let options = SearchOptions {
        max_depth,
        ..SearchOptions::default()
    };
    let on_gpu = algorithm
        .run(space, &GpuBackend::new(device), &options)
        .unwrap();
    let on_cpu = algorithm.run(space, &CpuBackend, &options).unwrap();
    let what = format!("{} {}", space.descriptor(), algorithm.name());
    assert_eq!(on_gpu.layers, on_cpu.layers, "{what}");
    assert_eq!(on_gpu.reachable, on_cpu.reachable, "{what}");
    assert_eq!(on_gpu.goals, on_cpu.goals, "{what}");
    assert_eq!(on_gpu.deepest, on_cpu.deepest, "{what}");
    on_gpu
}

#[test]
fn one_bit_bfs_and_reachability_run_on_the_gpu_too() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    let two_by_four = SlidingTile::new(4, 2).unwrap();
    let one_bit = assert_algorithm_agrees(&two_by_four, &device, Algorithm::OneBitBfs, None);
    let two_bit = common::run(&two_by_four, Algorithm::TwoBitBfs, 1);
    assert_eq!(one_bit.layers, two_bit.layers);
    assert_eq!(one_bit.reachable, 20_160);
    let reach = assert_algorithm_agrees(&two_by_four, &device, Algorithm::OneBitReachability, None);
    assert_eq!(reach.reachable, 20_160);
    let eight = SlidingTile::new(3, 3).unwrap();
    assert_algorithm_agrees(&eight, &device, Algorithm::OneBitBfs, None);
    assert_algorithm_agrees(&eight, &device, Algorithm::OneBitReachability, None);
    let reach = assert_algorithm_agrees(
        &Pancake::new(8, true).unwrap(),
        &device,
        Algorithm::OneBitReachability,
        None,
    );
    assert_eq!(reach.reachable, 40_320 * 256);
    for game in [TopSpin::new(9, 4).unwrap(), TopSpin::new(7, 2).unwrap()] {
        assert_algorithm_agrees(&game, &device, Algorithm::OneBitReachability, None);
    }
    let fore_and_aft = FrogsToads::standard(3).unwrap();
    let reach =
        assert_algorithm_agrees(&fore_and_aft, &device, Algorithm::OneBitReachability, None);
    assert_eq!(reach.reachable, 218_790);
    let peg = english_peg_solitaire(false);
    let one_bit = assert_algorithm_agrees(&peg, &device, Algorithm::OneBitBfs, Some(6));
    assert_eq!(one_bit.layers.unwrap(), [1, 4, 12, 60, 296, 1338, 5648]);
}

#[test]
fn one_bit_blocks_or_across_windows_and_pieces() {
    // 1 KiB windows: the 2x4 puzzle's 2.5 KiB one-bit table spans three, and
    // its blocks of 2,520 bits start inside words, so the whole-block OR of
    // the sideways moves reads its source across word and window edges.
    let Some(device) = device_in_pieces(1 << 10, 7, 1) else {
        return;
    };
    assert_algorithm_agrees(
        &SlidingTile::new(4, 2).unwrap(),
        &device,
        Algorithm::OneBitBfs,
        None,
    );
    assert_algorithm_agrees(
        &SlidingTile::new(2, 3).unwrap(),
        &device,
        Algorithm::OneBitBfs,
        None,
    );
    assert_algorithm_agrees(
        &FrogsToads::standard(3).unwrap(),
        &device,
        Algorithm::OneBitReachability,
        None,
    );
}

#[test]
fn a_one_bit_gpu_table_streams_through_a_small_device_memory() {
    // The 24-hole board's 2 MiB one-bit table through 1 MiB of device
    // memory: each layer's two peg-count blocks stream through it, as in
    // the two-bit run.
    let Some(small) = device_with_memory(1 << 20, Some(256 << 10)) else {
        return;
    };
    let peg = small_peg_solitaire();
    let streamed = assert_algorithm_agrees(&peg, &small, Algorithm::OneBitBfs, None);
    // A stored, streamed one-bit run resumes like any other.
    assert_stored_run_resumes(
        &peg,
        &small,
        Algorithm::OneBitBfs,
        4,
        &streamed,
        "gpu-stream-1",
    );
}

#[test]
fn bfs_and_bench_run_one_bit_searches_on_the_gpu() {
    if !gpu::available() {
        return;
    }
    let tiles = words("bfs sliding-tile --width 4 --height 2 --json");
    for algo in ["one-bit", "reach"] {
        let on_gpu = bitsolve_json(&[&tiles[..], &["--algo", algo, "--backend", "gpu"]].concat());
        let on_cpu = bitsolve_json(&[&tiles[..], &["--algo", algo]].concat());
        assert_eq!(on_gpu["backend"], "gpu");
        assert_eq!(on_gpu["algo"], algo);
        assert_eq!(on_gpu["layers"], on_cpu["layers"]);
        assert_eq!(on_gpu["total"], 20_160);
    }
    let bench = bitsolve_json(&words(
        "bench sliding-tile --width 3 --height 3 --algo one-bit --json",
    ));
    assert_eq!(bench["algo"], "one-bit");
    assert_eq!(bench["total"], 181_440);
    assert_eq!(bench["max_depth"], 31);
    assert_eq!(bench["runs"].as_array().unwrap().len(), 3);
}

#[test]
fn meeting_in_the_middle_on_the_gpu_finds_the_cpu_midpoints() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    let square = Board::parse("oooo\noooo\noooo\noooo\n", "square 4x4").unwrap();
    let wide = Board::parse("ooooo\nooooo\nooooo\n", "3x5").unwrap();
    let options = SearchOptions {
        meet_in_middle: true,
        ..SearchOptions::default()
    };
    let mut joined = 0;
    for board in [square, wide] {
        for hole in 0..board.cells() {
            let game = PegSolitaire::new(board.clone(), &[hole], false).unwrap();
            let on_gpu = Algorithm::OneBitBfs
                .run(&game, &GpuBackend::new(&device), &options)
                .unwrap();
            let on_cpu = Algorithm::OneBitBfs
                .run(&game, &CpuBackend, &options)
                .unwrap();
            assert_eq!(on_gpu.meet, on_cpu.meet, "{}", game.descriptor());
            assert_eq!(on_gpu.goals, on_cpu.goals, "{}", game.descriptor());
            joined += on_gpu.meet.unwrap().midpoints;
        }
    }
    assert!(joined > 0, "some of these boards must be solvable");
}
