"""``python -m stichwerk.server``: serve the web app (what ``make run`` starts)."""

import argparse
import gc
import logging
import sys

import uvicorn

from stichwerk.core.errors import one_line
from stichwerk.server.app import create_app
from stichwerk.server.config import SettingError, Settings


def main(argv: list[str] | None = None) -> None:
    """Parse the address, build the app and run it on one uvicorn worker."""
    parser = argparse.ArgumentParser(prog="python -m stichwerk.server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    try:
        settings = Settings.from_env()
    except SettingError as exc:
        # Bad input gets one line and status 2, as every command of the project does.
        print(f"stichwerk.server: {one_line(str(exc))}", file=sys.stderr)
        raise SystemExit(2) from None
    app = create_app(settings)
    # Everything loaded so far lives as long as the process: keep it out of the collector's
    # sweeps, and collect the young generation less often (game states are short-lived).
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    print(f"Stichwerk: open http://{args.host}:{args.port} in your browser", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        ws_max_size=65536,
        timeout_graceful_shutdown=3,
    )


if __name__ == "__main__":
    main()
