#!/usr/bin/env bash
# The device check: the README's GPU figures from one prepared run.
#
#   scripts/device-check.sh [--bin PATH] [--out DIR] [--only WORDS] [--list]
#   scripts/device-check.sh --small        # toy sizes, lavapipe (CI)
#
# Runs from a copy of the repository (data/ is read) with a prebuilt
# release binary (--bin; default target/release/bitsolve, or $BITSOLVE),
# on a machine with a Vulkan GPU and, for figures comparable with the
# README's, 16 CPU threads; it needs no network. What it needs there:
# python3 (standard library only) and the Vulkan loader (libvulkan.so.1)
# with the GPU driver's ICD; without them it says so and stops. The full
# check solves the whole Morabaraba and Nine Men's Morris on the GPU alone
# (every count compared with data/reference/, the start's value asked of
# the store; --work DIR keeps the stores, so a run cut short resumes) and
# Lasker Morris with four stones a side (against the CPU's run), then
# runs the GPU table's benches (all CPU threads against the GPU).
# The benches took about four minutes on a 16-thread host with an H200,
# the whole Morabaraba 236 s there; the whole Nine Men's Morris is not
# timed yet (its moving phase took 73 s). It prints one markdown table, and with
# --out DIR writes device-check.md, device-check.json (every step's
# figures, written after each step) and device-check.log (the runs'
# stderr) there. Exit status 0 only when every step ran and agreed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

small=0
have_bin=0
listing=0
for argument in "$@"; do
  case "$argument" in
    --small) small=1 ;;
    --bin | --bin=*) have_bin=1 ;;
    --list) have_bin=1 listing=1 ;;
  esac
done

if ! command -v python3 >/dev/null; then
  echo "device-check: python3 is needed (its standard library only)" >&2
  exit 2
fi
# The loader cache read whole first: `grep -q` quitting early would end
# ldconfig with SIGPIPE, which pipefail reports as a failure.
loaders="$( (ldconfig -p || /sbin/ldconfig -p) 2>/dev/null || true)"
if [[ "$loaders" != *libvulkan.so.1* ]]; then
  echo "device-check: no Vulkan loader (libvulkan.so.1): install libvulkan1 (Debian/Ubuntu), or unpack its .deb and run ldconfig" >&2
  exit 2
fi

extra=()
if [ "$have_bin" -eq 0 ]; then
  binary="${BITSOLVE:-$root/target/release/bitsolve}"
  if [ ! -x "$binary" ]; then
    echo "device-check: no binary at $binary: build one (cargo build --release -p bitsolve-cli) or give --bin PATH" >&2
    exit 2
  fi
  extra=(--bin "$binary")
fi
if [ "$small" -eq 0 ] && [ "$listing" -eq 0 ] && [ "$(nproc)" -lt 16 ]; then
  echo "device-check: $(nproc) CPU threads here; the README's GPU table was measured against 16" >&2
fi
exec python3 "$root/scripts/device_check.py" "${extra[@]}" "$@"
