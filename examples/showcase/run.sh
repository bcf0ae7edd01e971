#!/bin/sh
# The showcase: on Kalah(6,4), every learner that trains both a linear and an MLP evaluator there
# (TD(lambda) self-play, coevolution, supervised on solved late positions, Layered Learning)
# trains each at about equal CPU (6.7-9.5 s each on the compiled path, supervised's data
# counted against each of its nets; each config's comment says how its budget was set), then one
# round robin ranks the eight nets and the baselines, and the plot draws the crosstable and the
# standings with their intervals. Run from the repository's root:  sh examples/showcase/run.sh [BIN]
# Results: docs/results.md, "The showcase".
set -eu
BIN=${1:-.venv/bin}
OUT=runs/showcase
# supervised's data: 100 late positions of random games with their successors, solved exactly
"$BIN/mindgames" data generate kalah:pits=6,seeds=4 --plies 0-200 --max-pieces 18 --successors \
    --count 100 --seed 1 -o "$OUT/kalah-late.npz"
"$BIN/mindgames" data solve "$OUT/kalah-late.npz" --squash linear --scale 48 --workers 1 \
    -o "$OUT/kalah-late-solved.npz"
for learner in td coevolution supervised layered; do
    for model in linear mlp; do
        "$BIN/mindgames" train "examples/showcase/$learner-$model.toml" --out "$OUT/$learner-$model" --quiet
    done
done
"$BIN/mindgames" tournament examples/showcase/tournament.toml --out "$OUT/tournament" --seed 1
"$BIN/mindgames" plot "$OUT/tournament" --out "$OUT/tournament/plot.png"
echo "crosstable and standings: $OUT/tournament/report.md; plot: $OUT/tournament/plot.png"
