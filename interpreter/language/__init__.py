"""The language stage: a rule file's text -> a checked `program.Program`.

`parser` (the only module that imports Lark, through `parse_cache` when it can) turns text
into `ast` nodes; `checker` resolves names and types against the board kinds (`boards`) and
the built-ins' signatures (`builtins`) and gives the resolved `program`; `errors` is the one
error family of every stage. Nothing here imports the runtime or the play stage.

No module is imported here, so `gdl check` loads only what it uses.
"""
