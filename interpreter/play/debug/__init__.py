"""Debugging a rule file: why an action is legal, and which rules ran.

`explain` answers for one position; `coverage` counts the rules that games or scenarios
ran; `tracing` is the line trace of the generated code both stand on. No module is
imported here.
"""
