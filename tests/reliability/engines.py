"""Private instances of the real engines for fault tests: PostgreSQL, Redis, Mosquitto.

Each starts from its own temporary directory on a free port and is the only thing a fault test ever
kills or restarts; the machine's shared engines are never touched. As root, PostgreSQL runs as the
`postgres` user (initdb refuses root) and Mosquitto keeps its persistence where its user can write.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            s.settimeout(0.5)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(f"nothing listens on {port} after {timeout}s")


def _is_root() -> bool:
    return os.geteuid() == 0


def _chown(path: Path, user: str) -> None:
    record = pwd.getpwnam(user)
    for root, dirs, files in os.walk(path):
        os.chown(root, record.pw_uid, record.pw_gid)
        for name in dirs + files:
            os.chown(os.path.join(root, name), record.pw_uid, record.pw_gid)


class PrivatePostgres:
    def __init__(self):
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise RuntimeError("PostgreSQL server binaries not found under /usr/lib/postgresql")
        self.bin = Path(found[-1]).parent
        self.dir = Path(tempfile.mkdtemp(prefix="reliab-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if _is_root() else []
        if _is_root():
            _chown(self.dir, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / tool), *args], check=True, capture_output=True, cwd=self.dir)

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=60"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"), "-w", "start")

    def crash(self) -> None:
        """Stop at once, as a crash would (no checkpoint; WAL recovery on the next start)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class PrivateRedis:
    """redis-server with the append-only file on, fsynced at every write."""

    def __init__(self, appendfsync: str = "always"):
        self.dir = Path(tempfile.mkdtemp(prefix="reliab-redis-"))
        self.port = free_port()
        self.appendfsync = appendfsync
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [shutil.which("redis-server") or "redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--appendonly", "yes", "--appendfsync", self.appendfsync, "--save", "", "--dir", str(self.dir)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port)

    def kill(self) -> None:
        """kill -9: the append-only file is all that survives."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


class PrivateMosquitto:
    """Mosquitto with persistence: queued QoS 1 messages of persistent sessions survive a restart."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="reliab-mqtt-"))
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        conf = [
            f"listener {self.port} 127.0.0.1",
            "allow_anonymous true",
            "persistence true",
            f"persistence_location {self.dir}/",
            "autosave_interval 1",
            "max_queued_messages 100000",
            "max_inflight_messages 100",
        ]
        (self.dir / "mosquitto.conf").write_text("\n".join(conf) + "\n", encoding="utf-8")
        if _is_root():
            try:
                _chown(self.dir, "mosquitto")
            except KeyError:
                (self.dir / "mosquitto.conf").write_text("\n".join([*conf, "user root"]) + "\n", encoding="utf-8")

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        self.process = subprocess.Popen(
            [binary, "-c", str(self.dir / "mosquitto.conf")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        wait_port(self.port)

    def restart_gracefully(self) -> None:
        """SIGTERM (the broker saves its sessions and queues), then start again."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.process = None
        self.start()

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)
