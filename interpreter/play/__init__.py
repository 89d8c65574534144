"""The play stage: a runnable `engine.Game` -> games played, simulated, recorded and tested.

At the top, what every driver shares: `playing` (the one game loop, `run_game`, and the
scripted replay of decisions), `transcript` (games written as text, and replayed) and
`hints` ("did you mean" for a typed action's misspelt word). Then one sub-package per
purpose:

- `agents/`: who chooses the moves (`agents`: random, scripted, human; `search`: greedy and
  MCTS; `determinize`: the hidden information those searches sample);
- `balance/`: many games for balance (`simulate`, `batch`, `cluster` on Ray,
  `game_records`, `report`, `compare`);
- `render/`: games drawn for people (`pictures`, `narrate`, `replay_page` with its page's
  HTML, CSS and JavaScript as package data);
- `scenarios/`: the scenario files (`runner`, `expect`, `expressions`);
- `debug/`: why a rule did what it did (`explain`, `coverage`, `tracing`).

Uses the runtime (and the loader, to load a rule file by name) through the public API and
`introspect`. No module is imported here or in the sub-packages' `__init__`, so importing
one of them loads only what it uses.
"""
