"""``python -m bgrid``: the same command line as the ``bgrid`` script, for a machine where the
script is not on the PATH (a venv not activated, ``pipx run``, Windows' ``py -m``)."""

from .cli import main

if __name__ == "__main__":
    main()
