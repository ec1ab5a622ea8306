"""What the bench/ scripts share: the repository root, and the two options that say which
tct binary and which Python interpreter (the one with torch) they measure."""
import argparse
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def parser(**kwargs):
    """An ArgumentParser with --tct ($TCT_BIN, else build/tct) and --python (the repository's .venv)."""
    ap = argparse.ArgumentParser(**kwargs)
    ap.add_argument("--tct", default=os.environ.get("TCT_BIN", str(ROOT / "build" / "tct")))
    ap.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"))
    return ap
