"""A group's command is run by its group alone (croupier.cli.GROUPS: typer builds only that group's
commands), and says the same as through the whole command line: the same help, the same usage errors,
the same exit status, for every group and every one of its commands."""

from __future__ import annotations

import pytest
import typer.main

from croupier import cli


def said(capsys: pytest.CaptureFixture[str], run: object, argv: list[str]) -> tuple[object, str, str]:
    with pytest.raises(SystemExit) as ended:
        run(argv)  # type: ignore[operator]
    out, err = capsys.readouterr()
    return ended.value.code, out, err


def through_the_root(argv: list[str]) -> None:
    cli.app(args=argv, prog_name="croupier")


def asked() -> list[list[str]]:
    root = typer.main.get_command(cli.app)
    commands = getattr(root, "commands", {})
    argvs: list[list[str]] = []
    assert set(cli.GROUPS) == {"play", "analyze", "simulate", "tables", "accounts"}
    for name in cli.GROUPS:
        argvs += [[name], [name, "--help"], [name, "no-such-command"]]
        for sub in getattr(commands[name], "commands", {}):
            argvs += [[name, sub, "--help"], [name, sub, "--no-such-option"]]
    return argvs


@pytest.mark.parametrize("argv", asked(), ids=" ".join)
def test_a_group_alone_says_what_the_whole_command_line_says(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert said(capsys, cli._run, argv) == said(capsys, through_the_root, argv)
