"""Command-line misuse ends in a message and exit status 2, never a traceback."""

import pytest

from shengji_env.frontends.cli import main

MISUSES = [
    ("arena --agents random", "the arena needs at least two agents"),
    ("arena --agents random nobody --deals 1", "unknown agent 'nobody'"),
    ("arena --agents random greedy --deals -5", "argument --deals: -5 is not >= 1"),
    ("arena --agents random greedy --jobs 0", "argument --jobs: 0 is not >= 1"),
    ("arena --agents random greedy --seed x", "argument --seed: 'x' is not an integer"),
    ("arena --agents random greedy --decks 4", "invalid choice: 4"),
    ("arena --agents random random", "agent specs must differ"),
    ("arena --agents ppo:/nonexistent random", "no policy at '/nonexistent'"),
    ("export /nonexistent --out OUT", "no checkpoint at /nonexistent"),
    ("export models/standalone-v8/config.yaml --out OUT", "corrupt or not a checkpoint"),
    ("bot --model /nonexistent", "holds no manifest.json"),
    ("bot", "give exactly one of --model DIR or --agent SPEC"),
    ("bot --model x --agent y", "give exactly one of --model DIR or --agent SPEC"),
    ("serve --agent heuristic --port 99999", "argument --port: 99999 is not 0..65535"),
    ("serve --agent nobody", "unknown agent 'nobody'"),
    ("play --opponents nobody", "unknown agent 'nobody'"),
    ("play --seat 7", "invalid choice: 7"),
    ("train --config /nonexistent.yaml", "no config file at /nonexistent.yaml"),
    ("train --resume models/standalone-v8/policy.pt", "cannot resume"),
    ("train --max-minutes -1", "-1 is not a positive number of minutes"),
    ("train learning_rate=-1", "learning_rate must be in"),
    ("train --resume /nonexistent.pt", "no checkpoint at /nonexistent.pt"),
    ("bench --hands 0", "argument --hands: 0 is not >= 1"),
    ("nonsense", "invalid choice: 'nonsense'"),
]


@pytest.mark.parametrize(("command", "message"), MISUSES)
def test_a_misuse_is_refused_with_a_message(command, message, capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("rich.console.Console.width", 400, raising=False)
    argv = command.replace("OUT", str(tmp_path / "out")).split()
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse's own errors
        status = stop.code
    captured = capsys.readouterr()
    text = " ".join((captured.out + captured.err).split())
    assert status == 2 and message in text and "Traceback" not in text
