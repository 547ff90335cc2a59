//! Two-bit retrograde analysis on the GPU against the CPU: the games' WGSL
//! rules position by position against their Rust rules, and every cell of
//! every solved layer equal on both backends, also when a store started on
//! one backend is resumed on the other. In CI (software Vulkan, lavapipe) a
//! missing adapter fails these tests; elsewhere they are skipped with the
//! reason printed.

use std::ops::RangeInclusive;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::common::gpu::{self, device, device_in_pieces, device_with_memory};
use crate::common::{self, bitsolve_json, words};

use bitsolve::backend::gpu::{GpuDevice, GpuOptions, retro_check, retro_program};
use bitsolve::backend::{CpuBackend, GpuBackend};
use bitsolve::games::fox_geese::Rules;
use bitsolve::games::morris::{Morris, Variant};
use bitsolve::games::positional::builtins::{harary, hex, tic_tac_toe};
use bitsolve::games::positional::{PositionalGame, Query, pg};
use bitsolve::games::{Dodgem, FoxGeese, TwoPlayerGame};
use bitsolve::qbf::exhaustive::QueryLayers;
use bitsolve::search::retro2::seam::RetroBackend;
use bitsolve::search::retro2::{LayerReport, RetroOptions, open_layer, solve_layer_range};
use bitsolve::search::{Progress, Silent};
use bitsolve::space::{LayerLinks, LayeredGame, LayersBelow};
use bitsolve::table::Backing;

/// The WGSL rules of `layer` give the Rust rules' answers for `ranks`.
fn assert_rules_agree<G: LayeredGame>(device: &GpuDevice, game: &G, layer: usize, ranks: &[u64]) {
    let on_host = retro_check::host_rules(game, layer, ranks);
    // Rows with room for the most moves the host finds, and one more: a
    // device that finds more moves than the host still shows it (its count).
    let most = on_host
        .iter()
        .map(|rules| rules.moves.len().max(rules.predecessors.len()))
        .max()
        .unwrap_or(0);
    let room = (most + 1).min(retro_check::MAX_MOVES);
    let on_device = retro_check::device_rules(device, game, layer, ranks, room).unwrap();
    for ((gpu, cpu), rank) in on_device.iter().zip(&on_host).zip(ranks) {
        assert_eq!(gpu, cpu, "{} rank {rank}", game.layer_descriptor(layer));
    }
    assert_eq!(on_device.len(), ranks.len());
}

/// Every rank of `layer`, or every `step`-th.
fn ranks_of<G: LayeredGame>(game: &G, layer: usize, step: usize) -> Vec<u64> {
    (0..game.layer_size(layer)).step_by(step).collect()
}

/// Fox-and-Geese's rule variants, each with and without `--symmetry`.
fn fox_geese_variants() -> Vec<(String, FoxGeese)> {
    let rules =
        [(false, false), (true, false), (false, true)].map(|(capture_wins, geese_forward)| Rules {
            capture_wins,
            geese_forward,
        });
    rules
        .into_iter()
        .flat_map(|rules| [(rules, false), (rules, true)])
        .map(|(rules, symmetry)| {
            let name = format!(
                "fg-{}-{}-{symmetry}",
                rules.capture_wins, rules.geese_forward
            );
            (name, FoxGeese::with_rules(rules, symmetry).unwrap())
        })
        .collect()
}

#[test]
fn fox_and_geese_rules_on_the_device_are_the_rust_rules() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for (_, game) in fox_geese_variants() {
        {
            for geese in 0..=3 {
                assert_rules_agree(&device, &game, geese, &ranks_of(&game, geese, 1));
            }
            // Layers 4 and 5 have 2.4 M and 13 M positions: samples
            // (lavapipe runs the kernels on the CPU).
            assert_rules_agree(&device, &game, 4, &ranks_of(&game, 4, 17));
            assert_rules_agree(&device, &game, 5, &ranks_of(&game, 5, 131));
        }
    }
}

#[test]
fn dodgem_rules_on_the_device_are_the_rust_rules() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for n in [3, 4] {
        let game = Dodgem::new(n).unwrap();
        for layer in 0..=2 * (n - 1) {
            assert_rules_agree(&device, &game, layer, &ranks_of(&game, layer, 1));
        }
    }
    let game = Dodgem::new(5).unwrap();
    for layer in 0..=8 {
        assert_rules_agree(&device, &game, layer, &ranks_of(&game, layer, 9973));
    }
}

/// The Morris variants the GPU tests cover: Nine Men's Morris with and
/// without symmetry, Morabaraba (diagonals) with it.
fn morris_variants() -> Vec<(String, Morris)> {
    [
        (Variant::NineMensMorris, false),
        (Variant::NineMensMorris, true),
        (Variant::Morabaraba, true),
    ]
    .into_iter()
    .map(|(variant, symmetry)| {
        (
            format!("morris-{}-{symmetry}", variant.name()),
            Morris::new(variant, symmetry).unwrap(),
        )
    })
    .collect()
}

#[test]
fn morris_rules_on_the_device_are_the_rust_rules() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for (_, game) in morris_variants() {
        // Both sides flying, captures into 3-2 (6); sliding against flying
        // (7); both sliding (8); a big layer's symmetry classes and 9-9
        // (18), sampled.
        for (layer, step) in [(6, 29), (7, 401), (8, 4001), (18, 1_000_003)] {
            // Without symmetry 9-9's block passes 2^32 ranks: refused on
            // the GPU (`retro_program`), so not checked.
            let blocks = game.layer_blocks(layer);
            if blocks.iter().any(|b| b.len >= u32::MAX as u64) {
                assert!(!game.symmetry(), "{}", game.layer_descriptor(layer));
                continue;
            }
            assert_rules_agree(&device, &game, layer, &ranks_of(&game, layer, step));
        }
    }
}

