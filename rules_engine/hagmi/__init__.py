"""HAGMI! engine. Uses its mypyc-compiled modules when an up-to-date build exists (rules_engine/compiled.py);
otherwise, and always when HANGAR_ENGINE=python, plain Python."""
from rules_engine import compiled as _compiled

_compiled.activate(__name__, __path__)
