"""Pure-Python building blocks shared by every area: errors, clock, ids, names, files."""
