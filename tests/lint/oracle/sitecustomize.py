"""Observation hook of the spawn oracle, loaded by every interpreter the oracle starts.

A spawned child re-imports the main script while ``current_process()._inheriting`` is true;
if that import tries to start a process, ``multiprocessing.spawn._check_not_importing_main``
raises the bootstrapping RuntimeError. This hook records each such attempt (the script's
``<module>`` line on the stack) in the file named by ``DLDOCTOR_SPAWN_MARK`` before the real
check raises, so an attempt is seen even when the script swallows the error. It changes no
behaviour; only the oracle sets the variable.
"""

import os
import sys

_MARK = os.environ.get("DLDOCTOR_SPAWN_MARK")
_SCRIPT = os.environ.get("DLDOCTOR_SPAWN_SCRIPT")
if _MARK and _SCRIPT:
    import multiprocessing.process as _process
    import multiprocessing.spawn as _spawn

    _original = _spawn._check_not_importing_main

    def _check_not_importing_main() -> None:
        if getattr(_process.current_process(), "_inheriting", False):
            frame = sys._getframe(1)
            line = 0
            while frame is not None:
                code = frame.f_code
                if code.co_name == "<module>" and os.path.realpath(code.co_filename) == _SCRIPT:
                    line = frame.f_lineno
                frame = frame.f_back
            with open(_MARK, "a", encoding="utf-8") as fh:
                fh.write(f"start-during-bootstrap {line}\n")
        _original()

    _spawn._check_not_importing_main = _check_not_importing_main
