"""``python -m stichwerk.server``: serve the web app (what ``make run`` starts)."""

import argparse
import contextlib
import dataclasses
import gc
import logging
import socket
import sys

import uvicorn

from stichwerk.core.errors import one_line
from stichwerk.server.app import create_app
from stichwerk.server.config import SettingError, Settings, host_of
from stichwerk.server.listener import (
    accept_backlog,
    guard_log_handlers,
    guarded_protocols,
    raise_file_limit,
)
from stichwerk.server.public import ALL_INTERFACES, public_url, startup_lines
from stichwerk.web import preact


def own_hosts(bind: str) -> tuple[str, ...]:
    """The names a visitor may use for this server besides the loopback ones: the address it
    was started on, or, listening on every interface, the machine's name and addresses."""
    if bind not in ALL_INTERFACES:
        return (bind.strip("[]").lower(),)
    names = {socket.gethostname().lower(), socket.getfqdn().lower()}
    for name in list(names):
        with contextlib.suppress(OSError):
            names.update(str(info[4][0]) for info in socket.getaddrinfo(name, None))
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        # The address this machine reaches the outside from (a UDP "connect" sends nothing).
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                names.add(str(udp.getsockname()[0]))
        except OSError:
            pass
    return tuple(sorted(n.split("%")[0] for n in names if n))


def ensure_view_library() -> None:
    """The table page's view library (Preact, htm: pinned, hash-checked, ~40 KB) is not in the
    wheel, as Pyodide is not: an installed server fetches it once at its first start. Without
    the network the server still starts and says in one line how to fetch it later."""
    try:
        preact.fetch()
    except (OSError, ValueError) as exc:
        print(
            f"stichwerk.server: the table page needs its view library ({one_line(str(exc))});"
            " fetch it with: python -m stichwerk.web.preact",
            file=sys.stderr,
        )


LOG_LEVELS = ("critical", "error", "warning", "info", "debug")


def build_parser() -> argparse.ArgumentParser:
    """The command line, each option with one plain line of help (``--help`` shows them)."""
    parser = argparse.ArgumentParser(
        prog="python -m stichwerk.server",
        description="Serve the Stichwerk web app (what make run and stichwerk serve start). "
        "Further settings come from STICHWERK_* environment variables (docs/web.md).",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (0.0.0.0: every interface, for phones; default %(default)s)",
    )
    parser.add_argument(
        "--port", type=int, default=8000, help="port to listen on (default %(default)s)"
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=LOG_LEVELS,
        type=str.lower,
        metavar="LEVEL",
        help=f"how much the server logs: {', '.join(LOG_LEVELS)} (default %(default)s)",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help="database URL (default: STICHWERK_DATABASE_URL, else var/stichwerk.db)",
    )
    return parser


def main(argv: list[str] | None = None) -> None:
    """Parse the address, build the app and run it on one uvicorn worker."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    try:
        settings = Settings.from_env()
    except SettingError as exc:
        # Bad input gets one line and status 2, as every command of the project does.
        print(f"stichwerk.server: {one_line(str(exc))}", file=sys.stderr)
        raise SystemExit(2) from None
    if args.database is not None:
        settings = dataclasses.replace(settings, database_url=args.database)
    soft_files, _ = raise_file_limit()
    # The address phones reach: every QR code, share link and printout is made of it.
    public = public_url(args.host, args.port, settings.public_url)
    settings = dataclasses.replace(settings, public_url=public)
    if "*" not in settings.allowed_hosts:
        own = (*own_hosts(args.host), host_of(public))
        extra = [h for h in dict.fromkeys(own) if h not in settings.allowed_hosts]
        settings = dataclasses.replace(
            settings, allowed_hosts=settings.allowed_hosts + tuple(extra)
        )
    ensure_view_library()
    app = create_app(settings)
    # Everything loaded so far lives as long as the process: keep it out of the collector's
    # sweeps, and collect the young generation less often (game states are short-lived).
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    for line in startup_lines(args.host, args.port, public):
        print(line, flush=True)
    http, ws = guarded_protocols(
        settings.header_timeout, settings.max_connections_per_address, soft_files
    )
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        http=http,
        ws=ws,
        backlog=accept_backlog(soft_files),
        ws_per_message_deflate=False,
        ws_max_size=65536,
        timeout_graceful_shutdown=3,
    )
    # uvicorn made its log handlers just now: no kind of line may flood the log.
    guard_log_handlers()
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        raise SystemExit(3)


if __name__ == "__main__":
    main()
