"""Shared I/O helpers for every part of bgrid that writes a file or shows text from outside:
``safe_output`` puts a file or a folder on disk whole or not at all and refuses outputs that
would clobber an input; ``safe_text`` makes file names and log text safe to show in a
terminal or a page. Imports only the game model's errors (``rules.errors``)."""
