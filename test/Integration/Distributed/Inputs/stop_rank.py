"""Starts a data-parallel training run, waits until its checkpoint has
passed step 20, then kills (SIGKILL) or freezes (SIGSTOP) rank 1, and
reports how the run ended: within the time limit or not, its exit status,
and its stderr (for FileCheck).

usage: stop_rank.py kill|stop CHECKPOINT_DIR LIMIT_SECONDS -- COMMAND...
"""
import os
import signal
import subprocess
import sys
import time


def parent(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            # pid (comm) state ppid ...: comm may hold spaces.
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def rank_pids(launcher, rank):
    """The processes below `launcher` that it made rank `rank` (not those of
    other runs on the machine)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if f"OMPI_COMM_WORLD_RANK={rank}".encode() not in env:
            continue
        pid = int(entry)
        while pid > 1 and pid != launcher:
            pid = parent(pid)
        if pid == launcher:
            pids.append(int(entry))
    return pids


def checkpoint_step(directory):
    try:
        with open(os.path.join(directory, "latest")) as f:
            return int(f.read().strip().removeprefix("step-"))
    except (OSError, ValueError):
        return 0


def main():
    how, checkpoint, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
    command = sys.argv[sys.argv.index("--") + 1:]
    run = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while checkpoint_step(checkpoint) < 20:
        if run.poll() is not None or time.time() > deadline:
            print("error: the run ended or stalled before step 20")
            print(run.stderr.read())
            return 1
        time.sleep(0.05)
    victims = rank_pids(run.pid, 1)
    if not victims:
        print("error: no process of rank 1")
        run.kill()
        return 1
    for pid in victims:
        os.kill(pid, signal.SIGKILL if how == "kill" else signal.SIGSTOP)
    start = time.time()
    try:
        _, err = run.communicate(timeout=limit)
        ended = True
    except subprocess.TimeoutExpired:
        run.kill()
        _, err = run.communicate()
        ended = False
    for pid in victims:  # a frozen rank that outlived the run
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    print(f"{how} rank 1 at step {checkpoint_step(checkpoint)}: "
          f"ended within {limit:g} s: {'yes' if ended else 'no'}, "
          f"exit status {'non-zero' if run.returncode else 'zero'}")
    print(err.replace("\r", "\n"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
