#!/usr/bin/env bash
# The project's test command: installs what the tests need on a fresh
# machine, then checks formatting, lints and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages the tests need beyond the Rust toolchain: DepQBF, the
# QBF solver the encodings are checked with, and Mesa's software Vulkan
# driver (lavapipe) with the Vulkan loader, on which the GPU kernels are
# tested where there is no GPU; Open MPI (with libclang for the MPI
# binding's bindgen), for the distributed BFS of `--features mpi`;
# Chromium and its WebDriver, in which tests/serve.rs drives the explorer
# page of `bitsolve serve`; Python's venv module, in which the Python
# package (python/) is built and tested. As root on a fresh machine they
# are installed through apt.
packages=(depqbf mesa-vulkan-drivers libvulkan1 libopenmpi-dev openmpi-bin libclang-dev chromium chromium-driver python3-venv)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "scripts/test.sh: missing packages ${missing[*]} (run as root to install them)" >&2
    exit 1
  fi
fi

# The Vulkan loader warns when XDG_RUNTIME_DIR is unset; give it a private one.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR="$(mktemp -d)"
  chmod 700 "$XDG_RUNTIME_DIR"
  export XDG_RUNTIME_DIR
fi

cargo fmt --all -- --check
# The default build has no MPI; the tests run with it (tests/mpi.rs starts
# jobs with mpirun), so both builds are linted.
cargo clippy --all-targets --locked -- -D warnings
cargo clippy --all-targets --locked --features mpi -- -D warnings
cargo test --locked --features mpi
# The fuzz groups once more, for a bounded time with a seed from the commit:
# the run above repeats the suite's fixed inputs, this one keeps looking.
scripts/fuzz.sh --seconds 8
# The manual's plots are what scripts/plots.py draws from their data.
python3 scripts/plots.py --check
# The library's documentation builds without a warning (broken links
# included); its examples ran as doctests above.
RUSTDOCFLAGS="-D warnings" cargo doc --locked -p bitsolve --no-deps --features mpi,progress-bar
# The public API is the committed listing: a change to it is deliberate.
python3 scripts/public-api.py --check

# The device check (the README's GPU figures, from one prepared run on a
# machine with a GPU) at toy sizes on lavapipe, so that the script itself
# keeps working where no GPU is.
scripts/device-check.sh --small --bin "${CARGO_TARGET_DIR:-target}/debug/bitsolve"

# The Python package: built (one release build of python/, its own crate
# and lock file) into a fresh venv with pip, then its pytest suite, which
# compares every call with the JSON of the CLI the tests above built; pyqbf
# brings a second QBF solver (CAQE), cross-checked there against DepQBF.
(cd python && cargo fmt --all -- --check)
venv="$(mktemp -d)/venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --upgrade pip
# The CI profile (python/Cargo.toml) builds the dependencies at opt-level 1:
# the tests call small searches, and a release build of wgpu took minutes.
MATURIN_PEP517_ARGS="--profile ci" "$venv/bin/pip" install --quiet ./python numpy pytest pyqbf
target_dir="${CARGO_TARGET_DIR:-target}"
case "$target_dir" in /*) ;; *) target_dir="$PWD/$target_dir" ;; esac
BITSOLVE_CLI="$target_dir/debug/bitsolve" BITSOLVE_REQUIRE_CLI=1 \
  "$venv/bin/python" -m pytest -q python/tests
