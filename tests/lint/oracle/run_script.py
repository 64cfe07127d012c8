"""Run one script as ``__main__`` with spawn as the platform's default start method.

Usage: ``python run_script.py SCRIPT``. Spawn becomes the *default* context, as on Windows
and on macOS since Python 3.8, not a forced one: a script's own unforced
``multiprocessing.set_start_method("spawn")`` then behaves as it does there (allowed once in
the parent; raising in every spawned child that re-runs it at module level).
"""

import multiprocessing.context as _context
import os
import runpy
import sys

if __name__ == "__main__":
    _context._default_context._default_context = _context._concrete_contexts["spawn"]
    script = os.path.realpath(sys.argv[1])
    sys.argv = [script]
    sys.path[0] = os.path.dirname(script)
    runpy.run_path(script, run_name="__main__")
