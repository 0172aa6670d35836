"""A club's concours: the draw of its rounds (pure Python, standard library only)."""
