"""Balance: many games played to measure a rule file.

`simulate` runs the games (in this process, in worker processes, or on Ray through
`cluster`) and sums them up; `batch` plays one process's share and makes each game's
record; `game_records` writes and reads the records; `report` draws them as a page;
`compare` sets two players' results side by side. No module is imported here.
"""
