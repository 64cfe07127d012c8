"""An import that starts a helper process, records its pid, then never returns.

The probe must kill the whole process group: the helper may not outlive the probe.
"""
import os
import subprocess
import sys
import time

helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
with open(os.environ["DLDOCTOR_TEST_PIDFILE"], "w") as fh:
    fh.write(str(helper.pid))
while True:
    time.sleep(3600)