#[test]
fn morris_opening_rules_on_the_device_are_the_rust_rules() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for (_, game) in morris_variants() {
        // The opening's layers, sampled: the last placement (into every
        // moving layer), two placements left with the board nearly full
        // (mills, captures of stones in and out of mills), the middle, the
        // start.
        let top = game.max_layer();
        let last_placement = top / 2 + 1;
        for (layer, step) in [
            (last_placement, 1_000_003),
            (last_placement + 1, 1_000_003),
            (last_placement + 8, 100_003),
            (top - 2, 7),
            (top, 1),
        ] {
            // Without symmetry the middle layers' blocks pass 2^32 ranks:
            // refused on the GPU (`retro_program`), swept on the host.
            let too_big = |l: usize| {
                game.layer_blocks(l)
                    .iter()
                    .any(|b| b.len >= u32::MAX as u64)
            };
            if too_big(layer) || LayersBelow::of(&game, layer).layers().any(too_big) {
                assert!(!game.symmetry(), "{}", game.layer_descriptor(layer));
                continue;
            }
            assert_rules_agree(&device, &game, layer, &ranks_of(&game, layer, step));
        }
    }
}

/// The layers of Lasker Morris's opening (moves that stay, and moves that
/// leave to several layers below).
fn lasker_opening(game: &Morris) -> Vec<usize> {
    (0..=game.max_layer())
        .filter(|&layer| game.several_layers_below(layer).is_some())
        .collect()
}

#[test]
fn lasker_opening_rules_on_the_device_are_the_rust_rules() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for symmetry in [true, false] {
        // Three stones a side: every opening layer, a rank in 23 (with
        // boards where a side has no stone, so a mill takes none).
        let game = Morris::with_men(Variant::Lasker, 3, symmetry).unwrap();
        for layer in lasker_opening(&game) {
            assert_rules_agree(&device, &game, layer, &ranks_of(&game, layer, 23));
        }
        // Ten: sampled layers of every kind of hands and board. Without
        // symmetry the middle layers' blocks pass 2^32 ranks (refused on
        // the GPU, as `retro_program` says): not checked.
        let game = Morris::new(Variant::Lasker, symmetry).unwrap();
        let opening = lasker_opening(&game);
        let picks = [
            0,
            1,
            5,
            opening.len() / 3,
            opening.len() / 2,
            opening.len() - 40,
        ];
        for layer in picks.map(|at| opening[at]) {
            if retro_program(&game, layer).is_err() {
                assert!(!symmetry, "{}", game.layer_descriptor(layer));
                continue;
            }
            let step = (game.layer_size(layer) / 3000).max(1) as usize | 1;
            assert_rules_agree(&device, &game, layer, &ranks_of(&game, layer, step));
        }
    }
}

/// A copy of the store `from` (a directory of files) at `to`.
fn copy_store(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        assert!(entry.file_type().unwrap().is_file(), "a store holds files");
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// A Morris opening (`layers`, up to the game's last layer) solved on the
/// CPU over a moving phase the CPU solved: the store of the layers below
/// it, which every run copies, and what every run must give.
struct SolvedOpening<'g> {
    game: &'g Morris,
    name: String,
    layers: RangeInclusive<usize>,
    below: PathBuf,
    expected: Vec<LayerReport>,
    words: Vec<Vec<u64>>,
}

impl<'g> SolvedOpening<'g> {
    fn new(game: &'g Morris, name: String, layers: RangeInclusive<usize>) -> Self {
        let below = scratch(&format!("{name}-below"));
        solve_into(&CpuBackend, game, 0..=layers.start() - 1, &below, &Silent).unwrap();
        let mut opening = SolvedOpening {
            game,
            name,
            layers,
            below,
            expected: Vec::new(),
            words: Vec::new(),
        };
        let on_cpu = opening.store("cpu");
        opening.expected =
            solve_into(&CpuBackend, game, opening.layers.clone(), &on_cpu, &Silent).unwrap();
        opening.words = stored_words(game, 0..=*opening.layers.end(), &on_cpu);
        std::fs::remove_dir_all(&on_cpu).unwrap();
        opening
    }

    /// A new store named `what`, holding the layers below the opening.
    fn store(&self, what: &str) -> PathBuf {
        let dir = scratch(&format!("{}-{what}", self.name));
        copy_store(&self.below, &dir);
        dir
    }

    /// The store `dir` holds the CPU's words; then it is removed.
    fn assert_words(&self, dir: &Path, what: &str) {
        let top = *self.layers.end();
        assert!(
            stored_words(self.game, 0..=top, dir) == self.words,
            "{}: {what}",
            self.name
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// The opening on `gpu`: the CPU's counts and words, in at most
    /// `compilations` compilations of kernels.
    fn assert_on(&self, gpu: &GpuBackend, device: &GpuDevice, compilations: usize) {
        let dir = self.store("gpu");
        let compiled = device.kernel_compilations();
        let reports = solve_into(gpu, self.game, self.layers.clone(), &dir, &Silent).unwrap();
        let compiled = device.kernel_compilations() - compiled;
        assert!(
            compiled <= compilations,
            "{}: {compiled} compilations for {} layers",
            self.name,
            reports.len()
        );
        assert_eq!(counts(&reports), counts(&self.expected), "{}", self.name);
        self.assert_words(&dir, "on the device");
    }

    /// The device's first opening layers, to `split`, then the CPU's.
    fn assert_split(&self, gpu: &GpuBackend, split: usize) {
        let dir = self.store("mixed");
        solve_into(gpu, self.game, *self.layers.start()..=split, &dir, &Silent).unwrap();
        let rest = split + 1..=*self.layers.end();
        solve_into(&CpuBackend, self.game, rest, &dir, &Silent).unwrap();
        self.assert_words(&dir, "the device's first opening layers, then the CPU's");
    }

    /// Through a device bounded to half of what `layer`'s values and the
    /// layers its moves reach take: that layer streams.
    fn assert_streamed(&self, layer: usize) {
        let game = self.game;
        let needed = resident_bytes(game, layer);
        let limit = (needed / 2).max(16 << 10);
        assert!(limit < needed, "{}: {needed} bytes", self.name);
        let small = device_with_memory(limit, None).expect("a device opened before");
        let dir = self.store("streamed");
        let notes = Notes::default();
        solve_into(
            &GpuBackend::new(&small),
            game,
            self.layers.clone(),
            &dir,
            &notes,
        )
        .unwrap();
        let notes = notes.0.into_inner().unwrap();
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with(&game.layer_descriptor(layer))
                    && n.contains("stream through it in windows")),
            "{}: {notes:?}",
            self.name
        );
        self.assert_words(&dir, "streamed");
    }
}

