"""``bgrid map``: print a seeded map and its challenge code."""

from __future__ import annotations

import json

import click

from .generator.map_text import ascii_board, mission_json, mission_summary
from .options import mission_options, pick_mission


@click.command("map")
@mission_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the board.")
def map_command(seed: str | None, code: str | None, difficulty: str | None, ridges: int | None,
                as_json: bool) -> None:
    """Show a seeded map (M mountain, B bunker, A artillery) and its challenge code.

    \b
    Examples:
      bgrid map --seed 1944
      bgrid map --seed 7 --difficulty hard --ridges 3
      bgrid map --code 0M00-0001-WR3 --json
    """
    mission = pick_mission(seed, code, difficulty, ridges)
    if as_json:
        click.echo(json.dumps(mission_json(mission), indent=2))
    else:
        click.echo(mission_summary(mission))
        click.echo()
        click.echo(ascii_board(mission))
