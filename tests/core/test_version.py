"""One version number: the installed metadata's, shown by the package, the command line and the
server's API document alike; a source tree without metadata reads its pyproject.toml."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import gameshelf
from gameshelf.cli.main import main
from gameshelf.core.version import SOURCE_PYPROJECT, UNKNOWN, package_version


def _not_installed(name: str) -> str:
    raise metadata.PackageNotFoundError(name)


def test_the_package_shows_its_installed_version() -> None:
    assert gameshelf.__version__ == metadata.version("gameshelf")
    project = tomllib.loads(SOURCE_PYPROJECT.read_text(encoding="utf-8"))["project"]
    assert gameshelf.__version__ == project["version"]  # the checkout is what is installed


def test_the_command_line_prints_the_same_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"gameshelf {gameshelf.__version__}\n"


def test_the_api_document_carries_the_same_version() -> None:
    from gameshelf.server.app import create_app  # the server's extra: imported only here

    document = create_app("sqlite://", bot_workers=0).openapi()
    assert document["info"]["version"] == gameshelf.__version__


def test_a_source_tree_without_metadata_reads_its_pyproject(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "gameshelf"\nversion = "7.2.1"\n', encoding="utf-8")
    assert package_version(_not_installed, pyproject) == "7.2.1"
    assert package_version(lambda name: "9.9", pyproject) == "9.9"  # the metadata comes first


@pytest.mark.parametrize(
    "text",
    [None, "not toml [", '[project]\nname = "other"\nversion = "1.0"\n', "[project]\n"],
    ids=["no file", "broken", "another project", "no version"],
)
def test_without_metadata_or_its_own_pyproject_the_version_is_unknown(
    tmp_path: Path, text: str | None
) -> None:
    pyproject = tmp_path / "pyproject.toml"
    if text is not None:
        pyproject.write_text(text, encoding="utf-8")
    assert package_version(_not_installed, pyproject) == UNKNOWN
