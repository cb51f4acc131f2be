"""``bgrid simulate``: random-legal playouts of a mission; win rate and score."""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import click

from .options import WholeNumber, log_form_options, mission_options, pick_mission
from .rules.errors import BGridError
from .players.simulation import PLAYERS, simulate
from .players.rating import RATING_PLAYER, Rating, wilson_interval

PROGRESS_FROM = 500  # show a progress bar on stderr from this many games
LOG_BATCH = 500  # --write-logs: logs made durable by one sync, then renamed into place


@click.command("simulate")
@mission_options
@click.option("--games", type=WholeNumber(1, 10_000_000), default=1000, show_default=True,
              metavar="K", help="How many missions to play.")
@click.option("--challenge-deck", is_flag=True,
              help="Play the mission's challenge deck order (R25) instead of a fresh shuffle "
                   "of the player's own deck each game.")
@click.option("--player", type=click.Choice(sorted(PLAYERS)), default="random", show_default=True,
              help="random: uniform over the kinds of legal play (a floor); greedy: bombs when "
                   "over a target, flies toward the nearest bunker, never crashes on purpose "
                   "(with the own deck it also rates the map, 1-5 stars); strong: tries "
                   "greedy's best plays on sampled shuffles of the unseen cards to the end of "
                   "the turn.")
@click.option("--sim-seed", type=WholeNumber(0), default=0, show_default=True,
              metavar="S", help="Seed of the shuffles and the players' dice; game k uses its "
                                "own stream of it (with --challenge-deck, the strong player's "
                                "own sampling seed).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--write-logs", "write_logs", default=None, metavar="DIR",
              help="Also write each game as a mission log (DIR/game-00000.log, …) that "
                   "bgrid verify accepts. DIR must be new or empty, unless --force.")
@log_form_options("--write-logs", body="each body", state_lines_why=", as a player checks the sheet")
@click.option("--force", is_flag=True,
              help="With --write-logs: write into a folder that already holds files; the "
                   "game-*.log files of an earlier run are removed first, so the folder holds "
                   "one run.")
