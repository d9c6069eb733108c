"""Shared fixtures: a table server on a free loopback port."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from shengji_env.frontends.table import TableSession
from shengji_env.frontends.web import make_app

SEED = 2  # a deal where the scripted person declares first, leads a tractor and throws


def start_server(session: TableSession):
    uvicorn = pytest.importorskip("uvicorn")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(make_app(session), host="127.0.0.1", port=port, log_level="warning")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert instance.started, "the table server did not start"
    return instance, thread, f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def server():
    session = TableSession(["heuristic"], seat=0, decks=2, seed=SEED)
    instance, thread, url = start_server(session)
    yield url, session
    instance.should_exit = True
    thread.join(timeout=10)
