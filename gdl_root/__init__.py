"""gdl: a rules language and interpreter for board games (see README.md)."""
