"""Balance: many games played to measure a rule file.

`simulate` runs the games (in this process, in worker processes, or on Ray through
`cluster`) and sums them up in a `Summary`; `batch` holds the run's `RunSettings`, plays one
process's share and makes each game's `GameRecord`; `game_records` writes and reads the
records; `report` draws them as a page; `compare` sets two rule files' results side by side.
No module is imported here.
"""
