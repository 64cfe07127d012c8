"""An import that attacks the process that imports it: it signals its parent.

A file beside it, kill_parent.signal, names the signal (default SIGTERM). Before dldoctor supervised its
probes, the parent was dldoctor itself: it died with exit 143, printed nothing and left its
temporary folder behind. The probe must report this as the module's finding instead.
"""
import os
import signal
import time

try:
    with open(os.path.splitext(__file__)[0] + ".signal") as fh:
        name = fh.read().strip()
except OSError:
    name = "SIGTERM"
os.kill(os.getppid(), getattr(signal, name))
time.sleep(30)  # the import "goes on"; the probe must stop it, not wait for it
