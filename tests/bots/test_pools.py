"""A process pool's workers end with the process that started it, even one killed with
``kill -9`` (``stichwerk.pools``: the arena, ``stichwerk simulate`` and the web server's
workers). The same program with a plain pool leaves its workers behind: the test can fail."""

import os
import signal
import subprocess
import sys

import pytest

from tests.server.test_process import descendants, wait_for_exit

PROGRAM = """
import sys, time
from concurrent.futures import ProcessPoolExecutor
from stichwerk.pools import process_pool

pool = process_pool(2) if sys.argv[1] == "ours" else ProcessPoolExecutor(2)
assert pool.submit(sum, [1, 2]).result() == 3  # the workers are up
print("ready", flush=True)
pool.submit(time.sleep, 600)
sys.stdin.read()  # until the test kills this process
"""


def start(kind: str) -> tuple[subprocess.Popen[str], dict[int, str]]:
    program = subprocess.Popen(
        [sys.executable, "-c", PROGRAM, kind],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert program.stdout is not None
    assert program.stdout.readline().strip() == "ready"
    workers = descendants(program.pid)
    assert len(workers) >= 2, workers
    return program, workers


@pytest.mark.parametrize("kind", ["ours", "plain"])
def test_killed_with_kill_9_a_program_leaves_no_worker_of_its_pool(kind: str) -> None:
    program, workers = start(kind)
    os.kill(program.pid, signal.SIGKILL)
    program.wait(timeout=30)
    left = wait_for_exit(list(workers), timeout=30 if kind == "ours" else 2)
    for pid in left:  # nothing stays behind, whatever the outcome
        os.kill(pid, signal.SIGKILL)
    if kind == "ours":
        assert not left, {pid: workers[pid] for pid in left}
    else:  # the plain pool's workers wait for a task that never comes
        assert left
