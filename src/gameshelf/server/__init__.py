"""The game server: lobby over HTTP, live play over WebSocket, persistence through SQLAlchemy.

Start it with ``gameshelf serve``; build it in code with :func:`create_app`.
"""

from .app import create_app

__all__ = ["create_app"]
