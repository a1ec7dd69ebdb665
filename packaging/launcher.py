"""Entry script of the frozen app: the same ``westeros`` command as the pip-installed one."""

import sys

from westeros.cli import main

if __name__ == "__main__":
    sys.exit(main())
