"""The browser table's pages and icon (served from the built ``web/`` when present)."""

from __future__ import annotations

import os
from pathlib import Path

from fastapi import APIRouter, Response
from fastapi.responses import FileResponse, HTMLResponse

router = APIRouter(include_in_schema=False)

FALLBACK_ICON = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
    b'<rect x="2" y="2" width="12" height="12" rx="2" fill="#2a6"/></svg>'
)


def static_dir() -> Path | None:
    """Where the built browser table lies (``$GAMESHELF_STATIC_DIR`` or ``server/static``)."""
    configured = os.environ.get("GAMESHELF_STATIC_DIR")
    folder = Path(configured) if configured else Path(__file__).parents[1] / "static"
    return folder if (folder / "index.html").is_file() else None


@router.get("/", response_model=None)
async def index() -> FileResponse | HTMLResponse:
    """The table's single page (or a note saying how to build it)."""
    static = static_dir()
    if static is not None:
        return FileResponse(static / "index.html")
    return HTMLResponse(
        "<!doctype html><title>gameshelf</title><h1>gameshelf server</h1>"
        "<p>API documentation: <a href='/docs'>/docs</a>. The browser table is not built: "
        "run <code>scripts/start.sh</code> (it builds <code>web/</code>).</p>"
    )


@router.get("/favicon.ico", response_model=None)
@router.get("/favicon.svg", response_model=None)
async def favicon() -> Response:
    """The table's icon (a plain one when the table is not built)."""
    static = static_dir()
    for name in ("favicon.ico", "favicon.svg"):
        if static is not None and (static / name).is_file():
            return FileResponse(static / name)
    return Response(FALLBACK_ICON, media_type="image/svg+xml")


@router.get("/play/{path:path}", response_model=None)
async def single_page(path: str) -> FileResponse | HTMLResponse:
    """Client-side routes of the browser table all load its index page."""
    return await index()
