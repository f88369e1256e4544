"""``python -m hexengine.cli``: the same as the ``hexengine`` command."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
