"""An import that writes to stderr without end (a logging loop gone wrong).

Before the supervisor, stderr went to a temporary file: 3.7 GB of disk in 6 s. Only a
bounded head and tail may be kept, in memory.
"""
import sys

chunk = "flood " * 10000
sys.stderr.write("first line of the flood\n")
while True:
    sys.stderr.write(chunk)
