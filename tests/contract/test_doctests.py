"""The examples in the package's docstrings run, and give what they show."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SRC = ROOT / "src"
MODULES = sorted(
    ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
    for path in (SRC / "gameshelf").rglob("*.py")
    if ">>> " in path.read_text(encoding="utf-8")
)


def test_the_package_has_doctests() -> None:
    assert "gameshelf" in MODULES and "gameshelf.core.game" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder().find(module)
    examples = [example for test in tests for example in test.examples]
    assert examples, f"{name} has '>>> ' but no example doctest can find"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for test in tests:
        runner.run(test, out=report.append)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} examples fail in {name}:\n" + "".join(report)
