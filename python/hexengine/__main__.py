"""``python -m hexengine``: the same as the ``hexengine`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
