"""Agent tests import tct_agent from the repository and share one inductor cache."""
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
# One inductor cache per test session: compiles on 2 cores are slow, reuse them.
os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", os.path.join(tempfile.gettempdir(), "tct-test-inductor-cache"))
