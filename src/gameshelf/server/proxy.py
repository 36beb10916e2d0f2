"""nginx in front of several server processes: the shipped site file, made runnable.

``nginx-gameshelf.conf`` beside this module is the configuration documented in
docs/operations.md; :func:`nginx_conf` writes a whole ``nginx.conf`` that includes it with other
ports, so the tests and the load benchmark run the very file operators copy.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

SITE = Path(__file__).with_name("nginx-gameshelf.conf")


def nginx_conf(folder: Path, listen: int, upstreams: list[int]) -> Path:
    """Write ``folder/nginx.conf`` (foreground, files kept in ``folder``) and return its path."""
    site = SITE.read_text()
    servers = re.findall(r"server 127\.0\.0\.1:800\d[^;]*;", site)
    lines = [f"server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;" for port in upstreams]
    site = site.replace("\n    ".join(servers), "\n    ".join(lines))
    site = site.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{listen};")
    (folder / "gameshelf.conf").write_text(site)
    temp = folder / "temp"
    temp.mkdir(exist_ok=True)
    user = "user root;" if os.geteuid() == 0 else ""
    conf = folder / "nginx.conf"
    conf.write_text(
        f"""{user}
daemon off;
worker_processes 1;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {folder / "gameshelf.conf"};
}}
"""
    )
    return conf
