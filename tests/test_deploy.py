"""The deployment kit in deploy/: the systemd unit passes ``systemd-analyze verify``, the
Dockerfile builds where a docker daemon answers, and each runs the same ``bgrid serve`` the
proxy tests run (tests/test_deploy_proxies.py drives a browser through the nginx site and the
Caddyfile)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bgrid.cli import cli

REPO = Path(__file__).resolve().parents[1]
DEPLOY = REPO / "deploy"
BGRID = str(Path(sys.executable).with_name("bgrid"))


def unit_exec_start() -> list[str]:
    line = next(line for line in (DEPLOY / "bgrid-league.service").read_text().splitlines()
                if line.startswith("ExecStart="))
    return shlex.split(line.removeprefix("ExecStart="))


def docker_command() -> list[str]:
    line = next(line for line in (DEPLOY / "Dockerfile").read_text().splitlines() if line.startswith("CMD "))
    return json.loads(line.removeprefix("CMD "))


def served_arguments(words: list[str]) -> dict[str, str]:
    """``bgrid serve``'s options in a command line, as click parses them."""
    assert Path(words[0]).name == "bgrid" and words[1] == "serve", words
    context = cli.get_command(None, "serve").make_context("serve", words[2:])  # type: ignore[arg-type]
    return {k: v for k, v in context.params.items() if v is not None}


def test_the_unit_and_the_image_serve_behind_one_trusted_proxy():
    unit, image = served_arguments(unit_exec_start()), served_arguments(docker_command())
    assert unit["proxies"] == image["proxies"] == 1
    assert unit["host"] == "127.0.0.1"  # the proxy on the same machine reaches it; nobody else
    assert image["host"] == "0.0.0.0"  # inside its container; published on the host's 127.0.0.1 only
    assert unit["port"] == image["port"] == 8000
    assert "-p 127.0.0.1:8000:8000" in (DEPLOY / "Dockerfile").read_text()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze on this machine")
def test_the_systemd_unit_passes_systemd_analyze_verify(tmp_path):
    """The unit as shipped, with ExecStart pointing at this checkout's bgrid (verify checks that
    the program exists): no warning at all, so a misspelt key (systemd ignores it) fails too."""
    text = (DEPLOY / "bgrid-league.service").read_text()
    words = unit_exec_start()
    unit = tmp_path / "bgrid-league.service"
    unit.write_text(text.replace(words[0], BGRID))
    checked = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                             timeout=60)
    assert checked.returncode == 0 and checked.stderr.strip() == "", checked.stderr
    settings = dict(re.findall(r"^(\w+)=(.*)$", text, re.M))
    assert settings["Restart"] == "on-failure" and settings["KillSignal"] == "SIGTERM"
    assert settings["PrivateTmp"] == "yes"
    # the stop waits for the requests in flight (bgrid.web.serving.GRACEFUL_SECONDS) and a little more
    from bgrid.web.serving import GRACEFUL_SECONDS

    assert int(settings["TimeoutStopSec"]) > GRACEFUL_SECONDS


def _docker_answers() -> str | None:
    """Why docker cannot build here, or None when its daemon answers."""
    if shutil.which("docker") is None:
        return "no docker on this machine"
    try:
        info = subprocess.run(["docker", "info", "--format", "{{.ServerVersion}}"], capture_output=True,
                              text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return "the docker daemon did not answer within 30 s"
    if info.returncode != 0 or not info.stdout.strip():
        return f"the docker daemon is not reachable ({(info.stderr.strip() or 'no answer').splitlines()[-1]})"
    return _base_image_missing()


def _base_image_missing() -> str | None:
    """Why the Dockerfile's base image cannot be had here, or None: a daemon that answers on a
    machine that reaches no image registry fails at FROM, which says nothing of the kit."""
    line = next(line for line in (DEPLOY / "Dockerfile").read_text().splitlines() if line.startswith("FROM "))
    base = line.split()[1]
    if subprocess.run(["docker", "image", "inspect", base], capture_output=True, timeout=60).returncode == 0:
        return None
    try:
        pulled = subprocess.run(["docker", "pull", "-q", base], capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return f"the base image {base} could not be pulled within 600 s"
    if pulled.returncode != 0:
        said = (pulled.stderr.strip() or "no answer").splitlines()[-1]
        return f"the base image {base} cannot be pulled here ({said})"
    return None


def test_the_dockerfile_builds_an_image_running_that_command():
    why = _docker_answers()
    if why is not None:
        pytest.skip(why)
    tag = "bgrid-league-test"
    built = subprocess.run(["docker", "build", "-q", "-f", str(DEPLOY / "Dockerfile"), "-t", tag, str(REPO)],
                           capture_output=True, text=True, timeout=1200)
    assert built.returncode == 0, built.stderr[-2000:]
    try:
        inspected = json.loads(subprocess.run(["docker", "image", "inspect", tag], capture_output=True,
                                              text=True, check=True).stdout)[0]["Config"]
        assert inspected["Cmd"] == docker_command()
        assert inspected["User"] == "bgrid" and "/league" in inspected["Volumes"]
        assert "healthz" in " ".join(inspected["Healthcheck"]["Test"])
        version = subprocess.run(["docker", "run", "--rm", tag, "bgrid", "--version"], capture_output=True,
                                 text=True, timeout=120)
        assert version.returncode == 0, version.stderr
    finally:
        subprocess.run(["docker", "image", "rm", "-f", tag], capture_output=True, timeout=120)
