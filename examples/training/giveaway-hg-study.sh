#!/usr/bin/env bash
# The give-away checkers study of the heuristic generators (Kusiak, Walędzik, Mańdziuk) at a
# reduced scale: the heuristics 8F, 10F, 3Ph and 5Ph (model `phased` over `gac11`), each evolved
# by HG and by SHG, each playing 40 games (20 pairs: the same opening, colours swapped) at
# alpha-beta depth 6 against a TD-trained give-away evaluator at depth 4, as the study did.
#
#   examples/training/giveaway-hg-study.sh [OUT]        (default OUT: runs/giveaway-hg-study)
#
# Steps (each skipped when its result exists, resumed when it was cut short):
#   1. TD:      mindgames train examples/training/giveaway-td.toml     -> OUT/td (~20 CPU s)
#   2. HG, SHG: examples/training/giveaway-{hg,shg}.toml with `preset` set (OUT/configs/)
#                                                                       -> OUT/{hg,shg}-PRESET
#   3. matches: mindgames match A B --game giveaway --games 40 ...      -> OUT/match-*.jsonl
#   4. table:   OUT/table.md (score of each heuristic against TD) and OUT/times.txt (wall,
#               user and system CPU seconds of every step, child processes included).
# Environment: WORKERS (processes, default 2), PRESETS (default "8F 10F 3Ph 5Ph"), LEARNERS
# (default "hg shg"), GAMES (match games, default 40), TINY=1 (a smoke-test scale: a few
# seconds a step, used by tests/plugins/test_hg_study.py). Figures:
# docs/notes/hg-shg-giveaway.md (the whole script: ~570 CPU s, 19 min wall on two shared cores;
# with SHG's games compiled whole since issue 34: 275 CPU s user + 11 s system, 9.6 min wall at
# load 4-8: TD 44 (its compile included), HG 39-43 each, SHG 6-7 each, matches 4-6 each).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-runs/giveaway-hg-study}
workers=${WORKERS:-2}
presets=${PRESETS:-"8F 10F 3Ph 5Ph"}
learners=${LEARNERS:-"hg shg"}
games=${GAMES:-40}
deep=6
shallow=4
max_plies=200
mkdir -p "$out/configs"

# set_key FILE KEY VALUE: replace the line "KEY = ..." of a config (it must have one)
set_key() {
    grep -q "^$2 = " "$1" || { echo "$1: no line '$2 = ...'" >&2; exit 2; }
    sed -i "s|^$2 = .*|$2 = $3|" "$1"
}

# timed NAME COMMAND...: run it, appending "NAME wall user system" to OUT/times.txt
timed() {
    local name=$1
    shift
    /usr/bin/time -f "$name %e %U %S" -a -o "$out/times.txt" "$@"
}

# train CONFIG DIR: train into DIR unless it holds a model; resume a run cut short
train() {
    [ -f "$2/model.npz" ] && return 0
    local resume=()
    [ -f "$2/config.json" ] && resume=(--resume)
    timed "$(basename "$2")" mindgames train "$1" --out "$2" --quiet "${resume[@]}"
}

configure() {  # configure LEARNER PRESET -> the config's path
    local file="$out/configs/$1-$2.toml"
    cp "$here/giveaway-$1.toml" "$file"
    set_key "$file" preset "\"$2\""
    set_key "$file" workers "$workers"
    if [ "$1" = hg ] && { [ "$2" = 8F ] || [ "$2" = 10F ]; }; then
        set_key "$file" reuse false  # linear heuristics: half the boards, none reused
        set_key "$file" boards 500
    fi
    if [ -n "${TINY:-}" ]; then
        if [ "$1" = hg ]; then
            set_key "$file" population 5
            set_key "$file" phases 2
            set_key "$file" generations 1
            set_key "$file" boards 20
            set_key "$file" first_label '"endgame:depth=2"'
            set_key "$file" label '"alphabeta:depth=1"'
        else
            set_key "$file" population 4
            set_key "$file" generations 1
            set_key "$file" search '"alphabeta:depth=1"'
            set_key "$file" max_plies 40
        fi
    fi
    echo "$file"
}

td_config="$out/configs/td.toml"
cp "$here/giveaway-td.toml" "$td_config"
if [ -n "${TINY:-}" ]; then
    set_key "$td_config" games 20
    set_key "$td_config" batch 10
    set_key "$td_config" checkpoint_every 10
    deep=2
    shallow=1
    max_plies=60
fi
train "$td_config" "$out/td"

for learner in $learners; do
    for preset in $presets; do
        config=$(configure "$learner" "$preset")  # an assignment: a failure stops the script
        train "$config" "$out/$learner-$preset"
    done
done

opponent="alphabeta:depth=$shallow,eval=@$out/td/model.npz"
for learner in $learners; do
    for preset in $presets; do
        name="$learner-$preset"
        report="$out/match-$name.json"
        [ -f "$report" ] && continue
        resume=()
        [ -f "$out/match-$name.jsonl" ] && resume=(--resume)
        timed "match-$name" mindgames match "alphabeta:depth=$deep,eval=@$out/$name/model.npz" \
            "$opponent" --game giveaway --games "$games" --seed 1 --workers "$workers" \
            --max-plies "$max_plies" --out "$out/match-$name.jsonl" --json "${resume[@]}" \
            > "$report.tmp"
        mv "$report.tmp" "$report"
    done
done

python3 - "$out" $learners -- $presets <<'PY'
import json, sys
from pathlib import Path

out = Path(sys.argv[1])
cut = sys.argv.index("--")
learners, presets = sys.argv[2:cut], sys.argv[cut + 1:]
lines = ["| heuristic | learner | W-D-L vs TD | score |", "|---|---|---|---|"]
for preset in presets:
    for learner in learners:
        pairing = json.loads((out / f"match-{learner}-{preset}.json").read_text())["pairings"][0]
        w, d, l = pairing["wins"], pairing["draws"], pairing["losses"]
        lines.append(f"| {preset} | {learner.upper()} | {w}-{d}-{l} | {(w + d / 2) / (w + d + l):.3f} |")
(out / "table.md").write_text("\n".join(lines) + "\n")
print("\n".join(lines))
PY