/// Bytes of `layer`'s values and of the layers its moves reach, on the
/// device.
fn resident_bytes(game: &Morris, layer: usize) -> u64 {
    let bytes = |cells: u64| cells.div_ceil(4);
    bytes(game.layer_size(layer)) + bytes(LayersBelow::of(game, layer).cells())
}

impl Drop for SolvedOpening<'_> {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.below);
    }
}

/// The Morris variants' opening at `men` stones a side on the device,
/// from a store whose moving phase the CPU solved: the values are the
/// CPU's; and (Nine Men's Morris with symmetry) the same through a device
/// too small for the last placement's tables, and a run whose opening the
/// device began resumed on the CPU.
fn assert_the_opening_agrees(device: &GpuDevice, men: usize) {
    let gpu = GpuBackend::new(device);
    for (variant, symmetry) in [
        (Variant::NineMensMorris, true),
        (Variant::NineMensMorris, false),
        (Variant::Morabaraba, true),
    ] {
        let game = Morris::with_men(variant, men, symmetry).unwrap();
        let name = format!("opening-{}-{men}-{symmetry}", variant.name());
        let top = game.max_layer();
        let last_placement = (0..=top)
            .find(|&l| game.acyclic_layer(l).is_some())
            .unwrap();
        // Swept on the device, not handed back to the host.
        for layer in last_placement..=top {
            retro_program(&game, layer).unwrap();
        }
        let opening = SolvedOpening::new(&game, name, last_placement..=top);
        assert_eq!(opening.expected.len(), top + 1 - last_placement);
        // One text for the layers of placements but the last (and the
        // sizes of their block tables).
        opening.assert_on(&gpu, device, 4);
        if variant == Variant::NineMensMorris && symmetry {
            // The last placement's values and the moving layers joined do
            // not fit a device bounded to half their size: both stream.
            opening.assert_streamed(last_placement);
            opening.assert_split(&gpu, last_placement + 2);
        }
    }
}

#[test]
fn morris_opening_values_are_the_cpu_values() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    assert_the_opening_agrees(&device, 3);
}

/// [`morris_opening_values_are_the_cpu_values`] with four stones a side
/// (22 M opening positions: minutes on lavapipe).
#[test]
#[ignore]
fn the_four_stone_openings_have_the_cpu_values() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    assert_the_opening_agrees(&device, 4);
}

#[test]
fn morris_values_are_the_cpu_values() {
    // The whole game with three stones a side: both sides flying, captures
    // and the opening's layers (the last placement swept on the host, the
    // rest on the device). Sliding moves' rules are compared on the device
    // above; their values (Nine Men's Morris to 4-3 with and without
    // symmetry, Morabaraba) cost lavapipe minutes more: ignored below.
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    assert_the_whole_game_with_three_stones_agrees(&device);
}

/// Lasker Morris's opening with `men` stones a side on the device, over a
/// store whose moving phase the CPU solved: every stored word is the
/// CPU's; so too where a layer begun on one backend is finished on the
/// other (both ways), where the device solves the first layers and the
/// CPU the rest, and (with symmetry) through a device too small for the
/// largest layer and the layers it reaches, which then stream.
fn assert_the_lasker_opening_agrees(device: &GpuDevice, men: usize, symmetry: bool) {
    let gpu = GpuBackend::new(device);
    let game = Morris::with_men(Variant::Lasker, men, symmetry).unwrap();
    let layers = lasker_opening(&game);
    let (first, top) = (layers[0], game.max_layer());
    assert_eq!(layers, (first..=top).collect::<Vec<_>>());
    let opening = SolvedOpening::new(&game, format!("lasker-{men}-{symmetry}"), first..=top);
    let name = &opening.name;
    // The layers share their rules' text but for the sizes of their
    // block tables (a power of two): a few compilations, not one a layer.
    opening.assert_on(&gpu, device, (top + 1 - first) / 4);

    // The first opening layer of several passes (the second), stopped
    // after its pass 0 and resumed on the other backend.
    let at = opening
        .expected
        .iter()
        .position(|r| r.passes() > 2)
        .unwrap();
    assert!(at > 0, "{name}");
    let stop = format!("layer {} pass 1", first + at);
    for gpu_first in [true, false] {
        let dir = opening.store(&format!("resumed-{gpu_first}"));
        let resumed = if gpu_first {
            started_and_resumed(&game, first..=top, &gpu, &stop, &CpuBackend, &dir)
        } else {
            started_and_resumed(&game, first..=top, &CpuBackend, &stop, &gpu, &dir)
        };
        assert_eq!(counts(&resumed), counts(&opening.expected), "{name}");
        assert!(resumed[at - 1].already_solved && !resumed[at].already_solved);
        opening.assert_words(&dir, &format!("resumed (the GPU first: {gpu_first})"));
    }
    opening.assert_split(&gpu, first + 5);
    if symmetry {
        let largest = layers.iter().max_by_key(|&&l| resident_bytes(&game, l));
        opening.assert_streamed(*largest.unwrap());
    }
}

