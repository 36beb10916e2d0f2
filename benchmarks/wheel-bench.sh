#!/usr/bin/env bash
# The bench as a user who installs gameshelf runs it: build the sdist, build from it a compiled
# platform wheel (HATCH_BUILD_HOOK_ENABLE_MYPYC=1), install that wheel with the rl extra
# (OpenSpiel, for the C++ reference rows) into a fresh virtual environment outside the
# checkout, and run `gameshelf bench` there twice: the compiled engines, then the pure Python
# fallback of the same install (GAMESHELF_PURE=1). Arguments go to both bench runs; the
# default is Axiom's playout rows against C++ chess.
#   benchmarks/wheel-bench.sh                        (Axiom vs chess, --quick)
#   benchmarks/wheel-bench.sh --json wheel.json      (the full bench; *.json gets -compiled /
#                                                     -pure before its suffix)
# Builds run in .venv (its dev extra holds build, hatchling, hatch-mypyc and the pinned mypy);
# the install uses constraints.txt. The temp dir goes away at the end (GAMESHELF_BENCH_KEEP=1
# keeps it).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=$root/.venv/bin/python
work=$(mktemp -d "${TMPDIR:-/tmp}/gameshelf-wheel-bench.XXXXXX")
cleanup() { [ -n "${GAMESHELF_BENCH_KEEP:-}" ] || rm -rf "$work"; }
trap cleanup EXIT
say() { echo "wheel-bench: $*" >&2; }

args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--quick --only "playout/ours/axiom,openspiel/chess")

say "building the sdist and a compiled wheel from it in $work (a few minutes)"
"$python" -m build --sdist --no-isolation --outdir "$work/dist" . >"$work/build.log" 2>&1
mkdir "$work/unpacked"
tar -xzf "$work"/dist/gameshelf-*.tar.gz -C "$work/unpacked"
(cd "$work"/unpacked/gameshelf-* && HATCH_BUILD_HOOK_ENABLE_MYPYC=1 "$python" -m build --wheel \
  --no-isolation --outdir "$work/wheel" .) >>"$work/build.log" 2>&1 \
  || { tail -n 30 "$work/build.log" >&2; exit 1; }
wheel=$(ls "$work"/wheel/*.whl)
case "$wheel" in
  *-cp3*.whl) ;;
  *) say "expected a compiled (cp3*) wheel, got $wheel" && exit 1 ;;
esac

say "installing $(basename "$wheel")[rl] into a fresh venv"
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  -c "$root/constraints.txt" "$wheel[rl]"

# Run outside the checkout, so that only the installed package can answer.
mkdir "$work/run"
cd "$work/run"
"$work/venv/bin/python" -c 'import gameshelf; print("wheel-bench: gameshelf from", gameshelf.__file__)' >&2

# with_engine ENGINE: the arguments, with --json/--png paths suffixed by the engine.
with_engine() {
  local engine=$1 arg next=""
  for arg in "${args[@]}"; do
    if [ -n "$next" ]; then
      case "$arg" in
        /*) ;;
        *) arg=$root/$arg ;;
      esac
      arg=${arg%.*}-$engine.${arg##*.}
      next=""
    else
      case "$arg" in --json | --png) next=1 ;; esac
    fi
    printf '%s\0' "$arg"
  done
}

for engine in compiled pure; do
  say "gameshelf bench, $engine engines"
  mapfile -d '' run_args < <(with_engine "$engine")
  if [ "$engine" = pure ]; then
    GAMESHELF_PURE=1 "$work/venv/bin/gameshelf" bench "${run_args[@]}"
  else
    "$work/venv/bin/gameshelf" bench "${run_args[@]}"
  fi
done
