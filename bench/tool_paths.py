"""What the bench/ scripts share: the repository root, the two options that say which tct
binary and which Python interpreter (the one with torch) they measure, and a target's --param."""
import argparse
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def parser(**kwargs):
    """An ArgumentParser with --tct ($TCT_BIN, else build/tct) and --python (the repository's .venv)."""
    ap = argparse.ArgumentParser(**kwargs)
    ap.add_argument("--tct", default=os.environ.get("TCT_BIN", str(ROOT / "build" / "tct")))
    ap.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"))
    return ap


def add_params(ap):
    """--param NAME=VALUE, repeatable, as tct takes it; read back with params_of."""
    ap.add_argument("--param", action="append", default=[], help="NAME=VALUE (a JSON literal where it parses)")


def params_of(args) -> dict:
    """The --param values as a dict: each VALUE a JSON literal where it parses, else a string."""
    params = {}
    for kv in args.param:
        k, _, v = kv.partition("=")
        try:
            params[k] = json.loads(v)
        except ValueError:
            params[k] = v
    return params
