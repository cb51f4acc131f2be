"""The log format (``docs/log-format.md``), read and written in one place: the values a log
holds (:mod:`.notation`), the lexer, the reader (:mod:`.reader`, statement lines and rows),
its messages (:mod:`.messages`) and the writer (:mod:`.writer`).

Imports run one way: the game model (``rules``) and the challenge codes (``challenges``) below
it, the verifier and the faces above.
"""
