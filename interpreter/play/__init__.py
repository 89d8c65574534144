"""The play stage: a runnable `engine.Game` -> games played, simulated, recorded and tested.

`agents` choose moves, `playing` runs the game loop, `simulate` plays many games (in worker
processes), `transcript` records and replays games, `scenario` runs the scenario files and
`expressions` compiles their `expect` lines. Uses the runtime (and the loader, to load a rule
file by name) through the public API and `introspect`.

No module is imported here, so importing one of them loads only what it uses.
"""
