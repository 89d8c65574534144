"""The `gdl` command line (click): arguments, printing and prompting, no rules logic."""