#[test]
fn lasker_opening_values_are_the_cpu_values() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for symmetry in [true, false] {
        assert_the_lasker_opening_agrees(&device, 3, symmetry);
    }
}

/// [`lasker_opening_values_are_the_cpu_values`] with four stones a side
/// (minutes on lavapipe).
#[test]
#[ignore]
fn the_four_stone_lasker_opening_has_the_cpu_values() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for symmetry in [true, false] {
        assert_the_lasker_opening_agrees(&device, 4, symmetry);
    }
}

/// The whole of Lasker Morris with three stones a side on the device, the
/// moving phase too, with and without symmetry (about 4 minutes on
/// lavapipe).
#[test]
#[ignore]
fn the_whole_three_stone_lasker_game_has_the_cpu_values() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for symmetry in [true, false] {
        let game = Morris::with_men(Variant::Lasker, 3, symmetry).unwrap();
        let name = format!("lasker-3-{symmetry}");
        assert_backends_agree(&device, &game, game.max_layer(), &name);
    }
}

/// [`morris_values_are_the_cpu_values`] with every board to 4-3 with
/// symmetry and Nine Men's Morris without it (`cargo test --test suite
/// gpu_retro:: -- --ignored`).
#[test]
#[ignore]
fn every_morris_variant_has_the_cpu_values() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for (name, game) in morris_variants() {
        // lavapipe's loop limit (morris.wgsl) cut moves short at 4-3 before.
        let top = if game.symmetry() { 7 } else { 6 };
        assert_backends_agree(&device, &game, top, &name);
    }
    assert_the_whole_game_with_three_stones_agrees(&device);
}

/// The whole game with three stones a side on the device and on the CPU:
/// the last placement's layer is swept on the host, every other one on
/// the device.
fn assert_the_whole_game_with_three_stones_agrees(device: &GpuDevice) {
    let game = Morris::with_men(Variant::NineMensMorris, 3, true).unwrap();
    assert_backends_agree(device, &game, game.max_layer(), "morris-men-3");
}

fn scratch(name: &str) -> PathBuf {
    common::scratch("gpu-retro", name)
}

/// Solves `layers` on `backend` into the store `dir`.
fn solve_into<G: LayeredGame, B: RetroBackend>(
    backend: &B,
    game: &G,
    layers: RangeInclusive<usize>,
    dir: &Path,
    progress: &dyn Progress,
) -> bitsolve::Result<Vec<LayerReport>> {
    let options = RetroOptions {
        backing: Backing::Directory(dir.to_path_buf()),
        progress,
        // A record after every pass: a crash leaves a resumable layer.
        record_every: Duration::ZERO,
        ..Default::default()
    };
    solve_layer_range(backend, game, layers, &options)
}

/// The stored words of every layer of `layers` in `dir`: every cell, and
/// the padding of the last word, which the undecided fill reaches too.
fn stored_words<G: LayeredGame>(
    game: &G,
    layers: RangeInclusive<usize>,
    dir: &Path,
) -> Vec<Vec<u64>> {
    layers
        .map(|layer| {
            let backing = Backing::ReadOnly(dir.to_path_buf());
            let (table, checkpoint) = open_layer(game, layer, &backing, &Silent).unwrap();
            assert!(
                checkpoint.is_some_and(|c| c.complete),
                "layer {layer} is solved"
            );
            table
                .words()
                .iter()
                .map(|w| w.load(Ordering::Relaxed))
                .collect()
        })
        .collect()
}

/// The counts of a report, which both backends must give (the passes and
/// the positions examined differ: the GPU rescans, the CPU propagates).
fn counts(reports: &[LayerReport]) -> Vec<[u64; 5]> {
    reports
        .iter()
        .map(|r| [r.states, r.stored, r.first_wins, r.second_wins, r.draws])
        .collect()
}

/// Layers `0..=top` solved on the GPU and on the CPU hold the same words.
fn assert_backends_agree<G: LayeredGame>(device: &GpuDevice, game: &G, top: usize, name: &str) {
    let (on_gpu, on_cpu) = (
        scratch(&format!("{name}-gpu")),
        scratch(&format!("{name}-cpu")),
    );
    let gpu = solve_into(&GpuBackend::new(device), game, 0..=top, &on_gpu, &Silent).unwrap();
    let cpu = solve_into(&CpuBackend, game, 0..=top, &on_cpu, &Silent).unwrap();
    assert_eq!(counts(&gpu), counts(&cpu), "{}", game.layer_descriptor(top));
    let (gpu_words, cpu_words) = (
        stored_words(game, 0..=top, &on_gpu),
        stored_words(game, 0..=top, &on_cpu),
    );
    for (layer, (gpu, cpu)) in gpu_words.iter().zip(&cpu_words).enumerate() {
        assert!(
            gpu == cpu,
            "{}: the values differ",
            game.layer_descriptor(layer)
        );
    }
    std::fs::remove_dir_all(&on_gpu).unwrap();
    std::fs::remove_dir_all(&on_cpu).unwrap();
}

/// Fox-and-Geese layers solved on both backends.
const FOX_GEESE_TOP: usize = 5;

