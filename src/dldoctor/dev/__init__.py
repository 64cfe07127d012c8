"""Developer tools: the layer table and its import-graph check (:mod:`.layers`), and the
scaffold for a new condition (:mod:`.scaffold`). ``python -m dldoctor.dev --help``."""
