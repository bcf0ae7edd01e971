#!/bin/sh
# The showcase: on Kalah(6,4), every learner that trains both a linear and an MLP evaluator there
# (TD(lambda) self-play and coevolution) trains each at about equal CPU (6.7-8.2 s each on the
# compiled path; each config's comment says how its budget was set), then one round robin ranks
# the four nets and the baselines, and the plot draws the crosstable and the standings with
# their intervals. Run from the repository's root:  sh examples/showcase/run.sh [BIN]
# Results: docs/results.md, "The showcase".
set -eu
BIN=${1:-.venv/bin}
OUT=runs/showcase
for learner in td coevolution; do
    for model in linear mlp; do
        "$BIN/mindgames" train "examples/showcase/$learner-$model.toml" --out "$OUT/$learner-$model" --quiet
    done
done
"$BIN/mindgames" tournament examples/showcase/tournament.toml --out "$OUT/tournament" --seed 1
"$BIN/mindgames" plot "$OUT/tournament" --out "$OUT/tournament/plot.png"
echo "crosstable and standings: $OUT/tournament/report.md; plot: $OUT/tournament/plot.png"
