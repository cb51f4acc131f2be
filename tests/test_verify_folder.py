"""`bgrid verify DIR`: a folder from strangers is read without following symlinks or opening
FIFOs, every matching entry is verified or listed as skipped and counted, names and log
text cannot spoof the terminal or the report, and each log's output is written as it goes."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.challenges.mission import mission_from_seed
from bgrid.challenges.seeding import stream
from bgrid.players.simulated_logs import simulated_log

LOGS = Path(__file__).parent / "logs"
SECRET = "root:$6$a-line-of-the-shadow-file:19000:0:99999:7:::"


def run(args):
    return CliRunner().invoke(cli, args)


def valid_log(k: int = 0) -> str:
    rng = stream("standard-1", f"folder-{k}", 1)
    text, _ = simulated_log(mission_from_seed(1944), rng, challenge_deck=True)
    return text


@pytest.fixture
def hostile(tmp_path):
    """A folder with 2 valid logs and 5 more entries matching *.log that are not files to read."""
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "a.log").write_text(valid_log(0))
    (subs / "b.log").write_text(valid_log(1))
    secret = tmp_path / "shadow"
    secret.write_text(SECRET + "\n")
    (subs / "alice.log").symlink_to(secret)
    (subs / "dangling.log").symlink_to(tmp_path / "nowhere")
    (subs / "loop1.log").symlink_to(subs / "loop2.log")
    (subs / "loop2.log").symlink_to(subs / "loop1.log")
    (subs / "dir.log").mkdir()
    os.mkfifo(subs / "pipe.log")
    (subs / "notes.md").write_text("not matched")
    return subs


SKIPPED = {"alice.log": "a symbolic link", "dangling.log": "a symbolic link", "loop1.log": "a symbolic link",
           "loop2.log": "a symbolic link", "dir.log": "a folder", "pipe.log": "not a regular file"}


def test_a_folder_symlink_is_skipped_not_followed_nor_quoted(hostile, tmp_path):
    report = tmp_path / "r.html"
    result = run(["verify", str(hostile), "--html", str(report)])
    assert "a-line-of-the-shadow-file" not in result.output
    assert "a-line-of-the-shadow-file" not in report.read_text()
    assert f"{hostile / 'alice.log'}: skipped, a symbolic link" in result.output


def test_a_symlink_named_on_the_command_line_is_followed(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text(valid_log())
    (tmp_path / "link.log").symlink_to(target)
    result = run(["verify", str(tmp_path / "link.log")])
    assert result.exit_code == 0 and ": valid, " in result.output


def test_every_matching_entry_is_verified_or_skipped_and_counted(hostile):
    result = run(["verify", str(hostile)])
    assert result.exit_code == 2  # some entries were not read
    out = result.output
    for name, reason in SKIPPED.items():
        assert f"{hostile / name}: skipped, {reason}" in out, name
    table = dict(line.split() for line in out.splitlines()[-5:])
    assert table == {"valid": "2", "invalid": "0", "incomplete": "0", "skipped": "6", "total": "8"}


def test_json_and_the_html_index_count_the_skipped_entries(hostile, tmp_path):
    report = tmp_path / "r.html"
    result = run(["verify", str(hostile), "--json", "--html", str(report)])
    data = json.loads(result.stdout)
    assert data["summary"] == {"valid": 2, "invalid": 0, "incomplete": 0, "unreadable": 0, "skipped": 6}
    assert sorted(line.split(": ")[0].rsplit("/", 1)[1] for line in data["skipped"]) == sorted(SKIPPED)
    html = report.read_text()
    assert html.count('<td class="skipped">skipped<') == 6 and html.count('<td class="valid">valid<') == 2


def test_a_file_name_with_a_newline_and_escapes_cannot_fake_a_line(tmp_path):
    name = "evil.log\n\x1b[32mfake.log: valid, victory (all bunkers destroyed), score 99"
    (tmp_path / f"{name}.log").write_text("bgrid-log: 1\nseed: 1\n\nturn 1\n")
    (tmp_path / "b.log").write_text(valid_log())
    result = run(["verify", str(tmp_path)])
    assert "\x1b" not in result.output
    assert not any(line.startswith(("\x1b[32mfake", "fake.log")) for line in result.output.splitlines())
    assert "evil.log\\u000a\\u001b[32mfake.log" in result.output


def test_a_bidi_override_in_player_is_neutralised_in_terminal_and_report(tmp_path):
    log = valid_log().replace("bgrid-log: 1\n", "bgrid-log: 1\nplayer: \u202eAda 4491 deed\n")
    (tmp_path / "a.log").write_text(log)
    (tmp_path / "b.log").write_text(log)
    for target, args in ((tmp_path / "one.html", [str(tmp_path / "a.log")]),
                         (tmp_path / "all.html", [str(tmp_path)])):
        result = run(["verify", *args, "--json", "--html", str(target)])
        assert "\u202e" not in result.output and "\\u202eAda 4491 deed" in result.output
        assert json.loads(result.stdout)  # the escapes keep it JSON
        html = target.read_text()
        assert "\u202e" not in html and "Ada 4491 deed" in html
    assert "<bdi>Ada 4491 deed</bdi>" in (tmp_path / "all.html").read_text()


def test_a_name_that_is_not_utf8_is_shown_with_a_replacement_character(tmp_path):
    folder = os.fsencode(tmp_path / "subs")
    os.mkdir(folder)
    with open(os.path.join(folder, b"Jos\xe9.log"), "w") as fh:
        fh.write(valid_log())
    report = tmp_path / "r.html"
    result = run(["verify", os.fsdecode(folder), os.fsdecode(folder), "--html", str(report)])
    assert result.exit_code == 0, result.output
    assert "Jos\ufffd.log: valid" in result.output
    assert "Jos\ufffd.log" in report.read_text(encoding="utf-8")


@pytest.mark.pure_python_only("patches a method of the verifier, a compiled class")
def test_each_log_is_printed_before_the_next_is_verified(tmp_path, monkeypatch):
    for k in range(3):
        (tmp_path / f"g{k}.log").write_text(valid_log(k))
    import bgrid.cmd_verify as cmd_verify

    real = cmd_verify._VERIFIER.verify
    printed = []

    def spy(data, source, **options):
        sys.stdout.flush()
        printed.append(sys.stdout.buffer.getvalue().decode())
        return real(data, source=source, **options)

    monkeypatch.setattr(cmd_verify._VERIFIER, "verify", spy)
    assert run(["verify", str(tmp_path)]).exit_code == 0
    assert [text.count(": valid, ") for text in printed] == [0, 1, 2]


def test_the_folder_index_stays_small_per_log(tmp_path):
    corpus = LOGS / "corpus"
    files = sorted(p for p in corpus.iterdir() if p.suffix in (".log", ".txt"))
    report = tmp_path / "r.html"
    run(["verify", str(corpus), "--html", str(report)])
    size = report.stat().st_size
    assert size < 3000 + 2500 * len(files), size  # a row, and a folded error for a bad log


def test_a_log_is_read_to_one_byte_over_the_cap_from_a_folder_a_path_or_a_pipe(tmp_path):
    import contextlib
    import threading

    from bgrid.log.lexer import MAX_BYTES
    from bgrid.verifier.log_inputs import Input, read_input

    small, at_cap, over = b"bgrid-log: 1\n", b"#" * MAX_BYTES, b"#" * (MAX_BYTES + 5)
    for name, data in (("small.log", small), ("at-cap.log", at_cap), ("over.log", over)):
        (tmp_path / name).write_bytes(data)
        want = data[:MAX_BYTES + 1]  # the verifier sees one byte past the cap and says E001
        for in_folder in (True, False):
            assert read_input(Input(str(tmp_path / name), name, in_folder)) == want
    pipe = tmp_path / "pipe.log"
    os.mkfifo(pipe)

    def write() -> None:
        with contextlib.suppress(BrokenPipeError):  # the reader stops at the cap and closes its end
            pipe.write_bytes(over)

    writer = threading.Thread(target=write)
    writer.start()
    assert read_input(Input(str(pipe), "pipe.log", False)) == over[:MAX_BYTES + 1]
    writer.join(timeout=10)
