"""gunicorn.conf.py, plus a line on stderr from each worker once it has loaded the app.

gunicorn binds its port before its workers import the app (10-15 s on a slow machine), so a benchmark
that started at the open port measured the imports: the first requests of the mixed load waited for
them and set its p99 (about 10 s at every call). The benchmarks start their clock when every worker
has said it serves (`bench._util.serve_gunicorn`). Like gunicorn.conf.py, nothing of the app is
imported here: this runs in the master too.
"""

import runpy
import sys
from pathlib import Path

READY = "bench: worker serves"

_settings = runpy.run_path(str(Path(__file__).resolve().parent.parent / "gunicorn.conf.py"))
globals().update({name: value for name, value in _settings.items() if not name.startswith("_")})
_post_worker_init = _settings["post_worker_init"]


def post_worker_init(worker) -> None:
    _post_worker_init(worker)
    print(f"{READY} {worker.pid}", file=sys.stderr, flush=True)
