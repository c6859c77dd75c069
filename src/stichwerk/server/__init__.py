"""The web server: HTTP pages and API, the websocket protocol and one actor per table.

Layers: ``protocol`` (what may cross the wire), ``table`` (the actor that owns a table's game
state and projects it per seat through the engine's ``view``), ``hub`` (finds, starts and
recovers actors), ``app`` (FastAPI wiring, sessions, security). Storage is below, the engines
are behind ``stichwerk.games``, the browser code lives in ``stichwerk.web``.
"""
