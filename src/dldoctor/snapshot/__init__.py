"""Facts about a target environment: collected (collect.py) or loaded from a file."""
