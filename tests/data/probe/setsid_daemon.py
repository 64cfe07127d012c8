"""An import that leaves a daemon behind the way a service manager would: fork, setsid,
fork again, and the grandchild re-executes itself with an empty environment, keeping the
inherited stdout/stderr open and sleeping.

It left the probe's session and process group and dropped every environment variable, so
neither killing the group nor looking for a marker finds it; only following who started it
does. Its pid goes to setsid_daemon.pid beside this file, so the test can check it is gone.
"""
import os
import sys

pidfile = os.path.splitext(__file__)[0] + ".pid"
r, w = os.pipe()
first = os.fork()
if first == 0:
    os.setsid()
    if os.fork() == 0:
        os.write(w, str(os.getpid()).encode())
        os.close(w)
        os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(300)"], {})
    os._exit(0)
os.close(w)
os.waitpid(first, 0)
daemon = os.read(r, 32).decode()
with open(pidfile, "w") as fh:
    fh.write(daemon)
