"""A module whose import never returns (a probe must kill it, not wait)."""
import time

while True:
    time.sleep(3600)