#[test]
fn layers_that_share_their_program_compile_it_once() {
    // Fox-and-Geese and Dodgem keep the layer in a rule table, so every
    // layer with a layer below runs the same kernels: compiled for the
    // first of them, and once more for a layer without one below.
    let compilations = |solve: &dyn Fn(&GpuDevice)| {
        device(GpuOptions::default()).map(|device| {
            solve(&device);
            device.kernel_compilations()
        })
    };
    let fox_geese = compilations(&|device| {
        let game = FoxGeese::new(false, true).unwrap();
        assert_backends_agree(device, &game, 4, "shared-kernels-fg");
    });
    let dodgem = compilations(&|device| {
        assert_backends_agree(device, &Dodgem::new(4).unwrap(), 6, "shared-kernels-dodgem");
    });
    for (name, count) in [("fox-geese", fox_geese), ("dodgem", dodgem)] {
        if let Some(count) = count {
            assert!(count <= 2, "{name}: {count} compilations");
        }
    }
}

#[test]
fn fox_and_geese_values_are_the_cpu_values() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    // Layers to 4 geese in every variant; layer 5 (five times layer 4)
    // on the device is compared with the CPU by the rescan test below.
    for (name, game) in fox_geese_variants() {
        assert_backends_agree(&device, &game, FOX_GEESE_TOP - 1, &name);
    }
}

/// The whole comparison, Fox-and-Geese layers 0..8 in every
/// variant: minutes on lavapipe, so run on demand
/// (`cargo test --test suite gpu_retro:: -- --ignored`).
#[test]
#[ignore]
fn fox_and_geese_layers_up_to_8_are_the_cpu_values() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for (name, game) in fox_geese_variants() {
        let started = std::time::Instant::now();
        assert_backends_agree(&device, &game, 8, &format!("{name}-8"));
        eprintln!(
            "{}: equal ({:.0?})",
            game.layer_descriptor(8),
            started.elapsed()
        );
    }
}

/// Work lists of 16 entries: pass 0 and the dense passes overflow them
/// (the next kernel scans the marks), the sparse ones do not (one
/// invocation per entry), so passes switch between the two both ways.
/// Without lists (0 entries) every pass scans.
#[test]
fn passes_that_switch_between_work_lists_and_scans_give_the_cpu_values() {
    for entries in [16, 0] {
        let Some(device) = device(GpuOptions {
            list_entries: Some(entries),
            ..GpuOptions::default()
        }) else {
            return;
        };
        let symmetric = FoxGeese::with_rules(Rules::default(), true).unwrap();
        assert_backends_agree(&device, &symmetric, 4, &format!("fg-lists-{entries}"));
        let game = Dodgem::new(4).unwrap();
        assert_backends_agree(&device, &game, 6, &format!("dodgem-lists-{entries}"));
    }
}

#[test]
fn dodgem_values_are_the_cpu_values() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for n in [3, 4] {
        let game = Dodgem::new(n).unwrap();
        assert_backends_agree(&device, &game, 2 * (n - 1), &format!("dodgem-{n}"));
    }
}

/// Stops a solve as a crash would, when the driver begins pass `label`.
struct CrashAt(String);

impl Progress for CrashAt {
    fn begin_pass(&self, label: &str, _units: u64) {
        if label == self.0 {
            panic!("simulated crash before {label}");
        }
    }
}

/// Starts `layers` on `first`, stopped before `stop` (after pass 0 of a
/// layer, or between layers), and finishes them on `then`.
fn started_and_resumed<G: LayeredGame>(
    game: &G,
    layers: RangeInclusive<usize>,
    first: &impl RetroBackend,
    stop: &str,
    then: &impl RetroBackend,
    dir: &Path,
) -> Vec<LayerReport> {
    let stopped = catch_unwind(AssertUnwindSafe(|| {
        solve_into(first, game, layers.clone(), dir, &CrashAt(stop.to_string()))
    }));
    assert!(stopped.is_err(), "the run stopped before {stop}");
    solve_into(then, game, layers, dir, &Silent).unwrap()
}

/// Layers 0..=`top` of `game` stopped after layer `top`'s pass 0 on one
/// backend and resumed from that record on the other, both ways, give a
/// CPU run's counts and stored words; returns those words.
fn assert_resumes_both_ways(
    gpu: &GpuBackend,
    game: &FoxGeese,
    top: usize,
    name: &str,
) -> Vec<Vec<u64>> {
    let reference = scratch(&format!("{name}-reference"));
    let expected = solve_into(&CpuBackend, game, 0..=top, &reference, &Silent).unwrap();
    let words = stored_words(game, 0..=top, &reference);
    std::fs::remove_dir_all(&reference).unwrap();
    let stop = &format!("layer {top} pass 1");
    let dir = scratch(&format!("{name}-gpu-then-cpu"));
    let resumed = started_and_resumed(game, 0..=top, gpu, stop, &CpuBackend, &dir);
    assert_eq!(counts(&resumed), counts(&expected));
    assert!(resumed[top - 1].already_solved && !resumed[top].already_solved);
    assert!(
        resumed[top].passes() > 1,
        "layer {top} was resumed after its pass 0"
    );
    assert!(stored_words(game, 0..=top, &dir) == words, "GPU, then CPU");
    std::fs::remove_dir_all(&dir).unwrap();
    let dir = scratch(&format!("{name}-cpu-then-gpu"));
    let resumed = started_and_resumed(game, 0..=top, &CpuBackend, stop, gpu, &dir);
    assert_eq!(counts(&resumed), counts(&expected));
    assert!(stored_words(game, 0..=top, &dir) == words, "CPU, then GPU");
    std::fs::remove_dir_all(&dir).unwrap();
    words
}

