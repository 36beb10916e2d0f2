#!/usr/bin/env bash
# Check what a user installs, from outside the checkout: build the sdist, unpack it in a temp
# dir, build from it a pure wheel and a compiled one (HATCH_BUILD_HOOK_ENABLE_MYPYC=1), install
# each with the server extra into a fresh venv, and from a temp dir check that
# - `gameshelf games` lists axia, axiom and cage, and the engine is compiled or pure as built;
# - `gameshelf serve` serves the browser table (/) and the JS asset it loads;
# - a bot-against-bot game of each game plays to the end.
# Builds run in .venv (the dev extra holds build, hatchling, hatch-mypyc and the pinned mypy);
# installs use constraints.txt. Every step has a time limit; temp dirs and the server go away
# at the end (GAMESHELF_SMOKE_KEEP=1 keeps the temp dir, to look into a failure). One line per
# step, a summary, and a non-zero status if anything failed.
#   scripts/package-smoke.sh            (scripts/test.sh runs it before pytest)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=$root/.venv/bin/python
started=$SECONDS
work=$(mktemp -d "${TMPDIR:-/tmp}/gameshelf-smoke.XXXXXX")
server=""
failures=()

cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null
    wait "$server" 2>/dev/null
  fi
  [ -n "${GAMESHELF_SMOKE_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

say() { echo "package-smoke: $*"; }

# check NAME COMMAND...: run COMMAND, its output kept in $work/last.log; one line either way.
check() {
  local name=$1
  shift
  if "$@" >"$work/last.log" 2>&1; then
    say "ok   $name"
  else
    say "FAIL $name:"
    tail -n 40 "$work/last.log" | sed 's/^/    /'
    failures+=("$name")
    return 1
  fi
}

build_sdist() {
  timeout 300 "$python" -m build --sdist --no-isolation --outdir "$work/dist" . \
    && mkdir "$work/unpacked" \
    && tar -xzf "$work"/dist/gameshelf-*.tar.gz -C "$work/unpacked"
}

# build_wheel KIND: from the unpacked sdist; the pure wheel first, while no mypyc output lies
# in that tree (git-ignored, it would stay out of the wheel anyway).
build_wheel() {
  local kind=$1 enable=""
  [ "$kind" = compiled ] && enable=1
  (cd "$work"/unpacked/gameshelf-* \
    && HATCH_BUILD_HOOK_ENABLE_MYPYC=$enable timeout 600 "$python" -m build --wheel \
      --no-isolation --outdir "$work/$kind" .) || return 1
  local wheel
  wheel=$(ls "$work/$kind"/*.whl) || return 1
  case "$kind:$wheel" in
    pure:*-py3-none-any.whl | compiled:*-cp3*.whl) ;;
    *) echo "unexpected wheel for $kind: $wheel" && return 1 ;;
  esac
}

install_wheel() {
  local kind=$1
  timeout 120 "$python" -m venv "$work/venv-$kind" \
    && timeout 600 "$work/venv-$kind/bin/python" -m pip install --quiet \
      --disable-pip-version-check -c "$root/constraints.txt" "$(ls "$work/$kind"/*.whl)[server]"
}

# The installed package, not the checkout, answers (the run dir is outside the checkout).
installed_here() {
  local kind=$1 file
  file=$("$work/venv-$kind/bin/python" -c 'import gameshelf; print(gameshelf.__file__)')
  echo "gameshelf from $file"
  [[ "$file" == "$work/venv-$kind/"* ]]
}

lists_games() {
  local kind=$1 out
  out=$(timeout 60 "$work/venv-$kind/bin/gameshelf" games) || return 1
  for game in axia axiom cage; do
    grep -q "^$game " <<<"$out" || { echo "'gameshelf games' lacks $game" && return 1; }
  done
}

# engine_is KIND: every module of the mypyc hook's list (pyproject.toml) loads from an extension
# file in the compiled install and from its .py in the pure one, and `games --verbose` reports
# the engine of each game to match (compiled where its modules are listed, pure elsewhere).
engine_is() {
  local kind=$1 bin=$work/venv-$1/bin verbose
  verbose=$(timeout 60 "$bin/gameshelf" games --verbose) || return 1
  "$bin/python" - "$kind" "$root/pyproject.toml" "$verbose" <<'EOF'
import importlib
import re
import sys
import tomllib

kind, pyproject, verbose = sys.argv[1:]
with open(pyproject, "rb") as file:
    hooks = tomllib.load(file)["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]
paths = hooks["mypyc"]["include"]
ok = True
for path in paths:
    module = importlib.import_module(path.removeprefix("src/").removesuffix(".py").replace("/", "."))
    print(f"{module.__name__}: {module.__file__}")
    ok &= module.__file__.endswith(".py") == (kind == "pure")
reported = dict(re.findall(r"^(\S+) — [^\n]*\n\s+engine: (\w+)", verbose, re.MULTILINE))
listed = {p.split("/")[3] for p in paths if p.startswith("src/gameshelf/games/")}
wanted = {g: "compiled" if kind == "compiled" and g in listed else "pure" for g in reported}
print(f"games --verbose: {reported}; expected {wanted}")
sys.exit(0 if ok and reported and reported == wanted else 1)
EOF
}

# fetch URL FILE: the body into FILE, the status and content type on stdout.
fetch() {
  "$python" - "$1" "$2" <<'EOF'
import sys
import urllib.error
import urllib.request

try:
    with urllib.request.urlopen(sys.argv[1], timeout=10) as answer:
        body, status, kind = answer.read(), answer.status, answer.headers.get_content_type()
except urllib.error.HTTPError as error:
    body, status, kind = error.read(), error.code, error.headers.get_content_type()
open(sys.argv[2], "wb").write(body)
print(status, kind)
EOF
}

serves_the_table() {
  local kind=$1 port base deadline answer asset
  port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  base=http://127.0.0.1:$port
  "$work/venv-$kind/bin/gameshelf" serve --port "$port" --bot-workers 0 \
    --database-url "sqlite:///$work/run-$kind/db.sqlite3" >"$work/server-$kind.log" 2>&1 &
  server=$!
  deadline=$((SECONDS + 60))
  until answer=$(fetch "$base/healthz" "$work/health" 2>/dev/null) && [ "${answer%% *}" = 200 ]; do
    kill -0 "$server" 2>/dev/null || { cat "$work/server-$kind.log" && return 1; }
    [ $SECONDS -lt $deadline ] || { echo "no answer on $base within 60 s" && return 1; }
    sleep 0.2
  done
  answer=$(fetch "$base/" "$work/index.html") || return 1
  echo "/ -> $answer"
  [ "$answer" = "200 text/html" ] && grep -q '<main id="main"' "$work/index.html" || return 1
  asset=$(grep -o 'src="/assets/[^"]*\.js"' "$work/index.html" | head -n 1 | cut -d'"' -f2)
  [ -n "$asset" ] || { echo "the page names no /assets/*.js" && return 1; }
  answer=$(fetch "$base$asset" "$work/asset.js") || return 1
  echo "$asset -> $answer, $(wc -c <"$work/asset.js") bytes"
  [[ "$answer" == "200 "*javascript ]] && [ "$(wc -c <"$work/asset.js")" -gt 10000 ] \
    && ! grep -q '<html' "$work/asset.js"
}

stop_server() {
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null
  server=""
}

plays() {
  local kind=$1 game=$2 out
  out=$(timeout 120 "$work/venv-$kind/bin/gameshelf" play "$game" --seat 0=greedy \
    --seat 1=random --seed 1 --quiet) || return 1
  echo "$game: $out"
  grep -Eq "wins|draw" <<<"$out"
}

try_wheel() {
  local kind=$1
  check "$kind wheel built from the sdist" build_wheel "$kind" || return
  check "$kind wheel installed in a fresh venv" install_wheel "$kind" || return
  mkdir "$work/run-$kind"
  cd "$work/run-$kind" || return
  check "$kind: the installed package is used" installed_here "$kind"
  check "$kind: gameshelf games lists axia, axiom, cage" lists_games "$kind"
  check "$kind: the engine is $kind" engine_is "$kind"
  check "$kind: gameshelf serve serves / and its JS asset" serves_the_table "$kind"
  stop_server
  for game in axia axiom cage; do
    check "$kind: a bot game of $game plays to the end" plays "$kind" "$game"
  done
  cd "$root" || return
}

say "building in $work"
if check "sdist built and unpacked" build_sdist; then
  try_wheel pure
  try_wheel compiled
fi
elapsed=$((SECONDS - started))
if [ ${#failures[@]} -eq 0 ]; then
  say "all checks passed in ${elapsed} s"
  exit 0
fi
say "${#failures[@]} checks failed in ${elapsed} s: $(IFS=';'; echo "${failures[*]}")"
exit 1
