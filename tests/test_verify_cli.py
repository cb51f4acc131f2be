"""``bgrid verify``: exit codes, JSON fields, directories, stdin, the summary, the HTML report."""

from __future__ import annotations

import json

from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.verifier.verify import verify_log

BAD_CARD = "bgrid-log: 1\nseed: 1944\nturn 1\nenter 1H\n"


def run(args, stdin=None):
    return CliRunner().invoke(cli, args, input=stdin)


def test_help_has_an_example():
    result = run(["verify", "--help"])
    assert result.exit_code == 0 and "bgrid verify mission.log" in result.output


def test_a_missing_file_is_exit_2_with_one_line():
    result = run(["verify", "/no/such/file.log"])
    assert result.exit_code == 2
    assert "cannot read" in result.output and "Traceback" not in result.output


def test_no_log_given_is_misuse():
    assert run(["verify"]).exit_code == 2


def test_an_invalid_log_is_exit_1_and_json_names_line_column_code_rule(tmp_path):
    path = tmp_path / "bad.log"
    path.write_text(BAD_CARD)
    result = run(["verify", str(path), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["verdict"] == "invalid" and data["score"] is None and len(data["verification_id"]) == 16
    err = data["errors"][0]
    assert (err["line"], err["column"], err["code"], err["rule"]) == (4, 7, "E101", "log-format: Lexical")


def test_stdin_and_a_directory(tmp_path):
    (tmp_path / "a.log").write_text(BAD_CARD)
    (tmp_path / "b.txt").write_text(BAD_CARD.replace("1H", "ZZ"))
    (tmp_path / "ignored.md").write_text("not a log")
    result = run(["verify", str(tmp_path), "-", "--json"], stdin=BAD_CARD)
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert [d["source"].rsplit("/", 1)[-1] for d in data["logs"]] == ["a.log", "b.txt", "<stdin>"]
    assert data["summary"] == {"valid": 0, "invalid": 3, "incomplete": 0, "unreadable": 0, "skipped": 0}


def test_an_empty_directory_is_misuse(tmp_path):
    assert run(["verify", str(tmp_path)]).exit_code == 2


def test_text_summary_table_for_several_logs(tmp_path):
    (tmp_path / "a.log").write_text(BAD_CARD)
    (tmp_path / "b.log").write_text(BAD_CARD)
    result = run(["verify", str(tmp_path)])
    assert result.exit_code == 1
    assert "invalid         2" in result.output and "total           2" in result.output


def test_html_report_is_written_whole_and_escaped(tmp_path):
    path = tmp_path / "x.log"
    path.write_text("bgrid-log: 1\nseed: 1944\nturn 1\nenter <script>\n")
    out = tmp_path / "report.html"
    result = run(["verify", str(path), "--html", str(out)])
    assert result.exit_code == 1
    html = out.read_text()
    # autoescaped, never run; one script: the page's stepper
    assert html.count("<script>") == 1 and "&lt;script&gt;" in html
    assert "E101" in html and html.rstrip().endswith("</html>")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".bgrid-")] == []


def test_verification_id_ignores_formatting_and_sees_edits():
    plain = ("bgrid-log: 1\nseed: 1944\nclaim: victory 9\n"
             "turn 1\nenter 7H\ndraw 2S 9H KD QH 5C\nmove 5C FFLF\n")
    sloppy = ("\ufeffBGRID-LOG: 1\r\n# my game\r\nSeed:1944\r\nclaim:  Victory 9\r\n\r\nTURN 1\r\n"
              "enter 7\u2665\ufe0f\r\ndraw 2s 9h kd qh 5c   # refill\r\nmove 5C FF LF\r\n")
    ids = {verify_log(plain).verification_id, verify_log(sloppy.encode()).verification_id}
    assert len(ids) == 1
    for edited in (plain.replace("FFLF", "FFRF"), plain.replace("victory 9", "victory 8"),
                   plain.replace("enter 7H\n", "enter 8H\n"), plain.replace("seed: 1944", "seed: 1945"),
                   plain.replace("move 5C FFLF\n", "")):
        assert verify_log(edited).verification_id not in ids


def test_an_unwritable_report_is_exit_2_without_traceback(tmp_path):
    path = tmp_path / "bad.log"
    path.write_text(BAD_CARD)
    result = run(["verify", str(path), "--html", str(tmp_path / "no" / "such" / "dir" / "r.html")])
    assert result.exit_code == 2 and "cannot write the report" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_log_over_the_size_cap_from_stdin_is_refused_cleanly():
    result = run(["verify", "-", "--json"], stdin="#" * (2 << 20))
    assert result.exit_code == 1 and json.loads(result.output)["errors"][0]["code"] == "E001"


def test_json_lists_the_unreadable_inputs(tmp_path):
    (tmp_path / "a.log").write_text(BAD_CARD)
    result = run(["verify", str(tmp_path / "a.log"), str(tmp_path / "missing.log"), "--json"])
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["summary"]["unreadable"] == 1 and "missing.log" in data["unreadable"][0]


def test_the_corpus_folder_summary_matches_the_stored_verdicts():
    from pathlib import Path

    logs = Path(__file__).parent / "logs"
    expected = json.loads((logs / "expected.json").read_text())
    want = {k: sum(1 for n, e in expected.items() if n.startswith("corpus/") and e["verdict"] == k)
            for k in ("valid", "invalid", "incomplete")}
    result = run(["verify", str(logs / "corpus"), "--json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["summary"] == dict(want, unreadable=0, skipped=0)


def test_simulate_write_logs_gives_logs_that_verify_with_the_same_scores(tmp_path):
    sim = run(["simulate", "--seed", "1944", "--games", "8", "--sim-seed", "2", "--json",
               "--write-logs", str(tmp_path / "logs")])
    assert sim.exit_code == 0, sim.output
    mean = json.loads(sim.stdout)["mean_score"]
    result = run(["verify", str(tmp_path / "logs"), "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["summary"]["valid"] == 8
    assert round(sum(d["score"] for d in data["logs"]) / 8, 3) == mean
