"""End-to-end tests: the real tct binary against the real torch in the project's venv."""
import subprocess
import sys

import pytest

from tct_run import TCT, run_tct


@pytest.fixture
def tct():
    return run_tct


@pytest.fixture(scope="session", autouse=True)
def _binary_exists():
    if not TCT.exists():
        pytest.exit(f"{TCT} is missing: build first (scripts/setup.sh)", returncode=2)


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory):
    """An interpreter without torch (a venv without pip), made once per test session."""
    path = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    return str(path / "bin" / "python")