#[test]
fn a_store_started_on_one_backend_resumes_on_the_other() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    let gpu = GpuBackend::new(&device);
    let game = FoxGeese::new(false, false).unwrap();
    // Layer 4 is the first with a pass 1 (3 passes on either backend).
    let top = 4;
    let words = assert_resumes_both_ways(&gpu, &game, top, "resume");

    // Between layers: a range starting above layer 2 or 3 reads it from
    // the store the other backend wrote.
    for (lower, upper) in [(0..=2, 3..=top), (0..=3, 4..=top)] {
        let dir = scratch("ranges");
        solve_into(&CpuBackend, &game, lower.clone(), &dir, &Silent).unwrap();
        solve_into(&gpu, &game, upper.clone(), &dir, &Silent).unwrap();
        assert!(
            stored_words(&game, 0..=top, &dir) == words,
            "CPU {lower:?}, then GPU {upper:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        solve_into(&gpu, &game, lower.clone(), &dir, &Silent).unwrap();
        solve_into(&CpuBackend, &game, upper.clone(), &dir, &Silent).unwrap();
        assert!(
            stored_words(&game, 0..=top, &dir) == words,
            "GPU {lower:?}, then CPU {upper:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn layers_beyond_the_device_memory_are_refused_in_one_line() {
    // Layer 1's passes take about 1 KiB; layer 2's values (8.0 KiB) and
    // layer 1's do not fit, nor do windows of 4 KiB beside a tally table
    // and a source window as large.
    let Some(device) = device_with_memory(8 << 10, None) else {
        return;
    };
    let game = FoxGeese::new(false, false).unwrap();
    let options = RetroOptions::default();
    let error = solve_layer_range(&GpuBackend::new(&device), &game, 0..=3, &options)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("fox-geese g=2")
            && error.contains("8.0 KiB allowed")
            && error.contains("windows")
            && !error.contains('\n'),
        "{error}"
    );
}

/// The notes a run gives (and nothing else it reports).
#[derive(Default)]
struct Notes(std::sync::Mutex<Vec<String>>);

impl Progress for Notes {
    fn note(&self, message: &str) {
        self.0.lock().unwrap().push(message.to_string());
    }
}

/// Some of the six Fox-and-Geese variants, `picks` into
/// [`fox_geese_variants`]: the memory-bound paths below do not depend on
/// the rules (those are checked in every variant above), and lavapipe
/// takes minutes a variant; the ignored tests run all six.
fn some_variants<const N: usize>(picks: [usize; N]) -> Vec<(String, FoxGeese)> {
    let all = fox_geese_variants();
    picks.iter().map(|&i| all[i].clone()).collect()
}

#[test]
fn layers_whose_pass_marks_do_not_fit_rescan_and_give_the_cpu_values() {
    // Capture-wins with symmetry (twins copied in the rescanned passes).
    assert_rescanned_layers_agree(some_variants([3]));
}

/// [`layers_whose_pass_marks_do_not_fit_rescan_and_give_the_cpu_values`] in
/// every variant (`cargo test --test suite gpu_retro:: -- --ignored`).
#[test]
#[ignore]
fn every_variant_rescans_as_the_cpu() {
    assert_rescanned_layers_agree(fox_geese_variants());
}

fn assert_rescanned_layers_agree(variants: Vec<(String, FoxGeese)>) {
    // A limit between layer 5's values and layer 4's, and the same with
    // layer 5's two one-bit mark tables: its passes rescan, the layers
    // below (a fifth of its size or less) keep their marks.
    let top = FOX_GEESE_TOP;
    for (name, game) in variants {
        let limit = table_bytes(&game, top, 2)
            + table_bytes(&game, top - 1, 2)
            + table_bytes(&game, top, 1);
        let Some(device) = device_with_memory(limit, None) else {
            return;
        };
        assert_noted_and_alike(
            &device,
            &game,
            top,
            &format!("rescan-{name}"),
            &name,
            |notes| {
                // One note a pass 0 of layer 5 (one run, no resume), none before.
                assert!(
                    notes.len() == 1
                        && notes[0].starts_with(&game.layer_descriptor(top))
                        && notes[0].contains("pass marks")
                        && notes[0].contains("judges all"),
                    "{name}: {notes:?}"
                );
            },
        );
    }
}

/// Layers `0..=top` of `game` solved on `device` and on the CPU, into the
/// stores `{store}-gpu` and `{store}-cpu`: `check` judges the notes of the
/// GPU run, and the two runs' counts and stored words must be equal (said
/// of `name`).
fn assert_noted_and_alike<G: LayeredGame>(
    device: &GpuDevice,
    game: &G,
    top: usize,
    store: &str,
    name: &str,
    check: impl FnOnce(&[String]),
) {
    let (on_gpu, on_cpu) = (
        scratch(&format!("{store}-gpu")),
        scratch(&format!("{store}-cpu")),
    );
    let notes = Notes::default();
    let gpu = solve_into(&GpuBackend::new(device), game, 0..=top, &on_gpu, &notes).unwrap();
    let cpu = solve_into(&CpuBackend, game, 0..=top, &on_cpu, &Silent).unwrap();
    check(&notes.0.into_inner().unwrap());
    assert_eq!(counts(&gpu), counts(&cpu), "{name}");
    assert!(
        stored_words(game, 0..=top, &on_gpu) == stored_words(game, 0..=top, &on_cpu),
        "{name}: the values differ"
    );
    std::fs::remove_dir_all(&on_gpu).unwrap();
    std::fs::remove_dir_all(&on_cpu).unwrap();
}

/// Layers `0..=top` solved on the GPU under `options` (a device memory
/// that layer `top` does not fit) and on the CPU hold the same words, and
/// the GPU run said once, for layer `top`, that it streams.
fn assert_streamed_layer_agrees<G: LayeredGame>(
    name: &str,
    game: &G,
    top: usize,
    options: GpuOptions,
) {
    let Some(device) = device(options) else {
        return;
    };
    assert_noted_and_alike(
        &device,
        game,
        top,
        &format!("stream-{name}"),
        name,
        |notes| {
            let streamed: Vec<&String> = notes
                .iter()
                .filter(|n| n.contains("stream through it in windows"))
                .collect();
            assert!(
                streamed.len() == 1 && streamed[0].starts_with(&game.layer_descriptor(top)),
                "{name}: {notes:?}"
            );
        },
    );
}

/// Bytes of a layer's host table of `bits`-bit cells.
fn table_bytes<G: LayeredGame>(game: &G, layer: usize, bits: u64) -> u64 {
    game.layer_size(layer).div_ceil(64) * 8 * bits
}

#[test]
fn layers_that_do_not_fit_stream_in_windows_and_give_the_cpu_values() {
    // Geese-forward without symmetry.
    assert_streamed_layers_agree(some_variants([4]));
}

/// [`layers_that_do_not_fit_stream_in_windows_and_give_the_cpu_values`] in
/// every variant (`cargo test --test suite gpu_retro:: -- --ignored`).
#[test]
#[ignore]
fn every_variant_streams_as_the_cpu() {
    assert_streamed_layers_agree(fox_geese_variants());
}

fn assert_streamed_layers_agree(variants: Vec<(String, FoxGeese)>) {
    // Two thirds of layer 3's values and layer 2's: the layer in windows
    // (each judged in rounds: the others, the layer below), the layers
    // below whole.
    let top = 3;
    for (name, game) in variants {
        let limit = (table_bytes(&game, top, 2) + table_bytes(&game, top - 1, 2)) * 2 / 3;
        let options = GpuOptions {
            device_bytes: Some(limit),
            ..Default::default()
        };
        assert_streamed_layer_agrees(&name, &game, top, options);
    }
    // Dodgem has draws (the tallies' third value): 4×4's layer 6 in 4
    // windows beside layer 5's 3.
    let game = Dodgem::new(4).unwrap();
    let options = GpuOptions {
        device_bytes: Some(60 << 10),
        ..Default::default()
    };
    assert_streamed_layer_agrees("dodgem-4", &game, 6, options);
}

#[test]
fn streamed_layers_in_small_bindings_and_pieces_give_the_cpu_values() {
    // 1 KiB bindings and no device limit: layer 4's values (123 KiB)
    // would take more bindings than a kernel has, so they stream, in
    // windows of 9 KiB (9 bindings each), the layer below in two, the
    // windows' blocks (2,248 words) in pieces of 512 words (a piece is a
    // dispatch: pieces of 64 words made this test 2.7 times as long on
    // lavapipe); layer 3's marks do not fit the bindings (a note of its
    // own).
    let top = 4;
    let game = FoxGeese::new(false, true).unwrap();
    let options = GpuOptions {
        window_bytes: Some(1 << 10),
        piece_words: Some(512),
        ..Default::default()
    };
    assert_streamed_layer_agrees("small-bindings", &game, top, options);
}

#[test]
fn a_streamed_layer_resumes_on_the_cpu_and_the_cpu_s_on_a_streamed_device() {
    let game = FoxGeese::new(false, false).unwrap();
    let top = 4;
    let limit = (table_bytes(&game, top, 2) + table_bytes(&game, top - 1, 2)) / 2;
    let Some(device) = device_with_memory(limit, None) else {
        return;
    };
    assert_resumes_both_ways(&GpuBackend::new(&device), &game, top, "stream-resume");
}

#[test]
fn the_command_line_bounds_the_device_memory() {
    if !gpu::available() {
        return;
    }
    // Layer 3's values take 80 KiB, layer 2's 8 KiB, layer 3's pass
    // marks 80 KiB: at 120K its passes rescan, at 60K they stream, at 8K
    // layer 2 (8 KiB) is refused.
    let args = |backend: &str, memory: Option<&str>| {
        let mut args = vec![
            "retro",
            "fox-geese",
            "--layers",
            "1..3",
            "--json",
            "--backend",
        ];
        args.push(backend);
        if let Some(memory) = memory {
            args.extend(["--device-memory", memory]);
        }
        args.iter().map(|a| a.to_string()).collect::<Vec<_>>()
    };
    let run = |args: Vec<String>| common::command(&args).output().unwrap();
    let layers = |output: &std::process::Output| {
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        json["layers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                (
                    l["states"].clone(),
                    l["won_for_fox"].clone(),
                    l["won_for_geese"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    let on_cpu = layers(&run(args("cpu", None)));
    for (memory, says) in [
        ("120K", "pass marks"),
        ("60K", "stream through it in windows"),
    ] {
        let bounded = run(args("gpu", Some(memory)));
        let stderr = String::from_utf8_lossy(&bounded.stderr);
        assert!(bounded.status.success(), "{stderr}");
        let notes: Vec<&str> = stderr.lines().filter(|l| l.contains(says)).collect();
        let allowed = format!("{}.0 KiB allowed", memory.trim_end_matches('K'));
        assert!(
            notes.len() == 1 && notes[0].contains("fox-geese g=3") && notes[0].contains(&allowed),
            "{memory}: {stderr}"
        );
        assert_eq!(layers(&bounded), on_cpu, "{memory}");
    }
    let refused = run(args("gpu", Some("8K")));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success()
            && stderr
                .lines()
                .last()
                .is_some_and(|l| l.contains("fox-geese g=2") && l.contains("8.0 KiB allowed")),
        "{stderr}"
    );
}

#[test]
fn the_command_line_solves_and_benches_on_the_gpu() {
    if !gpu::available() {
        return;
    }
    let layers = |backend: &str| {
        let json = bitsolve_json(&[
            "retro",
            "dodgem",
            "--n",
            "4",
            "--backend",
            backend,
            "--json",
        ]);
        let rows = json["layers"].as_array().unwrap().clone();
        // The device's set-up in phases of its own, taken out of `setup`
        // (never below zero); none on the host.
        for row in &rows {
            let phase = |name: &str| row["phases"][name].as_f64().unwrap();
            assert!(phase("setup") >= 0.0, "{row}");
            if backend == "gpu" {
                assert!(phase("kernels") > 0.0 && phase("upload") > 0.0, "{row}");
            } else {
                assert_eq!((phase("kernels"), phase("upload")), (0.0, 0.0), "{row}");
            }
        }
        let counts: Vec<_> = rows
            .iter()
            .map(|r| {
                (
                    r["won_for_blue"].clone(),
                    r["won_for_red"].clone(),
                    r["draws"].clone(),
                )
            })
            .collect();
        (json["backend"].clone(), counts)
    };
    let (gpu_backend, on_gpu) = layers("gpu");
    let (_, on_cpu) = layers("cpu");
    assert_eq!(gpu_backend, "gpu");
    assert!(
        on_cpu
            .iter()
            .all(|(blue, red, draws)| blue.is_u64() && red.is_u64() && draws.is_u64())
    );
    assert_eq!(on_gpu, on_cpu);
    let bench = bitsolve_json(&words("bench --algo retro fox-geese --layers 2..3 --json"));
    assert_eq!(bench["identical_values"], true);
    let backends: Vec<_> = bench["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|run| run["backend"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(backends, ["cpu", "cpu", "gpu"]);
    // Pass 0's share of each run's passes.
    for run in bench["runs"].as_array().unwrap() {
        let first = run["first_pass_seconds"].as_f64().unwrap();
        let passes = run["phases"]["passes"].as_f64().unwrap();
        assert!(first > 0.0 && first <= passes, "{run}");
    }
}

#[test]
fn small_windows_pieces_and_grids_give_the_same_values() {
    // 8 KiB windows: the tables of FG layer 3 (80 KiB of values, 80 KiB of
    // marks) and Dodgem 4 layer 6 span 23 and 28 bindings (lavapipe allows
    // 32), blocks are cut into pieces of 64 words, and dispatches of more
    // than 4 workgroups use 2-D grids.
    let Some(device) = device_in_pieces(8 << 10, 64, 4) else {
        return;
    };
    for symmetry in [false, true] {
        let game = FoxGeese::new(false, symmetry).unwrap();
        assert_backends_agree(&device, &game, 3, &format!("small-fg-{symmetry}"));
    }
    let game = Dodgem::new(4).unwrap();
    assert_backends_agree(&device, &game, 6, "small-dodgem");
}

/// The game and query of `file` under data/positional.
fn pg_file(file: &str) -> (PositionalGame, Query) {
    let path = format!("{}/data/positional/{file}", common::ROOT);
    pg::parse(&std::fs::read_to_string(&path).unwrap(), &path).unwrap()
}

/// Positional games whose layers the GPU tests cover: tic-tac-toe both
/// ways, Hex by its connection goal, Hein puzzles with fixed stones,
/// Harary's tippy animal, a torus board whose first move is restricted and
/// whose turns are not alternate (White moves first).
fn positional_queries() -> Vec<(String, PositionalGame, Query)> {
    let mut queries = vec![
        (
            "ttt maker-maker".to_string(),
            tic_tac_toe(3, 3, 3, true).unwrap(),
            Query::alternating(9),
        ),
        (
            "ttt maker-breaker".to_string(),
            tic_tac_toe(3, 3, 3, false).unwrap(),
            Query::alternating(7),
        ),
        (
            "hex 3x3".to_string(),
            hex(3, false).unwrap(),
            Query::alternating(5),
        ),
        (
            "harary tippy 4x4".to_string(),
            harary(4, "tippy", false, true).unwrap(),
            Query::alternating(5),
        ),
    ];
    for file in [
        "hex-hein/hein_04_3x3-05.pg",
        "hex-hein/hein_09_4x4-05.pg",
        "gttt-3x3/gttt_1_1_0010_3x3_torus_w.pg",
    ] {
        let (game, query) = pg_file(file);
        queries.push((file.to_string(), game, query));
    }
    queries
}

#[test]
fn positional_rules_on_the_device_are_the_rust_rules() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for (name, game, query) in positional_queries() {
        let layers = QueryLayers::new(&game, &query).unwrap();
        for layer in 0..=layers.top() {
            eprintln!("{name} layer {layer}");
            assert_rules_agree(&device, &layers, layer, &ranks_of(&layers, layer, 1));
        }
    }
}

/// Larger boards, where the rules loop over hundreds of sets and 25 to
/// 36 cells a position (lavapipe's loop limiter, src/kernel.rs, would
/// lose moves silently if a judging invocation looped too long): every
/// word of a 5×5 Hein puzzle at depth 9 and a 6×6 one at depth 7.
#[test]
#[ignore = "minutes on lavapipe"]
fn positional_values_on_larger_boards_are_the_cpu_values() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for file in [
        "hex-hein/hein_08_5x5-09.pg",
        "hex-hein-6x6/hein_17_6x6-07.pg",
    ] {
        let (game, query) = pg_file(file);
        let layers = QueryLayers::new(&game, &query).unwrap();
        assert_backends_agree(&device, &layers, layers.top(), &file.replace('/', "-"));
    }
}

#[test]
fn positional_values_are_the_cpu_values() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    // Every table, word for word (`qbf check --backend gpu` is tested
    // through the command line).
    for (name, game, query) in positional_queries() {
        let layers = QueryLayers::new(&game, &query).unwrap();
        assert_backends_agree(
            &device,
            &layers,
            layers.top(),
            &name.replace(['/', ' '], "-"),
        );
    }
}
