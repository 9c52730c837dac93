"""Runs one Executable step program so that nothing it starts outlives it.

jimflow's worker starts this with python3 instead of the program itself:

    python3 contain.py [--cpu-seconds N] [--memory-bytes N] [--open-files N] [--user NAME]
                       -- PROGRAM [ARGS...]

It makes itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so that processes which
daemonise (double fork, setsid) are re-parented to it instead of to init, and starts the program
in a session of its own with the requested resource limits and user. When the program exits, when
this helper is asked to stop (SIGTERM, SIGINT, SIGHUP) or when its parent, the worker, is gone,
every process left below it gets SIGTERM, then SIGKILL after a short grace. The helper exits with
the program's exit code (128 + signal when a signal ended it).
"""

import ctypes
import os
import pwd
import resource
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
GRACE_SECONDS = 1.5
POLL_SECONDS = 0.1


def fail(message, code):
    sys.stderr.write("jimflow-contain: " + message + "\n")
    sys.stderr.flush()
    os._exit(code)


def parse(argv):
    options = {}
    i = 0
    while i < len(argv) and argv[i] != "--":
        name = argv[i]
        if name not in ("--cpu-seconds", "--memory-bytes", "--open-files", "--user"):
            fail("unknown option " + name, 125)
        if i + 1 >= len(argv):
            fail("option " + name + " needs a value", 125)
        options[name] = argv[i + 1]
        i += 2
    if i + 1 >= len(argv):
        fail("no program given", 125)
    return options, argv[i + 1 :]


def children_of():
    """Parent pid -> child pids, for every process visible in /proc."""
    tree = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/" + entry + "/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        tree.setdefault(int(fields[1]), []).append(int(entry))
    return tree


def descendants():
    tree = children_of()
    found, todo = [], [os.getpid()]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def signal_all(sig):
    for pid in descendants():
        try:
            os.kill(pid, sig)
        except OSError:
            pass


def reap():
    """Reaps every ended child; returns {pid: wait status}."""
    ended = {}
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if pid == 0:
            return ended
        ended[pid] = status


def end_everything():
    signal_all(signal.SIGTERM)
    deadline = time.monotonic() + GRACE_SECONDS
    while descendants() and time.monotonic() < deadline:
        reap()
        time.sleep(POLL_SECONDS)
    # Processes may have forked meanwhile; repeat until none is left.
    for _ in range(20):
        left = descendants()
        if not left:
            break
        signal_all(signal.SIGKILL)
        time.sleep(POLL_SECONDS)
        reap()


def start(options, command):
    user = options.get("--user")
    account = None
    if user is not None:
        try:
            account = pwd.getpwnam(user)
        except KeyError:
            fail("no user '" + user + "' on this worker", 126)
        if os.geteuid() != 0 and os.geteuid() != account.pw_uid:
            fail("cannot run as '" + user + "': the worker does not run as root", 126)
    pid = os.fork()
    if pid != 0:
        return pid
    try:
        os.setsid()
        if "--cpu-seconds" in options:
            seconds = int(options["--cpu-seconds"])
            # The soft limit sends SIGXCPU, the hard one a few seconds later SIGKILL.
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
        if "--memory-bytes" in options:
            size = int(options["--memory-bytes"])
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
        if "--open-files" in options:
            files = int(options["--open-files"])
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
        if account is not None and os.geteuid() != account.pw_uid:
            os.initgroups(account.pw_name, account.pw_gid)
            os.setgid(account.pw_gid)
            os.setuid(account.pw_uid)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        os.execv(command[0], command)
    except BaseException as e:  # noqa: BLE001 - anything here means the program never started
        fail("cannot start " + command[0] + ": " + str(e), 127)


def restore_environment():
    """Drops what Python itself added (its locale coercion sets LC_CTYPE): the worker names them."""
    for name in os.environ.pop("JIMFLOW_CONTAIN_UNSET", "").split(","):
        if name:
            os.environ.pop(name, None)


def main():
    options, command = parse(sys.argv[1:])
    restore_environment()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        fail("cannot become a child subreaper (errno " + str(ctypes.get_errno()) + ")", 125)
    parent = os.getppid()
    stop = []
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda number, frame: stop.append(number))
    program = start(options, command)
    while True:
        ended = reap()
        if program in ended:
            status = ended[program]
            end_everything()
            if os.WIFSIGNALED(status):
                os._exit(128 + os.WTERMSIG(status))
            os._exit(os.WEXITSTATUS(status))
        if stop or os.getppid() != parent:
            end_everything()
            os._exit(128 + (stop[0] if stop else signal.SIGHUP))
        time.sleep(POLL_SECONDS)


if __name__ == "__main__":
    main()
