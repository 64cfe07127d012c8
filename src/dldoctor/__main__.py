"""``python -m dldoctor``."""

import sys

from dldoctor.cli import main

sys.exit(main())
