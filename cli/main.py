"""Entry point of the `gdl` command."""
def main():
    pass
