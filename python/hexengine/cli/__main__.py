"""``python -m hexengine.cli``: the same as the ``hexengine`` command."""

import sys

from . import main

sys.exit(main())
