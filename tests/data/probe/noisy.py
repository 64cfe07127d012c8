"""An import that floods stdout and stderr and prints fake JSON: the probe must not care."""
import sys

for _ in range(2000):
    print('{"event": "done", "ok": false}', "x" * 200)
    print("noise on stderr", file=sys.stderr)
