"""``shellfree rg``: ripgrep's command line over the pure-Python engine (glue only)."""
