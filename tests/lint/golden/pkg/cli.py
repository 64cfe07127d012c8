# ruff: noqa
# Bad: in a package but it parses argv at import, so it is run as a script
# (`python -m pkg.cli`); the main-guard rule applies.
import argparse
import multiprocessing

args = argparse.ArgumentParser().parse_args()
pool = multiprocessing.Pool(4)  # error: DLD026
