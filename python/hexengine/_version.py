"""The package's version, in a module of its own so that any module may import it."""

__version__ = "0.1.0"
