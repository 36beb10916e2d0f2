"""The browser table's pages and icon (served from the built ``web/`` when present)."""

from __future__ import annotations

import os
from pathlib import Path

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse, HTMLResponse

router = APIRouter(include_in_schema=False)

FALLBACK_ICON = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
    b'<rect x="2" y="2" width="12" height="12" rx="2" fill="#2a6"/></svg>'
)


# Paths of programs (the API, live play, files, documentation): their unknown paths keep JSON.
PROGRAM_PREFIXES = ("/api/", "/ws/", "/assets/", "/docs", "/redoc", "/openapi", "/healthz")


def static_dir() -> Path | None:
    """Where the built browser table lies: ``$GAMESHELF_STATIC_DIR``, else ``static/`` in the
    installed ``gameshelf.server`` package (a wheel carries it; a checkout builds it there)."""
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
        "<p>API documentation: <a href='/docs'>/docs</a>. This install has no browser table: "
        "install a gameshelf wheel built with it (<code>pip install --force-reinstall "
        "'gameshelf-&lt;version&gt;-&lt;tags&gt;.whl[server]'</code>; a wheel built where npm "
        "is found carries it), or in a checkout run <code>scripts/start.sh</code>, which "
        "builds <code>web/</code>.</p>"
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


def browser_not_found(request: Request) -> Response | None:
    """The table's page, with status 404, for a browser that asked for a page that does not
    exist (its router then says so, with a way back); None for programs, which get JSON."""
    path = request.url.path
    wants_page = "text/html" in request.headers.get("accept", "")
    if request.method != "GET" or not wants_page or path.startswith(PROGRAM_PREFIXES):
        return None
    static = static_dir()
    if static is None:
        return HTMLResponse(
            "<!doctype html><title>gameshelf: not found</title><h1>Page not found</h1>"
            "<p><a href='/'>Back to the lobby</a></p>",
            status_code=404,
        )
    return FileResponse(static / "index.html", status_code=404)
