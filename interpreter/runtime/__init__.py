"""The runtime stage: a checked `program.Program` -> a runnable `engine.Game` and its `State`s.

`codegen` writes the program as Python, `engine` compiles and runs it behind the
OpenSpiel-shaped API (`new_state`, `legal_actions`, `apply`, ...), `state` is a position as
plain data, `view` what one seat may see, and `introspect` what the tools may know of a game
beyond that API. Uses the language stage (types, errors, built-ins, boards), never the play
stage or the loader.

No module is imported here, so importing one of them loads only what it uses.
"""
