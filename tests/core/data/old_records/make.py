"""Make the old-records fixtures: a tournament's results.jsonl and report.json, a match's results
with its SPRT report (as ``match --json`` prints it) and the history.jsonl of three learners'
tiny runs, all written while records were plain dicts.

Run once with the code of the commit before the typed records (core/recordtypes.py) landed, from
the repository root: ``python tests/core/data/old_records/make.py``. The fixtures prove that the
typed records read them and write them back byte for byte (tests/core/test_record_types.py). Not
part of the test suite; kept for provenance.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3]))

from mindgames.play.match import match_plan, run_match  # noqa: E402
from mindgames.play.sprt import Sprt  # noqa: E402
from mindgames.play.tournament import TournamentConfig, plan, run_tournament  # noqa: E402
from mindgames.registry import get_registry  # noqa: E402
from mindgames.training import run  # noqa: E402

GAME = "kalah:pits=3,seeds=2"
EVAL = '[eval]\nmodel = "mlp"\nencoding = "kalah14"\nhidden = [4]\n'
LEARNERS = {
    "td": 'name = "td"\ngames = 6\nbatch = 2\ncheckpoint_every = 2\nalpha = 0.1\nepsilon = 0.2\n',
    "coevolution": 'name = "coevolution"\ngenerations = 2\nparents = 3\ngames = 2\n'
    'search = "alphabeta:depth=2"\n',
    "shg": 'name = "shg"\ngenerations = 2\nsteps = 2\npopulation = 4\ntournament = 2\n'
    'search = "alphabeta:depth=1"\n',
}


def main() -> None:
    registry = get_registry()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        config = TournamentConfig(
            game="kalah:pits=4,seeds=3",
            agents={"random": "random", "ab1": "alphabeta:depth=1,eval=material",
                    "ab2": "alphabeta:depth=2,eval=material"},
            openings="random:plies=2,count=2",
            seed=5,
            anchor="random",
        )  # fmt: skip
        run_tournament(plan(config, registry), work / "t", workers=1)
        for name in ("results.jsonl", "report.json"):
            shutil.copy(work / "t" / name, HERE / f"tournament-{name}")
        match = match_plan(registry, "kalah:pits=4,seeds=3", "alphabeta:depth=2,eval=material",
                           "random", games=40, seed=2)  # fmt: skip
        sprt = Sprt(elo0=0.0, elo1=200.0, alpha=0.05, beta=0.05)
        outcome = run_match(match, work / "m.jsonl", sprt=sprt, workers=1)
        shutil.copy(work / "m.jsonl", HERE / "match-results.jsonl")
        (HERE / "match-report.json").write_text(json.dumps(outcome.report) + "\n")
        for learner, options in LEARNERS.items():
            toml = work / f"{learner}.toml"
            toml.write_text(f'game = "{GAME}"\nseed = 3\n\n{EVAL}\n[learner]\n{options}')
            done = run(toml, out=work / learner)
            shutil.copy(done.directory / "history.jsonl", HERE / f"{learner}-history.jsonl")


if __name__ == "__main__":
    main()