def simulate_command(seed: str | None, code: str | None, difficulty: str | None, ridges: int | None,
                     games: int, challenge_deck: bool, player: str, sim_seed: int, as_json: bool,
                     write_logs: str | None, state_lines: bool, rows: bool, force: bool) -> None:
    """Play a mission many times with a computer player that makes only legal plays, and
    print the win rate, the mean score and the score distribution.

    The players are yardsticks, not targets: they measure how forgiving a map and a deck
    are, not how well a person will do. The random player almost never wins; the greedy one
    plays like a beginner; the strong one looks ahead over sampled shuffles (and, with the
    own deck, rates the map).

    \b
    Examples:
      bgrid simulate --seed 1944
      bgrid simulate --seed 7 --difficulty easy --games 5000 --player greedy
      bgrid simulate --code 0M00-0001-WR3 --challenge-deck --json
      bgrid simulate --seed 1944 --games 50 --write-logs logs/ && bgrid verify logs/
    """
    mission = pick_mission(seed, code, difficulty, ridges)
    if force and write_logs is None:
        raise click.UsageError("--force goes with --write-logs")
    for flag, given in (("--state-lines", state_lines), ("--rows", rows)):
        if given and write_logs is None:
            raise click.UsageError(f"{flag} goes with --write-logs")
    if write_logs is not None:  # the games simulate plays (same seeded streams), as logs, first:
        # written in batches (one sync a batch, not an fsync a log: 13 min of wall time for
        # 100 s of CPU), each log whole under its real name or absent; an interrupted run
        # keeps the batches it finished
        from .safeio.safe_output import write_batch
        from .players.simulated_logs import simulated_logs

        prepare_log_folder(write_logs, force)
        folder = Path(write_logs)
        logs = simulated_logs(mission, games, sim_seed, challenge_deck=challenge_deck,
                              player=PLAYERS[player], state_lines=state_lines, rows=rows)
        write_batch(((folder / name, text) for name, text in logs), "a log", batch=LOG_BATCH)
    # A bar only on a terminal: piped, click would still print its label.
    if games >= PROGRESS_FROM and not as_json and sys.stderr.isatty():
        with click.progressbar(length=games, label="simulating", file=sys.stderr) as bar:
            result = simulate(mission, games, sim_seed, challenge_deck=challenge_deck,
                              player=player, progress=bar.update)
    else:
        result = simulate(mission, games, sim_seed, challenge_deck=challenge_deck, player=player)
    scores = sorted(result.scores)
    median = statistics.median(scores)
    median = int(median) if median == int(median) else median  # -4, not -4.0; -3.5 stays
    summary: dict[str, Any] = {  # the JSON object, and the text's figures
        "code": mission.code,
        "seed": mission.spec.seed,
        "difficulty": mission.spec.difficulty,
        "ridges": mission.spec.ridges,
        "deck": "challenge" if challenge_deck else "own",
        "player": player,
        "games": result.games,
        "distinct_games": result.distinct,
        "wins": result.wins,
        "win_rate": round(result.win_rate, 4),
        "win_rate_ci95": [round(x, 4) for x in wilson_interval(result.wins, result.games)],
        "mean_score": round(result.mean_score, 3),
        "median_score": median,
        "min_score": scores[0],
        "max_score": scores[-1],
        "outcomes": dict(sorted(result.causes.items())),
        "score_counts": {str(k): v for k, v in sorted(Counter(scores).items())},
    }
    # The rating measures the map for a player who does not know the cards: own deck only,
    # with the rating's own player (its star bands are that player's).
    rating = Rating.of(result, player) if player == RATING_PLAYER and not challenge_deck else None
    if rating is not None:
        summary["rating"] = rating.as_dict()
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(f"Mission {summary['code']} (seed {summary['seed']}, {summary['difficulty']}, "
               f"{summary['ridges']} ridge{'s' if summary['ridges'] > 1 else ''}), "
               f"{summary['deck']} deck, {result.games} games by the {player} player")
    click.echo(f"Games       {result.games}, {result.distinct} different (game k's own seeded "
               f"stream sim-k of sim seed {sim_seed})")
    click.echo(f"Win rate    {100 * result.win_rate:.1f}% ({result.wins} of {result.games})")
    click.echo(f"Mean score  {result.mean_score:.2f} (median {summary['median_score']}, "
               f"min {summary['min_score']}, max {summary['max_score']})")
    if rating is not None:
        low, high = rating.interval
        click.echo(f"Rating      {rating.stars} of 5 stars: {rating.mean:.2f} of {rating.bunkers} bunkers "
                   f"destroyed a game (95% interval {low:.2f}–{high:.2f}, stars "
                   f"{rating.star_range[0]}–{rating.star_range[1]})")
    click.echo("Outcomes    " + ", ".join(f"{k} {v}" for k, v in summary["outcomes"].items()))
    click.echo("Scores")
    widest = max(summary["score_counts"].values())
    for value, count in summary["score_counts"].items():
        hashes = "#" * max(1, round(40 * count / widest))
        click.echo(f"  {int(value):>4}  {hashes} {count}")


def prepare_log_folder(folder: str, force: bool) -> None:
    """Create the --write-logs folder, or check that it is empty: logs of two runs in one
    folder would be verified as one batch. With ``force`` an earlier run's logs are removed.

    Raises :class:`BGridError` (exit status 2) naming the folder and the reason."""
    from .safeio.safe_output import make_folder, sweep_temporaries

    if not folder.strip():
        raise BGridError("--write-logs needs a folder name, e.g. --write-logs logs/")
    path = make_folder(folder, "the --write-logs folder")
    sweep_temporaries(path)  # a killed run's: not "files the folder holds"
    try:
        held = sorted(entry.name for entry in os.scandir(path))
        if held and not force:
            raise BGridError(f"--write-logs '{folder}' already holds {len(held)} file"
                             f"{'s' * (len(held) != 1)} ({held[0]}, …); give an empty folder, "
                             "or --force to replace an earlier run's logs")
        for name in held:
            if _GAME_LOG.fullmatch(name) and (path / name).is_file() and not (path / name).is_symlink():
                os.unlink(path / name)
    except OSError as exc:
        raise BGridError(f"--write-logs '{folder}': {exc.strerror or exc}") from None


_GAME_LOG = re.compile(r"game-[0-9]{5,}\.log")
