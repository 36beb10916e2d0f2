"""Maintainers' tools that rewrite files of this repository (pages, shipped data, test files).

They are not part of the installed package: run them from the repository root as
``.venv/bin/python -m tools.<name>`` (tools/README.md lists them). The package never imports
them; they import the package.
"""
