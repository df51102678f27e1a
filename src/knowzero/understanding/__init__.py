"""Understanding a message once: the typed analysis every later step reads."""
