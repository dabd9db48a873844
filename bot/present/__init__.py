"""Presentation: the words and pictures of a table (Discord-free), between the services and the
core."""
