"""Agents: who chooses each decision of a game.

`agents` holds the simple players (random, scripted, the human marker) and `make_agents`,
which reads a players spec; `search` the greedy and MCTS players; `determinize` the
sampling of hidden information those searches play on. No module is imported here.
"""
